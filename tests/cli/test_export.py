"""`robotscope export`: files, standard output, JSON, sources fetched like every command's, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from robotscope.cli import cli
from tests.conftest import Server
from tests.paths import EXAMPLES

EXAMPLE = str(EXAMPLES / "robots.txt")
ROBOTS = b"User-agent: GPTBot\nDisallow: /private/\nAllow: /private/open/\n"


def run(*args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_the_rules_go_to_standard_output_and_what_is_said_to_standard_error() -> None:
    code, out, err = run("export", "-", "--target", "nginx", "--agents", "GPTBot,Google-Extended", stdin=ROBOTS)
    assert code == 0
    assert out.startswith("# nginx rules made by robotscope export from <stdin>\n")
    assert '    "~^/private/open/" "";\n' in out and '    "~^/private/" d;\n' in out
    assert err.splitlines() == [
        "robotscope: note: Google-Extended is a robots.txt control token of Google that sends no requests: "
        "a server rule would refuse nothing, so robots.txt alone carries it",
        "robotscope: note: nginx leaves every request to robots.txt whose target percent-encodes a letter, digit "
        "or -._~, holds a % that starts no escape, a # or a byte outside printable ASCII",
    ]


def test_o_writes_a_file_or_into_a_directory_and_haproxy_its_acl_files_beside(tmp_path: Path) -> None:
    code, out, err = run("export", EXAMPLE, "--target", "caddy", "-o", str(tmp_path / "site.caddy"))
    assert code == 0 and out == "" and f"wrote {tmp_path / 'site.caddy'}" in err
    assert "respond @robotscope_deny_1 403" in (tmp_path / "site.caddy").read_text(encoding="utf-8")
    code, _, err = run("export", EXAMPLE, "--target", "haproxy", "--agents", "all-named", "-o", f"{tmp_path}/")
    assert code == 0
    fragment = (tmp_path / "robotscope.cfg").read_text(encoding="utf-8")
    for number in (1, 2):  # Googlebot's group; GPTBot's and CCBot's
        assert f"-f {tmp_path}/robotscope-agents-{number}.regex" in fragment
        assert (tmp_path / f"robotscope-agents-{number}.regex").exists()


def test_haproxy_without_o_is_refused_in_one_line() -> None:
    code, out, err = run("export", EXAMPLE, "--target", "haproxy")
    assert (code, out) == (2, "")
    assert err == "robotscope: haproxy's fragment names its ACL files: give -o FILE or -o DIR to write them\n"


@pytest.mark.parametrize(
    ("agents", "said"),
    [
        ("ChatGPT Agent", "`ChatGPT Agent` is no product token (letters, digits, `-` and `_` only): it has a space"),
        ("GPTBot,MistralAI-User/1.0", "`MistralAI-User/1.0` is no product token"),
        ("GPTBot,,ClaudeBot", "`` is no product token (letters, digits, `-` and `_` only): it is empty"),
    ],
)
def test_a_name_that_is_no_product_token_stops_the_export(agents: str, said: str) -> None:
    code, out, err = run("export", EXAMPLE, "--target", "nginx", "--agents", agents)
    assert (code, out) == (2, "") and err.startswith(f"robotscope: {said}") and err.count("\n") == 1


def test_json_is_the_view_and_exit_1_says_a_rule_is_left_to_robots_txt(tmp_path: Path) -> None:
    code, out, err = run("export", EXAMPLE, "--target", "lighttpd", "--agents", "Amazonbot", "--json")
    view = json.loads(out)
    assert code == 1 and view["complete"] is False and view["written"] == []
    assert [item["params"]["line"] for item in view["left"]] == [6, 7]  # the `*` group's, which Amazonbot obeys
    assert "warning: line 6 `Disallow: /*?sessionid=` looks at the query string" in err
    code, out, _ = run("export", EXAMPLE, "--target", "apache", "--agents", "all-named", "--json", "-o", str(tmp_path))
    view = json.loads(out)
    assert code == 0 and view["complete"] is True and view["written"] == [str(tmp_path / "robotscope.conf")]


def test_korean_output(tmp_path: Path) -> None:
    code, out, err = run("export", EXAMPLE, "--target", "nginx", "--agents", "GPTBot", "--lang", "ko")
    assert code == 0 and "# robotscope export가" in out and "robots.txt 18번 줄: Disallow: /" in out
    assert "건너" not in err and "http 컨텍스트" in out


def test_unverified_only_refuses_only_outside_the_lists(tmp_path: Path) -> None:
    code, out, err = run("export", EXAMPLE, "--target", "nginx", "--agents", "GPTBot,CCBot", "--unverified-only")
    assert code == 1  # CCBot's operator publishes no list
    assert "geo $robotscope_verified_openai_gptbot {" in out and '"$robotscope_agent_1$robotscope_path_1' in out
    assert "CCBot: its operator publishes no IP list" in err


@pytest.mark.usefixtures("isolated")
def test_a_url_is_fetched_as_every_command_fetches_it(server: Server) -> None:
    server.serve("/robots.txt", 200, ROBOTS)
    code, out, _ = run("export", server.url("/"), "--target", "apache", "--agents", "GPTBot", "--no-cache")
    assert code == 0 and f"from {server.url('/robots.txt')}" in out and "m#^[^\\x20]+\\x20/private/#" in out
    server.serve("/robots.txt", 503, b"down")
    code, out, err = run("export", server.url("/"), "--target", "apache", "--no-cache")
    assert (code, out) == (1, "")
    assert err.startswith(f"{server.url('/robots.txt')}: disallow-all: no rules of a robots.txt apply")


def test_unwritable_and_unsafe_paths_are_one_line(tmp_path: Path) -> None:
    code, _, err = run("export", EXAMPLE, "--target", "nginx", "-o", str(tmp_path / "missing" / "x.conf"))
    assert code == 2 and err.startswith("robotscope: cannot write to `") and err.count("\n") == 1
    code, _, err = run("export", EXAMPLE, "--target", "nginx", "-o", str(tmp_path / "a\nb"))
    assert code == 2 and "has a control character" in err and err.count("\n") == 1
    code, _, err = run("export", str(tmp_path / "none.txt"), "--target", "nginx")
    assert code == 2 and err.startswith("robotscope: cannot read")


@pytest.mark.parametrize(
    "junk",
    [
        b"\x00\xff" * 3000,
        b"User-agent: GPTBot\n" + b"Disallow: /a*" * 60000,  # one rule of 60,000 `*`
        b"User-agent: GPTBot\n" + b"".join(b"Disallow: /%d*x$\nAllow: /%d\n" % (n, n) for n in range(30000)),
    ],
)
def test_hostile_files_give_a_bounded_answer(junk: bytes, tmp_path: Path) -> None:
    path = tmp_path / "robots.txt"
    path.write_bytes(junk)
    for target in ("nginx", "lighttpd"):
        code, out, err = run("export", str(path), "--target", target, "--agents", "GPTBot")
        assert code in (0, 1) and "Traceback" not in err
        assert len(out) < 400 * 512_000 // 20  # a few lines per rule, for the rules of the first 500 KiB


def test_bytes_that_are_not_utf_8_are_written_as_escapes(tmp_path: Path) -> None:
    path = tmp_path / "robots.txt"
    path.write_bytes(b"User-agent: GPTBot\nDisallow: /a\xee\xbb\x96\x8c\\\n")
    code, _, err = run("export", str(path), "--target", "apache", "--agents", "GPTBot", "-o", str(tmp_path / "a.conf"))
    assert code == 0, err
    text = (tmp_path / "a.conf").read_text(encoding="utf-8")
    assert "# robots.txt line 2: Disallow: /a\\ueed6\ufffd\\x5c\n" in text  # private use escaped, U+FFFD kept
