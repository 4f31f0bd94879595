"""`robotscope check` end to end: output, JSON and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from robotscope.cli import cli
from tests.paths import EXAMPLES

EXAMPLE = str(EXAMPLES / "robots.txt")
GOOGLEBOT_UA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"


def run(*args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_disallowed_url_shows_deciding_line_in_context_and_exits_1() -> None:
    code, out, _ = run("check", EXAMPLE, GOOGLEBOT_UA, "https://www.example.com/drafts/x")
    assert code == 1
    assert out.splitlines()[0] == "DISALLOWED https://www.example.com/drafts/x"
    assert "Line 13 (Disallow: /drafts/) decides" in out
    assert "  > 13 | Disallow: /drafts/" in out
    assert "agent token: googlebot" in out
    assert "group used: user-agent lines 10, 11" in out


def test_all_allowed_exits_0_and_lists_candidates() -> None:
    code, out, _ = run("check", EXAMPLE, "Bingbot", "/search/help", "/robots.txt")
    assert code == 0
    assert "line 5: Allow: /search/help (length 12)" in out
    assert "line 4: Disallow: /search (length 7)" in out
    assert "/robots.txt itself is always allowed" in out


def test_json_has_the_verdict_fields() -> None:
    code, out, _ = run("check", EXAMPLE, "GPTBot", "/", "/robots.txt", "--json")
    assert code == 1
    data = json.loads(out)
    assert [v["allowed"] for v in data] == [False, True]
    assert set(data[0]) == {
        "allowed",
        "rule",
        "line",
        "reason",
        "agent_token",
        "group_lines",
        "candidates",
        "url",
        "target",
        "findings",
        "explanation",
        "notes",
        "rfc",
        "profile",
        "engine",
        "usage",
        "usage_text",
    }
    assert data[0]["explanation"]["code"] == "explain.only" and data[0]["explanation"]["params"]["line"] == 18
    assert data[0]["explanation"]["text"].startswith("Line 18 (Disallow: /) decides")
    assert data[0]["line"] == 18 and data[0]["rule"]["pattern"] == "/" and data[0]["group_lines"] == [16, 17]
    assert data[1]["reason"] == "robots-txt"


def test_stdin() -> None:
    code, out, _ = run("check", "-", "bot", "/x", stdin=b"User-agent: *\nDisallow: /x\n")
    assert code == 1 and "Line 2 (Disallow: /x) decides" in out


def test_unreadable_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    code, _, err = run("check", str(tmp_path / "missing.txt"), "bot", "/")
    assert code == 2
    assert err.strip().splitlines() == [
        f"robotscope: cannot read '{tmp_path / 'missing.txt'}': No such file or directory"
    ]
    code, _, err = run("check", str(tmp_path), "bot", "/")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_missing_arguments_exit_2() -> None:
    code, _, err = run("check", EXAMPLE, "bot")
    assert code == 2 and "Missing argument" in err


def test_binary_junk_is_checked_not_crashed(tmp_path: Path) -> None:
    junk = tmp_path / "junk.txt"
    junk.write_bytes(bytes(range(256)) * 50)
    code, out, _ = run("check", str(junk), "bot", "/")
    assert code == 0 and out.startswith("ALLOWED")


def test_installed_entry_point_runs() -> None:
    exe = Path(sys.executable).parent / "robotscope"
    result = subprocess.run([str(exe), "check", EXAMPLE, "CCBot", "/"], capture_output=True, text=True, check=False)
    assert result.returncode == 1
    assert result.stdout.startswith("DISALLOWED /")


BAD = b"User-agent: *\nDisallow /oops\nCrawl-delay: 4\nSitemap: /s.xml\nDisallow: /a*\n"


def test_lint_text_quotes_lines_and_summarises() -> None:
    code, out, _ = run("lint", "-", stdin=BAD)
    assert code == 1
    assert "<stdin>:2: error missingColon\n  2 | Disallow /oops\n  this line has no colon" in out
    assert "  fix: write `Disallow: /oops`" in out
    assert out.splitlines()[-1] == "<stdin>: 2 errors, 2 info"


def test_lint_json_and_fail_on() -> None:
    code, out, _ = run("lint", "-", "--format", "json", stdin=BAD)
    data = json.loads(out)
    assert code == 1
    assert [(f["line"], f["code"], f["severity"]) for f in data] == [
        (2, "missingColon", "error"),
        (3, "nonStandardDirective", "info"),
        (4, "sitemapInvalid", "error"),
        (5, "redundantWildcard", "info"),
    ]
    clean = b"User-agent: *\nDisallow: /a*\n"
    assert run("lint", "-", stdin=clean)[0] == 0
    assert run("lint", "-", "--fail-on", "warning", stdin=clean)[0] == 0
    assert run("lint", "-", "--fail-on", "info", stdin=clean)[0] == 1


def test_lint_sarif_is_sarif_2_1_0_with_one_result_per_finding() -> None:
    code, out, _ = run("lint", "-", "--format", "sarif", stdin=BAD)
    log = json.loads(out)
    assert log["version"] == "2.1.0" and code == 1
    run_ = log["runs"][0]
    assert run_["tool"]["driver"]["name"] == "robotscope"
    rules = run_["tool"]["driver"]["rules"]
    results = run_["results"]
    assert len(results) == 4
    first = results[0]
    assert first["ruleId"] == "missingColon" and first["level"] == "error"
    assert rules[first["ruleIndex"]]["id"] == "missingColon"
    assert first["locations"][0]["physicalLocation"]["region"] == {"startLine": 2}
    assert first["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": "<stdin>"}
    assert results[1]["level"] == "note"


def test_check_json_carries_findings_of_the_lines_involved() -> None:
    text = b"User-agent: *\nDisallow: /a*\nDisallow: /b\nFoo: bar\n"
    _, out, _ = run("check", "-", "bot", "/abc", "--json", stdin=text)
    (verdict,) = json.loads(out)
    assert verdict["line"] == 2
    assert [(f["code"], f["line"]) for f in verdict["findings"]] == [("redundantWildcard", 2)]


def test_lint_unreadable_file_exits_2(tmp_path: Path) -> None:
    code, _, err = run("lint", str(tmp_path / "nope.txt"))
    assert code == 2 and err.startswith("robotscope: cannot read")
