"""What a crawler concludes from fetching /robots.txt: the engines' policies as data, and `decide`.

A fetch ends in an `Outcome` (plain data: the final status or a transport
error, the redirects followed, whether they looped, whether the body is an
HTML page). `decide(outcome, policy, cached=..., now=...)` turns it into a
`Decision`: an `Action` (`parse`, `allow-all`, `disallow-all` or
`cached-copy`; `Action.rules_apply` is the one home of "the file's rules
apply after this fetch"), with a reason (a `Message`: the cause, what the policy does in that case, and for
an outage the state of the cached copy) that names the policy and cites its
source. Pure: no I/O, no clock
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

yandex
    Yandex Webmaster's robots.txt page
    (https://yandex.com/support/webmaster/controlling-robot/robots-txt.html):
    "Yandex robots correctly process robots.txt, if: ... The file is
    available to robots: the server that hosts the site responds with an
    HTTP code with the status 200 OK ... If the file doesn't meet the
    requirements, the site is considered open for indexing"; the page also
    says a redirect to a file on another site is followed and the target's
    directives apply. Yandex's robots.txt troubleshooting page says the same
    of the status ("the server must return the HTTP code 200 OK. In any
    other cases, the robot can't load the file",
    https://yandex.com/support/webmaster-troubleshooting/tools_analysis-robotstxt.xml).
    So every HTTP answer but 200 OK (a 204, a 404, a 429, a 503, a redirect
    that reaches no file) allows all (settled), and so does an HTML page
    served with 200, the page requiring a TXT file (inferred). A fetch with
    no answer at all (a timeout, a network error, a body cut short) is not
    covered by either page and follows RFC 9309: disallow all. No redirect
    limit is documented: RFC 9309's five.

One rule holds for every row but Yandex's (which documents the opposite for
5xx and 429): a transient failure (5xx, 429, a timeout, a network error,
incomplete data) is never read as "allow all" and is never the latest good
copy. Google's page says it assumes no restrictions when it has no cached
copy after the first 12 hours; robotscope still reports disallow all there,
and says why.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urldefrag, urljoin

from ..messages import DEFAULT_LANG, Message, message
from ..syntax.urls import robots_url


class Action(enum.StrEnum):
    """What a crawler does with an origin after fetching its robots.txt."""

    PARSE = "parse"  # apply the rules of the file fetched
    ALLOW_ALL = "allow-all"  # no usable file (4xx, redirects exhausted): everything allowed
    DISALLOW_ALL = "disallow-all"  # unreachable (5xx, 429, network errors): everything disallowed
    CACHED_COPY = "cached-copy"  # unreachable, but the last good copy's rules apply

    @property
    def rules_apply(self) -> bool:
        """Whether the rules of a file apply after this action (the fetched one, or the cached copy)."""
        return self is Action.PARSE or self is Action.CACHED_COPY


MAX_REDIRECTS = 5  # RFC 9309, Section 2.3.1.2: follow at least five consecutive redirects
REDIRECTS = frozenset({301, 302, 303, 307, 308})  # the statuses whose Location a crawler follows
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")  # RFC 3986, Section 3.1
_HOUR = 3600.0
_DAY = 24 * _HOUR

# The cases a policy reads differently; each policy has one message per case,
# `policy.<name>.<case>`, that completes "<cause>, so ...".
CASES = (
    "html",
    "redirects-exhausted",
    "redirect-loop",
    "redirect-unfollowable",
    "client-error",
    "rate-limited",
    "server-error",
    "fetch-error",
)


@dataclass(frozen=True)
class Policy:
    """One engine's reading of robots.txt fetch outcomes, with the documents it comes from.

    What the policy concludes in each case is the message
    `policy.<name>.<case>` of the catalogues (`CASES`); `notes` are the
    codes of what the sources do not settle (UNCONFIRMED, inferred).
    `block_hours` is how long an outage blocks everything before the last
    good copy is used; `copy_days` how far into an outage that copy is still
    used (None: no documented end). `ok_only`: only a 200 OK text file is
    robots.txt, and every other HTTP answer, a 5xx included, allows all.
    """

    name: str
    title: str
    sources: tuple[str, ...]
    block_hours: float
    copy_days: float | None
    notes: tuple[str, ...] = ()
    ok_only: bool = False  # any HTTP answer but a 200 OK text file means no robots.txt: allow all (Yandex)

    def clause(self, case: str) -> Message:
        return message(f"policy.{self.name}.{case}")

    def as_dict(self, lang: str = DEFAULT_LANG) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "sources": list(self.sources),
            "block_hours": self.block_hours,
            "copy_days": self.copy_days,
            "notes": [message(code).render(lang) for code in self.notes],
        }


_RFC = "https://www.rfc-editor.org/rfc/rfc9309.html"

POLICIES: dict[str, Policy] = {
    p.name: p
    for p in (
        Policy(name="rfc9309", title="RFC 9309", sources=(_RFC,), block_hours=30 * 24, copy_days=None),
        Policy(
            name="google",
            title="Google",
            sources=(
                "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt",
                "https://suzukikenichi.com/blog/how-does-googlebot-behave-when-robots-txt-is-not-available",
            ),
            block_hours=12,
            copy_days=30,
            notes=("policy.google.note.quotes", "policy.google.note.no-copy", "policy.google.note.after-30-days"),
        ),
        Policy(
            name="bing",
            title="Bing",
            sources=(
                "https://blogs.bing.com/webmaster/2012/05/03/to-crawl-or-not-to-crawl-that-is-bingbots-question",
                _RFC,
            ),
            block_hours=30 * 24,
            copy_days=None,
            notes=("policy.bing.note.unconfirmed", "policy.bing.note.recheck"),
        ),
        Policy(
            name="naver",
            title="Naver",
            # Naver Search Advisor's robots.txt guide, known only through this quote of its table.
            sources=("https://blog.chulgil.me/robots-txt-seoljeonghagi",),
            block_hours=0,
            copy_days=None,
            notes=("policy.naver.note.quote", "policy.naver.note.duration"),
        ),
        Policy(
            name="yandex",
            title="Yandex",
            sources=(
                "https://yandex.com/support/webmaster/controlling-robot/robots-txt.html",
                "https://yandex.com/support/webmaster-troubleshooting/tools_analysis-robotstxt.xml",
            ),
            block_hours=30 * 24,  # for a fetch with no answer, which follows RFC 9309
            copy_days=None,
            notes=("policy.yandex.note.no-answer", "policy.yandex.note.html"),
            ok_only=True,
        ),
    )
}


@dataclass(frozen=True)
class Outcome:
    """How a fetch of /robots.txt ended, as plain data.

    `status` is the final HTTP status (None when no response came);
    `error` the transport error kind (`timeout`, `dns`, `connect`, `tls`,
    `network`, `decode`, `incomplete`) when the fetch failed; `redirects`
    the redirects followed; `loop` whether a redirect pointed back into the
    chain; `html` whether a 2xx body looks like an HTML page; `unfollowable`
    why the final redirect could not be followed (a `Message`: no Location,
    not http or https, malformed). `incomplete` is a body cut short (a
    compressed stream without its end, a connection closed before
    Content-Length was read).
    """

    status: int | None = None
    error: str | None = None
    redirects: int = 0
    loop: bool = False
    html: bool = False
    unfollowable: Message | None = None


@dataclass(frozen=True)
class Cached:
    """What the cache knows when the file is unreachable: its last good copy and how long the outage is."""

    good_fetched_at: float | None = None  # when the last good (2xx) copy was fetched; None if there is none
    failing_since: float | None = None  # when the current run of transient failures began


@dataclass(frozen=True)
class Decision:
    """What one policy concludes from one outcome, and why (`reason`, a message naming the policy and its source)."""

    policy: str
    action: Action
    reason: Message

    @property
    def explanation(self) -> str:
        """The reason in English."""
        return self.reason.render()

    def as_dict(self, lang: str = DEFAULT_LANG) -> dict[str, Any]:
        return {
            "policy": self.policy,
            "action": self.action,
            "explanation": self.reason.render(lang),
            "reason": self.reason.as_dict(lang),
        }


def is_transient(outcome: Outcome) -> bool:
    """A temporary failure: no response, 429, 5xx, or a status no crawler can read (1xx, 6xx+)."""
    status = outcome.status
    return outcome.error is not None or status is None or status == 429 or status >= 500 or status < 200


def decide(
    outcome: Outcome, policy: Policy | str, *, cached: Cached | None = None, now: float | None = None
) -> Decision:
    """Read `outcome` the way `policy` does; `cached` and `now` matter only when the file is unreachable.

    >>> decide(Outcome(status=404), "google").action.value
    'allow-all'
    >>> decide(Outcome(status=503), "rfc9309").action.value
    'disallow-all'
    >>> decide(Outcome(status=503), "yandex").action.value
    'allow-all'
    """
    row = POLICIES[policy] if isinstance(policy, str) else policy
    cause, case = _case(outcome)
    if row.ok_only and case != "fetch-error" and (case != _OK or outcome.status != 200):
        # An HTTP answer, but no 200 OK text file: no robots.txt. A 2xx other than 200 reads
        # as the client-error clause says it: any answer but 200 OK.
        return _decision(row, Action.ALLOW_ALL, cause, row.clause("client-error" if case == _OK else case))
    if case in _UNREACHABLE:
        return _unreachable(cause, case, row, cached or Cached(), now)
    if case == _OK:
        return _decision(row, Action.PARSE, cause, message("rule.parse"))
    return _decision(row, Action.PARSE if case == "html" else Action.ALLOW_ALL, cause, row.clause(case))


_OK = "ok"  # a 2xx text file: parsed by every policy but `ok_only` ones, which want 200 itself
_UNREACHABLE = frozenset({"fetch-error", "rate-limited", "server-error"})


def _case(outcome: Outcome) -> tuple[Message, str]:
    """What happened, as a message, and the case (`CASES`, or `_OK`) a policy reads it by."""
    status = outcome.status
    if outcome.error is not None:
        return message("cause.error", error=message(f"error.{outcome.error}")), "fetch-error"
    if status is None or status < 200 or status >= 600:
        return message("cause.unusable-status", status=status or 0), "fetch-error"
    if status == 429:
        return message("cause.status", status=429), "rate-limited"
    if status >= 500:
        return message("cause.status", status=status), "server-error"
    if status < 300:
        if outcome.html:
            return message("cause.status-html", status=status), "html"
        return message("cause.status", status=status), _OK
    if status < 400:
        if outcome.loop:
            return message("cause.redirect-loop", status=status, hop=outcome.redirects + 1), "redirect-loop"
        if outcome.redirects >= MAX_REDIRECTS:
            cause = message(
                "cause.redirects-exhausted", status=status, redirects=outcome.redirects, limit=MAX_REDIRECTS
            )
            return cause, "redirects-exhausted"
        why = outcome.unfollowable or message("redirect.no-location")
        return message("cause.redirect-unfollowable", status=status, why=why), "redirect-unfollowable"
    return message("cause.status", status=status), "client-error"


def _unreachable(cause: Message, case: str, row: Policy, cached: Cached, now: float | None) -> Decision:
    start = cached.failing_since
    outage = 0.0 if start is None or now is None else max(0.0, now - start)
    block, limit = row.block_hours * _HOUR, None if row.copy_days is None else row.copy_days * _DAY
    if cached.good_fetched_at is None:
        state = message("state.no-copy")
    elif outage < block:
        state = message("state.blocking", outage=span(outage), block=span(block))
    elif limit is not None and outage >= limit:
        state = message("state.expired", outage=span(outage), limit=span(limit))
    else:
        if now is None:
            state = message("state.copy", outage=span(outage))
        else:
            state = message("state.copy-aged", outage=span(outage), age=span(max(0.0, now - cached.good_fetched_at)))
        return _decision(row, Action.CACHED_COPY, cause, row.clause(case), state)
    return _decision(row, Action.DISALLOW_ALL, cause, row.clause(case), state)


def _decision(row: Policy, action: Action, cause: Message, rule: Message, state: Message | None = None) -> Decision:
    params = {"policy": row.title, "source": row.sources[0], "cause": cause, "rule": rule}
    if state is None:
        return Decision(row.name, action, message("decision", **params))
    return Decision(row.name, action, message("decision-state", **params, state=state))


def span(seconds: float) -> Message:
    """A duration as a message: days from two days on, then hours, then minutes."""
    if seconds >= 2 * _DAY:
        return message("span.days", n=round(seconds / _DAY))
    if seconds >= _HOUR:
        return message("span.hours", n=round(seconds / _HOUR))
    return message("span.minutes", n=round(seconds / 60))


def decide_all(outcome: Outcome, *, cached: Cached | None = None, now: float | None = None) -> dict[str, Decision]:
    """The decision of every policy, by name, in table order."""
    return {name: decide(outcome, row, cached=cached, now=now) for name, row in POLICIES.items()}


def redirect_target(base: str, location: str | None) -> tuple[str | None, Message | None]:
    """Where a redirect from `base` leads: (URL, None), or (None, why it cannot be followed).

    Only an absolute or relative reference that resolves to an http or https
    URL with a valid host and port can be followed; `javascript:`, `ftp:`,
    `file:`, a missing Location and a malformed one all end the chain alike.
    """
    if location is None or not location.strip():
        return None, message("redirect.no-location")
    shown = location.strip()[:200]
    try:
        target = urldefrag(urljoin(base, location.strip())).url
        robots_url(target)  # http(s), a host, a valid port: the one home of that test
    except ValueError as error:  # InvalidURL is a ValueError
        return None, unfollowable(shown, error)
    return target, None


def unfollowable(shown: str, error: Exception) -> Message:
    """Why the Location `shown` cannot be followed: another scheme than http(s), or malformed."""
    scheme = _SCHEME.match(shown)
    if scheme is not None and scheme[1].lower() not in ("http", "https"):
        return message("redirect.scheme", location=shown, scheme=scheme[1].lower())
    return message("redirect.malformed", location=shown, problem=str(error))
