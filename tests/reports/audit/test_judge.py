"""The judge: each request's crawler, verification, file in force, verdict by its operator's reading, and class."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from robotscope.reports.audit import judge as judge_module
from robotscope.reports.audit.classes import AuditClass, classify, exemption
from robotscope.reports.audit.judge import COLUMNS, Judge, Row
from robotscope.reports.audit.timeline import RobotsTimeline
from robotscope.reports.verification import Status, Verification
from robotscope.syntax.crawlers import catalogue, get
from tests.reports.audit.builders import (
    ANYWHERE,
    BROWSER,
    CHATGPT_USER,
    GOOGLE,
    OPENAI_GPTBOT,
    START,
    agent,
    judge_of,
    request,
    shipped_verify,
    versions,
)

HOUR = 3600.0
OLD = "User-agent: *\nDisallow: /private/\n"
NEW = "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n"


def judged(found: Judge, *args: Any, **kwargs: Any) -> Row:
    row = found.judge(request(*args, **kwargs), "access.log")
    assert row is not None
    return row


def test_a_request_is_judged_by_the_file_in_force_when_it_was_made() -> None:
    found = judge_of(*versions(None, (START, OLD), (START + 10 * HOUR, NEW)), site="https://example.com")
    before = judged(found, OPENAI_GPTBOT, agent("GPTBot"), "/blog/", START + 9 * HOUR)
    after = judged(found, OPENAI_GPTBOT, agent("GPTBot"), "/blog/", START + 11 * HOUR)
    assert (before.robots_version, before.allowed, before.line, before.audit_class) == ("v1", True, None, "allowed")
    assert (after.robots_version, after.allowed, after.line, after.rule, after.audit_class) == (
        "v2",
        False,
        2,
        "Disallow: /",
        "violation",
    )
    assert after.url == "https://example.com/blog/" and after.origin == "https://example.com"
    assert (after.token, after.operator, after.purpose, after.verification) == (
        "GPTBot",
        "OpenAI",
        "ai-training",
        "verified",
    )


def test_a_request_before_the_first_version_is_unjudged() -> None:
    found = judge_of(*versions(None, (START, OLD)))
    row = judged(found, OPENAI_GPTBOT, agent("GPTBot"), "/private/x", START - 1)
    assert (row.robots_version, row.allowed, row.audit_class) == (None, None, "unjudged")


def test_googlebot_from_outside_googles_lists_is_spoofed_whatever_it_fetched() -> None:
    found = judge_of(*versions(None, (None, OLD)))
    for target in ("/private/x", "/public", "/robots.txt"):
        row = judged(found, ANYWHERE, agent("Googlebot"), target, START)
        assert (row.verification, row.audit_class) == ("spoofed", "spoofed"), target
    assert judged(found, GOOGLE, agent("Googlebot"), "/private/x", START).audit_class == "violation"


def test_the_crawlers_operator_reads_the_file() -> None:
    # Google reads `Disallow /oops` (no colon) as a rule; RFC 9309 ignores the line.
    found = judge_of(*versions(None, (None, "User-agent: *\nDisallow /oops\n")))
    google = judged(found, GOOGLE, agent("Googlebot"), "/oops", START)
    openai = judged(found, OPENAI_GPTBOT, agent("GPTBot"), "/oops", START)
    assert (google.engine, google.allowed, google.line, google.audit_class) == ("google", False, 2, "violation")
    assert (openai.engine, openai.allowed, openai.line, openai.audit_class) == (
        "rfc9309+profiles",
        True,
        None,
        "allowed",
    )


def test_robots_txt_and_user_triggered_fetchers_are_exempt_with_the_reason() -> None:
    found = judge_of(*versions(None, (None, "User-agent: *\nDisallow: /\n")))
    robots = judged(found, OPENAI_GPTBOT, agent("GPTBot"), "/robots.txt", START)
    user = judged(found, CHATGPT_USER, agent("ChatGPT-User"), "/page", START)
    feed = judged(found, GOOGLE, agent("FeedFetcher-Google"), "/feed.xml", START)
    assert (robots.audit_class, robots.exempt, robots.allowed) == ("exempt", "robots-txt", True)
    assert (user.audit_class, user.exempt, user.allowed, user.line) == ("exempt", "user-triggered", False, 2)
    assert (feed.audit_class, feed.exempt) == ("exempt", "ignores")
    # Anthropic documents Claude-User as obeying robots.txt: no exemption.
    claude = get("Claude-User")
    assert claude is not None and exemption(claude) is None


def test_an_unverifiable_claim_that_breaks_the_file_is_unverified_not_a_violation() -> None:
    found = judge_of(*versions(None, (None, "User-agent: *\nDisallow: /\n")))
    row = judged(found, ANYWHERE, agent("CCBot"), "/x", START)  # Common Crawl publishes no list
    assert (row.verification, row.allowed, row.audit_class) == ("unverifiable", False, "unverified")
    allowed = judge_of(*versions(None, (None, "User-agent: *\nDisallow: /private/\n")))
    assert judged(allowed, ANYWHERE, agent("CCBot"), "/x", START).audit_class == "allowed"


def test_a_request_of_no_catalogue_crawler_is_not_judged() -> None:
    asked: list[str] = []

    def verify(ip: str, user_agent: str, when: float | None) -> Verification:
        asked.append(ip)
        return shipped_verify(ip, user_agent, when)

    found = Judge(RobotsTimeline(versions(None, (None, OLD))).in_force, verify)
    assert found.judge(request(ANYWHERE, BROWSER, "/private/x", START)) is None
    assert found.judge(request(ANYWHERE, "", "/", START)) is None
    assert asked == []  # nothing to verify


def test_a_client_that_is_no_address_is_inconclusive() -> None:
    found = judge_of(*versions(None, (None, OLD)))
    row = judged(found, "crawl-66-249-66-1.googlebot.com", agent("Googlebot"), "/private/", START)
    assert (row.verification, row.audit_class) == ("inconclusive", "unverified")


def test_the_origin_comes_from_the_logged_host_else_the_site() -> None:
    by_origin = versions("https://a.example", (None, "User-agent: *\nDisallow: /a\n")) + versions(
        "https://b.example", (None, "User-agent: *\nDisallow: /b\n")
    )
    found = judge_of(*by_origin, site="https://a.example")
    a = judged(found, GOOGLE, agent("Googlebot"), "/a", START)  # no host: the site's
    b = judged(found, GOOGLE, agent("Googlebot"), "/b", START, host="b.example")  # the site's scheme
    b_http = judged(found, GOOGLE, agent("Googlebot"), "/b", START, host="b.example", scheme="http")
    assert (a.origin, a.allowed) == ("https://a.example", False)
    assert (b.origin, b.allowed) == ("https://b.example", False)
    assert (b_http.origin, b_http.allowed, b_http.audit_class) == ("http://b.example", None, "unjudged")
    nowhere = judge_of(*by_origin)
    assert judged(nowhere, GOOGLE, agent("Googlebot"), "/a", START).audit_class == "unjudged"
    with pytest.raises(ValueError):
        Judge(RobotsTimeline([]).in_force, shipped_verify, site="not a site")


def test_crawl_delay_is_the_one_the_file_in_force_gives_the_crawler() -> None:
    text = "User-agent: bingbot\nCrawl-delay: 10\n\nUser-agent: *\nCrawl-delay: 2\nDisallow: /x\n"
    found = judge_of(*versions(None, (None, text)))
    assert judged(found, GOOGLE, agent("Googlebot"), "/", START).crawl_delay == 2
    assert judged(found, "157.55.39.5", agent("bingbot"), "/", START).crawl_delay == 10
    failed = judge_of(*versions(None, (None, "")))
    assert judged(failed, GOOGLE, agent("Googlebot"), "/", START).crawl_delay is None


@pytest.mark.source  # counts the version's verdicts by replacing its method
def test_verdicts_and_user_agents_are_asked_once_and_kept_within_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(judge_module, "VERDICTS", 4)
    monkeypatch.setattr(judge_module, "AGENTS", 3)
    (version,) = versions(None, (None, OLD))
    asked: list[str] = []
    real = version.verdict

    def counted(agent: str, url: str, policy: str = "rfc9309", engine: str = "rfc9309") -> Any:
        asked.append(url)
        return real(agent, url, policy, engine)

    object.__setattr__(version, "verdict", counted)
    found = judge_of(version)
    for _ in range(3):
        for path in ("/a", "/b"):
            judged(found, GOOGLE, agent("Googlebot"), path, START)
    assert asked == ["/a", "/b"]
    for n in range(10):
        judged(found, GOOGLE, f"Googlebot/{n}", f"/{n}", START)
    assert len(found._verdicts) <= 4 and len(found._claimed) <= 3


def test_a_claims_status_is_asked_once_for_the_moments_its_lists_are_in_force(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(judge_module, "CLAIMS", 2)
    asked: list[tuple[str, str, float | None]] = []

    def verify(ip: str, user_agent: str, when: float | None) -> Verification:
        asked.append((ip, user_agent, when))
        return shipped_verify(ip, user_agent, when)

    change = START + 10 * HOUR  # the lists change then: a claim before it holds until then, one after from then

    def spans(when: float) -> tuple[float, float]:
        return (float("-inf"), change) if when < change else (change, float("inf"))

    timeline = RobotsTimeline(versions(None, (None, OLD)))
    found = Judge(timeline.in_force, verify, spans=spans)
    for hour in range(3):
        judged(found, GOOGLE, agent("Googlebot"), "/", START + hour * HOUR)
        judged(found, GOOGLE, "Googlebot/2.1", "/", START + hour * HOUR)  # the same crawler, said otherwise
    assert asked == [(GOOGLE, agent("Googlebot"), START)]
    assert judged(found, GOOGLE, agent("Googlebot"), "/", change).verification == "verified"
    assert judged(found, GOOGLE, agent("Googlebot"), "/", change + HOUR).verification == "verified"
    assert asked[1:] == [(GOOGLE, agent("Googlebot"), change)]
    assert judged(found, ANYWHERE, agent("Googlebot"), "/", START).verification == "spoofed"
    assert judged(found, "not-an-address", agent("Googlebot"), "/", START).verification == "inconclusive"
    assert judged(found, "not-an-address", agent("Googlebot"), "/", START).verification == "inconclusive"
    assert len(asked) == 4 and len(found._claims) <= 2  # the bound held, the address that is none asked once
    # Without spans every request is asked, and a request without a time always is.
    plain = Judge(timeline.in_force, verify)
    for _ in range(2):
        judged(plain, GOOGLE, agent("Googlebot"), "/", START)
        judged(found, GOOGLE, agent("Googlebot"), "/", None)
    assert len(asked) == 8


def test_a_long_target_is_judged_each_time_never_kept() -> None:
    # A scanner's distinct long URLs (8 KB each, as servers allow) would fill the verdicts' cache with 500 MB.
    found = judge_of(*versions(None, (None, OLD)))
    for n in range(20):
        long_target = f"/private/{n}/" + "x" * judge_module.LONGEST_KEPT
        assert not judged(found, GOOGLE, agent("Googlebot"), long_target, START).allowed
    assert len(found._verdicts) == 0
    judged(found, GOOGLE, agent("Googlebot"), "/private/short", START)
    assert len(found._verdicts) == 1


def test_rows_name_every_column() -> None:
    found = judge_of(*versions(None, (None, OLD)))
    row = judged(found, GOOGLE, agent("Googlebot"), "/private/x", START, status=403, number=7)
    data = row.as_dict()
    assert list(data) == list(COLUMNS)
    assert {"time", "ip", "method", "url", "status", "user_agent", "token", "purpose", "verification"} <= set(data)
    assert {"robots_version", "allowed", "line", "rule", "class"} <= set(data)
    assert (data["source"], data["number"], data["status"], data["class"]) == ("access.log", 7, 403, "violation")


@given(
    status=st.sampled_from(list(Status)),
    exempt=st.sampled_from([None, "robots-txt", "ignores"]),
    allowed=st.sampled_from([None, True, False]),
)
def test_the_precedence_of_classes(status: Status, exempt: str | None, allowed: bool | None) -> None:
    found = AuditClass(classify(status, exempt, allowed))
    if status is Status.SPOOFED:
        assert found is AuditClass.SPOOFED
    elif exempt is not None:
        assert found is AuditClass.EXEMPT
    elif allowed is None:
        assert found is AuditClass.UNJUDGED
    elif allowed:
        assert found is AuditClass.ALLOWED
    else:
        assert found is (AuditClass.VIOLATION if status is Status.VERIFIED else AuditClass.UNVERIFIED)


def test_exemptions_follow_the_catalogue() -> None:
    exempt = {crawler.token: exemption(crawler) for crawler in catalogue() if exemption(crawler)}
    assert exempt["ChatGPT-User"] == exempt["meta-externalfetcher"] == "user-triggered"
    assert exempt["Perplexity-User"] == exempt["Google-Safety"] == "ignores"
    assert "GPTBot" not in exempt and "facebookexternalhit" not in exempt  # partial, not user-triggered
    assert all(get(token).obeys_robots in ("no", "partial") for token in exempt)  # type: ignore[union-attr]


_CHANGE = START + 10 * HOUR  # when the (test's) IP lists change: Googlebot's addresses stop being Google's


def _verify_changing(ip: str, user_agent: str, when: float | None) -> Verification:
    """The shipped lists' verdict before `_CHANGE`; after it, every claim as from an address in no list."""
    return shipped_verify(ip if when is None or when < _CHANGE else ANYWHERE, user_agent, when)


def _spans(when: float) -> tuple[float, float]:
    return (float("-inf"), _CHANGE) if when < _CHANGE else (_CHANGE, float("inf"))


def _judge_with_grace() -> Judge:
    timeline = RobotsTimeline(versions(None, (None, OLD), (START + 5 * HOUR, NEW)))
    return Judge(timeline.in_force, _verify_changing, spans=_spans, in_grace=timeline.in_grace)


_REQUESTS = st.tuples(
    st.sampled_from([GOOGLE, OPENAI_GPTBOT, ANYWHERE, "not-an-address"]),
    st.sampled_from([agent("Googlebot"), "Googlebot/2.1", agent("GPTBot"), BROWSER]),
    st.sampled_from(["/", "/private/x", "/blog", "/robots.txt", "/" + "x" * 600]),
    # Before NEW, within its grace before and after the lists change, past its grace; and no time at all.
    st.sampled_from([None, 0, 4, 6, 9, 10, 11, 30]).map(lambda hours: None if hours is None else START + hours * HOUR),
)


@given(st.lists(_REQUESTS, max_size=40))
@example(
    [(OPENAI_GPTBOT, agent("GPTBot"), "/", START), (OPENAI_GPTBOT, agent("GPTBot"), "/private/x", START + 6 * HOUR)]
)
def test_what_the_judge_keeps_never_changes_a_row(asked: list[tuple[str, str, str, float | None]]) -> None:
    # Caches of two entries turn on nearly every request: kept statuses, verdicts and crawlers move between
    # `recent` and `earlier` and are dropped; roomy ones keep all. Each row must be what a judge that has kept
    # nothing says.
    with pytest.MonkeyPatch.context() as patch:
        for bound in ("VERDICTS", "AGENTS", "CLAIMS"):
            patch.setattr(judge_module, bound, 2)
        tiny = _judge_with_grace()
    roomy = _judge_with_grace()
    for number, (ip, user_agent, target, when) in enumerate(asked, 1):
        made = request(ip, user_agent, target, when, number=number)
        fresh = _judge_with_grace().judge(made, "access.log")
        assert tiny.judge(made, "access.log") == fresh and roomy.judge(made, "access.log") == fresh
