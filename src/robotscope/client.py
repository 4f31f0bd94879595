"""`RobotsClient`: may this crawler fetch this URL? One robots.txt fetch per origin, for asyncio crawlers.

Concurrent callers for one origin wait on the same fetch (single flight), a
semaphore bounds how many fetches run at once, and results are kept in
memory: a readable outcome for 24 hours (RFC 9309, Section 2.4), a
transient failure only for `retry_after` seconds, so an outage is retried
but not hammered. The SQLite cache, when given, carries copies across runs.
"""

from __future__ import annotations

import asyncio
import time
from typing import Self

from .access.policy import POLICIES, Action
from .cache import MAX_AGE, RobotsCache
from .fetch import DEFAULT_UA, FetchResult, fetch_robots_async
from .syntax.model import Verdict
from .syntax.urls import robots_url


class RobotsClient:
    """Answer `await client.allowed(url, agent)` from each origin's robots.txt, fetched once."""

    def __init__(
        self,
        *,
        user_agent: str = DEFAULT_UA,
        policy: str = "rfc9309",
        cache: RobotsCache | bool | None = None,
        max_concurrency: int = 10,
        timeout: float = 10.0,
        retry_after: float = 60.0,
    ) -> None:
        if policy not in POLICIES:
            raise ValueError(f"unknown policy {policy!r}: choose one of {', '.join(POLICIES)}")
        self.user_agent = user_agent
        self.policy = policy
        self.timeout = timeout
        self.retry_after = retry_after
        # None means the default cache: opened once here, not on every fetch.
        self._owns_cache = cache is None
        self._cache: RobotsCache | bool = RobotsCache() if cache is None else cache
        self._semaphore = asyncio.Semaphore(max_concurrency)
        self._results: dict[str, tuple[float, FetchResult]] = {}
        self._inflight: dict[str, asyncio.Task[FetchResult]] = {}

    async def robots(self, url: str) -> FetchResult:
        """The fetch result for `url`'s origin: from memory, from a fetch in flight, or fetched now."""
        key = robots_url(url)
        kept = self._results.get(key)
        if kept is not None and time.monotonic() < kept[0]:
            return kept[1]
        task = self._inflight.get(key)
        if task is None:
            task = asyncio.ensure_future(self._fetch(key))
            self._inflight[key] = task
            task.add_done_callback(lambda _: self._inflight.pop(key, None))
        # shield: one caller being cancelled must not cancel the others' fetch.
        return await asyncio.shield(task)

    async def _fetch(self, key: str) -> FetchResult:
        async with self._semaphore:
            result = await fetch_robots_async(
                key, policy=self.policy, user_agent=self.user_agent, timeout=self.timeout, cache=self._cache
            )
        # Only a transient failure disallows all or falls back to a copy: retry it soon.
        ttl = self.retry_after if result.decision in (Action.DISALLOW_ALL, Action.CACHED_COPY) else MAX_AGE
        self._results[key] = (time.monotonic() + ttl, result)
        return result

    async def allowed(self, url: str, agent: str | None = None) -> Verdict:
        """May `agent` (default: this client's user agent) fetch `url`? The verdict with its reason."""
        result = await self.robots(url)
        return result.verdict(agent or self.user_agent, url)

    def close(self) -> None:
        """Close the cache this client opened (a cache passed in stays open)."""
        if isinstance(self._cache, RobotsCache) and self._owns_cache:
            self._cache.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()
