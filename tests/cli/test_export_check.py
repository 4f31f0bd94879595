"""`robotscope export --check`: exit codes, text and JSON, pattern files found beside the configuration, one-line
errors."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from robotscope.cli import cli
from robotscope.reports.enforce.configs import MAX_CHARS
from tests.reports.enforce import aistyle


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def robots(tmp_path: Path) -> str:
    path = tmp_path / "robots.txt"
    path.write_text(aistyle.ROBOTS, encoding="utf-8")
    return str(path)


def test_findings_exit_1_with_each_on_a_line(robots: str, tmp_path: Path) -> None:
    config = tmp_path / "ai.conf"
    config.write_text(aistyle.nginx(), encoding="utf-8")
    code, out, err = run("export", robots, "--target", "nginx", "--check", str(config), "--agents", "all-named")
    lines = out.splitlines()
    assert code == 1
    assert lines[0].startswith(f"nginx configuration {config} against {robots}: ")
    assert lines[0].endswith(" User-Agents on 2 paths")
    assert (
        "  GPTBot written `gptbot`: robots.txt disallows / (line 13: Disallow: /), but the server lets it through"
        in lines
    )
    assert lines[-1] == "14 findings, 0 parts of the configuration not evaluated"
    assert "product tokens match case-insensitively" in err


def test_robotscopes_own_export_checks_consistent_exit_0(robots: str, tmp_path: Path) -> None:
    code, _, _ = run("export", robots, "--target", "haproxy", "--agents", "GPTBot,ClaudeBot", "-o", f"{tmp_path}/")
    assert code == 0
    code, out, _ = run(
        "export",
        robots,
        "--target",
        "haproxy",
        "--agents",
        "GPTBot,ClaudeBot",
        "--check",
        str(tmp_path / "robotscope.cfg"),
    )
    assert (code, out.splitlines()[-1]) == (
        0,
        "consistent: the server refuses what robots.txt disallows to the "
        "crawlers chosen, nothing it allows, and no innocent agent",
    )


def test_a_pattern_file_named_relatively_is_found_beside_the_configuration(robots: str, tmp_path: Path) -> None:
    fragment, listed = aistyle.haproxy(Path("lists/ai.txt"))
    (tmp_path / "lists").mkdir()
    (tmp_path / "lists" / "ai.txt").write_text(listed, encoding="utf-8")
    (tmp_path / "haproxy.cfg").write_text(fragment, encoding="utf-8")
    code, out, _ = run("export", robots, "--target", "haproxy", "--check", str(tmp_path / "haproxy.cfg"), "--json")
    view = json.loads(out)
    assert code == 1 and view["unreadable"] == []
    baidu = next(f for f in view["findings"] if f["agent"] == "Baiduspider" and f["kind"] == "innocent")
    assert baidu["matched"] == [{"line": 9, "matched": "spider", "file": "lists/ai.txt"}]
    (tmp_path / "lists" / "ai.txt").unlink()
    code, out, _ = run("export", robots, "--target", "haproxy", "--check", str(tmp_path / "haproxy.cfg"))
    assert code == 1
    assert (
        f"  {tmp_path / 'haproxy.cfg'} line 1 `acl ai_robot hdr_sub(user-agent) -i -f lists/ai.txt`: cannot read" in out
    )


def test_korean(robots: str, tmp_path: Path) -> None:
    config = tmp_path / ".htaccess"
    config.write_text(aistyle.htaccess(), encoding="utf-8")
    code, out, _ = run("export", robots, "--target", "apache", "--check", str(config), "--lang", "ko")
    assert code == 1 and "설정" in out.splitlines()[0] and "크롤러가 아닌데도 서버가" in out


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["-o", "x.conf"], "robotscope: --check reads a configuration: -o is for writing one\n"),
        (["--unverified-only"], "robotscope: --check reads a configuration: --unverified-only is for writing one\n"),
        (["--agents", "ChatGPT Agent"], "robotscope: `ChatGPT Agent` is no product token"),
    ],
)
def test_bad_usage_is_one_line_exit_2(robots: str, tmp_path: Path, extra: list[str], said: str) -> None:
    config = tmp_path / "c.conf"
    config.write_text("", encoding="utf-8")
    code, out, err = run("export", robots, "--target", "nginx", "--check", str(config), *extra)
    assert (code, out) == (2, "") and err.startswith(said) and err.count("\n") == 1


def test_a_configuration_that_cannot_be_read_or_is_too_large(robots: str, tmp_path: Path) -> None:
    code, _, err = run("export", robots, "--target", "nginx", "--check", str(tmp_path / "none.conf"))
    assert (
        code == 2 and err.startswith(f"robotscope: cannot read `{tmp_path / 'none.conf'}`: ") and err.count("\n") == 1
    )
    huge = tmp_path / "huge.conf"  # past MAX_CHARS: refused after MAX_CHARS + 1 bytes are read
    huge.write_bytes(b"#" * (MAX_CHARS + 1))
    code, _, err = run("export", robots, "--target", "nginx", "--check", str(huge))
    assert (
        code == 2
        and err
        == f"robotscope: `{huge}` is larger than {MAX_CHARS:,} bytes, the most robotscope reads of a configuration\n"
    )


def test_bytes_that_are_not_utf_8_and_a_broken_file_give_a_bounded_answer(robots: str, tmp_path: Path) -> None:
    config = tmp_path / "c.conf"
    config.write_bytes(b"if ($http_user_agent ~ '\xff\xfe(GPTBot') { return 403; }\nlocation / {\n")
    code, out, err = run("export", robots, "--target", "nginx", "--check", str(config))
    assert code == 1 and "Traceback" not in err
    assert "line 1 `if ($http_user_agent ~ '\ufffd\ufffd(GPTBot') { return 403; }`: the regex does not read" in out
    assert "line 2 `location / {`: the configuration does not read here: a block that is never closed" in out


def test_a_configuration_with_no_end_is_refused_after_max_chars(robots: str) -> None:
    # A device's size is 0: only the bytes read bound it.
    code, out, err = run("export", robots, "--target", "nginx", "--check", "/dev/zero")
    assert (code, out) == (2, "")
    assert (
        err
        == f"robotscope: `/dev/zero` is larger than {MAX_CHARS:,} bytes, the most robotscope reads of a configuration\n"
    )


def test_a_pattern_file_that_is_a_pipe_or_a_device_is_not_read(robots: str, tmp_path: Path) -> None:
    # Opening a named pipe waits for a writer that never comes; /dev/zero never ends.
    os.mkfifo(tmp_path / "pipe")
    config = tmp_path / "haproxy.cfg"
    config.write_text(
        f"acl a hdr_sub(user-agent) -i -f {tmp_path / 'pipe'}\nacl b hdr_sub(user-agent) -f /dev/zero\n"
        "http-request deny if a || b\n",
        encoding="utf-8",
    )
    code, out, _ = run("export", robots, "--target", "haproxy", "--check", str(config))
    assert code == 1
    assert f"cannot read the pattern file `{tmp_path / 'pipe'}`" in out
    assert "cannot read the pattern file `/dev/zero`" in out
