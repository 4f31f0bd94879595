"""Product tokens of user-agent lines and of crawlers' User-Agent strings."""

from __future__ import annotations

import re

import pytest

from robotscope.syntax.crawlers import catalogue
from robotscope.syntax.tokens import group_token, is_product_token, product_token


@pytest.mark.parametrize(
    ("value", "token"),
    [
        ("Googlebot", "googlebot"),
        ("Googlebot/2.1", "googlebot"),
        ("Googlebot Images", "googlebot"),
        ("Googlebot-Image", "googlebot-image"),
        ("AdsBot_Google", "adsbot_google"),
        ("*", "*"),
        ("* all of them", None),  # RFC 9309: `*` is a whole product token (Google reads this as `*`)
        ("*bot", None),
        ("/bot", None),
        ("", None),
        ("bot2000", "bot2000"),
        ("360Spider", "360spider"),
        ("MJ12bot/v1.4", "mj12bot"),
        ("Rule1TestBot", "rule1testbot"),
    ],
)
def test_group_token(value: str, token: str | None) -> None:
    assert group_token(value) == token


@pytest.mark.parametrize(
    ("agent", "token"),
    [
        ("Googlebot", "googlebot"),
        ("Googlebot-News", "googlebot-news"),
        ("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "googlebot"),
        (
            (
                "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) "
                "Chrome/126.0.6478.126 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
            ),
            "googlebot",
        ),
        (
            "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)",
            "gptbot",
        ),
        ("ExampleBot/1.0", "examplebot"),
        ("Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "bingbot"),
        ("Mozilla/5.0 (compatible; Yeti/1.1; +https://naver.me/spd)", "yeti"),
        ("Googlebot-Image/1.0", "googlebot-image"),
        ("CCBot/2.0 (https://commoncrawl.org/faq/)", "ccbot"),
        ("facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", "facebookexternalhit"),
        (
            (
                "Mozilla/5.0 (X11; Linux x86_64; Storebot-Google/1.0) AppleWebKit/537.36 (KHTML, like Gecko) "
                "Chrome/126.0 Safari/537.36"
            ),
            "storebot-google",
        ),
        ("  Slurp  ", "slurp"),
        ("", ""),
    ],
)
def test_product_token(agent: str, token: str) -> None:
    assert product_token(agent) == token


def test_leading_bare_word_is_the_product() -> None:
    assert product_token("FigTree Robot libwww-perl/5.04") == "figtree"
    assert product_token("compatible; Googlebot/2.1") == "googlebot"


@pytest.mark.parametrize(
    ("agent", "token"),
    [
        ("Mozilla/5.0 (compatible; 360Spider)", "360spider"),
        ("Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)", "slurp"),
        ("Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)", "sogou"),
        (
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 14_7_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                "Version/14.1.2 Mobile/15E148 Safari/604.1 (compatible; AdsBot-Google-Mobile; "
                "+http://www.google.com/mobile/adsbot.html)"
            ),
            "adsbot-google-mobile",
        ),
        (
            "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GoogleOther) Chrome/W.X.Y.Z Safari/537.36",
            "googleother",
        ),
        # A browser names no crawler: its first product, as before.
        ("Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0)", "mozilla"),
    ],
)
def test_a_browser_like_string_names_the_crawler_of_its_compatible_comment(agent: str, token: str) -> None:
    assert product_token(agent) == token


def _examples() -> list[tuple[str, str]]:
    """Every example User-Agent string of the catalogue (a row may give several, labelled), with its token."""
    found = []
    for crawler in catalogue():
        for example in filter(None, crawler.user_agent.split(" | ")):
            example = re.sub(r"^[A-Za-z]+: ", "", example)  # `Desktop: Mozilla/5.0 ...`
            if not example.startswith("("):  # `(Various mobile device types) ...`: no real string
                found.append((example, crawler.token))
    return found


def test_every_catalogue_user_agent_string_yields_its_own_token() -> None:
    examples = _examples()
    wrong = [(agent, token, product_token(agent)) for agent, token in examples if product_token(agent) != token.lower()]
    assert len(examples) > 40 and wrong == []


@pytest.mark.parametrize(
    ("value", "whole"),
    [
        ("GPTBot", True),
        ("MJ12bot", True),
        ("Google-Extended", True),
        ("_x", True),
        ("ChatGPT Agent", False),
        ("MistralAI-User/1.0", False),
        ("bigsur.ai", False),
        ("*", False),
        ("", False),
        ("Bot\n", False),
    ],
)
def test_a_product_token_as_written_is_letters_digits_dash_and_underscore(value: str, whole: bool) -> None:
    assert is_product_token(value) is whole
    # What `group_token` reads of a whole token is the token itself.
    assert not whole or group_token(value) == value.lower()
