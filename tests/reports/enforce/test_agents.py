"""Which crawlers an export refuses, the checks before it, and the one User-Agent match every server uses."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from robotscope import parse
from robotscope.reports.enforce import NotAToken, choose, claims, collateral, token_problem
from robotscope.syntax.crawlers import SELECTIONS, catalogue

GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot"
BAIDU = "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)"
IE = "Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0; SLCC2; .NET CLR 2.0.50727)"


@pytest.mark.parametrize(
    ("user_agent", "token", "claimed"),
    [
        (GPTBOT, "GPTBot", True),
        ("gptbot/1.0", "GPTBot", True),
        ("GPTBOT", "gptbot", True),
        ("NotGPTBot/1", "GPTBot", False),
        ("GPTBotX/1", "GPTBot", False),
        ("Not-Cursor/1.0", "Cursor", False),  # `-` is part of a token: no `\b` here
        ("NotCursor/1.0", "Cursor", False),
        ("CursorNot/1.0", "Cursor", False),
        ("cursor/0.42 (macOS)", "Cursor", True),
        (BAIDU, "Spider", False),  # neither inside Baiduspider nor in its URL
        (BAIDU, "Baiduspider", True),
        (IE, "LCC", False),
        ("Applebot/0.1", "Applebot-Extended", False),
        ("Applebot-Extended/1.0", "Applebot", False),
        ("Mozilla/5.0 (compatible;GPTBot/1.0)", "GPTBot", True),
        ("x,GPTBot", "GPTBot", True),
        ("GPTBot\tx", "GPTBot", True),
        ("+claudebot@anthropic.com", "ClaudeBot", False),  # an address, not a product
        ("", "GPTBot", False),
    ],
)
def test_a_request_claims_a_crawler_by_its_whole_token_in_a_products_place(
    user_agent: str, token: str, claimed: bool
) -> None:
    assert claims(user_agent, token) is claimed


TOKEN = st.text(alphabet="abcXYZ09_-", min_size=1, max_size=6)
AROUND = st.text(alphabet="ab-_/ ;(),.+:@\tX9", max_size=8)


@given(before=AROUND, token=TOKEN, after=AROUND)
def test_claims_is_a_product_token_between_product_separators(before: str, token: str, after: str) -> None:
    # The plain reading: the token, case-insensitively, after the start or one of ` \t(,;` and before the end
    # or one of ` \t),/;`, somewhere in the string.
    user_agent = before + token.swapcase() + after
    plain = any(
        user_agent[at : at + len(token)].lower() == token.lower()
        and (at == 0 or user_agent[at - 1] in " \t(,;")
        and (at + len(token) == len(user_agent) or user_agent[at + len(token)] in " \t),/;")
        for at in range(len(user_agent) - len(token) + 1)
    )
    assert claims(user_agent, token) is plain


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("ChatGPT Agent", "enforce.token.space"),
        ("MistralAI-User/1.0", "enforce.token.slash"),
        ("bigsur.ai", "enforce.token.dot"),
        ("*bot", "enforce.token.character"),
        ("", "enforce.token.empty"),
    ],
)
def test_a_name_that_is_no_product_token_is_refused_with_the_reason(value: str, reason: str) -> None:
    problem = token_problem(value)
    assert problem is not None and problem.code == reason
    with pytest.raises(NotAToken) as refused:
        choose(parse(""), f"GPTBot,{value}")
    assert refused.value.reason.params["reason"] == problem
    assert token_problem("MJ12bot") is None and token_problem("Google-Extended") is None


def test_ai_is_the_catalogues_ai_crawlers_without_the_control_tokens_that_send_no_requests() -> None:
    choice = choose(parse(""), "ai")
    tokens = [chosen.token for chosen in choice.chosen]
    ai = [c.token for c in catalogue() if c.purpose in SELECTIONS["ai"]]
    assert set(tokens) == set(ai) - {"Google-Extended", "Applebot-Extended"}
    assert "YandexAdditional" in tokens  # a control token, but one the catalogue shows sending requests
    skipped = [note.params["token"] for note in choice.skipped]
    assert sorted(skipped) == ["Applebot-Extended", "Google-Extended"]
    assert "sends no requests" in choice.skipped[0].render()
    assert "요청을 보내지 않습니다" in choice.skipped[0].render("ko")


def test_all_named_takes_every_token_the_groups_name_and_refuses_the_lines_that_name_none() -> None:
    robots = parse(
        "User-agent: GPTBot\nUser-agent: gptbot\nUser-agent: ChatGPT Agent\nUser-agent: *\n"
        "User-agent: bigsur.ai\nUser-agent: *bot\nUser-agent: Google-Extended\nDisallow: /\n"
    )
    choice = choose(robots, "all-named")
    assert [chosen.token for chosen in choice.chosen] == ["GPTBot"]
    texts = [note.render() for note in choice.skipped]
    assert texts[0] == (
        "line 3: `ChatGPT Agent` is no product token (it has a space): left out "
        "(crawlers read the line as naming `chatgpt`)"
    )
    assert texts[1].startswith("line 5: `bigsur.ai` is no product token (it has a dot")
    assert texts[2] == "line 6: `*bot` is no product token (it has `*`) and names no crawler: left out"
    assert texts[3].startswith("Google-Extended is a robots.txt control token of Google")


def test_a_list_keeps_its_order_and_spelling_and_names_unknown_crawlers_too() -> None:
    choice = choose(parse(""), "gptbot, SomeNewBot ,GPTBot")
    assert [(c.token, c.crawler is not None) for c in choice.chosen] == [("GPTBot", True), ("SomeNewBot", False)]


@pytest.mark.parametrize(
    ("token", "hit"),
    [
        ("Code", "Visual Studio Code"),
        ("Scrapy", "Scrapy's default"),
        ("Mozilla", "Chrome on Windows"),
        ("Chrome", "Chrome on Windows"),
        ("Safari", "Safari on iPhone"),
    ],
)
def test_a_generic_name_is_warned_about_with_the_innocent_agents_it_hits(token: str, hit: str) -> None:
    assert hit in [agent.name for agent in collateral(token)]
    choice = choose(parse(""), token)
    assert len(choice.warnings) == 1 and hit in choice.warnings[0].render()


@pytest.mark.parametrize("token", ["Spider", "Cursor", "LCC", "GPTBot", "ClaudeBot", "Applebot", "Baiduspider"])
def test_a_specific_name_hits_no_innocent_agent(token: str) -> None:
    assert collateral(token) == ()
    assert choose(parse(""), token).warnings == ()


def test_the_match_reads_alike_in_every_regex_engine_it_is_written_for() -> None:
    # Only what PCRE, RE2 and POSIX-like engines share: no lookaround, no `\b`, escapes as `\xHH`.
    from robotscope.reports.enforce import agent_regex

    text = agent_regex(("GPTBot", "Claude-User"))
    assert "\\b" not in text and "(?=" not in text and "(?<" not in text and " " not in text
    assert re.search(text, "Claude-User/1.0", re.IGNORECASE) and not re.search(text, "Claude-Users", re.IGNORECASE)
