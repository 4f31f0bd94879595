"""Which robots.txt was in force for an origin at a moment: `RobotsVersion` and `RobotsTimeline`. Pure.

A log audit judges each request by the file its site served when the
request was made, not today's (Cloudflare's AI Crawl Control judges past
requests by the current file and says so: a Disallow added today flags
every earlier request). A version is in force from `since` until the next
version of the same origin; a version whose `since` is None is in force at
every moment (a single `--robots FILE`), and a version whose `origin` is
None applies to every origin that has no version of its own.

What a version says is what a fetch of it says, read once the way every
other part of robotscope reads a fetch: a `reports.watch.observation.Reading`
(the parsed file and each fetch policy's `Decision`), so a 404 allows all,
a 503 disallows all (or leaves the last good copy, `copy`, in force where
a policy says so), and a body's rules apply, exactly as `access.policy`
decides. `verdict` and `answer` ask `access.robots.verdict_after` and
`answer_after`, the one home of "the rules apply after this fetch".

`in_force` is on the audit's hot path (once per logged request): one dict
look-up and one `bisect` on a list of floats, nothing built.
"""

from __future__ import annotations

import hashlib
import math
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from decimal import Decimal
from functools import lru_cache

from ...access.engines.registry import DEFAULT, PROFILED
from ...access.policy import Action, Decision
from ...access.profiles import Answer
from ...access.robots import Robots, answer_after, verdict_after
from ...messages import Message
from ...syntax.model import Verdict
from ...syntax.urls import InvalidURL, origin_of
from ..views import parse_when
from ..watch.observation import RULES_POLICY, Observation, Reading, read

_ALWAYS = float("-inf")  # the moment a version with no `since` is in force from


@dataclass(frozen=True, eq=False)
class RobotsVersion:
    """One robots.txt of an origin (None: of every origin), in force from `since` (POSIX seconds, UTC; None:
    always).

    `label` says where it came from (a path, a URL, a history-store version
    and the time of its fetch, a commit and its subject); `ref` is the same
    as a short plain string for table rows. `sha256` is the hex digest of the
    file's bytes, None when the fetch gave no file (a failure, a 4xx).
    `reading` is the fetch as every policy reads it; `copy` the last good
    file before a failed fetch, whose rules apply where a policy keeps a
    cached copy.
    """

    origin: str | None
    since: float | None
    label: Message
    ref: str
    sha256: str | None
    reading: Reading = field(repr=False)
    copy: Robots | None = field(default=None, repr=False)

    def __reduce__(self) -> tuple[type[RobotsVersion], tuple[object, ...]]:
        # Made again by the constructor: the compiled build restores a class by setting its attributes, which a
        # frozen one refuses, and every `--jobs` worker is sent the versions.
        return RobotsVersion, (self.origin, self.since, self.label, self.ref, self.sha256, self.reading, self.copy)

    @property
    def robots(self) -> Robots:
        """The file as parsed (empty for a fetch that gave none)."""
        return self.reading.robots

    @property
    def rules_apply(self) -> bool:
        """Whether the file's own rules apply (a 2xx body), as RFC 9309 reads the fetch."""
        return self.reading.rules_apply

    def decision(self, policy: str = RULES_POLICY) -> Decision:
        """What `policy` (`access.policy.POLICIES`) concludes from the fetch of this version."""
        return self.reading.decisions[policy]

    def rules(self, policy: str = RULES_POLICY) -> Robots | None:
        """The file whose rules apply once `policy` has read the fetch: this version's, the last good copy
        for a cached-copy outage, None when the policy allows or disallows all."""
        found, robots = self._after(policy)
        return robots if found.action.rules_apply else None

    def _after(self, policy: str) -> tuple[Decision, Robots | None]:
        found = self.reading.decisions[policy]
        return found, self.copy if found.action is Action.CACHED_COPY else self.reading.robots

    def verdict(self, agent: str, url: str, policy: str = RULES_POLICY, engine: str = DEFAULT) -> Verdict:
        """May `agent` fetch `url` under this version, its fetch read by `policy` and its rules by `engine`?"""
        return verdict_after(*self._after(policy), agent, url, engine)

    def answer(self, agent: str, url: str, policy: str = RULES_POLICY, reading: str = PROFILED) -> Answer:
        """`Robots.answer` under this version (see `verdict`)."""
        return answer_after(*self._after(policy), agent, url, reading)


def version(
    origin: str | None,
    since: float | None,
    label: Message,
    ref: str,
    seen: Observation,
    copy: Robots | None = None,
) -> RobotsVersion:
    """A version from what a fetch saw (`seen`); `origin` is normalised (`syntax.urls.origin_of`, which raises
    `InvalidURL`)."""
    normal = None if origin is None else origin_of(origin)
    served = seen.failure is None and seen.status is not None and 200 <= seen.status < 300
    sha = hashlib.sha256(seen.body).hexdigest() if served else None
    return RobotsVersion(normal, since, label, ref, sha, read(seen), copy)


def file_version(origin: str | None, since: float | None, label: Message, ref: str, body: bytes) -> RobotsVersion:
    """A version from a file's bytes: what a fetch answered with 200 and that body would say."""
    return version(origin, since, label, ref, Observation(agent="", status=200, body=body))


def since_of(value: object) -> float | None:
    """A version's `since` as a table holds it, in POSIX seconds (None: in force always): a datetime (one
    without a zone, as Spark's TimestampNTZ and Arrow's naive timestamps give it, is UTC), a date (its first
    moment, UTC), POSIX seconds (int, float, Decimal), an ISO 8601 text as `--at` reads it (`Z`, an offset,
    or none for UTC; a date alone), or None. Raises `ValueError` for anything else, and for a moment outside
    the years 1 to 9999 (no time a report can write)."""
    if value is None:
        return None
    seconds: float | None = None
    if isinstance(value, datetime):
        seconds = (value if value.tzinfo is not None else value.replace(tzinfo=UTC)).timestamp()
    elif isinstance(value, date):
        seconds = datetime(value.year, value.month, value.day, tzinfo=UTC).timestamp()
    elif isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        seconds = float(value)  # a Decimal too large for a float is infinite, refused below
    elif isinstance(value, str):
        seconds = parse_when(value)
    if seconds is None or not math.isfinite(seconds):
        raise ValueError(value)
    try:
        datetime.fromtimestamp(seconds, UTC)
    except (ValueError, OverflowError, OSError):
        raise ValueError(value) from None
    return seconds


class RobotsTimeline:
    """The versions of each origin's robots.txt, oldest first; `in_force(origin, when)` picks one.

    Two versions of one origin with the same `since` cannot both be in
    force: the later one given is kept.
    """

    __slots__ = ("_any", "_by_origin")

    def __init__(self, versions: Iterable[RobotsVersion]) -> None:
        dated: dict[str | None, dict[float, RobotsVersion]] = {}
        for found in versions:
            moment = _ALWAYS if found.since is None else found.since
            dated.setdefault(found.origin, {})[moment] = found
        self._by_origin: dict[str | None, tuple[list[float], list[RobotsVersion]]] = {}
        for origin, by_moment in dated.items():
            moments = sorted(by_moment)
            self._by_origin[origin] = (moments, [by_moment[m] for m in moments])
        self._any = self._by_origin.get(None)

    def in_force(self, origin: str | None, when: float | None) -> RobotsVersion | None:
        """The version in force for `origin` (normalised, `request_origin`) at POSIX time `when`: the latest
        with `since <= when`; None before the first. An origin with no version of its own gets the
        versions for every origin. `when` None (a log without times) finds only a version in force always.
        """
        found = self._by_origin.get(origin) or self._any
        if found is None:
            return None
        at = bisect_right(found[0], _ALWAYS if when is None else when)
        return found[1][at - 1] if at else None

    def previous(self, version: RobotsVersion) -> RobotsVersion | None:
        """The version of the same origin in force before `version` (None for the first): the file a crawler
        may still have used from its cache just after a change. Raises `ValueError` for a version not here."""
        found = self._by_origin.get(version.origin)
        if found is not None:
            at = bisect_left(found[0], _ALWAYS if version.since is None else version.since)
            if at < len(found[1]) and found[1][at] is version:
                return found[1][at - 1] if at else None
        raise ValueError("the version is not one of this timeline's")

    def in_grace(self, version: RobotsVersion, when: float, seconds: float) -> RobotsVersion | None:
        """The previous version when `when` is less than `seconds` after `version` came into force (a crawler
        may still use a cached copy: Google's for up to 24 hours), else None."""
        if version.since is None or when - version.since >= seconds:
            return None
        return self.previous(version)

    def origins(self) -> tuple[str, ...]:
        """The origins with versions of their own, sorted (not the versions for every origin)."""
        return tuple(sorted(origin for origin in self._by_origin if origin is not None))

    def versions(self, origin: str | None) -> tuple[RobotsVersion, ...]:
        """One origin's versions (None: those for every origin), oldest first."""
        found = self._by_origin.get(origin)
        return () if found is None else tuple(found[1])

    def __len__(self) -> int:
        return sum(len(found[1]) for found in self._by_origin.values())


@lru_cache(maxsize=4096)
def request_origin(scheme: str | None, host: str | None) -> str | None:
    """The normalised origin of a logged request (`scheme` defaults to http), or None without a host or when
    the host is not one (asked per request: kept for the hosts seen last)."""
    if not host:
        return None
    try:
        return origin_of(f"{scheme or 'http'}://{host}")
    except InvalidURL:
        return None


__all__ = ["RobotsTimeline", "RobotsVersion", "file_version", "request_origin", "since_of", "version"]
