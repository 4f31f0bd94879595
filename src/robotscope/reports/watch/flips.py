"""Verdict flips between two versions, per crawler, as alerts: `compare.diff` asked, its flips grouped.

The crawlers asked: those either file names, each operator's main crawler
(`compare.readings.OPERATOR_CRAWLERS`), the catalogue's AI crawlers and `*`
(every crawler no group names). The URLs: the given ones, one for each rule
of either file (`compare.diff.probe_urls`) and `/`. Each crawler's flips
make one alert per direction; crawlers whose access to the whole site
turns the same way share one alert, and so do crawlers that flip at the
same URLs with the same effect. What each means (docs/watch-alerts.md):

- `/` disallowed for `*`, Googlebot or bingbot: the site leaves search
  (`siteBlocked`, critical);
- a search crawler (or `*`) loses URLs: `searchLost`, major; gains them:
  `searchGained`, minor;
- an AI crawler blocked or unblocked at `/`, its access to the whole site
  turned: `aiBlocked` / `aiUnblocked`, major (an owner who opted out of
  training, or relies on AI search, wants to know either way); at some URLs
  only: minor;
- any other crawler: `crawlerLost` minor, `crawlerGained` info.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ...access.robots import Robots, verdict_after
from ...messages import Message, message
from ...syntax import crawlers
from ...syntax.model import Verdict
from ..compare.diff import ANY_CRAWLER, Answers, Flip, agents_named, diff, probe_urls
from ..compare.readings import MAX_URLS, OPERATOR_CRAWLERS
from .alerts import MAX_EXAMPLES, Alert, Evidence, Severity
from .observation import RULES_POLICY, Reading

CRITICAL_CRAWLERS = frozenset({ANY_CRAWLER, "googlebot", "bingbot"})  # `/` disallowed for one: the site leaves search
AI_PURPOSES = frozenset({"ai-search", "ai-training", "ai-control-token", "user-triggered", "dataset"})
ASKED_AI = ("ai-search", "ai-training", "ai-control-token", "dataset")  # asked by default (not user fetchers)
MAX_FLIPS = 10_000  # thousands of crawlers can each flip at thousands of URLs
ROOT = "/"


def crawlers_asked(files: Sequence[Robots], agents: Sequence[str] | None = None) -> list[str]:
    """The crawlers to ask about (see the module's description; `*` last), or `agents` as given."""
    if agents is not None:
        chosen = list(agents)
    else:
        ai = [c.token for c in crawlers.catalogue() if c.purpose in ASKED_AI]
        chosen = [*agents_named(*files)[:-1], *OPERATOR_CRAWLERS, *ai, ANY_CRAWLER]
    by_token: dict[str, str] = {}
    for agent in chosen:
        known = crawlers.get(agent)
        by_token.setdefault(agent.lower(), known.token if known is not None else agent)
    return list(by_token.values())


def urls_asked(files: Sequence[Robots], urls: Sequence[str] = ()) -> list[str]:
    """The given URLs, `/`, and one URL for each rule of the files; at most `compare.readings.MAX_URLS`."""
    return list(dict.fromkeys([*urls, ROOT, *probe_urls(*files)]))[:MAX_URLS]


class _Blanket:
    """What a fetch that leaves no rules answers (allow-all or disallow-all), as `diff` asks it."""

    def __init__(self, reading: Reading) -> None:
        self.decision = reading.decisions[RULES_POLICY]

    def verdict(self, agent: str, url: str) -> Verdict:
        return verdict_after(self.decision, None, agent, url)


def answers(reading: Reading) -> Answers:
    return reading.robots if reading.rules_apply else _Blanket(reading)


def flip_alerts(
    before: Reading, after: Reading, urls: Sequence[str] = (), agents: Sequence[str] | None = None
) -> list[Alert]:
    """The flips from `before` to `after` as alerts, crawlers with the same effect together."""
    files = [r.robots for r in (before, after) if r.rules_apply]
    asked = urls_asked(files, urls)
    flips = diff(answers(before), answers(after), asked, crawlers_asked(files, agents), limit=MAX_FLIPS)
    by_agent: dict[tuple[str, bool], list[Flip]] = {}
    for flip in flips:
        by_agent.setdefault((flip.agent, flip.new.allowed), []).append(flip)
    grouped: dict[tuple[str, Severity, tuple[str, ...]], _Group] = {}
    for (agent, gained), found in by_agent.items():
        urls_flipped = tuple(f.url for f in found)
        whole = ROOT in urls_flipped
        code, severity = classify(agent, gained, whole)
        # Crawlers whose access to the whole site turns share one alert; others, those flipping at the same URLs.
        group = grouped.setdefault((code, severity, () if whole else urls_flipped), _Group([], {}, set(), set()))
        group.agents.append(agent)
        group.urls.update(dict.fromkeys(urls_flipped))
        group.before.update(_evidence(before, f.old) for f in found)
        group.after.update(_evidence(after, f.new) for f in found)
    return [_alert(code, severity, tuple(group.urls), group) for (code, severity, _), group in grouped.items()]


def classify(agent: str, gained: bool, whole: bool) -> tuple[str, Severity]:
    """The code and severity of a crawler's flips: which way, whether at `/`, and what the crawler is for."""
    token = agent.lower()
    known = crawlers.get(agent)
    if token == ANY_CRAWLER or token in crawlers.search_engines() or (known and known.purpose == "search-vertical"):
        if gained:
            return "searchGained", Severity.MINOR
        if whole and token in CRITICAL_CRAWLERS:
            return "siteBlocked", Severity.CRITICAL
        return "searchLost", Severity.MAJOR
    if known is not None and known.purpose in AI_PURPOSES:
        return ("aiUnblocked" if gained else "aiBlocked"), Severity.MAJOR if whole else Severity.MINOR
    return ("crawlerGained", Severity.INFO) if gained else ("crawlerLost", Severity.MINOR)


class _Group(NamedTuple):
    agents: list[str]
    urls: dict[str, None]  # in the order found
    before: set[Evidence | str]
    after: set[Evidence | str]


def _evidence(reading: Reading, verdict: Verdict) -> Evidence | str:
    """The deciding line of a verdict, or why none decided (the code of its reason: no group, no rule,
    the fetch's blanket answer)."""
    if verdict.line is None or not reading.rules_apply:
        return f"reason.{verdict.reason.value}"
    return Evidence(verdict.line, reading.robots.line(verdict.line).raw.strip())


def _alert(code: str, severity: Severity, urls: tuple[str, ...], group: _Group) -> Alert:
    before, after = _lines(group.before), _lines(group.after)
    params = {
        "agents": group.agents,
        "count": len(urls),
        "examples": list(urls[:MAX_EXAMPLES]),
        "before": _said(group.before),
        "after": _said(group.after),
    }
    said = message(f"watch.{code}", **params)
    return Alert(code, severity, said, tuple(group.agents), urls[:MAX_EXAMPLES], len(urls), before, after)


def _lines(found: set[Evidence | str]) -> tuple[Evidence, ...]:
    return tuple(sorted(e for e in found if isinstance(e, Evidence)))


def _said(found: set[Evidence | str]) -> list[Message]:
    """The deciding lines as messages (`line 3: Disallow: /`), then the reasons without a line."""
    lines = [message("watch.line", line=e.line, text=e.text) for e in _lines(found)]
    return [*lines, *(message(code) for code in sorted(e for e in found if isinstance(e, str)))]
