"""The crawler catalogue: lookups from real User-Agent strings, and operator profiles."""

from __future__ import annotations

import pytest

from robotscope import parse
from robotscope.access.engines.registry import PROFILED, engine
from robotscope.reports.compare.matrix import matrix
from robotscope.syntax import crawlers

# Real User-Agent strings as operators document them, and the catalogue token they must resolve to.
USER_AGENTS = [
    ("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"),
    (
        (
            "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/131.0.6778.69 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
        ),
        "Googlebot",
    ),
    ("Googlebot-Image/1.0", "Googlebot-Image"),
    ("Googlebot-Video/1.0", "Googlebot-Video"),
    ("Mozilla/5.0 (compatible; Google-InspectionTool/1.0;)", "Google-InspectionTool"),
    ("Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "bingbot"),
    (
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.3; +https://openai.com/gptbot",
        "GPTBot",
    ),
    (
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
        "ClaudeBot",
    ),
    (
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)",
        "PerplexityBot",
    ),
    ("CCBot/2.0 (https://commoncrawl.org/faq/)", "CCBot"),
    ("Mozilla/5.0 (compatible; Yeti/1.1; +https://naver.me/spd)", "Yeti"),
    ("Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", "YandexBot"),
    ("Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)", "Baiduspider"),
    ("DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)", "DuckDuckBot"),
    (
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 "
            "Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)"
        ),
        "Applebot",
    ),
    ("facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", "facebookexternalhit"),
    ("Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)", "AhrefsBot"),
    ("Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)", "SemrushBot"),
    ("Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)", "MJ12bot"),
    ("Twitterbot/1.0", "Twitterbot"),
    (
        "Mozilla/5.0 (compatible; SeznamBot/4.0; +https://o-seznam.cz/napoveda/vyhledavani/en/seznambot-crawler/)",
        "SeznamBot",
    ),
]


@pytest.mark.parametrize(("agent", "token"), USER_AGENTS)
def test_recognise_real_user_agent_strings(agent: str, token: str) -> None:
    crawler = crawlers.recognise(agent)
    assert crawler is not None and crawler.token == token


def test_every_entry_has_a_purpose_and_a_source() -> None:
    entries = crawlers.catalogue()
    assert len(entries) >= 60
    assert len({c.token.lower() for c in entries}) == len(entries)
    for c in entries:
        assert c.purpose in crawlers.PURPOSES, c
        # Every fact has a source, or the entry says it has none and is low confidence.
        assert c.source.startswith("http") or c.confidence.startswith("low"), c
        assert c.obeys_robots in ("yes", "no", "partial", "unknown", "n/a"), c
        assert c.fallback is None or crawlers.get(c.fallback) is not None or c.fallback == "Yandex", c


def test_selections() -> None:
    search = {c.token for c in crawlers.select("search")}
    ai = {c.token for c in crawlers.select("ai")}
    assert {"Googlebot", "bingbot", "Yeti"} <= search and "GPTBot" not in search
    assert {"GPTBot", "OAI-SearchBot", "ClaudeBot", "Google-Extended"} <= ai and "Googlebot" not in ai
    custom = crawlers.select("Googlebot, MyBot")
    assert [c.token for c in custom] == ["Googlebot", "MyBot"] and custom[1].purpose == "other"


def test_fallback_profile_changes_the_answer_and_says_so() -> None:
    robots = parse("User-agent: *\nAllow: /\n\nUser-agent: Googlebot\nDisallow: /photos/\n")
    result = robots.answer("Googlebot-Image", "/photos/1.jpg")
    assert result.rfc.allowed and not result.verdict.allowed and result.changed
    assert result.verdict.line == 5 and result.verdict.agent_token == "googlebot-image"
    assert result.profile is not None and "obeys the Googlebot group" in result.profile.render()
    assert result.note is not None and "RFC 9309 alone would say allowed" in result.note.render()
    # The same through a full User-Agent string.
    assert not robots.answer("Googlebot-Image/1.0", "/photos/1.jpg").verdict.allowed


def test_adsbot_ignores_the_global_group() -> None:
    robots = parse("User-agent: *\nDisallow: /\n")
    adsbot = crawlers.get("AdsBot-Google")
    assert adsbot is not None and adsbot.ignores_global
    result = robots.answer("AdsBot-Google", "/landing")
    assert not result.rfc.allowed and result.verdict.allowed and result.changed
    named = parse("User-agent: AdsBot-Google\nDisallow: /landing\n")
    assert not named.answer("AdsBot-Google", "/landing").verdict.allowed
    assert named.answer("AdsBot-Google", "/landing").profile is None


def test_the_profiled_reading_cites_every_page_a_profile_comes_from() -> None:
    # Each profile row's first source is its operator's page (later ones back other facts of the row).
    cited = {
        crawler.source.split(";")[0].split()[0]
        for crawler in crawlers.catalogue()
        if crawler.fallback or crawler.ignores_global
    }
    assert len(cited) == 5 and cited <= set(engine(PROFILED).sources)


def test_matrix_groups_rows_by_purpose() -> None:
    robots = parse("User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: *\nDisallow: /cart/\n")
    rows = matrix(robots, crawlers.select("GPTBot,Googlebot,OAI-SearchBot,CCBot"), ["/", "/cart/"])
    assert [r.crawler.token for r in rows] == ["Googlebot", "OAI-SearchBot", "GPTBot", "CCBot"]
    assert [[c.verdict.allowed for c in r.cells] for r in rows] == [
        [True, False],
        [True, False],
        [False, False],
        [False, False],
    ]
    assert rows[2].cells[0].verdict.line == 3
