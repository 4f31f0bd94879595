"""What a crawler concludes from fetching /robots.txt: the engines' policies as data, and `decide`.

A fetch ends in an `Outcome` (plain data: the final status or a transport
error, the redirects followed, whether they looped, whether the body is an
HTML page). `decide(outcome, policy, cached=..., now=...)` turns it into a
`Decision`: `parse`, `allow-all`, `disallow-all` or `cached-copy`, with one
sentence that names the policy and cites its source. Pure: no I/O, no clock
(the caller passes `now`), so the sync and async fetchers, the cache-backed
client and the tests all share one reading of every outcome.

The policies (`POLICIES`, one row each):

rfc9309
    RFC 9309, Section 2.3.1 (https://www.rfc-editor.org/rfc/rfc9309.html).
    2xx: parse and follow the rules. Redirects: follow at least five, across
    hosts; beyond five the file MAY be taken as unavailable, so allow all.
    4xx: unavailable, allow all. 5xx and network errors: unreachable, assume
    complete disallow; after a reasonably long time (e.g. 30 days) a crawler
    MAY use a cached copy (or treat the file as unavailable).
google
    Google's "How Google interprets the robots.txt specification"
    (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt),
    known here only through quotes of that page (see `Policy.notes`). 2xx:
    parsed as served, an HTML page included (its lines are ignored). At least
    five redirect hops, then treated as a 404. 4xx except 429: as if there
    were no robots.txt. 429, 5xx, timeouts and network errors: server errors;
    Google stops crawling for 12 hours, then uses the last good copy for up to
    30 days.
bing
    Bing documents only that a missing robots.txt means Bingbot may crawl the
    whole host (Bing Webmaster blog, 3 May 2012,
    https://blogs.bing.com/webmaster/2012/05/03/to-crawl-or-not-to-crawl-that-is-bingbots-question).
    No Bing document on redirects, 5xx, timeouts or cached copies was found,
    so those cases follow RFC 9309 and every explanation says so.
naver
    Naver Search Advisor's robots.txt guide, known here only through a quote
    of its table (https://blog.chulgil.me/robots-txt-seoljeonghagi): 2xx parsed, but an HTML page may be taken as
    no robots.txt at all; up to five redirects, then stop and allow all; 4xx
    allow all; 5xx disallow all, with a previous good copy used for a while.

One rule holds for every row: a transient failure (5xx, 429, a timeout, a
network error, incomplete data) is never read as "allow all" and is never
the latest good copy. Google's page says it assumes no restrictions when it
has no cached copy after the first 12 hours; robotscope still reports
disallow all there, and says why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .matcher import is_robots_txt
from .model import Reason, Verdict
from .robots import Robots
from .urls import target
from .useragents import product_token

Action = Literal["parse", "allow-all", "disallow-all", "cached-copy"]

MAX_REDIRECTS = 5  # RFC 9309, Section 2.3.1.2: follow at least five consecutive redirects
_HOUR = 3600.0
_DAY = 24 * _HOUR


@dataclass(frozen=True)
class Policy:
    """One engine's reading of robots.txt fetch outcomes, with the documents it comes from.

    The text fields are clauses that complete "..., so" in an explanation.
    `block_hours` is how long an outage blocks everything before the last good
    copy is used; `copy_days` how far into an outage that copy is still used
    (None: no documented end).
    """

    name: str
    title: str
    sources: tuple[str, ...]
    html: str  # an HTML page served with 2xx
    too_many_redirects: str  # more than five redirects, a loop, or a redirect that cannot be followed
    client_error: str  # 4xx other than 429
    rate_limited: str  # 429
    unreachable: str  # 5xx, timeouts, network errors
    block_hours: float
    copy_days: float | None
    notes: tuple[str, ...] = ()  # what the sources do not settle (UNCONFIRMED)

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "sources": list(self.sources),
            "block_hours": self.block_hours,
            "copy_days": self.copy_days,
            "notes": list(self.notes),
        }


_RFC = "https://www.rfc-editor.org/rfc/rfc9309.html"
_RFC_UNREACHABLE = (
    "the crawler must assume complete disallow, and only after a reasonably long time "
    "(e.g. 30 days) may it use a cached copy"
)

POLICIES: dict[str, Policy] = {
    p.name: p
    for p in (
        Policy(
            name="rfc9309",
            title="RFC 9309",
            sources=(_RFC,),
            html="it is parsed like any robots.txt, every HTML line is ignored, and with no rules left everything is allowed",
            too_many_redirects="the file may be taken as unavailable (Section 2.3.1.2), which allows everything",
            client_error="the file is unavailable and the crawler may access everything (Section 2.3.1.3)",
            rate_limited=(
                "it is read as a temporary server error, not as unavailable "
                "(RFC 9309 names only 5xx; robotscope never reads a transient failure as allow all): "
                + _RFC_UNREACHABLE
            ),
            unreachable=f"the file is unreachable (Section 2.3.1.4): {_RFC_UNREACHABLE}",
            block_hours=30 * 24,
            copy_days=None,
        ),
        Policy(
            name="google",
            title="Google",
            sources=(
                "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt",
                "https://suzukikenichi.com/blog/how-does-googlebot-behave-when-robots-txt-is-not-available",
            ),
            html="Google parses it as served, keeping valid lines and ignoring the rest, so an HTML page allows everything",
            too_many_redirects="Google stops following after five hops and treats robots.txt as a 404: everything is allowed",
            client_error="Google treats every 4xx except 429 as if there were no robots.txt: everything is allowed",
            rate_limited=(
                "Google treats 429 like a server error: it stops crawling for 12 hours, "
                "then uses the last good copy for up to 30 days"
            ),
            unreachable="Google stops crawling for 12 hours, then uses the last good copy for up to 30 days",
            block_hours=12,
            copy_days=30,
            notes=(
                "Google's page was read only through quotes (the second source and others): check the live page.",
                (
                    "Without a cached copy after 12 hours Google says it assumes no restrictions; "
                    "robotscope reports disallow all, since a transient failure is never read as allow all."
                ),
                (
                    "After 30 days Google acts as if there were no robots.txt when the site is otherwise available, "
                    "which robotscope cannot see: it reports disallow all."
                ),
            ),
        ),
        Policy(
            name="bing",
            title="Bing",
            sources=(
                "https://blogs.bing.com/webmaster/2012/05/03/to-crawl-or-not-to-crawl-that-is-bingbots-question",
                _RFC,
            ),
            html=(
                "Bing documents nothing for HTML bodies; under RFC 9309 it is parsed, every HTML line is "
                "ignored, and with no rules left everything is allowed"
            ),
            too_many_redirects=(
                "Bing documents no redirect limit; under RFC 9309 the file may be taken as unavailable, "
                "which allows everything"
            ),
            client_error="Bingbot considers itself allowed anywhere on a host without a robots.txt",
            rate_limited=(
                "Bing documents nothing for 429; robotscope reads it as a temporary server error under "
                "RFC 9309: " + _RFC_UNREACHABLE
            ),
            unreachable=f"Bing documents nothing for an unreachable robots.txt; under RFC 9309 {_RFC_UNREACHABLE}",
            block_hours=30 * 24,
            copy_days=None,
            notes=(
                (
                    "UNCONFIRMED: no Bing document on 5xx, 429, timeouts, redirects, HTML bodies or cached copies "
                    "was found; those cases follow RFC 9309."
                ),
                "The blog says Bingbot caches robots.txt and rechecks it after a few hours; the exact time is UNCONFIRMED.",
            ),
        ),
        Policy(
            name="naver",
            title="Naver",
            # Naver Search Advisor's robots.txt guide, known only through this quote of its table.
            sources=("https://blog.chulgil.me/robots-txt-seoljeonghagi",),
            html=(
                "Naver parses it, but its guide warns that an HTML robots.txt may be taken as no robots.txt "
                "at all, even with valid rules inside: everything is allowed"
            ),
            too_many_redirects="Naver follows up to five redirects, then stops and allows everything",
            client_error="Naver reads a 4xx as allow all",
            rate_limited=(
                "Naver documents nothing for 429; robotscope reads it as a server error: "
                "disallow all, or a previous good copy for a while"
            ),
            unreachable="Naver reads a 5xx as disallow all and uses a previous good copy for a while",
            block_hours=0,
            copy_days=None,
            notes=(
                (
                    "Naver Search Advisor's robots.txt guide was read only through a quote of its table (the source); "
                    "the guide's own URL and the wording of its 5xx row (the previous good copy) are UNCONFIRMED."
                ),
                "Naver gives no duration for using the previous copy; robotscope uses it for the whole outage.",
            ),
        ),
    )
}


@dataclass(frozen=True)
class Outcome:
    """How a fetch of /robots.txt ended, as plain data.

    `status` is the final HTTP status (None when no response came);
    `error` the transport error kind (`timeout`, `dns`, `connect`, `tls`,
    `network`, `decode`) when the fetch failed; `redirects` the redirects
    followed; `loop` whether a redirect pointed back into the chain; `html`
    whether a 2xx body looks like an HTML page; `unfollowable` why the final
    redirect could not be followed (no Location, not http or https, malformed).
    The error kind `incomplete` is a body cut short (a compressed stream
    without its end, a connection closed before Content-Length was read).
    """

    status: int | None = None
    error: str | None = None
    redirects: int = 0
    loop: bool = False
    html: bool = False
    unfollowable: str | None = None


@dataclass(frozen=True)
class Cached:
    """What the cache knows when the file is unreachable: its last good copy and how long the outage is."""

    good_fetched_at: float | None = None  # when the last good (2xx) copy was fetched; None if there is none
    failing_since: float | None = None  # when the current run of transient failures began


@dataclass(frozen=True)
class Decision:
    """What one policy concludes from one outcome, and why, in one sentence."""

    policy: str
    action: Action
    explanation: str

    def as_dict(self) -> dict[str, Any]:
        return {"policy": self.policy, "action": self.action, "explanation": self.explanation}


def is_transient(outcome: Outcome) -> bool:
    """A temporary failure: no response, 429, 5xx, or a status no crawler can read (1xx, 6xx+)."""
    status = outcome.status
    return outcome.error is not None or status is None or status == 429 or status >= 500 or status < 200


def decide(
    outcome: Outcome, policy: Policy | str, *, cached: Cached | None = None, now: float | None = None
) -> Decision:
    """Read `outcome` the way `policy` does; `cached` and `now` matter only when the file is unreachable.

    >>> decide(Outcome(status=404), "google").action
    'allow-all'
    >>> decide(Outcome(status=503), "rfc9309").action
    'disallow-all'
    """
    row = POLICIES[policy] if isinstance(policy, str) else policy
    if is_transient(outcome):
        return _unreachable(outcome, row, cached or Cached(), now)
    status = outcome.status
    assert status is not None  # is_transient covers a missing status
    if status < 300:
        if outcome.html:
            return _decision(row, "parse", f"HTTP {status} with an HTML page, so {row.html}")
        return _decision(row, "parse", f"HTTP {status}, so the file is parsed and its rules are followed")
    if status < 400:
        if outcome.loop:
            cause = f"the redirects loop after {outcome.redirects} hops"
        elif outcome.redirects >= MAX_REDIRECTS:
            cause = (
                f"HTTP {status} after {outcome.redirects} redirects, more than the {MAX_REDIRECTS} followed"
            )
        elif outcome.unfollowable is not None:
            cause = f"HTTP {status} is a redirect that cannot be followed: {outcome.unfollowable}"
        else:
            cause = f"HTTP {status} is a redirect that cannot be followed"
        return _decision(row, "allow-all", f"{cause}, so {row.too_many_redirects}")
    return _decision(row, "allow-all", f"HTTP {status}, so {row.client_error}")


def _unreachable(outcome: Outcome, row: Policy, cached: Cached, now: float | None) -> Decision:
    if outcome.error is not None:
        cause = f"the fetch failed ({outcome.error})"
    else:
        cause = f"HTTP {outcome.status}"
    rule = row.rate_limited if outcome.status == 429 and outcome.error is None else row.unreachable
    start = cached.failing_since
    outage = 0.0 if start is None or now is None else max(0.0, now - start)
    block, limit = row.block_hours * _HOUR, None if row.copy_days is None else row.copy_days * _DAY
    if cached.good_fetched_at is None:
        state = "there is no good copy, so everything is disallowed"
    elif outage < block:
        state = f"unreachable for {_span(outage)}, within the first {_span(block)}: everything is disallowed"
    elif limit is not None and outage >= limit:
        state = f"unreachable for {_span(outage)}, past {_span(limit)}: everything is disallowed"
    else:
        age = "" if now is None else f", fetched {_span(max(0.0, now - cached.good_fetched_at))} ago"
        return _decision(
            row,
            "cached-copy",
            f"{cause}, so {rule}; unreachable for {_span(outage)}, the last good copy is used{age}",
        )
    return _decision(row, "disallow-all", f"{cause}, so {rule}; {state}")


def _decision(row: Policy, action: Action, text: str) -> Decision:
    return Decision(row.name, action, f"{row.title} ({row.sources[0]}): {text}.")


def _span(seconds: float) -> str:
    if seconds >= 2 * _DAY:
        return f"{seconds / _DAY:.0f} days"
    if seconds >= _HOUR:
        return f"{seconds / _HOUR:.0f} h"
    return f"{seconds / 60:.0f} min"


def decide_all(
    outcome: Outcome, *, cached: Cached | None = None, now: float | None = None
) -> dict[str, Decision]:
    """The decision of every policy, by name, in table order."""
    return {name: decide(outcome, row, cached=cached, now=now) for name, row in POLICIES.items()}


def verdict_for(decision: Decision, robots: Robots | None, agent: str, url: str) -> Verdict:
    """May `agent` fetch `url`, given what the policy concluded about the origin's robots.txt?

    `robots` is the parsed file for `parse` and `cached-copy`. For
    `allow-all` and `disallow-all` no rule decides; /robots.txt itself stays
    allowed (RFC 9309, Section 2.2.2).
    """
    if decision.action in ("parse", "cached-copy") and robots is not None:
        return robots.verdict(agent, url)
    path = target(url)
    if is_robots_txt(path):
        allowed, reason = True, Reason.ROBOTS_TXT
    elif decision.action == "disallow-all":
        allowed, reason = False, Reason.UNREACHABLE
    else:
        allowed, reason = True, Reason.UNAVAILABLE
    return Verdict(allowed, None, None, reason, product_token(agent), (), (), url, path)
