"""Verdicts: the deciding rule, its line, the groups used and every candidate."""

from __future__ import annotations

from robotscope import Reason, parse

FILE = """\
User-agent: *
Disallow: /shop/
Allow: /shop/public
Disallow: /*.pdf$

User-agent: Googlebot
Disallow: /private
Allow: /private/ok

User-agent: googlebot-news
User-agent: Googlebot
Disallow: /news-only
"""


def test_verdict_names_rule_line_group_and_candidates() -> None:
    verdict = parse(FILE).verdict("Googlebot", "https://example.com/private/ok/x")
    assert verdict.allowed and verdict.reason is Reason.RULE
    assert verdict.rule is not None and (verdict.rule.pattern, verdict.rule.line) == ("/private/ok", 8)
    assert verdict.line == 8
    assert verdict.agent_token == "googlebot"
    assert verdict.group_lines == (6, 10, 11)
    assert [(c.pattern, c.length) for c in verdict.candidates] == [("/private/ok", 11), ("/private", 8)]
    assert verdict.target == "/private/ok/x" and verdict.url == "https://example.com/private/ok/x"


def test_as_dict_has_the_verdict_fields() -> None:
    data = parse(FILE).verdict("Bingbot", "/shop/a.pdf").as_dict()
    assert data["allowed"] is False
    assert data["reason"] == "rule"
    # `/*.pdf$` is 7 octets long (`*` and `$` count one each), `/shop/` 6.
    assert data["rule"] == {"kind": "disallow", "pattern": "/*.pdf$", "line": 4, "normalised": "/*.pdf$", "length": 7}
    assert data["group_lines"] == [1]
    assert [c["pattern"] for c in data["candidates"]] == ["/*.pdf$", "/shop/"]


def test_no_group_and_no_match_reasons() -> None:
    robots = parse("User-agent: Googlebot\nDisallow: /x\n")
    verdict = robots.verdict("Bingbot", "/x")
    assert verdict.allowed and verdict.reason is Reason.NO_GROUP and verdict.group_lines == ()
    verdict = robots.verdict("Googlebot", "/y")
    assert verdict.allowed and verdict.reason is Reason.NO_MATCH and verdict.rule is None and verdict.line is None


def test_robots_txt_is_allowed_and_still_shows_candidates() -> None:
    verdict = parse("User-agent: *\nDisallow: /\n").verdict("a", "/robots.txt?x=1")
    assert verdict.allowed and verdict.reason is Reason.ROBOTS_TXT
    assert [c.line for c in verdict.candidates] == [2]
    assert not parse("User-agent: *\nDisallow: /\n").can_fetch("a", "/robots.txt.bak")


def test_adversarial_pattern_is_fast_enough_to_finish() -> None:
    # Correctness on a pattern built to make backtracking matchers explode; speed
    # is measured in benchmarks/, so this only asserts the answers.
    robots = parse("User-agent: *\nDisallow: /*a*a*a*a*a*a*a*a*a*a*a*a*b\n")
    url = "/" + "a" * 10_000
    assert robots.can_fetch("x", url)
    assert robots.verdict("x", url).allowed
    assert not robots.can_fetch("x", url + "b")


def test_many_agents_cache_stays_correct() -> None:
    robots = parse("User-agent: bot-a\nDisallow: /a\nUser-agent: *\nDisallow: /z\n")
    for i in range(600):
        assert robots.can_fetch(f"other{i}", "/a")
        assert not robots.can_fetch(f"other{i}", "/z")
    assert not robots.can_fetch("bot-a", "/a")


def test_groups_without_rules_for_named_agent_allow_everything() -> None:
    robots = parse("User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\n")
    assert robots.verdict("Googlebot", "/x").reason is Reason.NO_MATCH
    assert not robots.can_fetch("Bingbot", "/x")


def test_many_anywhere_rules_are_ruled_out_together_and_still_decide() -> None:
    text = (
        "User-agent: *\nDisallow: /*.pdf$\nDisallow: /*?\nDisallow: */feed/\nDisallow: /*sessionid\n"
        "Allow: /*?page=\nDisallow: /private/\nAllow: /$\n"
    )
    assert parse(text).rules_for("bot")._parts._heads == {"": []}  # a small set: tried in turn
    padding = "".join(f"Disallow: /k{i}/\n" for i in range(40))  # a large set, after the lines the cases name
    robots = parse(text + padding)
    ruleset = robots.rules_for("bot")
    assert len(ruleset._parts._heads) > 1  # a large set: in parts by head
    cases = {
        "/a/report.pdf": (False, 2),
        "/a/report.pdf?x": (False, 3),
        "/list?page=2": (True, 6),
        "/blog/feed/": (False, 4),
        "/x;sessionid=1": (False, 5),
        "/private/x": (False, 7),
        "/": (True, 8),
        "/about": (True, None),
    }
    for path, (allowed, line) in cases.items():
        verdict = robots.verdict("bot", path)
        assert (verdict.allowed, verdict.line) == (allowed, line), path
        assert robots.can_fetch("bot", path) is allowed, path


def test_a_few_anywhere_rules_are_scanned_one_by_one_and_still_decide() -> None:
    robots = parse("User-agent: *\nDisallow: /*.pdf$\nDisallow: /*?\nAllow: /*?page=\nAllow: /\n")
    assert robots.rules_for("bot")._parts._heads == {"": []}  # four rules: tried in turn
    cases = {"/a.pdf": (False, 2), "/a.pdf?x": (False, 3), "/x?page=1": (True, 4), "/about": (True, 5)}
    for path, (allowed, line) in cases.items():
        verdict = robots.verdict("bot", path)
        assert (verdict.allowed, verdict.line) == (allowed, line), path
        assert robots.can_fetch("bot", path) is allowed, path
        assert robots.rules_for("bot").winner(verdict.target) == verdict.rule, path


def test_crawlers_selecting_the_same_groups_share_one_index_but_keep_their_token() -> None:
    robots = parse("User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /nogoogle/\n")
    bing, gpt = robots.rules_for("Bingbot"), robots.rules_for("Mozilla/5.0 (compatible; GPTBot/1.1)")
    google = robots.rules_for("Googlebot/2.1")
    assert bing._parts is gpt._parts and bing._parts is not google._parts
    assert robots.rules_for("bingbot") is bing  # same token, same object
    for agent, token, allowed in (
        ("Bingbot", "bingbot", False),
        ("GPTBot/1.1", "gptbot", False),
        ("Googlebot", "googlebot", True),
    ):
        verdict = robots.verdict(agent, "/private/x")
        assert (verdict.agent_token, verdict.allowed) == (token, allowed)
    assert robots.verdict("GPTBot", "/private/x").line == 2 and not robots.can_fetch("Googlebot", "/nogoogle/")


def test_a_wildcard_before_the_end_anchor_needs_no_particular_ending() -> None:
    # `*$` ends anywhere: the filter must not ask the target to end in the rule's first piece.
    robots = parse("User-agent: *\nDisallow: /*?action=*$\nDisallow: /*.pdf$\n")
    for path, line in {"/x1?action=x1": 2, "/a?action=": 2, "/doc.pdf": 3, "/doc.pdf?x": None, "/plain": None}.items():
        verdict = robots.verdict("bot", path)
        assert verdict.line == line, path
        assert robots.can_fetch("bot", path) is (line is None), path
