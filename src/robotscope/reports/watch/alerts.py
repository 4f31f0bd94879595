"""`Alert`: what a change does, with a stable code, a `Severity`, a message and its evidence; and `ranked`.

The codes, their severities and meanings are listed in docs/watch-alerts.md.
An alert's evidence is structured: the crawlers it is about, example URLs
(and how many URLs in all), the deciding lines in the version before and
after, and for content served differently to crawlers, the changes between
the two files (`details`).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from ...messages import DEFAULT_LANG, Message

MAX_EXAMPLES = 5  # URLs named in an alert; `url_count` says how many there are in all


class Severity(enum.StrEnum):
    """How much an alert matters: critical > major > minor > info."""

    CRITICAL = "critical"  # the site vanishes from search, or every crawler is shut out
    MAJOR = "major"  # a search crawler loses URLs, the rules are lost, an AI crawler's access to the site turns
    MINOR = "minor"  # part of an AI crawler's or another crawler's access turns, preferences change
    INFO = "info"  # worth knowing: a recovery, a sitemap added, a change with no effect

    @property
    def rank(self) -> int:
        """0 for critical, up to 3 for info: the order alerts are shown in."""
        return _ORDER.index(self)

    def at_least(self, other: Severity) -> bool:
        return self.rank <= other.rank


_ORDER = (Severity.CRITICAL, Severity.MAJOR, Severity.MINOR, Severity.INFO)


# Every alert code and its severity (docs/watch-alerts.md says what each means; a test holds them equal).
# A few take another severity where the case calls for it (noted there).
CODES: dict[str, Severity] = {
    "siteBlocked": Severity.CRITICAL,
    "fetchFailed": Severity.CRITICAL,
    "searchLost": Severity.MAJOR,
    "aiBlocked": Severity.MAJOR,
    "aiUnblocked": Severity.MAJOR,
    "fileMissing": Severity.MAJOR,
    "htmlServed": Severity.MAJOR,
    "challengeServed": Severity.MAJOR,
    "edgeBlockAdded": Severity.MAJOR,
    "oversize": Severity.MAJOR,
    "servedDifferently": Severity.MAJOR,
    "searchGained": Severity.MINOR,
    "crawlerLost": Severity.MINOR,
    "edgeBlockRemoved": Severity.MINOR,
    "sitemapRemoved": Severity.MINOR,
    "preferencesChanged": Severity.MINOR,
    "crawlerGained": Severity.INFO,
    "fetchRecovered": Severity.INFO,
    "oversizeGone": Severity.INFO,
    "sitemapAdded": Severity.INFO,
    "noEffect": Severity.INFO,
    "firstSeen": Severity.INFO,
    "expectAllow": Severity.CRITICAL,
    "expectBlock": Severity.MAJOR,
    "expectServed": Severity.MAJOR,
    "expectUsage": Severity.MAJOR,
    "expectSignal": Severity.MAJOR,
    "expectSitemap": Severity.MINOR,
    "expectUnchecked": Severity.INFO,
}


class Evidence(NamedTuple):
    """A line of one version of the file: its number and its text as written."""

    line: int
    text: str

    def as_dict(self) -> dict[str, Any]:
        return {"line": self.line, "text": self.text}


@dataclass(frozen=True)
class Alert:
    """One thing a change does. `code` is stable (docs/watch-alerts.md); `message` says it in words."""

    code: str
    severity: Severity
    message: Message
    agents: tuple[str, ...] = ()  # the crawlers (or, for `servedDifferently`, the User-Agents) it is about
    urls: tuple[str, ...] = ()  # example URLs, at most MAX_EXAMPLES
    url_count: int = 0  # every URL it is about
    before: tuple[Evidence, ...] = ()  # the deciding lines in the version before
    after: tuple[Evidence, ...] = ()  # and in the version after
    details: tuple[Alert, ...] = ()  # for content served differently: what differs, as alerts

    def text(self, lang: str = DEFAULT_LANG) -> str:
        return self.message.render(lang)

    def as_dict(self, lang: str = DEFAULT_LANG) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "text": self.message.render(lang),
            "message": self.message.as_dict(lang),
            "agents": list(self.agents),
            "urls": list(self.urls),
            "url_count": self.url_count,
            "before": [e.as_dict() for e in self.before],
            "after": [e.as_dict() for e in self.after],
            "details": [d.as_dict(lang) for d in self.details],
        }


def ranked(alerts: Iterable[Alert]) -> list[Alert]:
    """Alerts by effect: severity, then how many crawlers and URLs they are about, then a stable order."""
    return sorted(alerts, key=lambda a: (a.severity.rank, -len(a.agents), -a.url_count, a.code, a.agents, a.urls))
