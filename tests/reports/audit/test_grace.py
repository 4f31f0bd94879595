"""The grace window: a request the file in force disallows, made just after that file came into force, is within
grace when a file before it allowed it (the crawler's cached copy), and counted apart from violations."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from robotscope.reports.audit import judge as judge_module
from robotscope.reports.audit.classes import AuditClass
from robotscope.reports.audit.html import report
from robotscope.reports.audit.judge import COLUMNS, GRACE, Judge, Row
from robotscope.reports.audit.summary import Summary
from robotscope.reports.audit.timeline import RobotsTimeline, RobotsVersion
from robotscope.reports.audit.views import crawler_rows, duration, summary_view
from robotscope.reports.htmltags import start_tags
from tests.reports.audit.builders import (
    ANYWHERE,
    GOOGLE,
    OPENAI_GPTBOT,
    START,
    agent,
    request,
    shipped_verify,
    versions,
)

HOUR = 3600.0
SITE = "https://shop.example"
OLD = "User-agent: *\nDisallow: /private/\n"
NEW = "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n"
CHANGE = START + 12 * HOUR  # NEW in force from here: GPTBot is disallowed /blog, which OLD allowed it


def history(*files: tuple[float, str]) -> list[RobotsVersion]:
    return versions(SITE, *files)


def grace_judge(found: list[RobotsVersion], grace: float = GRACE) -> Judge:
    timeline = RobotsTimeline(found)
    return Judge(timeline.in_force, shipped_verify, SITE, in_grace=timeline.in_grace, grace=grace)


def row_of(found: Judge, ip: str, token: str, target: str, when: float) -> Row:
    row = found.judge(request(ip, agent(token), target, when), "access.log")
    assert row is not None
    return row


def test_a_newly_disallowed_path_is_within_grace_for_a_day_then_a_violation() -> None:
    judge = grace_judge(history((START, OLD), (CHANGE, NEW)))
    soon = row_of(judge, OPENAI_GPTBOT, "GPTBot", "/blog", CHANGE + HOUR)
    # Judged by the file in force, its deciding line and all; the earlier file that allowed it is named.
    assert (soon.robots_version, soon.allowed, soon.line, soon.rule) == ("v2", False, 2, "Disallow: /")
    assert (soon.audit_class, soon.grace_version, soon.verification) == ("grace", "v1", "verified")
    late = row_of(judge, OPENAI_GPTBOT, "GPTBot", "/blog", CHANGE + 25 * HOUR)
    assert (late.audit_class, late.grace_version, late.line) == ("violation", None, 2)
    # The window is [since, since + grace): its last second is in, the end is out.
    assert row_of(judge, OPENAI_GPTBOT, "GPTBot", "/blog", CHANGE + GRACE - 1).audit_class == "grace"
    assert row_of(judge, OPENAI_GPTBOT, "GPTBot", "/blog", CHANGE + GRACE).audit_class == "violation"


def test_a_path_the_earlier_file_disallowed_too_is_a_violation_within_the_window() -> None:
    judge = grace_judge(history((START, OLD), (CHANGE, NEW)))
    row = row_of(judge, OPENAI_GPTBOT, "GPTBot", "/private/report", CHANGE + HOUR)
    assert (row.audit_class, row.grace_version, row.robots_version) == ("violation", None, "v2")


def test_no_grace_without_it_or_with_zero() -> None:
    found = history((START, OLD), (CHANGE, NEW))
    for judge in (grace_judge(found, 0), Judge(RobotsTimeline(found).in_force, shipped_verify, SITE)):
        assert judge.grace == 0
        for when in (CHANGE + HOUR, CHANGE + 25 * HOUR):
            row = row_of(judge, OPENAI_GPTBOT, "GPTBot", "/blog", when)
            assert (row.audit_class, row.grace_version) == ("violation", None)


def test_the_verdicts_kept_do_not_carry_one_request_s_grace_to_another() -> None:
    """Verdicts are kept per (version, crawler, target); whether a request is within grace depends on its time,
    so the same triple alternates between grace and violation with the request's time, in any order."""
    judge = grace_judge(history((START, OLD), (CHANGE, NEW)))
    moments = [CHANGE + HOUR, CHANGE + 30 * HOUR, CHANGE + 2 * HOUR, CHANGE + 48 * HOUR, CHANGE + 23 * HOUR]
    classes = [row_of(judge, OPENAI_GPTBOT, "GPTBot", "/blog", when).audit_class for when in moments]
    assert classes == ["grace", "violation", "grace", "violation", "grace"]
    # Also when the in-force verdict was kept before any request within grace asked for the earlier one.
    fresh = grace_judge(history((START, OLD), (CHANGE, NEW)))
    classes = [row_of(fresh, OPENAI_GPTBOT, "GPTBot", "/blog", when).audit_class for when in reversed(moments)]
    assert classes == ["grace", "violation", "grace", "violation", "grace"]


def test_only_a_request_that_would_break_the_file_is_judged_by_an_earlier_one() -> None:
    asked: list[tuple[str, float]] = []
    timeline = RobotsTimeline(history((START, OLD), (CHANGE, NEW)))

    def in_grace(version: RobotsVersion, when: float, seconds: float) -> RobotsVersion | None:
        asked.append((version.ref, when))
        return timeline.in_grace(version, when, seconds)

    judge = Judge(timeline.in_force, shipped_verify, SITE, in_grace=in_grace)
    within = CHANGE + HOUR
    assert row_of(judge, GOOGLE, "Googlebot", "/blog", within).audit_class == "allowed"
    assert row_of(judge, OPENAI_GPTBOT, "GPTBot", "/robots.txt", within).audit_class == "exempt"
    # A spoof stays a spoof whatever any file says; a user-triggered fetcher stays exempt.
    assert row_of(judge, ANYWHERE, "GPTBot", "/blog", within).audit_class == "spoofed"
    assert asked == []
    assert row_of(judge, OPENAI_GPTBOT, "GPTBot", "/blog", within).audit_class == "grace"
    assert asked == [("v2", within)]


def test_an_unverifiable_claim_within_grace_is_within_grace() -> None:
    """Unverified means "a breach if it is the crawler": within grace it is none either way."""
    judge = grace_judge(history((START, "User-agent: *\nAllow: /\n"), (CHANGE, "User-agent: CCBot\nDisallow: /\n")))
    soon = row_of(judge, "198.51.100.7", "CCBot", "/x", CHANGE + HOUR)  # Common Crawl publishes no list
    late = row_of(judge, "198.51.100.7", "CCBot", "/x", CHANGE + 25 * HOUR)
    assert (soon.verification, soon.audit_class, late.audit_class) == ("unverifiable", "grace", "unverified")


def test_every_file_in_force_within_the_window_may_be_the_cached_copy() -> None:
    """v1 allowed /blog; v2 (an hour before the change) and v3 disallow it. A crawler that fetched v1 a few hours
    before the change may use it until a day after that fetch."""
    found = history((START, OLD), (CHANGE - HOUR, NEW), (CHANGE, NEW + "# the same rules\n"))
    judge = grace_judge(found)
    row = row_of(judge, OPENAI_GPTBOT, "GPTBot", "/blog", CHANGE + HOUR)
    assert (row.robots_version, row.audit_class, row.grace_version) == ("v3", "grace", "v1")
    # With 90 minutes, v2 (in force from two hours before the request) is as far back as a cache can go.
    short = grace_judge(found, 90 * 60)
    assert row_of(short, OPENAI_GPTBOT, "GPTBot", "/blog", CHANGE + HOUR).audit_class == "violation"
    assert row_of(short, OPENAI_GPTBOT, "GPTBot", "/blog", CHANGE - HOUR + 60).audit_class == "grace"


def test_the_walk_back_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """A time line that changes every minute (a site flapping between two backends) is walked back EARLIER files
    at most, per request."""
    monkeypatch.setattr(judge_module, "EARLIER", 3)
    files = [(START, OLD), *((CHANGE + minute * 60, NEW + f"# {minute}\n") for minute in range(5))]
    judge = grace_judge(history(*files))
    assert row_of(judge, OPENAI_GPTBOT, "GPTBot", "/blog", CHANGE + 4 * 60 + 1).audit_class == "violation"
    assert row_of(judge, OPENAI_GPTBOT, "GPTBot", "/blog", CHANGE + 2 * 60 + 1).audit_class == "grace"


@pytest.mark.parametrize("grace", [-1.0, math.nan])
def test_a_grace_that_is_no_number_of_seconds_is_refused(grace: float) -> None:
    with pytest.raises(ValueError, match="grace"):
        grace_judge(history((START, OLD)), grace)


def test_requests_within_grace_are_counted_apart_from_violations() -> None:
    found = history((START, OLD), (CHANGE, NEW))
    judge = grace_judge(found)
    summary = Summary()
    hits = [
        (OPENAI_GPTBOT, "GPTBot", "/blog", CHANGE + HOUR),  # grace
        (OPENAI_GPTBOT, "GPTBot", "/about", CHANGE + 2 * HOUR),  # grace
        (OPENAI_GPTBOT, "GPTBot", "/blog", CHANGE + 25 * HOUR),  # violation
        (OPENAI_GPTBOT, "GPTBot", "/private/x", CHANGE + HOUR),  # violation: v1 disallowed it too
        (GOOGLE, "Googlebot", "/private/y", CHANGE + HOUR),  # violation
    ]
    for ip, token, target, when in hits:
        summary.add(row_of(judge, ip, token, target, when))
    assert (summary.count(AuditClass.GRACE), summary.count(AuditClass.VIOLATION)) == (2, 3)
    gptbot = summary.crawlers["GPTBot"]
    assert gptbot.classes == {"grace": 2, "violation": 2}
    # The violators' deciding lines hold the violations alone.
    assert gptbot.violations == {("v2", 2, "Disallow: /"): 2}
    view = summary_view(summary, "en", found, judge.grace)
    assert view["grace"] == {"seconds": GRACE, "requests": 2}
    assert view["classes"]["grace"] == 2 and view["classes"]["violation"] == 3
    assert [v["requests"] for v in view["violators"]] == [2, 1]
    rows = {row["token"]: row for row in crawler_rows(view)}
    assert (rows["GPTBot"]["class_grace"], rows["GPTBot"]["class_violation"]) == (2, 2)
    assert sum(hour["classes"].get("grace", 0) for hour in view["hours"]) == 2
    # The HTML report: a card, a sentence saying why, and bars over time.
    for lang, said in (("en", "2 requests are within grace"), ("ko", "요청 2건은 유예 기간 내로")):
        html = report(summary_view(summary, lang, found, judge.grace), lang)
        tags = list(start_tags(html))
        assert any(tag.attrs.get("data-class") == "grace" for tag in tags)
        assert any(tag.attrs.get("data-grace") == "2" for tag in tags) and said in html
        drawn = Counter[str]()
        for tag in tags:
            if tag.name == "rect" and tag.attrs.get("class") == "bar":
                drawn[tag.attrs["data-series"]] += int(tag.attrs["data-count"])
        assert drawn["grace"] == 2 and drawn["violation"] == 3
    # No sentence when nothing is within grace.
    assert "data-grace" not in report(summary_view(Summary(), "en"), "en")


def test_rows_name_the_earlier_file_in_their_last_column() -> None:
    assert COLUMNS[-3:] == ("class", "exempt", "grace_version")
    judge = grace_judge(history((START, OLD), (CHANGE, NEW)))
    data = row_of(judge, OPENAI_GPTBOT, "GPTBot", "/blog", CHANGE + HOUR).as_dict()
    assert (data["class"], data["grace_version"]) == ("grace", "v1")


def test_durations_are_said_as_grace_takes_them() -> None:
    assert [duration(s) for s in (GRACE, 5400, 90, 1.5, 0)] == ["24h", "90m", "90s", "1.5s", "0s"]
