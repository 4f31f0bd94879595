"""Each lint code: a file that triggers it (with the exact lines) and a file that must not."""

from __future__ import annotations

import pytest

import robotscope.reports.linter.registry
from robotscope import Severity, lint, parse
from robotscope.reports.linter.registry import CHECKS
from robotscope.syntax.parser import MAX_BYTES
from tests.paths import CORPUS, DOCS

# (code, file that triggers it, the lines it must name, a similar file that must not trigger it)
CASES = [
    ("missingColon", "User-agent: *\nDisallow /oops\n", [2], "User-agent: *\nDisallow: /oops\n"),
    ("invalidLine", "User-agent: *\nthis is not a record\n", [2], "User-agent: *\n# this is a comment\n"),
    ("unknownDirective", "User-agent: *\nDissallow: /x\nFoo: bar\n", [2, 3], "User-agent: *\nDisallow: /x\n"),
    ("nonStandardDirective", "User-agent: *\nCrawl-delay: 5\nNoindex: /x\n", [2, 3], "User-agent: *\nDisallow: /x\n"),
    (
        "sitemapInvalid",
        "Sitemap: /sitemap.xml\nSitemap: ftp://x/s.xml\n",
        [1, 2],
        "Sitemap: https://example.com/sitemap.xml\n",
    ),
    ("ruleOutsideGroup", "Disallow: /a\nUser-agent: *\nDisallow: /b\n", [1], "User-agent: *\nDisallow: /a\n"),
    ("emptyDisallow", "User-agent: *\nDisallow:\n", [2], "User-agent: *\nDisallow: /\n"),
    ("emptyAllow", "User-agent: *\nAllow:\nDisallow: /x\n", [2], "User-agent: *\nAllow: /x\n"),
    (
        "duplicateAgent",
        "User-agent: Googlebot\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n\nUser-agent: googlebot\nDisallow: /c\n",
        [7],
        "User-agent: Googlebot\nUser-agent: Bingbot\nDisallow: /a\n",
    ),
    (
        "agentNotToken",
        "User-agent: Googlebot/2.1\nUser-agent: Googlebot Images\nDisallow: /\n",
        [1, 2],
        "User-agent: Googlebot-Image\nDisallow: /x\n",
    ),
    ("agentWildcard", "User-agent: *bot\nDisallow: /\n", [1], "User-agent: *\nDisallow: /x\n"),
    ("agentInvalid", "User-agent:\nUser-agent: /bot\nDisallow: /x\n", [1, 2], "User-agent: bot\nDisallow: /x\n"),
    ("emptyGroup", "User-agent: *\nDisallow: /x\n\nUser-agent: quxbot\n", [4], "User-agent: quxbot\nDisallow:\n"),
    (
        "patternNoSlash",
        "User-agent: *\nDisallow: private\nDisallow: https://example.com/x\n",
        [2, 3],
        "User-agent: *\nDisallow: /private\nDisallow: *.pdf\n",
    ),
    ("dollarNotAtEnd", "User-agent: *\nDisallow: /a$b\n", [2], "User-agent: *\nDisallow: /a$\n"),
    (
        "redundantWildcard",
        "User-agent: *\nDisallow: /a**b\nDisallow: /c*\n",
        [2, 3],
        "User-agent: *\nDisallow: /a*b\nDisallow: /*\n",
    ),
    ("invalidPercentEncoding", "User-agent: *\nDisallow: /100%\n", [2], "User-agent: *\nDisallow: /100%25\n"),
    ("patternWithSpace", "User-agent: *\nDisallow: /a /b\n", [2], "User-agent: *\nDisallow: /a-b\n"),
    ("blocksAll", "User-agent: *\nDisallow: /\n", [2], "User-agent: *\nDisallow: /\nAllow: /$\n"),
    (
        "namedGroupDropsGlobalRules",
        "User-agent: *\nDisallow: /cart/\nDisallow: /search/\n\nUser-agent: Yeti\nDisallow: /search/\n",
        [5],
        "User-agent: *\nDisallow: /cart/\n\nUser-agent: Yeti\nDisallow: /cart/\nDisallow: /search/\n",
    ),
    (
        "shadowedRule",
        "User-agent: *\nDisallow: /a\nDisallow: /a\nDisallow: /b\nAllow: /b\n",
        [3, 4],
        "User-agent: *\nDisallow: /a\nAllow: /a/b\n",
    ),
    (
        "firstMatchOrder",
        "User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n",
        [3],
        "User-agent: *\nAllow: /wp-admin/admin-ajax.php\nDisallow: /wp-admin/\n",
    ),
    (
        "blocksAssets",
        "User-agent: *\nDisallow: /assets/\nDisallow: /*.css$\n",
        [2, 3],
        "User-agent: *\nDisallow: /assets/\nAllow: /assets/*.js\nDisallow: /admin/\n",
    ),
    (
        "htmlContent",
        "<!DOCTYPE html>\n<html><body>Not found: sorry</body></html>\n",
        [None],
        "User-agent: *\nDisallow: /html\n",
    ),
    ("invalidUtf8", b"User-agent: *\nDisallow: /caf\xe9\n", [2], "User-agent: *\nDisallow: /caf\u00e9\n".encode()),
    (
        "agentStrictToken",
        "User-agent: MJ12bot\nUser-agent: 360Spider\nDisallow: /\n",
        [1, 2],
        "User-agent: MJbot\nDisallow: /\n",
    ),
    (
        "recordSplitsGroup",
        "User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /x\n",
        [2],
        "User-agent: a\nUser-agent: b\nCrawl-delay: 5\nDisallow: /x\n",
    ),
    ("encodingNotUtf8", "User-agent: *\nDisallow: /\n".encode("utf-16"), [None], b"User-agent: *\nDisallow: /\n"),
    # Legacy parsers end a record at a blank line: the rule after it belongs to no group for them.
    (
        "readsDifferently",
        "User-agent: *\nDisallow: /a\n\nDisallow: /b\n",
        [4],
        "User-agent: *\nDisallow: /a\nDisallow: /b\n",
    ),
    # AI usage preferences: draft-ietf-aipref-attach-05 (Section 3), draft-ietf-aipref-vocab-08 (Sections 5, 6), RSL.
    (
        "usageInvalid",
        "User-agent: *\nContent-Usage: / Train-AI=n\nContent-Usage: /a train-ai=n,\n",
        [2, 3],
        "User-agent: *\nContent-Usage: / train-ai=n\n",
    ),
    (
        "usageUnknownValue",
        "User-agent: *\nContent-Usage: / train-ai=no\nContent-Usage: / search\n",
        [2, 3],
        "User-agent: *\nContent-Usage: / train-ai=n, search=y\n",
    ),
    (
        "usageUnknownKey",
        "User-agent: *\nContent-Usage: / bots=n\nContent-Usage: / foo=y\n",
        [2, 3],
        "User-agent: *\nContent-Usage: / ai-use=n\n",
    ),
    (
        "usageDuplicateKey",
        "User-agent: *\nContent-Usage: / train-ai=y, train-ai=n\n",
        [2],
        "User-agent: *\nContent-Usage: / train-ai=y, search=n\n",
    ),
    ("usageNoPath", "User-agent: *\nContent-Usage: train-ai=n\n", [2], "User-agent: *\nContent-Usage: / train-ai=n\n"),
    (
        "usageOnDisallowed",
        "User-agent: *\nDisallow: /x/\nContent-Usage: /x/ train-ai=n\n",
        [3],
        "User-agent: *\nDisallow: /x/\nContent-Usage: /y/ train-ai=n\n",
    ),
    (
        "signalInvalid",
        "User-agent: *\nContent-Signal: ai-train=false\nContent-Signal: search=\n",
        [2, 3],
        "User-agent: *\nContent-Signal: search=yes, ai-train=no, use=reference\n",
    ),
    (
        "preferenceOutsideGroup",
        "Content-Signal: ai-train=no\nContent-Usage: / train-ai=n\nUser-agent: *\nAllow: /\n",
        [1, 2],
        "User-agent: *\nContent-Signal: ai-train=no\n",
    ),
    (
        "signalContradicts",
        "User-agent: *\nDisallow: /\nContent-Signal: search=yes, ai-train=no\n",
        [3],
        "User-agent: *\nDisallow: /\nContent-Signal: ai-train=no\n",
    ),
    (
        "licenseInvalid",
        "License: /license.xml\nUser-agent: *\nAllow: /\n",
        [1],
        "License: https://www.example.com/license.xml\nUser-agent: *\nAllow: /\n",
    ),
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
    assert f"{len(data):,} bytes" in finding.message.render() and "line 3 (Disallow: /lost)" in finding.message.render()
    assert finding.lines == (3,)
    assert [f for f in lint(parse(b"User-agent: *\nDisallow: /x\n")) if f.code == "oversize"] == []


def test_missing_colon_message_says_what_happens_and_which_engines_read_it() -> None:
    (finding,) = [f for f in lint(parse("User-agent: *\nDisallow /oops\n")) if f.code == "missingColon"]
    assert finding.message.render() == (
        "this line has no colon and is ignored under RFC 9309, so /oops is not blocked; "
        "Google and Protego still read it as a rule (`robotscope readings` shows where the verdicts split)"
    )
    assert finding.fix.render() == "write `Disallow: /oops`"
    # The engines named are those whose reading makes it a rule: Google's and Protego's typo lists.
    (typo,) = [f for f in lint(parse("User-agent: *\nDissallow: /typo\n")) if f.code == "unknownDirective"]
    assert "Google and Protego accept this spelling" in typo.message.render()
    (prefix,) = [f for f in lint(parse("User-agent: *\nDisallowed: /typo\n")) if f.code == "unknownDirective"]
    assert "Google accepts this spelling" in prefix.message.render()  # Google reads a key by its start
    (other,) = [f for f in lint(parse("User-agent: *\nAlow: /typo\n")) if f.code == "unknownDirective"]
    assert "accept" not in other.message.render() and "Allow" in other.fix.render()


def test_unknown_directive_suggests_the_key() -> None:
    fixes = {
        f.line: f.fix.render()
        for f in lint(parse("Useragent: *\nUser agent: x\nsite-map: https://a/s.xml\nDissallow: /x\n"))
        if f.code == "unknownDirective"
    }
    assert fixes == {
        1: "did you mean `User-agent`? write `User-agent: *`",
        2: "did you mean `User-agent`? write `User-agent: x`",
        3: "did you mean `Sitemap`? write `Sitemap: https://a/s.xml`",
        4: "did you mean `Disallow`? write `Disallow: /x`",
    }


def test_content_records_are_explained_not_unknown() -> None:
    findings = lint(
        parse("User-agent: *\nContent-Signal: search=yes, ai-train=no\nContent-Usage: / train-ai=n\nDisallow:\n")
    )
    assert {(f.line, f.code) for f in findings} >= {(2, "nonStandardDirective"), (3, "nonStandardDirective")}
    assert "ai-train" in next(f.message.render() for f in findings if f.line == 2)
    assert not [f for f in findings if f.code == "unknownDirective"]


def test_duplicate_agent_names_every_line_involved() -> None:
    text = "User-agent: Googlebot\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n\nUser-agent: googlebot\nDisallow: /c\n"
    (finding,) = [f for f in lint(parse(text)) if f.code == "duplicateAgent"]
    assert finding.lines == (1, 2, 7, 8)
    assert "user-agent lines 1, 7" in finding.message.render()


def test_named_group_message_names_the_dropped_rule() -> None:
    text = "User-agent: *\nDisallow: /cart/\nDisallow: /search/\n\nUser-agent: Yeti\nDisallow: /search/\n"
    (finding,) = [f for f in lint(parse(text)) if f.code == "namedGroupDropsGlobalRules"]
    assert (
        "yeti" in finding.message.render()
        and "/cart/ (line 2)" in finding.message.render()
        and "/search/" not in finding.message.render()
    )
    assert finding.fix.render() == "repeat the `*` rules they should obey in their group, e.g. `Disallow: /cart/`"


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

    doc = (DOCS / "lint-codes.md").read_text(encoding="utf-8")
    assert [c.code for c in CHECKS if f"| `{c.code}` |" not in doc] == []


def test_empty_disallow_is_not_a_complete_block() -> None:
    assert _lines("blocksAll", "User-agent: *\nDisallow:        \t# everything may be crawled\n") == []


def test_shadowed_rule_names_the_winner_of_the_first_crawler_that_merges_it() -> None:
    # x merges groups 1 and 2 (line 5 repeats line 2); y, named later, merges 2 and 3,
    # where the allow on line 8 would win: line 5 is reported once, as x sees it.
    text = "User-agent: x\nDisallow: /p\n\nUser-agent: x\nUser-agent: y\nDisallow: /p\n\nUser-agent: y\nAllow: /p\n"
    found = {f.line: f for f in lint(parse(text)) if f.code == "shadowedRule"}
    assert list(found) == [6] and "it repeats line 2" in found[6].message.render() and found[6].lines == (2, 6)


def test_shadowed_rule_inside_a_group_no_crawler_selects_is_not_reported() -> None:
    assert _lines("shadowedRule", "User-agent: /bot\nDisallow: /p\nDisallow: /p\n") == []


def test_first_match_order_names_the_earliest_broader_disallow() -> None:
    # A first-match parser reads `/a*` literally (no path starts with `/a*`), so it stops at line 3.
    text = "User-agent: *\nDisallow: /a*\nDisallow: /a\nDisallow: /ab\nDisallow: /a\nAllow: /abc/d\n"
    (finding,) = [f for f in lint(parse(text)) if f.code == "firstMatchOrder"]
    assert finding.line == 6 and finding.lines == (3, 6)
    assert finding.fix.render().startswith("no order serves both: the rules in conflict have `*` or `$` patterns")


def test_named_groups_past_the_step_budget_show_examples_without_a_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(robotscope.reports.linter.registry, "EXACT_STEPS", 10)
    global_rules = "".join(f"Disallow: /g{i}/\n" for i in range(8))
    text = f"User-agent: *\n{global_rules}\nUser-agent: aa\nDisallow: /x\n\nUser-agent: bb\nDisallow: /g1/\n"
    first, second = [f for f in lint(parse(text)) if f.code == "namedGroupDropsGlobalRules"]
    assert "/g4/ (line 6) and 3 more" in first.message.render() and len(first.lines) == 1 + 8  # counted: 8 steps
    assert "/g5/ (line 7) and maybe more" in second.message.render()  # past the budget: the first examples only
    assert "/g1/" not in second.message.render() and second.lines == (2, 4, 5, 6, 7, 8, 14)


def test_duplicate_agent_past_the_step_budget_lists_the_user_agent_lines_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(robotscope.reports.linter.registry, "EXACT_STEPS", 2)
    text = (
        "User-agent: a\nDisallow: /1\n\nUser-agent: a\nDisallow: /2\n\n"
        "User-agent: b\nDisallow: /3\n\nUser-agent: b\nDisallow: /4\n"
    )
    first, second = [f for f in lint(parse(text)) if f.code == "duplicateAgent"]
    assert first.lines == (1, 2, 4, 5) and second.lines == (7, 10)


# --- fixes that create no new problem, and one predicate for "the whole site" ----------------

SEED_FIRST_MATCH = "User-agent: *\nDisallow: /private/\nAllow: /private/help/\nDisallow: /private/help/old/\n"


def _reorder(text: str, group_lines: list[int], order: list[int]) -> str:
    """The file with the rule lines of one group put in `order` (a fix's suggestion)."""
    lines = text.splitlines()
    slots = sorted(order)
    moved = {slot: lines[line - 1] for slot, line in zip(slots, order, strict=True)}
    return "\n".join(moved.get(n, raw) for n, raw in enumerate(lines, 1)) + "\n"


def _first_match_allows(text: str, path: str) -> bool:
    import urllib.robotparser

    parser = urllib.robotparser.RobotFileParser()  # Python 3.11's: first matching line decides
    parser.parse(text.splitlines())
    return parser.can_fetch("bot", "https://example.com" + path)


@pytest.mark.parametrize(
    ("text", "line", "other"),
    [
        # A longer disallow below a broader allow: first-match parsers stop at the allow and fetch.
        ("User-agent: *\nAllow: /private/help/\nDisallow: /private/\nDisallow: /private/help/old/\n", 4, 2),
        ("User-agent: *\nAllow: /docs/\nDisallow: /docs/x\n", 3, 2),
        ("User-agent: *\nAllow: /\nDisallow: /private/\n", 3, 2),
    ],
)
def test_first_match_order_finds_a_disallow_that_first_match_parsers_never_reach(
    text: str, line: int, other: int
) -> None:
    (finding,) = [f for f in lint(parse(text)) if f.code == "firstMatchOrder"]
    assert (finding.line, finding.lines) == (line, (other, line))
    path = finding.message.params["path"]
    assert (
        finding.message.code == "lint.firstMatchOrder.disallow"
        and f"stop at line {other} and fetch {path}" in finding.message.render()
    )
    assert _first_match_allows(text, path) and not parse(text).can_fetch("bot", path)  # the standard library fetches it


def test_first_match_order_fix_is_right_for_first_match_parsers_too() -> None:
    # Moving the allow above line 2 alone would let it shadow line 4 for a first-match parser.
    (finding,) = [f for f in lint(parse(SEED_FIRST_MATCH)) if f.code == "firstMatchOrder"]
    order = finding.fix.params["order"]
    assert order == [4, 3, 2] and "lines 4, 3, 2" in finding.fix.render()
    fixed = _reorder(SEED_FIRST_MATCH, [2, 3, 4], order)
    assert [f.code for f in lint(parse(fixed)) if f.code == "firstMatchOrder"] == []
    for path in ("/private/x", "/private/help/a", "/private/help/old/a", "/public"):
        rfc = parse(fixed).can_fetch("bot", path)
        assert rfc == parse(SEED_FIRST_MATCH).can_fetch("bot", path) == _first_match_allows(fixed, path), path


@pytest.mark.slow  # the whole corpus
def test_every_suggested_first_match_order_in_the_corpus_fixes_what_it_claims() -> None:

    from robotscope.syntax.patterns import example_target

    checked = 0
    for path in sorted(CORPUS.iterdir()):
        text = path.read_bytes().decode("utf-8", "replace")
        robots = parse(text)
        for finding in lint(robots):
            if finding.code != "firstMatchOrder" or "order" not in finding.fix.params:
                continue
            assert finding.line is not None
            position = robots.lines[finding.line - 1].group
            assert position is not None
            group = robots.groups[position]
            fixed_text = _reorder(robots.text, [r.line for r in group.rules], finding.fix.params["order"])
            fixed = parse(fixed_text)
            assert not [
                f for f in lint(fixed) if f.code == "firstMatchOrder" and f.line in finding.fix.params["order"]
            ], path.name
            probes = [example_target(r.normalised) for r in group.rules if r.normalised][:30]
            agent = group.agents[0] if group.agents and group.agents[0] != "*" else "somebot"
            assert [fixed.can_fetch(agent, p) for p in probes] == [robots.can_fetch(agent, p) for p in probes], (
                path.name
            )
            checked += 1
            break  # one group a file keeps the test quick
    assert checked > 100


@pytest.mark.parametrize(
    "text",
    [
        "User-agent: Yeti\nAllow: /\n\nUser-agent: *\nDisallow: /\n",  # only Yeti may crawl
        "User-agent: Yeti\nDisallow:\n\nUser-agent: *\nDisallow: /\n",  # the allow-only preset's shape
        "User-agent: Googlebot\nAllow: /\n\nUser-agent: *\nDisallow: /private/\n",
        "User-agent: Googlebot\nAllow: /private/\n\nUser-agent: *\nDisallow: /private/\n",  # its own allow
    ],
)
def test_named_group_more_permissive_by_design_is_not_a_finding(text: str) -> None:
    assert _lines("namedGroupDropsGlobalRules", text) == []


def test_named_group_fix_never_blocks_the_crawler_the_group_is_for() -> None:
    text = "User-agent: *\nDisallow: /\nDisallow: /cart/\n\nUser-agent: Yeti\nDisallow: /tmp/\n"
    (finding,) = [f for f in lint(parse(text)) if f.code == "namedGroupDropsGlobalRules"]
    assert "`Disallow: /cart/`" in finding.fix.render() and "Disallow: /`" not in finding.fix.render()


@pytest.mark.parametrize("pattern", ["/", "/*", "*", "/*$", "*$", "/**", "/**$"])
def test_blocks_all_and_the_matcher_agree_on_what_matches_every_target(pattern: str) -> None:
    text = f"User-agent: *\nDisallow: {pattern}\n"
    assert _lines("blocksAll", text) == [2]
    robots = parse(text)
    assert not any(robots.can_fetch("bot", p) for p in ("/", "/a", "/a/b?c", "/%24"))


@pytest.mark.parametrize("pattern", ["/$", "/a", "$", "/*a", "/a*"])
def test_patterns_that_do_not_match_every_target_are_no_complete_block(pattern: str) -> None:
    assert _lines("blocksAll", f"User-agent: *\nDisallow: {pattern}\n") == []


def test_a_space_in_a_content_usage_path_is_named_with_its_fix() -> None:
    (finding,) = [
        f for f in lint(parse("User-agent: *\nContent-Usage: /my page train-ai=n\n")) if f.code == "usageInvalid"
    ]
    assert "`/my page` has a space" in finding.message.render()
    assert finding.fix.render() == "write the space as %20: `Content-Usage: /my%20page train-ai=n`"
