"""The times logs write, as POSIX seconds (UTC). Pure.

- NCSA `%t` / nginx `$time_local`: `19/Aug/2026:18:06:38 +0000`, local time with its offset;
- ISO 8601 / RFC 3339: `2026-08-19T18:06:38.186641Z`, `...+00:00`, `...+0000` (and Caddy's "wall"
  `2026/08/19 18:06:38.186`); a time without an offset is local time nobody can place, so it is read
  only where the format says it is UTC;
- W3C and CloudFront: a `date` and a `time` column, UTC;
- numbers since the epoch, in the unit the format names, or, where a format logs several (Caddy's
  `time_format`, Cloudflare's `timestamp_format`), in the unit their size implies: a time after 1973
  in seconds is below 10^11, in milliseconds below 10^14, in microseconds below 10^17.

Every reader returns None for a time it cannot read, never raises. Logs repeat each second on many
lines, so the parses of text are remembered, a few thousand at most.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

MONTHS = {
    name: number
    for number, name in enumerate(
        ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), 1
    )
}
_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_EARLIEST = -62135596800.0  # 0001-01-01T00:00:00Z: a local time of year 1 ahead of UTC falls before it
_LATEST = 253402300800.0  # 10000-01-01T00:00:00Z: later "times" are not times
UNITS = {"s": 1.0, "ms": 1e3, "us": 1e6, "ns": 1e9}
_REMEMBERED = 4096  # distinct time texts kept per kind: an hour of a busy log repeats far fewer seconds

_CLF = re.compile(r"([0-9]{2})/([A-Z][a-z]{2})/([0-9]{4}):([0-9]{2}):([0-9]{2}):([0-9]{2}) ([+-])([0-9]{2})([0-9]{2})")
_ISO = re.compile(
    r"([0-9]{4})[-/]([0-9]{2})[-/]([0-9]{2})[Tt ]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:[.,]([0-9]{1,9}))?"
    r" ?(?:([Zz])|([+-])([0-9]{2})(?::?([0-9]{2}))?)?"
)
_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_CLOCK = re.compile(r"([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{1,9}))?")
_NUMBER = re.compile(r"[0-9]{1,20}(?:\.[0-9]{1,20})?")


def _leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def seconds(year: int, month: int, day: int, hour: int, minute: int, second: float, offset: int = 0) -> float | None:
    """POSIX seconds of a civil time `offset` seconds ahead of UTC; None for a date or time that does not exist,
    or whose UTC is outside the years 1 to 9999 (no time a report can write).

    A leap second (:60) is read as the second after :59, as POSIX time has none.
    """
    if not (1 <= month <= 12 and 1 <= year <= 9999 and 0 <= hour <= 23 and 0 <= minute <= 59 and 0 <= second < 61):
        return None
    if not 1 <= day <= (29 if month == 2 and _leap(year) else _DAYS[month - 1]):
        return None
    # Days from 1970-01-01 to the date, by the civil calendar's 400-year cycle.
    shifted = year - (month <= 2)
    era = shifted // 400
    of_era = shifted - era * 400
    of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    days = era * 146097 + of_era * 365 + of_era // 4 - of_era // 100 + of_year - 719468
    found = float(days * 86400 + hour * 3600 + minute * 60 + second - offset)
    return found if _EARLIEST <= found < _LATEST else None


def _offset(sign: str, hours: str, minutes: str | None) -> int | None:
    """Seconds ahead of UTC of `+HHMM`; None past ±23:59."""
    ahead = int(hours) * 3600 + int(minutes or 0) * 60
    if int(hours) > 23 or int(minutes or 0) > 59:
        return None
    return -ahead if sign == "-" else ahead


@lru_cache(maxsize=_REMEMBERED)
def clf(text: str) -> float | None:
    """`19/Aug/2026:18:06:38 +0000` (NCSA `%t` without its brackets, nginx `$time_local`)."""
    found = _CLF.fullmatch(text)
    if found is None:
        return None
    day, name, year, hour, minute, second, sign, off_hours, off_minutes = found.groups()
    month = MONTHS.get(name)
    offset = _offset(sign, off_hours, off_minutes)
    if month is None or offset is None:
        return None
    return seconds(int(year), month, int(day), int(hour), int(minute), int(second), offset)


def iso(text: str, naive_utc: bool = False) -> float | None:
    """An ISO 8601 / RFC 3339 date and time; one without an offset only when `naive_utc` (the format says UTC).

    The whole seconds are parsed once per distinct text (`_whole_seconds`); the fraction, which makes
    most texts distinct (ALB writes microseconds), is added to them.
    """
    fraction = 0.0
    if len(text) > 20 and text[19] in ".,":
        digits = 20
        while digits < len(text) and digits < 29 and "0" <= text[digits] <= "9":
            digits += 1
        if digits > 20:
            fraction = int(text[20:digits]) / 10 ** (digits - 20)
            text = text[:19] + text[digits:]
    whole = _whole_seconds(text, naive_utc)
    return None if whole is None else whole + fraction


@lru_cache(maxsize=_REMEMBERED)
def _whole_seconds(text: str, naive_utc: bool) -> float | None:
    found = _ISO.fullmatch(text)
    if found is None:
        return None
    year, month, day, hour, minute, second, fraction, zulu, sign, off_hours, off_minutes = found.groups()
    if sign is not None:
        offset = _offset(sign, off_hours, off_minutes)
    elif zulu is not None or naive_utc:
        offset = 0
    else:
        offset = None
    if offset is None:
        return None
    whole = seconds(int(year), int(month), int(day), int(hour), int(minute), int(second), offset)
    return None if whole is None else whole + (int(fraction) / 10 ** len(fraction) if fraction else 0.0)


@lru_cache(maxsize=_REMEMBERED)
def date_and_time(date: str, time: str) -> float | None:
    """W3C's `date` (`2019-12-04`) and `time` (`21:02:31`, perhaps with a fraction) columns, UTC."""
    day = _DATE.fullmatch(date)
    clock = _CLOCK.fullmatch(time)
    if day is None or clock is None:
        return None
    hour, minute, second, fraction = clock.groups()
    whole = seconds(int(day[1]), int(day[2]), int(day[3]), int(hour), int(minute), int(second))
    return None if whole is None else whole + (int(fraction) / 10 ** len(fraction) if fraction else 0.0)


def epoch(value: float, unit: str | None = None) -> float | None:
    """A number since the epoch in `unit` (s, ms, us, ns), or in the unit its size implies (None)."""
    if not math.isfinite(value) or value < 0:
        return None
    if unit is None:
        unit = "s" if value < 1e11 else "ms" if value < 1e14 else "us" if value < 1e17 else "ns"
    found = value / UNITS[unit]
    return found if found < _LATEST else None


def number_or_text(value: object, unit: str | None = None, naive_utc: bool = False) -> float | None:
    """A time as a JSON log holds it: a number (or digits in a string) since the epoch, ISO 8601, or NCSA."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return epoch(float(value), unit)
    if not isinstance(value, str):
        return None
    if _NUMBER.fullmatch(value):
        return epoch(float(value), unit)
    if value.startswith("[") or "/" in value[:3]:
        return clf(value.strip("[]"))
    return iso(value, naive_utc)


__all__ = ["MONTHS", "UNITS", "clf", "date_and_time", "epoch", "iso", "number_or_text", "seconds"]
