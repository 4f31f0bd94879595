"""`robotscope expect` end to end: a file, a site served on 127.0.0.1, exit codes 0, 1 and 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from robotscope.cli import cli
from tests.conftest import Server

pytestmark = pytest.mark.usefixtures("isolated")

GOOD = b"User-agent: *\nDisallow: /cart/\n\nUser-agent: GPTBot\nDisallow: /\n"
EXPECT = """
[[allow]]
agent = "Googlebot"
url = "/products/"

[[block]]
agent = "GPTBot"
url = "/"

[served]
content_type = "text/plain"
"""


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def write(tmp_path: Path, name: str, data: bytes | str) -> str:
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return str(path)


def test_every_statement_holds_exits_0_and_says_what_was_not_checked(tmp_path: Path) -> None:
    code, out, _ = run("expect", write(tmp_path, "e.toml", EXPECT), write(tmp_path, "robots.txt", GOOD))
    assert code == 0
    assert "expectUnchecked: `content_type` (line 10 of the expectations) is not checked" in out
    assert out.splitlines()[-1].startswith("3 expectations hold: ")


def test_a_staging_file_fails_with_the_deciding_line_and_exits_1(tmp_path: Path) -> None:
    robots = write(tmp_path, "robots.txt", b"User-agent: *\nDisallow: /\n")
    code, out, _ = run("expect", write(tmp_path, "e.toml", EXPECT), robots, "--json")
    assert code == 1
    data = json.loads(out)
    assert data["holds"] is False and data["statements"] == 3
    assert [f["code"] for f in data["failed"]] == ["expectAllow"]
    assert data["failed"][0]["after"] == [{"line": 2, "text": "Disallow: /"}]


def test_a_bad_expectation_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    bad = write(tmp_path, "e.toml", '[[allow]]\nagent = "Googlebot"\nurl = "/"\nulr = "/x"\n')
    code, out, err = run("expect", bad, write(tmp_path, "robots.txt", GOOD))
    assert code == 2 and out == ""
    said = "line 4: unknown key `ulr` in [allow] (expected one of agent, agents, url, urls, engine, severity)"
    assert err == f"robotscope: {bad}: {said}\n"
    code, _, err = run("expect", str(tmp_path / "missing.toml"), write(tmp_path, "robots.txt", GOOD))
    assert code == 2 and "cannot read" in err and len(err.splitlines()) == 1
    code, _, err = run("expect", write(tmp_path, "bin.toml", b"\xff\xfe[[allow]]"), write(tmp_path, "r.txt", GOOD))
    assert code == 2 and len(err.splitlines()) == 1 and "Traceback" not in err


def test_a_site_is_fetched_and_its_response_checked(server: Server, tmp_path: Path) -> None:
    server.serve("/robots.txt", 200, GOOD, {"Content-Type": "text/html"})
    code, out, _ = run("expect", write(tmp_path, "e.toml", EXPECT), server.url("/"), "--no-cache", "--lang", "ko")
    assert code == 1
    assert "expectServed" in out and "text/html" in out and "어긋납니다" in out
    server.serve("/robots.txt", 503, b"down")
    code, out, _ = run("expect", write(tmp_path, "e.toml", EXPECT), server.url("/"), "--no-cache")
    assert code == 1 and "expectAllow" in out and "unreachable" in out
