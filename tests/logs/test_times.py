"""The times logs write, as POSIX seconds: against datetime, with their offsets, and the ones that are no time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from robotscope.syntax.logformats.times import clf, date_and_time, epoch, iso, number_or_text

MOMENTS = st.datetimes(min_value=datetime(1971, 1, 1), max_value=datetime(9998, 12, 31))
OFFSETS = st.integers(min_value=-(23 * 60 + 59), max_value=23 * 60 + 59).map(lambda m: timezone(timedelta(minutes=m)))


@given(MOMENTS, OFFSETS)
def test_ncsa_and_iso_times_are_the_moment_datetime_says(moment: datetime, zone: timezone) -> None:
    local = moment.replace(microsecond=0, tzinfo=zone)
    expected = local.timestamp()
    assert clf(local.strftime("%d/%b/%Y:%H:%M:%S %z")) == expected
    assert iso(local.isoformat()) == expected
    assert iso(local.strftime("%Y-%m-%dT%H:%M:%S%z")) == expected  # +0000, as Fastly's %z writes it
    utc = local.astimezone(UTC)
    assert date_and_time(utc.strftime("%Y-%m-%d"), utc.strftime("%H:%M:%S")) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10/Oct/2000:13:55:36 -0700", 971211336.0),
        ("29/Feb/2024:00:00:00 +0000", 1709164800.0),
        ("31/Dec/2026:23:59:60 +0000", 1798761600.0),  # a leap second: the next one, as POSIX time has none
        ("29/Feb/2026:00:00:00 +0000", None),
        ("32/Jan/2026:00:00:00 +0000", None),
        ("19/Aug/2026:24:00:00 +0000", None),
        ("19/aug/2026:18:06:38 +0000", None),
        ("19/Aug/2026:18:06:38 +2400", None),
        ("19/Aug/2026:18:06:38", None),
        ("١٩/Aug/2026:18:06:38 +0000", None),  # digits of another script are no digits here
        # Local times whose UTC falls before year 1 or after 9999: no time a report can write.
        ("01/Jan/0001:00:00:00 +0100", None),
        ("31/Dec/9999:23:59:59 -0100", None),
        ("31/Dec/9999:23:59:60 +0000", None),
        ("01/Jan/0001:00:00:00 +0000", -62135596800.0),
    ],
)
def test_ncsa_times(text: str, expected: float | None) -> None:
    assert clf(text) == expected


@pytest.mark.parametrize(
    ("text", "naive_utc", "expected"),
    [
        ("2018-07-02T22:23:00.186641Z", False, 1530570180.186641),
        ("2026-08-19T18:06:38.123456789Z", False, 1787162798.123456789),
        ("2026-08-19T20:06:38+02:00", False, 1787162798.0),
        ("2026-08-19 18:06:38", False, None),  # no offset: local time nobody can place
        ("2026-08-19 18:06:38", True, 1787162798.0),  # ... unless the format says UTC
        ("2026/08/19 18:06:38.500", True, 1787162798.5),  # Caddy's "wall" time
        ("2026-13-01T00:00:00Z", False, None),
        ("2026-08-19", False, None),
        ("9999-12-31T23:59:59-01:00", False, None),
    ],
)
def test_iso_times(text: str, naive_utc: bool, expected: float | None) -> None:
    found = iso(text, naive_utc)
    assert found == (None if expected is None else pytest.approx(expected, abs=1e-6))


@pytest.mark.parametrize(
    ("value", "unit", "expected"),
    [
        (1787162798.25, None, 1787162798.25),
        (1787162798250, None, 1787162798.25),  # milliseconds, by their size
        (1787162798250000, None, 1787162798.25),
        (1787162798250000000, None, 1787162798.25),  # Cloudflare's nanoseconds
        (1787162798, "ms", 1787162.798),  # the unit the format names wins
        (-1, None, None),
        (float("nan"), None, None),
        (1e30, "s", None),
        ("1787162798", None, 1787162798.0),
        ("[19/Aug/2026:18:06:38 +0000]", None, 1787162798.0),
        (True, None, None),
        (None, None, None),
        ({"ts": 1}, None, None),
    ],
)
def test_json_times(value: object, unit: str | None, expected: float | None) -> None:
    found = number_or_text(value, unit)
    assert found == (None if expected is None else pytest.approx(expected))


def test_a_number_since_the_epoch_in_each_unit() -> None:
    assert epoch(1.5, "s") == 1.5 and epoch(1500, "ms") == 1.5 and epoch(1500, "us") == 0.0015
