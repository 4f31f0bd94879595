"""`RobotsTimeline`: the version in force at a moment, per origin, and what each version answers."""

from __future__ import annotations

import dataclasses
import hashlib
import tracemalloc
from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotscope.access.policy import Action
from robotscope.access.robots import parse
from robotscope.messages import message
from robotscope.reports.audit.timeline import (
    RobotsTimeline,
    RobotsVersion,
    file_version,
    request_origin,
    since_of,
    version,
)
from robotscope.reports.views import iso
from robotscope.reports.watch.observation import Observation

SITE = "https://example.com"
OTHER = "http://other.example:8080"
BODY = b"User-agent: *\nDisallow: /private/\n"
LABEL = message("audit.source.file", path="robots.txt")


def at(since: float | None, origin: str | None = SITE, body: bytes = BODY) -> RobotsVersion:
    return file_version(origin, since, LABEL, f"v@{since}", body)


def test_a_version_is_in_force_from_its_exact_moment_until_the_next() -> None:
    first, second = at(100.0), at(200.0, body=b"User-agent: *\nDisallow: /\n")
    timeline = RobotsTimeline([second, first])  # given in any order
    assert timeline.in_force(SITE, 99.999) is None  # before the first version: no file known
    assert timeline.in_force(SITE, 100.0) is first
    assert timeline.in_force(SITE, 199.999) is first
    assert timeline.in_force(SITE, 200.0) is second
    assert timeline.in_force(SITE, 1e12) is second
    assert timeline.in_force(OTHER, 150.0) is None  # an origin without versions


def test_a_version_without_a_moment_is_in_force_always_and_for_a_time_less_request() -> None:
    always = at(None)
    timeline = RobotsTimeline([always])
    assert timeline.in_force(SITE, -1e18) is always and timeline.in_force(SITE, None) is always
    dated = RobotsTimeline([always, at(100.0)])
    assert dated.in_force(SITE, 50.0) is always and dated.in_force(SITE, None) is always
    assert dated.in_force(SITE, 100.0) is not always
    assert RobotsTimeline([at(100.0)]).in_force(SITE, None) is None  # no time, no dated version can be chosen


def test_versions_for_every_origin_serve_origins_without_their_own() -> None:
    anywhere, own = at(None, origin=None), at(100.0)
    timeline = RobotsTimeline([anywhere, own])
    assert timeline.in_force(OTHER, 0.0) is anywhere and timeline.in_force(None, 0.0) is anywhere
    assert timeline.in_force(SITE, 100.0) is own
    assert timeline.in_force(SITE, 50.0) is None  # an origin with versions of its own is judged by them alone
    assert timeline.origins() == (SITE,) and timeline.versions(None) == (anywhere,) and len(timeline) == 2


def test_origins_are_normalised_the_projects_way() -> None:
    found = at(1.0, origin="HTTPS://Example.COM:443/robots.txt")
    assert found.origin == SITE
    assert RobotsTimeline([found]).in_force(SITE, 1.0) is found
    assert request_origin("https", "EXAMPLE.com:443") == SITE
    assert request_origin(None, "other.example:8080") == OTHER  # no scheme logged: http
    assert request_origin("https", None) is None and request_origin("https", "") is None
    assert request_origin("https", "bad host") is None


def test_two_versions_of_one_moment_keep_the_later_one_given() -> None:
    first, second = at(100.0), at(100.0, body=b"")
    timeline = RobotsTimeline([first, second])
    assert timeline.in_force(SITE, 100.0) is second and timeline.versions(SITE) == (second,)


def test_previous_and_grace() -> None:
    first, second = at(100.0), at(200.0)
    timeline = RobotsTimeline([first, second])
    assert timeline.previous(first) is None and timeline.previous(second) is first
    with pytest.raises(ValueError):
        timeline.previous(at(200.0))  # equal, but not this timeline's
    assert timeline.in_grace(second, 200.0 + 86_399, 86_400) is first  # Google: a cached copy for up to 24 hours
    assert timeline.in_grace(second, 200.0 + 86_400, 86_400) is None
    assert timeline.in_grace(first, 150.0, 86_400) is None  # no version before the first
    always = at(None)
    assert RobotsTimeline([always]).in_grace(always, 5.0, 86_400) is None


def test_what_a_version_says_is_what_the_fetch_policies_say() -> None:
    body = at(1.0)
    assert body.sha256 == hashlib.sha256(BODY).hexdigest()
    assert body.rules_apply and not body.verdict("GPTBot", "/private/x").allowed
    assert body.verdict("GPTBot", "/public").allowed
    missing = version(SITE, 2.0, LABEL, "404", Observation(agent="", status=404))
    assert missing.sha256 is None and missing.decision().action is Action.ALLOW_ALL
    assert missing.verdict("GPTBot", "/private/x").allowed
    down = version(SITE, 3.0, LABEL, "503", Observation(agent="", status=503))
    assert down.sha256 is None and not down.verdict("GPTBot", "/x").allowed  # RFC 9309: disallow all
    assert down.verdict("GPTBot", "/robots.txt").allowed  # robots.txt itself stays allowed
    assert down.verdict("GPTBot", "/x", policy="yandex").allowed  # Yandex: any answer but 200 allows all
    assert down.answer("GPTBot", "/x").verdict.allowed is False


def test_a_policy_that_keeps_the_last_good_copy_in_an_outage_answers_by_that_copy() -> None:
    hour = 3600.0
    seen = Observation(agent="", status=503, at=100 * hour, good_at=86 * hour, failing_since=87 * hour)
    outage = version(SITE, 100 * hour, LABEL, "503", seen, copy=parse(BODY))
    assert outage.decision("google").action is Action.CACHED_COPY  # 13 hours into the outage
    assert not outage.verdict("Googlebot", "/private/x", policy="google").allowed  # the copy's rule
    assert outage.verdict("Googlebot", "/public", policy="google").allowed
    assert outage.decision().action is Action.DISALLOW_ALL  # RFC 9309 blocks for 30 days
    assert not outage.verdict("Googlebot", "/public").allowed


class Counted(float):
    """A moment that counts how often it is compared (the bisect's steps)."""

    comparisons = 0

    def __lt__(self, other: object) -> bool:
        Counted.comparisons += 1
        return float(self) < other  # type: ignore[operator]


def test_in_force_takes_logarithmic_steps_and_keeps_no_memory() -> None:
    template = at(0.0)
    count = 100_000
    timeline = RobotsTimeline(dataclasses.replace(template, since=float(n)) for n in range(count))
    Counted.comparisons = 0
    found = timeline.in_force(SITE, Counted(count / 3))
    assert found is not None and found.since == float(count // 3)
    assert Counted.comparisons <= count.bit_length() + 1  # 17 for 100,000 versions, not a scan
    moments = [float(n) + 0.5 for n in range(10_000)]
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        for when in moments:
            timeline.in_force(SITE, when)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak - start < 1024  # 10,000 look-ups build nothing that stays, or grows


ORIGINS = (SITE, OTHER, None)
versions_given = st.lists(
    st.tuples(st.sampled_from(ORIGINS), st.none() | st.integers(-5, 30).map(float)),
    max_size=30,
)


def moment(found: RobotsVersion) -> float:
    return float("-inf") if found.since is None else found.since


def scan(given: list[RobotsVersion], origin: str | None, when: float | None) -> RobotsVersion | None:
    """The plain answer: the origin's own versions (else those for every origin), the latest in force."""
    own = [v for v in given if v.origin == origin] or [v for v in given if v.origin is None]
    best: RobotsVersion | None = None
    for found in own:  # in the order given: of equal moments, the later one wins
        if (when is None and found.since is not None) or (when is not None and moment(found) > when):
            continue
        if best is None or moment(found) >= moment(best):
            best = found
    return best


@settings(max_examples=200)
@given(versions_given, st.sampled_from(ORIGINS), st.none() | st.integers(-14, 64).map(lambda n: n / 2))
def test_in_force_is_a_linear_scan(
    spec: list[tuple[str | None, float | None]], origin: str | None, when: float | None
) -> None:
    template = at(None)
    given_versions = [dataclasses.replace(template, origin=o, since=s) for o, s in spec]
    timeline = RobotsTimeline(given_versions)
    assert timeline.in_force(origin, when) is scan(given_versions, origin, when)
    for found in timeline.versions(origin):
        earlier = timeline.previous(found)
        assert earlier is None or moment(earlier) < moment(found)


NOON = datetime(2026, 11, 2, 12, tzinfo=UTC).timestamp()


@pytest.mark.parametrize(
    "value",
    [
        datetime(2026, 11, 2, 12, tzinfo=UTC),
        datetime(2026, 11, 2, 21, tzinfo=timezone(timedelta(hours=9))),
        datetime(2026, 11, 2, 12),  # no zone (Spark's TimestampNTZ): UTC, whatever this machine's zone
        NOON,
        int(NOON),
        Decimal(int(NOON)),
        "2026-11-02T12:00Z",
        "2026-11-02T12:00:00.000+00:00",
        "2026-11-02T21:00+09:00",
        " 2026-11-02 12:00:00 ",  # no zone: UTC, as --at reads it
    ],
)
def test_since_is_read_from_what_a_versions_table_holds(value: object) -> None:
    assert since_of(value) == NOON


def test_a_date_is_its_first_moment_and_none_is_always() -> None:
    assert since_of(date(2026, 11, 2)) == since_of("2026-11-02") == NOON - 12 * 3600
    assert since_of(None) is None


@pytest.mark.parametrize(
    "value",
    [True, "", "noon", "1793620800", b"2026-11-02", float("nan"), float("inf"), 1e300, -1e15, Decimal("1e400"), [1]],
)
def test_anything_else_is_refused(value: object) -> None:
    with pytest.raises(ValueError):
        since_of(value)


@given(
    st.one_of(
        st.text(max_size=40),
        st.floats(),
        st.integers(),
        st.decimals(),
        st.datetimes(timezones=st.one_of(st.none(), st.timezones())),
        st.dates(),
    )
)
def test_since_is_a_moment_a_report_can_write_or_a_value_error(value: object) -> None:
    try:
        moment = since_of(value)
    except ValueError:
        return
    assert moment is not None and iso(moment)
