"""One watch run: each origin's robots.txt fetched as each agent, recorded, and what changed, as ranked alerts.

Per origin the agents are fetched one after another (one request at a
time to a site, at most once per agent and run), origins `jobs` at a time,
each fetch held to its deadline. Every fetch goes to the history store;
then, for the reference agent (the first), `changes` compares what it got
with the version in force before this run, and `variants` compares what
the agents got with each other. A fetch that gives the version already in
force says nothing (the watch reports changes, not states), but a failure
does every time it happens: the site is still answering 5xx, and each
engine still does what it does then. Failed expectations are alerts too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import httpx

from ..access.robots import parse
from ..download import get_async
from ..fetch import FetchResult, fetch_robots_async
from ..fetch.observation import observation
from ..history import HistoryStore, Recorded, origin_of
from ..history.changes import observed
from ..messages import DEFAULT_LANG
from ..reports.expect.check import check
from ..reports.expect.load import Expectations
from ..reports.watch.alerts import Alert, Severity, ranked
from ..reports.watch.changes import changes, variants
from ..reports.watch.observation import Observation
from ..syntax.sitemap import read_sitemap
from ..syntax.urls import InvalidURL
from .agents import BROWSER_UA, DEFAULT_AGENTS, user_agent

SITEMAPS_READ = 2  # sitemaps read for URLs, when the file changed
SITEMAP_URLS = 20  # page URLs taken from each
SITEMAP_BYTES = 1024 * 1024  # of each sitemap, decoded: the first URLs come first


@dataclass(frozen=True)
class Seen:
    """One fetch of the run: the agent label it was made as, what it saw, and what the store made of it."""

    agent: str
    observation: Observation
    recorded: Recorded

    @property
    def changed(self) -> bool:
        """A failure, or a version other than the one in force before (a new one, or an old one back)."""
        version, previous = self.recorded.version, self.recorded.previous
        return version is None or previous is None or version.sha256 != previous.sha256

    def as_dict(self) -> dict[str, Any]:
        fetch, version = self.recorded.fetch, self.recorded.version
        return {
            "agent": self.agent,
            "status": fetch.status,
            "failure": fetch.failure,
            "version": None if version is None else version.short,
            "new": self.recorded.new,
            "changed": self.changed,
            "size": fetch.size,
        }


@dataclass(frozen=True)
class OriginWatch:
    """What one run found for one origin: each fetch, and the alerts, worst first."""

    origin: str
    seen: tuple[Seen, ...]
    alerts: tuple[Alert, ...]

    @property
    def worst(self) -> Severity | None:
        return self.alerts[0].severity if self.alerts else None

    def as_dict(self, lang: str = DEFAULT_LANG) -> dict[str, Any]:
        return {
            "origin": self.origin,
            "fetches": [seen.as_dict() for seen in self.seen],
            "worst": None if self.worst is None else self.worst.value,
            "alerts": [alert.as_dict(lang) for alert in self.alerts],
        }


async def fetch_all(
    origin: str,
    agents: Sequence[str],
    semaphore: asyncio.Semaphore,
    timeout: float,
    transport: httpx.AsyncBaseTransport | None,
) -> list[FetchResult]:
    """`origin`'s robots.txt as each agent, one after another (one request at a time to a site)."""
    async with semaphore:
        return [
            await fetch_robots_async(
                origin, user_agent=user_agent(agent), timeout=timeout, cache=False, transport=transport
            )
            for agent in agents
        ]


def alerts_for(
    store: HistoryStore, seen: Sequence[Seen], urls: Sequence[str], expectations: Expectations | None
) -> list[Alert]:
    """The reference agent's changes since the version in force, the agents' differences, failed expectations."""
    reference = seen[0]
    found: list[Alert] = []
    if reference.changed:
        previous = reference.recorded.previous
        before = None if previous is None else observed(previous, reference.agent)
        found.extend(changes(before, reference.observation, urls))
    elif _recovered(store, reference):
        # The version in force is back after failed fetches: say the site answers again.
        failed = store.fetches(reference.recorded.fetch.origin, since=_since(reference))
        last = next(f for f in reversed(failed) if f.failure is not None)
        outage = Observation(reference.agent, last.status, failure=None if last.status else last.failure)
        found.extend(a for a in changes(outage, reference.observation, urls) if a.code == "fetchRecovered")
    if any(s.changed for s in seen):
        found.extend(variants([s.observation for s in seen]))
    if expectations is not None:
        found.extend(check(expectations, reference.observation))  # an observation leaves none unchecked
    return ranked(found)


def timed(store: HistoryStore, seen: Seen) -> Seen:
    """A failed fetch with the outage the store knows of: when the last good copy was fetched, and since
    when this agent's fetches fail (the policies then say what they do after 12 hours, after 30 days)."""
    fetch, previous = seen.recorded.fetch, seen.recorded.previous
    if fetch.failure is None:
        return seen
    failed = [f for f in store.fetches(fetch.origin, since=_since(seen)) if f.agent == seen.agent]
    # The run of failures this one ends: back to the last fetch that gave a version.
    since = fetch.at
    for earlier in reversed(failed):
        if earlier.failure is None:
            break
        since = min(since, earlier.at)
    outage = replace(
        seen.observation,
        at=fetch.at,
        good_at=None if previous is None else previous.last_seen,
        failing_since=since,
    )
    return replace(seen, observation=outage)


def _since(seen: Seen) -> float:
    previous = seen.recorded.previous
    return 0.0 if previous is None else previous.last_seen


def _recovered(store: HistoryStore, seen: Seen) -> bool:
    """Whether the agent's fetches since the version in force was last seen, before this one, failed."""
    if seen.recorded.previous is None:
        return False
    earlier = [
        f
        for f in store.fetches(seen.recorded.fetch.origin, since=_since(seen))
        if f.agent == seen.agent and f.id != seen.recorded.fetch.id
    ]
    return bool(earlier) and earlier[-1].failure is not None


async def sitemap_urls(
    origin: str, bodies: Sequence[bytes], timeout: float, transport: httpx.AsyncBaseTransport | None
) -> list[str]:
    """The first page URLs (of `origin`) of the first sitemaps the versions list: a site's important URLs.

    Read only when the file changed, at most `SITEMAPS_READ` sitemaps and
    `SITEMAP_BYTES` of each (the first URLs are at the start); an index of
    sitemaps, a failure or a URL of another origin adds nothing.
    """
    listed = list(dict.fromkeys(record.value for body in bodies for record in parse(body).sitemaps))[:SITEMAPS_READ]
    found: list[str] = []
    for url in listed:
        got = await get_async(url, user_agent=BROWSER_UA, timeout=timeout, limit=SITEMAP_BYTES, transport=transport)
        if not got.ok:
            continue
        read = read_sitemap(got.body)
        if read.kind == "urlset":
            found.extend(loc for loc in read.locs[:SITEMAP_URLS] if _origin(loc) == origin)
    return list(dict.fromkeys(found))


def _origin(url: str) -> str | None:
    try:
        return origin_of(url)
    except InvalidURL:
        return None


async def watch_once(
    urls: Sequence[str],
    store: HistoryStore,
    *,
    agents: Sequence[str] = DEFAULT_AGENTS,
    jobs: int = 8,
    timeout: float = 10.0,
    asked: Sequence[str] = (),
    expectations: Expectations | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> list[OriginWatch]:
    """Fetch, record and judge each origin of `urls` once (in the order given, each origin once).

    `asked` are URLs the verdict flips are asked about besides `/`, those
    the files' rules give, and, when the file changed, the first URLs of
    the sitemaps either version lists (`sitemap_urls`). Raises `InvalidURL` for a URL without a
    robots.txt (the caller checks them first).
    """
    origins = list(dict.fromkeys(origin_of(url) for url in urls))
    semaphore = asyncio.Semaphore(max(1, jobs))
    results = await asyncio.gather(*(fetch_all(o, agents, semaphore, timeout, transport) for o in origins))
    found = []
    for origin, fetched in zip(origins, results, strict=True):
        seen = tuple(
            timed(store, Seen(agent, observation(result, agent), store.record(origin, agent, result)))
            for agent, result in zip(agents, fetched, strict=True)
        )
        urls_asked = list(asked)
        reference = seen[0]
        previous = reference.recorded.previous
        if reference.changed and reference.recorded.version is not None and previous is not None:
            # A change between two versions (a first version flips nothing): their sitemaps' pages too.
            bodies = [reference.observation.body, previous.body]
            urls_asked += await sitemap_urls(origin, bodies, timeout, transport)
        found.append(OriginWatch(origin, seen, tuple(alerts_for(store, seen, urls_asked, expectations))))
    return found
