"""Each lint code: a file that triggers it (with the exact lines) and a file that must not."""

from __future__ import annotations

import pytest

import robotscope.checks
from robotscope import Severity, lint, parse
from robotscope.checks import CHECKS
from robotscope.parser import MAX_BYTES

# (code, file that triggers it, the lines it must name, a similar file that must not trigger it)
CASES = [
    ("missingColon", "User-agent: *\nDisallow /oops\n", [2], "User-agent: *\nDisallow: /oops\n"),
    ("invalidLine", "User-agent: *\nthis is not a record\n", [2], "User-agent: *\n# this is a comment\n"),
    ("unknownDirective", "User-agent: *\nDissallow: /x\nFoo: bar\n", [2, 3], "User-agent: *\nDisallow: /x\n"),
    ("nonStandardDirective", "User-agent: *\nCrawl-delay: 5\nNoindex: /x\n", [2, 3], "User-agent: *\nDisallow: /x\n"),
    ("sitemapInvalid", "Sitemap: /sitemap.xml\nSitemap: ftp://x/s.xml\n", [1, 2], "Sitemap: https://example.com/sitemap.xml\n"),
    ("ruleOutsideGroup", "Disallow: /a\nUser-agent: *\nDisallow: /b\n", [1], "User-agent: *\nDisallow: /a\n"),
    ("emptyDisallow", "User-agent: *\nDisallow:\n", [2], "User-agent: *\nDisallow: /\n"),
    ("emptyAllow", "User-agent: *\nAllow:\nDisallow: /x\n", [2], "User-agent: *\nAllow: /x\n"),
    (
        "duplicateAgent",
        "User-agent: Googlebot\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n\nUser-agent: googlebot\nDisallow: /c\n",
        [7],
        "User-agent: Googlebot\nUser-agent: Bingbot\nDisallow: /a\n",
    ),
    ("agentNotToken", "User-agent: Googlebot/2.1\nUser-agent: Googlebot Images\nDisallow: /\n", [1, 2], "User-agent: Googlebot-Image\nDisallow: /x\n"),
    ("agentWildcard", "User-agent: *bot\nDisallow: /\n", [1], "User-agent: *\nDisallow: /x\n"),
    ("agentInvalid", "User-agent:\nUser-agent: /bot\nDisallow: /x\n", [1, 2], "User-agent: bot\nDisallow: /x\n"),
    ("emptyGroup", "User-agent: *\nDisallow: /x\n\nUser-agent: quxbot\n", [4], "User-agent: quxbot\nDisallow:\n"),
    ("patternNoSlash", "User-agent: *\nDisallow: private\nDisallow: https://example.com/x\n", [2, 3], "User-agent: *\nDisallow: /private\nDisallow: *.pdf\n"),
    ("dollarNotAtEnd", "User-agent: *\nDisallow: /a$b\n", [2], "User-agent: *\nDisallow: /a$\n"),
    ("redundantWildcard", "User-agent: *\nDisallow: /a**b\nDisallow: /c*\n", [2, 3], "User-agent: *\nDisallow: /a*b\nDisallow: /*\n"),
    ("invalidPercentEncoding", "User-agent: *\nDisallow: /100%\n", [2], "User-agent: *\nDisallow: /100%25\n"),
    ("patternWithSpace", "User-agent: *\nDisallow: /a /b\n", [2], "User-agent: *\nDisallow: /a-b\n"),
    ("blocksAll", "User-agent: *\nDisallow: /\n", [2], "User-agent: *\nDisallow: /\nAllow: /$\n"),
    (
        "namedGroupDropsGlobalRules",
        "User-agent: *\nDisallow: /cart/\nDisallow: /search/\n\nUser-agent: Yeti\nDisallow: /search/\n",
        [5],
        "User-agent: *\nDisallow: /cart/\n\nUser-agent: Yeti\nDisallow: /cart/\nDisallow: /search/\n",
    ),
    ("shadowedRule", "User-agent: *\nDisallow: /a\nDisallow: /a\nDisallow: /b\nAllow: /b\n", [3, 4], "User-agent: *\nDisallow: /a\nAllow: /a/b\n"),
    ("firstMatchOrder", "User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n", [3], "User-agent: *\nAllow: /wp-admin/admin-ajax.php\nDisallow: /wp-admin/\n"),
    ("blocksAssets", "User-agent: *\nDisallow: /assets/\nDisallow: /*.css$\n", [2, 3], "User-agent: *\nDisallow: /assets/\nAllow: /assets/*.js\nDisallow: /admin/\n"),
    ("htmlContent", "<!DOCTYPE html>\n<html><body>Not found: sorry</body></html>\n", [None], "User-agent: *\nDisallow: /html\n"),
    ("invalidUtf8", b"User-agent: *\nDisallow: /caf\xe9\n", [2], "User-agent: *\nDisallow: /caf\u00e9\n".encode()),
]


def _lines(code: str, text: str | bytes) -> list[int | None]:
    return [f.line for f in lint(parse(text)) if f.code == code]


@pytest.mark.parametrize(("code", "positive", "lines", "negative"), CASES, ids=[c[0] for c in CASES])
def test_code_triggers_on_its_file_and_not_on_the_fixed_one(
    code: str, positive: str | bytes, lines: list[int | None], negative: str | bytes
) -> None:
    assert _lines(code, positive) == lines
    assert _lines(code, negative) == []


def test_every_registered_code_has_a_case_and_codes_are_unique() -> None:
    codes = [c.code for c in CHECKS]
    assert len(codes) == len(set(codes))
    assert sorted(codes) == sorted({c[0] for c in CASES} | {"oversize"})


def test_oversize_names_bytes_lines_and_lost_rules() -> None:
    data = b"User-agent: *\n" + b"#" * (MAX_BYTES + 10) + b"\nDisallow: /lost\n"
    (finding,) = [f for f in lint(parse(data)) if f.code == "oversize"]
    assert finding.line is None and finding.severity is Severity.ERROR
    assert f"{len(data):,} bytes" in finding.message and "line 3 (Disallow: /lost)" in finding.message
    assert finding.lines == (3,)
    assert [f for f in lint(parse(b"User-agent: *\nDisallow: /x\n")) if f.code == "oversize"] == []


def test_missing_colon_message_says_what_happens_and_google_reads_it() -> None:
    (finding,) = [f for f in lint(parse("User-agent: *\nDisallow /oops\n")) if f.code == "missingColon"]
    assert finding.message == (
        "this line has no colon and is ignored under RFC 9309, so /oops is not blocked; "
        "Google's parser would still read it as a rule"
    )
    assert finding.fix == "write `Disallow: /oops`"


def test_unknown_directive_suggests_the_key() -> None:
    fixes = {f.line: f.fix for f in lint(parse("Useragent: *\nUser agent: x\nsite-map: https://a/s.xml\nDissallow: /x\n")) if f.code == "unknownDirective"}
    assert fixes == {
        1: "did you mean `User-agent`? write `User-agent: *`",
        2: "did you mean `User-agent`? write `User-agent: x`",
        3: "did you mean `Sitemap`? write `Sitemap: https://a/s.xml`",
        4: "did you mean `Disallow`? write `Disallow: /x`",
    }


def test_content_records_are_explained_not_unknown() -> None:
    findings = lint(parse("User-agent: *\nContent-Signal: search=yes, ai-train=no\nContent-Usage: / train-ai=n\nDisallow:\n"))
    assert {(f.line, f.code) for f in findings} >= {(2, "nonStandardDirective"), (3, "nonStandardDirective")}
    assert "ai-train" in next(f.message for f in findings if f.line == 2)
    assert not [f for f in findings if f.code == "unknownDirective"]


def test_duplicate_agent_names_every_line_involved() -> None:
    text = "User-agent: Googlebot\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n\nUser-agent: googlebot\nDisallow: /c\n"
    (finding,) = [f for f in lint(parse(text)) if f.code == "duplicateAgent"]
    assert finding.lines == (1, 2, 7, 8)
    assert "user-agent lines 1, 7" in finding.message


def test_named_group_message_names_the_dropped_rule() -> None:
    text = "User-agent: *\nDisallow: /cart/\nDisallow: /search/\n\nUser-agent: Yeti\nDisallow: /search/\n"
    (finding,) = [f for f in lint(parse(text)) if f.code == "namedGroupDropsGlobalRules"]
    assert "yeti" in finding.message and "/cart/ (line 2)" in finding.message and "/search/" not in finding.message
    assert finding.fix == "repeat the `*` rules they should obey in their group, e.g. `Disallow: /cart/`"


def test_blocks_all_for_a_search_engine_group_but_not_for_an_ai_crawler() -> None:
    assert _lines("blocksAll", "User-agent: Googlebot\nDisallow: /\n") == [2]
    assert _lines("blocksAll", "User-agent: GPTBot\nDisallow: /\n") == []


def test_html_page_gets_one_finding_not_one_per_line() -> None:
    findings = lint(parse("<html>\n<head><title>Error: 404</title></head>\n<body>x: y</body>\n</html>\n"))
    assert [f.code for f in findings] == ["htmlContent"]


def test_findings_are_sorted_with_whole_file_ones_first() -> None:
    data = b"<html>\nDisallow: /x\nUser-agent: *\nDisallow:\n"
    keys = [(-1 if f.line is None else f.line) for f in lint(parse(data))]
    assert keys == sorted(keys) and keys[0] == -1


def test_every_code_is_documented() -> None:
    from pathlib import Path

    doc = (Path(__file__).parent.parent / "docs" / "lint-codes.md").read_text(encoding="utf-8")
    assert [c.code for c in CHECKS if f"| `{c.code}` |" not in doc] == []


def test_empty_disallow_is_not_a_complete_block() -> None:
    assert _lines("blocksAll", "User-agent: *\nDisallow:        \t# everything may be crawled\n") == []


def test_shadowed_rule_names_the_winner_of_the_first_crawler_that_merges_it() -> None:
    # x merges groups 1 and 2 (line 5 repeats line 2); y, named later, merges 2 and 3,
    # where the allow on line 8 would win: line 5 is reported once, as x sees it.
    text = "User-agent: x\nDisallow: /p\n\nUser-agent: x\nUser-agent: y\nDisallow: /p\n\nUser-agent: y\nAllow: /p\n"
    found = {f.line: f for f in lint(parse(text)) if f.code == "shadowedRule"}
    assert list(found) == [6] and "it repeats line 2" in found[6].message and found[6].lines == (2, 6)


def test_shadowed_rule_inside_a_group_no_crawler_selects_is_not_reported() -> None:
    assert _lines("shadowedRule", "User-agent: /bot\nDisallow: /p\nDisallow: /p\n") == []


def test_first_match_order_names_the_earliest_broader_disallow() -> None:
    text = "User-agent: *\nDisallow: /a*\nDisallow: /a\nDisallow: /ab\nDisallow: /a\nAllow: /abc/d\n"
    (finding,) = [f for f in lint(parse(text)) if f.code == "firstMatchOrder"]
    assert finding.line == 6 and finding.fix == "move this line above line 2" and finding.lines == (2, 6)


def test_named_groups_past_the_step_budget_show_examples_without_a_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(robotscope.checks, "EXACT_STEPS", 10)
    global_rules = "".join(f"Disallow: /g{i}/\n" for i in range(8))
    text = f"User-agent: *\n{global_rules}\nUser-agent: aa\nDisallow: /x\n\nUser-agent: bb\nDisallow: /g1/\n"
    first, second = [f for f in lint(parse(text)) if f.code == "namedGroupDropsGlobalRules"]
    assert "/g4/ (line 6) and 3 more" in first.message and len(first.lines) == 1 + 8  # counted: 8 steps
    assert "/g5/ (line 7) and maybe more" in second.message  # past the budget: the first examples only
    assert "/g1/" not in second.message and second.lines == (2, 4, 5, 6, 7, 8, 14)


def test_duplicate_agent_past_the_step_budget_lists_the_user_agent_lines_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(robotscope.checks, "EXACT_STEPS", 2)
    text = "User-agent: a\nDisallow: /1\n\nUser-agent: a\nDisallow: /2\n\nUser-agent: b\nDisallow: /3\n\nUser-agent: b\nDisallow: /4\n"
    first, second = [f for f in lint(parse(text)) if f.code == "duplicateAgent"]
    assert first.lines == (1, 2, 4, 5) and second.lines == (7, 10)
