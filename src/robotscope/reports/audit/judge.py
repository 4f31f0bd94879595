"""One logged request judged: who claims to send it, is it them, which robots.txt was in force, and its class.

`Judge.judge(request)` reads the User-Agent as every part of robotscope
reads one (`syntax.crawlers.recognise`: the product token, then any
catalogue token in it) and gives None for a request that names no crawler
of the catalogue (a browser, an unknown bot: counted by the summary, not
judged). For a crawler it asks:

- the claim's verification, from `verify(address, user_agent, when)` (a
  `verifying.Verifier`, which keeps its verdicts, or any callable). Given
  `spans` too (`Verifier.span`: the moments around `when` at which the same
  lists are in force), the judge keeps each (address, crawler)'s status
  for those moments and asks `verify` again only outside them;
- the robots.txt in force for the request's origin at its time, from
  `in_force(origin, when)` (`timeline.RobotsTimeline.in_force`). The origin
  is the logged host and scheme; a log without hosts (NCSA combined) takes
  `site`'s, and a host logged without a scheme takes `site`'s scheme
  (else http);
- the verdict by the crawler's operator's reading (`access.engines.registry`:
  Googlebot by `google`, with Google's reading of the fetch's status;
  another catalogue crawler by `rfc9309+profiles`), with the deciding line;
- its class (`classes.classify`, where the precedence is written down).
  A request the file in force disallows, made less than `grace` seconds
  after that file came into force, is judged by the files in force in the
  `grace` seconds before it too (`in_grace`:
  `timeline.RobotsTimeline.in_grace`): when one of them allowed it, the
  crawler may have used its cached copy, and the class is `grace`, the row
  naming that file (`grace_version`). Only a disallowed request asks.

Logs repeat themselves: the crawler named by each User-Agent string, each
claim's status, and each verdict by (version, crawler, target), are kept
(bounded: `Kept`), so a repeat costs a dictionary look-up. A verdict depends
on the version, crawler and target alone; whether a request is within grace
depends on its time, and is asked each time (from kept verdicts). Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Generic, NamedTuple, TypeVar

from ...access.engines.registry import DEFAULT, OPERATOR, PROFILED, fetch_policy, resolve
from ...access.matching.ruleset import RuleSet
from ...access.verdicts import is_robots_txt
from ...syntax.crawlers import Crawler, recognise
from ...syntax.logformats.model import Request
from ...syntax.urls import origin_of
from ..compare.bulk import bulk_row
from ..verification import Status, Verification
from .classes import ROBOTS_TXT, AuditClass, classify, exemption
from .timeline import RobotsVersion, request_origin

Verify = Callable[[str, str, float | None], Verification]
Spans = Callable[[float], tuple[float, float]]
InForce = Callable[[str | None, float | None], RobotsVersion | None]
InGrace = Callable[[RobotsVersion, float, float], RobotsVersion | None]

# Seconds a crawler may judge by a robots.txt it cached: RFC 9309, Section 2.4 (crawlers SHOULD NOT use a cached copy
# for more than 24 hours), and Google's documented cache of up to 24 hours.
GRACE = 86_400.0
EARLIER = 64  # files in force within the grace window, before the one in force, that a request is judged by at most

VERDICTS = 65_536  # (version, crawler, target) verdicts kept
CLAIMS = 16_384  # (address, crawler) statuses kept, each with the moments it holds for
AGENTS = 4_096  # User-Agent strings whose crawler is kept
LONGEST_KEPT = 512  # characters of a User-Agent or target kept as a key: a longer one is judged again each time


class Row(NamedTuple):
    """One audited request: as logged, and as judged. `COLUMNS` names the fields in output (`class`)."""

    source: str  # the log it was read from
    number: int  # its line there
    time: float | None  # POSIX seconds, UTC
    ip: str
    method: str
    url: str  # origin and target when the origin is known, else the target as logged
    status: int | None
    user_agent: str
    token: str  # the catalogue crawler the User-Agent names
    operator: str
    purpose: str
    verification: str  # a `reports.verification.Status`
    origin: str | None
    robots_version: str | None  # `RobotsVersion.ref` of the file in force; None when none is known
    engine: str  # the reading that judged it (the crawler's operator's)
    allowed: bool | None
    line: int | None  # the deciding line of the file in force
    rule: str | None  # that line's rule, as `Disallow: /path`
    crawl_delay: int | float | None  # the Crawl-delay the file in force gives the crawler
    audit_class: str  # a `classes.AuditClass`
    exempt: str | None  # why it is exempt (`classes`: robots-txt, ignores, user-triggered)
    grace_version: str | None  # class `grace`: the ref of the earlier file, maybe still cached, that allowed it

    def as_dict(self) -> dict[str, Any]:
        return dict(zip(COLUMNS, self, strict=True))


COLUMNS = tuple("class" if name == "audit_class" else name for name in Row._fields)


class _Claimed(NamedTuple):
    """What the judge knows of a catalogue crawler, looked up once."""

    crawler: Crawler
    engine: str  # its operator's reading
    policy: str  # its operator's reading of a fetch's status
    exempt: str | None


class _Judged(NamedTuple):
    """A verdict as rows carry it, with the Crawl-delay the same version gives the crawler."""

    allowed: bool
    line: int | None
    rule: str | None
    delay: int | float | None  # as the file wrote it: the compiled build would make a float of an int


_K = TypeVar("_K", bound=Hashable)
_V = TypeVar("_V")


class Kept(Generic[_K, _V]):
    """At most `size` values by key: a repeat costs one dictionary look-up, and so does making room.

    `recent` holds what was asked for or made since the last turn, `earlier` what was before it. A value
    found in `earlier` moves to `recent`; when `recent` holds half of `size`, it becomes `earlier` and the
    old `earlier` is dropped whole. A value asked for again within half the size is never dropped. (A dict
    emptied from its front, `del d[next(iter(d))]`, walks past every slot deleted before it: on a million
    log lines that made each new verdict cost more than judging it.)
    """

    __slots__ = ("_half", "earlier", "recent")

    def __init__(self, size: int) -> None:
        self._half = max(1, size // 2)
        self.recent: dict[_K, _V] = {}
        self.earlier: dict[_K, _V] = {}

    def keep(self, key: _K, value: _V) -> None:
        if len(self.recent) >= self._half:
            self.earlier, self.recent = self.recent, {}
        self.recent[key] = value

    def __len__(self) -> int:
        return len(self.recent) + len(self.earlier)


_VIOLATION, _UNVERIFIED, _GRACE = AuditClass.VIOLATION.value, AuditClass.UNVERIFIED.value, AuditClass.GRACE.value
_STATUS = {status: status.value for status in Status}  # plain strings in rows, found faster than `.value`
_new_row = tuple.__new__  # NamedTuple's generated __new__ costs twice as much, on every row


class Judge:
    """Judges requests against `in_force`'s robots.txt and `verify`'s verdicts; `site` names the origin of a
    log that logs no host (`https://example.com`; raises `InvalidURL` when it is not a URL). With `in_grace`
    (the same time line's `RobotsTimeline.in_grace`), a disallowed request made less than `grace` seconds after
    its file came into force is judged by the files before it too (0: never)."""

    def __init__(
        self,
        in_force: InForce,
        verify: Verify,
        site: str | None = None,
        *,
        spans: Spans | None = None,
        in_grace: InGrace | None = None,
        grace: float = GRACE,
    ) -> None:
        if not grace >= 0:
            raise ValueError(f"the grace is {grace!r} seconds, not a number of seconds from 0")
        self._in_force = in_force
        self._in_grace = in_grace if grace > 0 else None
        self.grace = grace if in_grace is not None else 0.0
        self._verify = verify
        self._spans = spans
        self._claims: Kept[tuple[str, str], tuple[float, float, Status]] = Kept(CLAIMS)
        self.site = None if site is None else origin_of(site)
        self._scheme = None if self.site is None else self.site.partition("://")[0]
        self._site_host = None if self.site is None else self.site.partition("://")[2]
        self._claimed: Kept[str, _Claimed | None] = Kept(AGENTS)
        self._by_token: dict[str, _Claimed] = {}
        self._verdicts: Kept[tuple[RobotsVersion, str, str], _Judged] = Kept(VERDICTS)
        # Per (version, crawler): few, as a log's crawlers and its robots.txt versions are.
        self._delays: dict[tuple[RobotsVersion, str], int | float | None] = {}
        self._rulesets: dict[tuple[RobotsVersion, str], RuleSet | None] = {}

    def claimed(self, user_agent: str) -> Crawler | None:
        """The catalogue crawler `user_agent` names (kept for the strings seen last)."""
        found = self._claim(user_agent)
        return None if found is None else found.crawler

    def _claim(self, user_agent: str) -> _Claimed | None:
        kept = self._claimed
        try:
            return kept.recent[user_agent]
        except KeyError:
            pass
        try:
            made = kept.earlier[user_agent]
        except KeyError:
            crawler = recognise(user_agent)
            made = None if crawler is None else self._known(crawler)
        if len(user_agent) <= LONGEST_KEPT:
            kept.keep(user_agent, made)
        return made

    def _known(self, crawler: Crawler) -> _Claimed:
        found = self._by_token.get(crawler.token)
        if found is None:
            token = crawler.token
            found = _Claimed(crawler, resolve(OPERATOR, token), fetch_policy(OPERATOR, token), exemption(crawler))
            self._by_token[token] = found
        return found

    def origin(self, scheme: str | None, host: str | None) -> str | None:
        """The origin a request was made to: its logged host (with `site`'s scheme when none is logged), else
        `site`; None when neither is known or the host is not one."""
        if not host:
            return self.site
        if scheme is None and host == self._site_host:
            return self.site
        return request_origin(scheme or self._scheme, host)

    def judge(self, request: Request, source: str = "") -> Row | None:
        """The row of `request` (read from `source`), or None when its User-Agent names no catalogue crawler."""
        user_agent = request.user_agent
        try:  # `_claim`'s first look-up inlined: every request asks it
            claimed = self._claimed.recent[user_agent]
        except KeyError:
            claimed = self._claim(user_agent)
        if claimed is None:
            return None
        crawler = claimed.crawler
        token = crawler.token
        when = request.time
        ip = request.ip
        kept = self._claims.recent.get((ip, token))
        if kept is not None and when is not None and kept[0] <= when < kept[1]:
            status = kept[2]
        else:
            status = self._status(ip, user_agent, token, when)
        host = request.host
        origin = self.site if not host else self.origin(request.scheme, host)
        target = request.target
        exempt = ROBOTS_TXT if is_robots_txt(target) else claimed.exempt
        version = self._in_force(origin, when)
        if version is None:
            ref = allowed = line = rule = delay = None
        else:
            ref = version.ref
            judged = self._verdicts.recent.get((version, token, target))
            if judged is None:
                judged = self._judged(version, claimed, target)
            allowed, line, rule, delay = judged
        kind = classify(status, exempt, allowed)
        earlier = None
        if allowed is False and self._in_grace is not None and kind in (_VIOLATION, _UNVERIFIED):
            earlier = self._earlier(self._in_grace, version, claimed, target, when)
            if earlier is not None:
                kind = _GRACE
        # A Row, built without its generated __new__.
        return _new_row(
            Row,
            (
                source,
                request.number,
                when,
                ip,
                request.method,
                target if origin is None else origin + target,
                request.status,
                user_agent,
                token,
                crawler.operator,
                crawler.purpose,
                _STATUS[status],
                origin,
                ref,
                claimed.engine,
                allowed,
                line,
                rule,
                delay,
                kind,
                exempt,
                earlier,
            ),
        )

    def _status(self, ip: str, user_agent: str, token: str, when: float | None) -> Status:
        """The claim's status: kept from before the last turn for moments around `when`, or asked; and kept."""
        key = (ip, token)
        kept = self._claims.earlier.get(key)
        if kept is not None and when is not None and kept[0] <= when < kept[1]:
            status = kept[2]
        else:
            try:
                status = self._verify(ip, user_agent, when).status
            except ValueError:  # the logged client is no IP address: nothing to check it against
                status = Status.INCONCLUSIVE
            if self._spans is None or when is None:
                return status
            kept = (*self._spans(when), status)
        self._claims.keep(key, kept)
        return status

    def _earlier(
        self, in_grace: InGrace, version: RobotsVersion | None, claimed: _Claimed, target: str, when: float | None
    ) -> str | None:
        """The ref of the newest file in force within the grace window before `version` that allows `target` (a
        crawler's cached copy may have been it), or None. Each file's verdict is kept as any other."""
        if version is None or when is None:
            return None
        token = claimed.crawler.token
        found = in_grace(version, when, self.grace)
        for _ in range(EARLIER):
            if found is None:
                return None
            judged = self._verdicts.recent.get((found, token, target)) or self._judged(found, claimed, target)
            if judged.allowed:
                return found.ref
            found = in_grace(found, when, self.grace)
        return None

    def _judged(self, version: RobotsVersion, claimed: _Claimed, target: str) -> _Judged:
        """The verdict on `target` under `version`, and the crawler's Crawl-delay there: kept from before the last
        turn, or made; and kept."""
        token = claimed.crawler.token
        key = (version, token, target)
        found = self._verdicts.earlier.get(key)
        if found is None:
            ruleset = self._ruleset(version, claimed)
            if ruleset is None:
                verdict = version.verdict(token, target, claimed.policy, claimed.engine)
                rule = None if verdict.rule is None else verdict.rule.text
                found = _Judged(verdict.allowed, verdict.line, rule, self._delay(version, claimed))
            else:
                row = bulk_row(ruleset, target, claimed.engine)
                found = _Judged(row.allowed, row.line, row.rule, self._delay(version, claimed))
        if len(target) <= LONGEST_KEPT:  # a scanner's distinct long URLs would fill the cache with their text
            self._verdicts.keep(key, found)
        return found

    def _ruleset(self, version: RobotsVersion, claimed: _Claimed) -> RuleSet | None:
        """The crawler's rule set when RFC 9309's readings (with profiles or without) judge by the file's rules:
        the matcher's fast path, as `bulk` takes it; None where the full verdict is asked."""
        key = (version, claimed.crawler.token)
        try:
            return self._rulesets[key]
        except KeyError:
            robots = version.rules(claimed.policy)
            found = self._rulesets[key] = (
                None
                if robots is None or claimed.engine not in (DEFAULT, PROFILED)
                else robots.rules_for(claimed.crawler.token, profiles=claimed.engine == PROFILED)
            )
            return found

    def _delay(self, version: RobotsVersion, claimed: _Claimed) -> int | float | None:
        key = (version, claimed.crawler.token)
        try:
            return self._delays[key]
        except KeyError:
            robots = version.rules(claimed.policy)
            found = self._delays[key] = None if robots is None else robots.crawl_delay(claimed.crawler.token)
            return found


__all__ = [
    "AGENTS",
    "CLAIMS",
    "COLUMNS",
    "EARLIER",
    "GRACE",
    "VERDICTS",
    "AuditClass",
    "InForce",
    "InGrace",
    "Judge",
    "Kept",
    "Row",
    "Spans",
    "Verify",
]
