"""What an audit found, per crawler and in all: counts that add up, whatever the size of the log.

`Summary.add(row)` counts one judged request; `unaudited(when)` one whose
User-Agent names no catalogue crawler (browsers, unknown bots: counted in
the totals and the hours, never judged); `bad(source, line)` a line that is
no request. Per crawler it keeps the requests by class, verification and
status, the allowed requests answered 403 ("declared allow, enforced
block"), the robots.txt fetches, the violations by deciding line (file
version, line, rule) and the addresses that spoofed it; per hour the
requests by purpose and by class (for charts); and the sessions of each
crawler at each origin (`sessions.Tracks`). Everything is a count: memory
grows with crawlers, origins, deciding lines and hours, never with
requests, and each table that could grow with hostile input is capped
(`MAX_KEYS`; what is past the cap is counted in `dropped`).

`then(later)` adds the summary of the piece of input that follows this
one (another file, a `--jobs` chunk): every count adds up, and the
sessions are stitched in input order, so pieces merged in order give what
one pass gives. Exact whatever the order of the input: every count but the
sessions (see `sessions` for what input out of order does to them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from ...messages import Message
from ...syntax.logformats.model import BadLine
from .classes import ROBOTS_TXT, AuditClass
from .judge import Row
from .sessions import Totals, Tracks, least, most

REPORTED = 50  # bad lines kept with their numbers; past it they are only counted
MAX_KEYS = 10_000  # entries of one capped table (deciding lines, spoofing addresses, hours, origins)
HOUR = 3600
_K = TypeVar("_K")
_SPOOFED = AuditClass.SPOOFED.value
_ALLOWED = AuditClass.ALLOWED.value
_VIOLATION = AuditClass.VIOLATION.value
_UNJUDGED = AuditClass.UNJUDGED.value


@dataclass(slots=True)
class CrawlerSummary:
    """One crawler (by the token its User-Agent names) across the whole audit."""

    token: str
    operator: str
    purpose: str
    requests: int = 0
    classes: dict[str, int] = field(default_factory=dict)
    verification: dict[str, int] = field(default_factory=dict)
    statuses: dict[int | None, int] = field(default_factory=dict)
    blocked: int = 0  # allowed requests answered 403: declared allow, enforced block
    robots: int = 0  # requests for /robots.txt, spoofed ones aside
    violations: dict[tuple[str | None, int | None, str | None], int] = field(default_factory=dict)
    spoofers: dict[str, int] = field(default_factory=dict)  # address -> spoofed requests
    first: float | None = None
    last: float | None = None
    sessions: Totals = field(default_factory=Totals)  # filled by `Summary.finish`

    def then(self, later: CrawlerSummary, dropped: dict[str, int]) -> None:
        self.requests += later.requests
        _add(self.classes, later.classes)
        _add(self.verification, later.verification)
        _add(self.statuses, later.statuses)  # a status is 3 digits: at most 900 of them
        self.blocked += later.blocked
        self.robots += later.robots
        _add(self.violations, later.violations, dropped, "violations")
        _add(self.spoofers, later.spoofers, dropped, "spoofers")
        self.first = least(self.first, later.first)
        self.last = most(self.last, later.last)
        self.sessions.add(later.sessions)


class Summary:
    """The counts of one audit, or of one piece of its input (see the module's docstring)."""

    def __init__(self) -> None:
        self.requests = 0  # requests read (audited or not)
        self.unaudited_count = 0  # requests whose User-Agent names no catalogue crawler
        self.bad_count = 0
        self.bad_reasons: dict[str, tuple[int, Message]] = {}  # by message code: the count, the first reason
        self.bad_lines: list[tuple[str, int, Message]] = []  # the first REPORTED: (source, line, reason)
        self.stopped: list[tuple[str, int, Message]] = []  # logs not read to the end: where, and why
        self.crawlers: dict[str, CrawlerSummary] = {}
        self.versions: dict[str | None, int] = {}  # audited requests by the ref of the robots.txt that judged them
        self.unjudged: dict[str | None, int] = {}  # requests with no robots.txt known in force, by origin
        self.hours: dict[tuple[int, str], int] = {}  # (hour, purpose or "" for unaudited) -> requests
        self.hour_classes: dict[tuple[int, str], int] = {}  # (hour, class) -> audited requests
        self.dropped: dict[str, int] = {}  # entries past MAX_KEYS, by table
        self.first: float | None = None
        self.last: float | None = None
        self.tracks = Tracks()
        self.finished = False

    def add(self, row: Row) -> None:
        """Count one judged request."""
        self.requests += 1
        token = row.token
        crawler = self.crawlers.get(token)
        if crawler is None:
            crawler = self.crawlers[token] = CrawlerSummary(token, row.operator, row.purpose)
        crawler.requests += 1
        kind = row.audit_class
        classes = crawler.classes
        classes[kind] = classes.get(kind, 0) + 1
        verification = crawler.verification
        verification[row.verification] = verification.get(row.verification, 0) + 1
        statuses = crawler.statuses
        statuses[row.status] = statuses.get(row.status, 0) + 1
        versions = self.versions
        versions[row.robots_version] = versions.get(row.robots_version, 0) + 1
        if kind == _SPOOFED:
            _count(crawler.spoofers, row.ip, self.dropped, "spoofers")
        else:
            robots = row.exempt == ROBOTS_TXT
            crawler.robots += robots
            if kind == _ALLOWED and row.status == 403:
                crawler.blocked += 1
            elif kind == _VIOLATION:
                _count(crawler.violations, (row.robots_version, row.line, row.rule), self.dropped, "violations")
            elif kind == _UNJUDGED:
                _count(self.unjudged, row.origin, self.dropped, "origins")
            when = row.time
            if when is not None:
                self.tracks.add(token, row.origin, when, robots, row.crawl_delay)
        when = row.time
        if when is not None:
            if crawler.first is None or when < crawler.first:
                crawler.first = when
            if crawler.last is None or when > crawler.last:
                crawler.last = when
            self._hour(when, row.purpose, kind)

    def unaudited(self, when: float | None) -> None:
        """Count one request whose User-Agent names no catalogue crawler."""
        self.requests += 1
        self.unaudited_count += 1
        if when is not None:
            self._hour(when, "", None)

    def bad(self, source: str, line: BadLine) -> None:
        """Count one line that is no request of the format."""
        self.bad_count += 1
        code = line.reason.code
        count, first = self.bad_reasons.get(code, (0, line.reason))
        self.bad_reasons[code] = (count + 1, first)
        if len(self.bad_lines) < REPORTED:
            self.bad_lines.append((source, line.number, line.reason))

    def stop(self, source: str, number: int, reason: Message) -> None:
        """`source` could not be read past line `number` (a cut or corrupt compressed file): the audit lacks
        the rest of it."""
        self.stopped.append((source, number, reason))

    def _hour(self, when: float, purpose: str, kind: str | None) -> None:
        if self.first is None or when < self.first:
            self.first = when
        if self.last is None or when > self.last:
            self.last = when
        hour = int(when // HOUR) * HOUR
        # `_count`, inlined: it runs for every request.
        hours, key = self.hours, (hour, purpose)
        found = hours.get(key)
        if found is None:
            _count(hours, key, self.dropped, "hours")
        else:
            hours[key] = found + 1
        if kind is not None:
            hours, key = self.hour_classes, (hour, kind)
            found = hours.get(key)
            if found is None:
                _count(hours, key, self.dropped, "hours")
            else:
                hours[key] = found + 1

    def then(self, later: Summary) -> None:
        """Add the summary of the input that follows this summary's (see the module's docstring); neither may
        be finished."""
        if self.finished or later.finished:
            raise ValueError("a finished summary's sessions are closed: merge before finishing")
        self.requests += later.requests
        self.unaudited_count += later.unaudited_count
        self.bad_count += later.bad_count
        for code, (count, first) in later.bad_reasons.items():
            before, example = self.bad_reasons.get(code, (0, first))
            self.bad_reasons[code] = (before + count, example)
        self.bad_lines.extend(later.bad_lines[: REPORTED - len(self.bad_lines)])
        self.stopped.extend(later.stopped)
        for token, theirs in later.crawlers.items():
            mine = self.crawlers.get(token)
            if mine is None:
                self.crawlers[token] = theirs
            else:
                mine.then(theirs, self.dropped)
        _add(self.versions, later.versions)
        _add(self.unjudged, later.unjudged, self.dropped, "origins")
        _add(self.hours, later.hours, self.dropped, "hours")
        _add(self.hour_classes, later.hour_classes, self.dropped, "hours")
        _add(self.dropped, later.dropped)
        self.first = least(self.first, later.first)
        self.last = most(self.last, later.last)
        self.tracks.then(later.tracks)

    def finish(self) -> Summary:
        """Close the sessions into each crawler's totals (once: the summary is complete); returns itself."""
        if not self.finished:
            for token, totals in self.tracks.by_token().items():
                self.crawlers[token].sessions.add(totals)
            self.finished = True
        return self

    @property
    def audited(self) -> int:
        return self.requests - self.unaudited_count

    def count(self, kind: AuditClass) -> int:
        """Audited requests of one class, every crawler's."""
        return sum(crawler.classes.get(kind.value, 0) for crawler in self.crawlers.values())

    @property
    def incomplete(self) -> bool:
        """Whether the audit lacks an answer: a request with no robots.txt known in force, a log not read to
        its end, or logs of which no line was a request (bad lines alone leave it complete: real logs hold
        a few, a TLS handshake sent to a plain HTTP port, and each is reported)."""
        return bool(self.unjudged) or bool(self.stopped) or (self.bad_count > 0 and self.requests == 0)


def _count(table: dict[_K, int], key: _K, dropped: dict[str, int], name: str) -> None:
    found = table.get(key)
    if found is not None:
        table[key] = found + 1
    elif len(table) < MAX_KEYS:
        table[key] = 1
    else:
        dropped[name] = dropped.get(name, 0) + 1


def _add(mine: dict[_K, int], theirs: dict[_K, int], dropped: dict[str, int] | None = None, name: str = "") -> None:
    for key, count in theirs.items():
        found = mine.get(key)
        if found is not None:
            mine[key] = found + count
        elif dropped is None or len(mine) < MAX_KEYS:
            mine[key] = count
        else:
            dropped[name] = dropped.get(name, 0) + count


__all__ = ["HOUR", "MAX_KEYS", "REPORTED", "CrawlerSummary", "Summary"]
