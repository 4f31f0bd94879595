"""matrix, diff, bulk, selftest, explain and completion, end to end through the CLI."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from robotscope import __version__, parse
from robotscope.cli import cli
from robotscope.reports.selftest import load_cases
from tests.paths import EXAMPLES

EXAMPLE = str(EXAMPLES / "robots.txt")


def run(*args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_matrix_groups_crawlers_by_purpose_with_deciding_lines() -> None:
    code, out, _ = run("matrix", EXAMPLE, "/", "/cart/", "--agents", "Googlebot,GPTBot,OAI-SearchBot,Googlebot-News")
    assert code == 0
    lines = out.splitlines()
    order = [
        next(i for i, line in enumerate(lines) if f" {name} " in line)
        for name in ("search ", "Googlebot ", "ai-search", "OAI-SearchBot", "ai-training", "GPTBot")
    ]
    assert order == sorted(order)
    assert "blocked L18" in next(line for line in lines if " GPTBot " in line)
    news = next(line for line in lines if " Googlebot-News " in line)
    assert "allowed (1)" in news
    assert "(1) no group names Googlebot-News; Google documents that it then obeys the Googlebot group" in out
    assert "ai-training: all blocked at /" in out


def test_matrix_json_schema() -> None:
    code, out, _ = run("matrix", EXAMPLE, "/cart/", "--agents", "AdsBot-Google,bingbot", "--json")
    data = json.loads(out)
    assert code == 0 and data["paths"] == ["/cart/"]
    rows = {r["crawler"]["token"]: r["cells"][0] for r in data["rows"]}
    assert rows["bingbot"]["allowed"] is False and rows["bingbot"]["line"] == 3 and rows["bingbot"]["profile"] is None
    assert rows["AdsBot-Google"]["allowed"] is True and rows["AdsBot-Google"]["rfc"]["allowed"] is False
    adsbot = rows["AdsBot-Google"]
    assert "ignores the `*` group" in adsbot["profile"]["text"]
    assert [n["code"] for n in adsbot["notes"]] == ["profile.changed"]


def test_diff_reports_flips_with_both_lines_and_exits_1(tmp_path: Path) -> None:
    new = tmp_path / "new.txt"
    new.write_text(Path(EXAMPLE).read_text() + "\nUser-agent: Googlebot\nDisallow: /products/\n")
    code, out, _ = run("diff", EXAMPLE, str(new), "--json")
    data = json.loads(out)
    assert code == 1
    assert [(f["agent"], f["url"]) for f in data["flips"]] == [("googlebot", "/products/")]
    flip = data["flips"][0]
    assert flip["old"]["allowed"] is True and flip["new"]["allowed"] is False and flip["new"]["line"] == 23
    code, out, _ = run("diff", EXAMPLE, str(new))
    assert code == 1 and "1 verdict flips" in out and "disallowed (line 23)" in out


def test_diff_of_an_equivalent_rewrite_flips_nothing(tmp_path: Path) -> None:
    # Reordered rules, a comment and different spacing: same effect.
    old = tmp_path / "old.txt"
    new = tmp_path / "new.txt"
    old.write_text("User-agent: *\nDisallow: /a/\nAllow: /a/public\n")
    new.write_text("# reordered\nUser-agent: *\nAllow:/a/public\nDisallow:   /a/\n")
    code, out, _ = run("diff", str(old), str(new))
    assert code == 0 and out.startswith("no change:")


def test_diff_with_a_urls_file_and_agents(tmp_path: Path) -> None:
    urls = tmp_path / "urls.txt"
    urls.write_text("# a comment\n/cart/\n/drafts/x\n")
    new = tmp_path / "new.txt"
    new.write_text("User-agent: *\nDisallow: /drafts/\n")
    code, out, _ = run("diff", EXAMPLE, str(new), "--urls", str(urls), "--agents", "bingbot", "--json")
    data = json.loads(out)
    assert code == 1 and data["urls"] == 2
    assert [(f["url"], f["old"]["allowed"], f["new"]["allowed"]) for f in data["flips"]] == [
        ("/cart/", False, True),
        ("/drafts/x", True, False),
    ]


def test_bulk_rows_match_the_verdicts(tmp_path: Path) -> None:
    urls = [f"https://www.example.com/{p}" for p in ("cart/1", "search/help", "x.pdf", "robots.txt", "ok")] * 20_000
    path = tmp_path / "urls.txt"
    path.write_text("\n".join(urls) + "\n")
    code, out, _ = run("bulk", EXAMPLE, "--urls", str(path), "--agent", "Bingbot", "--no-progress")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 1 and len(rows) == len(urls) == 100_000
    robots = parse(Path(EXAMPLE).read_bytes())
    for row in rows[:5]:
        verdict = robots.verdict("Bingbot", row["url"])
        assert row["allowed"] == str(verdict.allowed)
        assert row["line"] == ("" if verdict.line is None else str(verdict.line))
        assert row["reason"] == verdict.reason.value
    assert [r["rule"] for r in rows[:5]] == ["Disallow: /cart/", "Allow: /search/help", "Disallow: /*.pdf$", "", ""]


@pytest.mark.parametrize("output_format", ["csv", "jsonl"])
def test_bulk_workers_keep_the_input_order(tmp_path: Path, output_format: str) -> None:
    # Three chunks and a bit, with nonsense lines among them: two workers give the one process's output, row for row.
    paths = ["/cart/{}", "/search/help{}", "/x{}.pdf", "/ok/{}", "not a url {}"]
    urls = [paths[i % len(paths)].format(i) for i in range(3 * 4096 + 7)]
    path = tmp_path / "urls.txt"
    path.write_text("\n".join(urls) + "\n")
    outputs = {}
    for jobs in ("1", "2"):
        code, outputs[jobs], _ = run(
            "bulk",
            EXAMPLE,
            "--urls",
            str(path),
            "--agent",
            "Bingbot",
            "--no-progress",
            "--jobs",
            jobs,
            "--format",
            output_format,
        )
        assert code == 1  # rows are disallowed
    assert outputs["2"] == outputs["1"]
    lines = outputs["1"].splitlines()[1 if output_format == "csv" else 0 :]
    assert len(lines) == len(urls) and all(url in line for url, line in zip(urls, lines, strict=False))
    assert "invalid-url" in lines[4] and "Disallow: /cart/" in lines[len(urls) - 5]


def test_bulk_jsonl_from_stdin() -> None:
    code, out, _ = run(
        "bulk", EXAMPLE, "--urls", "-", "--agent", "GPTBot", "--format", "jsonl", stdin=b"/a\n\n# skip\n/b\n"
    )
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and [(r["url"], r["allowed"], r["line"]) for r in rows] == [("/a", False, 18), ("/b", False, 18)]


def test_bulk_needs_robots_or_fetch() -> None:
    code, _, err = run("bulk", "--urls", "-", stdin=b"/a\n")
    assert code == 2 and "give either ROBOTS or --fetch" in err


def test_selftest_prints_each_case_and_passes() -> None:
    code, out, _ = run("selftest")
    lines = out.splitlines()
    assert code == 0
    assert len([line for line in lines if line.startswith("PASS")]) == len(load_cases())
    assert lines[-1] == f"{len(load_cases())} passed, 0 failed"
    data = json.loads(run("selftest", "--json")[1])
    assert all(case["passed"] for case in data) and data[0]["expected"] == data[0]["got"]


def test_explain_says_what_blocking_costs() -> None:
    code, out, _ = run("explain", "Google-Extended")
    assert code == 0
    assert "Google's search crawlers (Googlebot" in out and "are separate and not affected" in out
    code, out, _ = run("explain", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "--json")
    data = json.loads(out)
    assert code == 0 and data["token"] == "bingbot" and data["purpose"] == "search"


def test_explain_unknown_token_is_a_one_line_error() -> None:
    code, _, err = run("explain", "NoSuchCrawlerAtAll")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "not in the crawler catalogue" in err


@pytest.mark.parametrize(("lang", "build"), [("en", "pure Python"), ("ko", "순수 파이썬")])
def test_version_says_the_source_tree_is_the_pure_build(monkeypatch: pytest.MonkeyPatch, lang: str, build: str) -> None:
    monkeypatch.setenv("ROBOTSCOPE_LANG", lang)
    assert run("--version") == (0, f"robotscope {__version__} ({build})\n", "")


def test_completion_script_and_help_examples() -> None:
    code, out, _ = run("completion", "bash")
    assert code == 0 and "_ROBOTSCOPE_COMPLETE" in out
    for command in ("check", "lint", "fetch", "matrix", "diff", "bulk"):
        code, out, _ = run(command, "--help")
        assert code == 0 and "Example" in out, command


def test_installed_entry_point_never_prints_a_traceback(tmp_path: Path) -> None:
    exe = Path(sys.executable).parent / "robotscope"
    result = subprocess.run(
        [str(exe), "matrix", str(tmp_path / "missing.txt")], capture_output=True, text=True, check=False
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith("robotscope: cannot read")


def test_generate_default_is_staging_and_says_so() -> None:
    code, out, err = run("generate")
    assert code == 0 and out == "User-agent: *\nDisallow: /\n"
    assert "warning: this file blocks the whole site for every crawler" in err


def test_generate_from_flags_spec_file_and_output_file(tmp_path: Path) -> None:
    code, out, err = run(
        "generate", "--disallow", "*=/cart/", "--allow", "*=/cart/help", "--sitemap", "https://example.com/s.xml"
    )
    assert code == 0
    assert out == "User-agent: *\nAllow: /cart/help\nDisallow: /cart/\n\nSitemap: https://example.com/s.xml\n"
    assert "round trip: all 4 intended verdicts hold" in err
    spec = tmp_path / "robots.toml"
    spec.write_text('[[block]]\nagent = "*"\ndisallow = ["/private/"]\n')
    target = tmp_path / "robots.txt"
    code, out, _ = run("generate", "--spec", str(spec), "-o", str(target))
    assert code == 0 and out == "" and target.read_text() == "User-agent: *\nDisallow: /private/\n"


def test_generate_bad_spec_fails_with_findings_and_one_line_errors(tmp_path: Path) -> None:
    code, out, _ = run("generate", "--disallow", "*=private/", "--json")
    data = json.loads(out)
    assert code == 1 and [f["code"] for f in data["findings"]] == ["patternNoSlash"]
    assert run("generate", "--disallow", "no-equals-sign")[0] == 2
    bad = tmp_path / "bad.toml"
    bad.write_text("[[block]]\ndisallow = ['/x']\n")
    code, _, err = run("generate", "--spec", str(bad))
    assert (
        code == 2
        and err.strip() == f"robotscope: {bad}: block 1 needs an `agent` (a product token such as Googlebot, or *)"
    )


@pytest.mark.parametrize(
    ("spec", "line", "text"),
    [
        (
            '[[block]]\nagent = "*"\ndisalow = ["/private/"]\n',
            3,
            "unknown key `disalow` in block 1: did you mean `disallow`?",
        ),
        (
            '[[block]]\nagent = "*"\n\n[[block]]\nagent = "x"\nallow = 5\n',
            6,
            "`allow` in block 2 must be a list of strings",
        ),
        ('[[blok]]\nagent = "*"\n', 1, "unknown key `blok` at the top of the spec: did you mean `block`?"),
    ],
)
def test_generate_spec_mistakes_name_the_key_and_line(tmp_path: Path, spec: str, line: int, text: str) -> None:
    bad = tmp_path / "robots.toml"
    bad.write_text(spec)
    code, out, err = run("generate", "--spec", str(bad))
    assert (code, out) == (2, "") and err.strip() == f"robotscope: {bad}:{line}: {text}"


def test_generate_empty_spec_is_an_error(tmp_path: Path) -> None:
    empty = tmp_path / "robots.toml"
    empty.write_text("# nothing yet\n")
    code, _, err = run("generate", "--spec", str(empty))
    assert code == 2 and "no blocks and no sitemaps" in err


def test_generate_block_ai_training_preset_lists_why() -> None:
    code, out, _ = run("generate", "--preset", "block-ai-training")
    robots = parse(out)
    assert code == 0 and not robots.can_fetch("GPTBot", "/") and robots.can_fetch("Googlebot", "/")
    assert "# content it fetches from now on is not used to train OpenAI's models" in out


def test_lint_fix_applies_only_the_proven_fixes(tmp_path: Path) -> None:
    robots = tmp_path / "robots.txt"
    text = (
        "User-agent: *\r\nDisallow: /cart*\r\nAllow: /grid/\r\nDisallow: /grid/*\r\n"
        "User-agent: Googlebot, Bingbot\r\nDisallow: /100%\r\n"
    )
    robots.write_bytes(text.encode())
    result = CliRunner().invoke(cli, ["lint", str(robots), "--fix"])
    # Only `/cart*` -> `/cart` holds; the tie, the crawler list and Google's `%` stay as written.
    assert result.stdout == (
        "User-agent: *\nDisallow: /cart\nAllow: /grid/\nDisallow: /grid/*\n"
        "User-agent: Googlebot, Bingbot\nDisallow: /100%\n"
    )
    assert "1 proven fix applied" in result.stderr and result.exit_code == 0
    before, after = parse(text), parse(result.stdout)
    for agent in ("bot", "Googlebot", "Bingbot"):
        for url in ("/cart", "/cartx", "/grid/", "/grid/x", "/100%2F"):
            assert after.can_fetch(agent, url, engine="google") == before.can_fetch(agent, url, engine="google")
            assert after.can_fetch(agent, url) == before.can_fetch(agent, url)
