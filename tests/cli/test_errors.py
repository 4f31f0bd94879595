"""Bad usage and unusable paths are one clear line and exit code 2, never a traceback."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from robotscope.cli import cli
from tests.paths import EXAMPLES

EXAMPLE = str(EXAMPLES / "robots.txt")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_serve_on_a_busy_port_says_so_in_one_line_and_never_claims_to_serve() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "robotscope.cli", "serve", "--no-browser", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert done.returncode == 2
    assert done.stderr.strip() == f"robotscope: cannot listen on 127.0.0.1:{port}: the port is in use"
    assert "serving on" not in done.stderr and "Traceback" not in done.stderr


def test_generate_into_a_missing_directory_is_one_line(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "robots.txt"
    code, _, err = run("generate", "--preset", "allow-all", "-o", str(target))
    assert code == 2 and err.strip().startswith(f"robotscope: cannot write '{target}'") and "\n" not in err.strip()


@pytest.mark.parametrize("url", ["::::", "http://", "javascript:alert(1)", "", "not a url", "example.com/page"])
def test_check_refuses_a_nonsense_url_in_one_line(url: str) -> None:
    code, out, err = run("check", EXAMPLE, "Googlebot", url)
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("robotscope: ")


@pytest.mark.parametrize(
    "args",
    [
        ("check", EXAMPLE, "  ", "/x"),
        ("bulk", EXAMPLE, "--urls", EXAMPLE, "--agent", "", "--no-progress"),
        ("page", "http://127.0.0.1:9/x", "--agent", "Googlebot", "--agent", " "),
        ("sitemap", "http://127.0.0.1:9/", "--agent", ""),
    ],
)
def test_every_command_refuses_an_empty_agent(args: tuple[str, ...]) -> None:
    code, out, err = run(*args)
    assert (
        code == 2
        and out == ""
        and err == "robotscope: the agent is empty: give a product token (Googlebot) or a User-Agent string\n"
    )


def test_bulk_marks_nonsense_urls_invalid(tmp_path: Path) -> None:
    urls = tmp_path / "urls.txt"
    urls.write_text("/ok\n::::\njavascript:alert(1)\nnot a url\nhttps://www.example.com/search/x\n")
    code, out, _ = run("bulk", EXAMPLE, "--urls", str(urls), "--agent", "Googlebot", "--no-progress")
    rows = [line.split(",") for line in out.splitlines()[1:]]
    assert code == 1 and [r[3] for r in rows] == [
        "no-matching-rule",
        "invalid-url",
        "invalid-url",
        "invalid-url",
        "rule",
    ]


@pytest.mark.parametrize("command", ["survey", "build-site"])
@pytest.mark.parametrize("where", ["under-a-file", "/proc/robotscope-test/out"])
def test_an_output_that_cannot_be_written_is_one_line(tmp_path: Path, command: str, where: str) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x")
    target = str(afile / "sub") if where == "under-a-file" else where
    args: tuple[str, ...]
    if command == "survey":
        (tmp_path / "robots").mkdir()
        (tmp_path / "robots" / "example.com").write_text("User-agent: *\nDisallow: /\n")
        args = ("survey", str(tmp_path / "robots"), "--agents", "GPTBot", "--out", target + ".csv", "--no-progress")
    else:
        args = ("build-site", target)
    code, _, err = run(*args)
    assert (
        code == 2
        and err.startswith("robotscope: cannot write ")
        and err.count("\n") == 1
        and "internal error" not in err
    )


def test_python_dash_m_robotscope_is_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "robotscope", "selftest"], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "73 passed, 0 failed"
