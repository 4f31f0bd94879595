"""The plan: each crawler's rules best first, grouped, trimmed; IP lists for --unverified-only; what is said."""

from __future__ import annotations

import sys

import pytest

from robotscope import parse
from robotscope.reports.enforce import choose, plan
from robotscope.syntax.verification import method

ROBOTS = """\
User-agent: GPTBot
User-agent: ClaudeBot
Disallow: /private/
Allow: /private/open/
Allow: /zzz

User-agent: PerplexityBot
Allow: /

User-agent: *
Disallow: /admin/
"""


def test_crawlers_obeying_the_same_rules_share_a_group_with_the_rules_best_first() -> None:
    robots = parse(ROBOTS)
    made = plan(robots, choose(robots, "GPTBot,ClaudeBot,PerplexityBot,Amazonbot"))
    first, second = made.groups
    assert (first.tokens, first.agent_lines) == (("GPTBot", "ClaudeBot"), (1, 2))
    # Longest first; `Allow: /zzz`, after the last disallow, decides nothing no match would not.
    assert [(rule.line, rule.allow) for rule in first.rules] == [(4, True), (3, False)]
    assert (second.tokens, second.agent_lines, [rule.line for rule in second.rules]) == (("Amazonbot",), (10,), [11])
    assert made.lines == {1: "User-agent: GPTBot", 2: "User-agent: ClaudeBot", 3: "Disallow: /private/"} | {
        4: "Allow: /private/open/",
        10: "User-agent: *",
        11: "Disallow: /admin/",
    }
    assert [note.code for note in made.notes] == ["enforce.nothing-to-refuse"]
    assert made.notes[0].render() == (
        "nothing to refuse for 1 crawler (robots.txt lets them fetch everything): PerplexityBot"
    )


def test_a_crawler_obeys_the_group_its_operators_profile_chooses() -> None:
    robots = parse("User-agent: Googlebot\nDisallow: /x/\n\nUser-agent: *\nDisallow: /\n")
    made = plan(robots, choose(robots, "Googlebot-Image,AdsBot-Google"))
    (group,) = made.groups
    assert group.tokens == ("Googlebot-Image",) and [rule.pattern for rule in group.rules] == ["/x/"]
    # AdsBot-Google ignores the `*` group: nothing to refuse.
    assert [note.code for note in made.notes] == ["enforce.nothing-to-refuse", "profile.fallback"]


def test_unverified_only_refuses_by_the_operators_shipped_lists_and_says_who_cannot_be() -> None:
    robots = parse("User-agent: *\nDisallow: /\n")
    chosen = "GPTBot,ClaudeBot,Claude-User,Bytespider,FeedFetcher-Google,Google-Agent"
    made = plan(robots, choose(robots, chosen), True)
    assert [(group.tokens, group.lists) for group in made.groups] == [
        (("GPTBot",), ("openai-gptbot.json",)),
        (("ClaudeBot", "Claude-User"), ("anthropic-bots.json",)),  # one list for both: one group
    ]
    assert len(made.addresses["openai-gptbot.json"]) > 5 and "/" in made.addresses["anthropic-bots.json"][0]
    texts = [note.render() for note in made.notes]
    assert texts == [
        "Bytespider: its operator publishes no IP list, so --unverified-only cannot refuse it: left out",
        # google-user-triggered-fetchers.json ships, but Google's own fetchers send from the list that does not.
        "FeedFetcher-Google: of its IP lists, google-user-triggered-fetchers-google.json does not ship with "
        "robotscope, and the crawler itself may send from its addresses, so --unverified-only cannot refuse it: "
        "left out",
        "Google-Agent: its IP list (google-user-triggered-agents.json) does not ship with robotscope, so "
        "--unverified-only cannot refuse it: left out",
    ]
    assert "google-user-triggered-fetchers.json" not in made.addresses


def test_a_crawler_some_of_whose_lists_do_not_ship_is_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    found = method("GPTBot")
    assert found is not None
    three = found._replace(lists=("openai-gptbot.json", "openai-unknown.json", "openai-other.json"))
    # The module, not the function of its name that the package exports.
    monkeypatch.setattr(sys.modules["robotscope.reports.enforce.plan"], "method", lambda token: three)
    robots = parse("User-agent: *\nDisallow: /\n")
    made = plan(robots, choose(robots, "GPTBot"), True)
    assert made.groups == () and made.addresses == {}
    assert made.notes[0].render() == (
        "GPTBot: of its IP lists, openai-unknown.json, openai-other.json do not ship with robotscope, and the "
        "crawler itself may send from their addresses, so --unverified-only cannot refuse it: left out"
    )
    assert "IP 목록 가운데 openai-unknown.json, openai-other.json이 robotscope에" in made.notes[0].render("ko")
