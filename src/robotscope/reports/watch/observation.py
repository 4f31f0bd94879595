"""`Observation`: one fetch of an origin's robots.txt as one User-Agent saw it, and how it reads.

Plain data, built by the watch command from a fetch (`fetch.observation`)
or from a stored version. `Reading` is an observation read once: its parsed
file and what every fetch policy of `access.policy` concludes from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from ...access.policy import REDIRECTS, Action, Cached, Decision, Outcome, decide_all, is_transient
from ...access.robots import Robots, parse
from ...syntax.html import looks_like_html

# The transport failure kinds the policies explain (`error.*` messages); any other reads as `network`.
FAILURES = frozenset({"timeout", "dns", "connect", "tls", "network", "decode", "incomplete"})
# The policy whose decision says whether a file's rules apply (RFC 9309's; every policy parses a 2xx text).
RULES_POLICY = "rfc9309"


@dataclass(frozen=True)
class Observation:
    """One fetch of an origin's robots.txt as one User-Agent (`agent`, a label) saw it.

    `status` is the final HTTP status (None when no response came, then
    `failure` is the transport failure kind); `headers` the response's
    headers with lower-case names; `body` what was kept of the body
    (`truncated` when the 500 KiB limit cut it); `hops` the redirect chain,
    (URL, status) in order.
    """

    agent: str
    status: int | None
    content_type: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    body: bytes = b""
    truncated: bool = False
    failure: str | None = None
    hops: tuple[tuple[str, int], ...] = ()
    # For a failure, what a history knows: when this fetch was made, when the last good copy was
    # fetched and since when fetches fail (the policies' clocks: Google's 12 hours and 30 days).
    at: float | None = None
    good_at: float | None = None
    failing_since: float | None = None


class Reading(NamedTuple):
    """An observation read once: the parsed body and each policy's decision."""

    seen: Observation
    robots: Robots
    decisions: dict[str, Decision]

    @property
    def reachable(self) -> bool:
        """False for a transient failure (no response, 429, 5xx): crawlers then disallow all or keep a copy."""
        return not is_transient(outcome(self.seen, self.robots))

    @property
    def rules_apply(self) -> bool:
        """Whether the file's rules apply after this fetch (a 2xx body), as RFC 9309 reads it."""
        return self.decisions[RULES_POLICY].action.rules_apply

    @property
    def allows_all(self) -> bool:
        """Whether the fetch leaves no file, so everything is allowed (a 4xx)."""
        return self.decisions[RULES_POLICY].action is Action.ALLOW_ALL


def read(seen: Observation) -> Reading:
    robots = parse(seen.body)
    known = seen.good_at is not None or seen.failing_since is not None
    cached = Cached(seen.good_at, seen.failing_since) if known else None
    return Reading(seen, robots, decide_all(outcome(seen, robots), cached=cached, now=seen.at))


def outcome(seen: Observation, robots: Robots) -> Outcome:
    """The observation as `access.policy` reads a fetch's end."""
    failure = None if seen.failure is None else (seen.failure if seen.failure in FAILURES else "network")
    if seen.status is None and failure is None:
        failure = "network"  # no response and no reason given: still a failure, never a status
    status = seen.status if failure is None else None
    redirects = sum(1 for _, hop in seen.hops[:-1] if hop in REDIRECTS)
    html = status is not None and 200 <= status < 300 and looks_like_html(robots)
    return Outcome(status=status, error=failure, redirects=redirects, html=html)
