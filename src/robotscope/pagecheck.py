"""One page checked for each crawler: the robots.txt verdict, the server's answer, the indexing directives.

The one home of `robotscope page` and the web tester's page panel: the
robots.txt comes through the fetcher (its cache, deadline and policies), the
page through `robotscope.download` (one deadline, 1 MiB of HTML), each
crawler's documented User-Agent string sent; the verdicts are those of every
front end (`Robots.answer`, or the fetch decision's: `FetchResult.answer`), the
findings `robotscope.reports.indexing`'s. `transport` carries the web server's SSRF
guard where it has one. `fetched_as` says, once per User-Agent string sent
(robotscope's own for robots.txt, each crawler's for the page), whether a
site that verifies crawlers would take the fetch for the crawler it claims
(`robotscope.reports.verification.own_fetches`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio.to_thread
import httpx

from .access.engines.registry import PROFILED, resolve
from .download import Download, get_async
from .fetch import DEFAULT_UA, FetchResult, fetch_robots_async
from .reports.indexing import MAX_HTML, PageFacts, findings, page_facts
from .reports.verification import own_fetches
from .syntax.crawlers import get as crawler
from .syntax.model import LineKind, Verdict
from .syntax.urls import InvalidURL, checked_url, robots_url

# Findings that say something is wrong (the command's exit code 1), as opposed to facts worth knowing.
PROBLEMS = frozenset(
    {
        "blockedNoindex",
        "blockedIndexable",
        "canonicalBlocked",
        "canonicalInvalid",
        "serverRefuses",
        "noindexInRobotsTxt",
    }
)


class _Origins:
    """Each origin's robots.txt, fetched once."""

    def __init__(self, policy: str, timeout: float, cache: Any, transport: httpx.AsyncBaseTransport | None) -> None:
        self.policy, self.timeout, self.cache, self.transport = policy, timeout, cache, transport
        self.fetched: dict[str, FetchResult] = {}

    async def of(self, url: str) -> FetchResult:
        origin = robots_url(url)
        if origin not in self.fetched:
            self.fetched[origin] = await fetch_robots_async(
                origin,
                user_agent=DEFAULT_UA,
                policy=self.policy,
                timeout=self.timeout,
                cache=self.cache,
                transport=self.transport,
            )
        return self.fetched[origin]

    async def verdict(self, agent: str, url: str, engine: str) -> Verdict:
        return (await self.of(url)).answer(agent, url, engine).verdict


# Reads one response's indexing facts: `page_facts`'s arguments, awaited where the caller wants the work done.
FactsReader = Callable[[str, tuple[tuple[str, str], ...], bytes, str], Awaitable[PageFacts]]


async def _in_thread(url: str, headers: tuple[tuple[str, str], ...], body: bytes, token: str) -> PageFacts:
    # Linear, yet up to a MiB of HTML: off the event loop a web server shares.
    return await anyio.to_thread.run_sync(page_facts, url, headers, body, token)


async def check_page(
    url: str,
    agents: list[str],
    *,
    engine: str = PROFILED,
    policy: str = "rfc9309",
    timeout: float = 10.0,
    lang: str = "en",
    cache: Any = False,
    transport: httpx.AsyncBaseTransport | None = None,
    user_agent: str | None = None,
    read: FactsReader = _in_thread,
) -> dict[str, Any]:
    """The page's check as JSON-ready data: `{url, robots_url, fetched_as, crawlers}`; raises InvalidURL for a bad URL.

    `read` reads each page's facts: in a thread by default; the web server
    passes its worker pool, so the HTML is read under the pool's budgets.
    """
    checked_url(url)
    home = robots_url(url)
    origins = _Origins(policy, timeout, cache, transport)
    fetched = await origins.of(url)
    robots_noindex = fetched.robots is not None and any(
        line.kind is LineKind.OTHER and (line.key or "").lower() == "noindex" for line in fetched.robots.lines
    )
    pages: dict[str, Download] = {}
    crawlers = []
    # (agent, User-Agent) of each fetch: robots.txt goes out as robotscope itself, the page as each crawler.
    claims = [(DEFAULT_UA, DEFAULT_UA)]
    for agent in agents:
        name = resolve(engine, agent)
        found = await origins.verdict(agent, url, name)
        known = crawler(agent)
        sent = user_agent or (known.request_user_agent if known is not None and known.user_agent else agent)
        claims.append((user_agent or agent, sent))
        if sent not in pages:
            pages[sent] = await get_async(url, user_agent=sent, timeout=timeout, limit=MAX_HTML, transport=transport)
        got = pages[sent]
        facts = await read(got.url, got.headers, got.body, found.agent_token) if got.status is not None else None
        canonical = None
        if facts is not None and facts.canonical and facts.canonical != url:
            try:
                canonical = await origins.verdict(agent, facts.canonical, name)
            except InvalidURL:
                canonical = None
        crawlers.append(
            {
                "agent": agent,
                "user_agent": sent,
                "engine": name,
                "verdict": {
                    "allowed": found.allowed,
                    "line": found.line,
                    "rule": None if found.rule is None else found.rule.text,
                    "reason": found.reason.value,
                },
                "response": {
                    "url": got.url,
                    "status": got.status,
                    "redirects": list(got.redirects),
                    "error": got.error,
                    "cut": got.cut,
                },
                "page": None if facts is None else facts.as_dict(),
                "canonical_allowed": None if canonical is None else canonical.allowed,
                "findings": [
                    f.as_dict(lang)
                    for f in findings(
                        found,
                        got.status,
                        facts,
                        canonical,
                        robots_noindex,
                        lists_pages=known is None or known.lists_pages,
                    )
                ],
            }
        )
    fetched_as = [fetch.as_dict(lang) for fetch in own_fetches(claims)]
    return {"url": url, "robots_url": home, "fetched_as": fetched_as, "crawlers": crawlers}


def has_problem(result: dict[str, Any]) -> bool:
    return any(f["code"] in PROBLEMS for c in result["crawlers"] for f in c["findings"])
