"""One fetch of /robots.txt as a state machine: which URL next, what to keep, what it concludes.

`Fetch` holds everything of a fetch but the I/O: which URL to request next
(redirects are followed by hand, up to five hops, across hosts, loops
detected), the body reader (`fetch.body`), what to store in the cache and
the `FetchResult` with the decision of every policy (`access.policy.decide`).
A redirect that cannot be followed (no Location, `javascript:`, `ftp:`,
malformed) ends the chain the same way whatever the reason, and the reason
is kept. The HTTP shell (`fetch.http`) feeds it responses and failures.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any
from urllib.parse import urlsplit

import httpx

from ..access.policy import (
    MAX_REDIRECTS,
    POLICIES,
    REDIRECTS,
    Action,
    Cached,
    Outcome,
    decide_all,
    is_transient,
    unfollowable,
)
from ..access.policy import redirect_target as _target
from ..access.robots import Robots, parse
from ..cache import Entry, RobotsCache, Stored
from ..messages import Message, message
from ..syntax.html import looks_like_html
from ..syntax.urls import InvalidURL
from ..syntax.urls import robots_url as _robots_url
from .body import Body
from .result import FetchResult, TransportFailure, kept_headers


def redirect_target(base: str, location: str | None) -> tuple[str | None, Message | None]:
    """Where a redirect from `base` leads (`access.policy.redirect_target`), and a URL httpx can request."""
    target, why = _target(base, location)
    if target is None:
        return None, why
    try:
        _httpx_host(target)
    except (httpx.InvalidURL, UnicodeError) as error:
        return None, unfollowable((location or "").strip()[:200], error)
    return target, None


def _httpx_host(url: str) -> str:
    """`url`'s host as httpx reads it back to request it: through idna, whose errors (`xn--localhost`: not an
    A-label it can decode) are UnicodeErrors, not InvalidURL. Raises either."""
    return httpx.URL(url).host


def checked_robots_url(url: str) -> str:
    """The robots.txt URL of `url`'s origin, one httpx can request; else InvalidURL (robotscope's).

    The standard library passes hosts httpx refuses: an A-label idna cannot decode (`xn--a.com`), an
    IPv4 address with an octal part (`0177.0.0.1`).
    """
    robots = _robots_url(url)
    try:
        _httpx_host(robots)
    except (httpx.InvalidURL, UnicodeError):
        raise InvalidURL(message("url.bad-host", host=urlsplit(robots).hostname, url=url)) from None
    return robots


def open_cache(cache: RobotsCache | bool | None) -> tuple[RobotsCache | None, bool, list[str]]:
    """The cache to use, whether this fetch owns (and closes) it, and any warning."""
    if isinstance(cache, RobotsCache):
        return cache, False, []
    if cache is False:
        return None, False, []
    try:
        return RobotsCache(), True, []
    except (OSError, sqlite3.Error) as error:
        return None, False, [f"cache disabled: {error}"]


class Fetch:
    """One fetch's state and decisions; the HTTP shell only moves bytes."""

    def __init__(
        self,
        url: str,
        policy: str,
        user_agent: str,
        timeout: float,
        cache: RobotsCache | bool | None,
        started: float | None = None,
    ) -> None:
        if policy not in POLICIES:
            raise ValueError(f"unknown policy {policy!r}: choose one of {', '.join(POLICIES)}")
        self.robots_url = checked_robots_url(url)
        self.policy = policy
        self.timeout = timeout
        self.headers = {"User-Agent": user_agent, "Accept-Encoding": "gzip, deflate"}
        self.cache, self._owns_cache, warnings = open_cache(cache)
        self.warnings = warnings  # the cache's own are read when the result is made, after `put`
        # `started`: when the caller's budget began (`time.monotonic()`), if before this fetch.
        self.deadline = (time.monotonic() if started is None else started) + timeout
        self.next_url: str | None = self.robots_url
        self.hops: list[tuple[str, int]] = []
        self.redirects = 0
        self.loop = False
        self.unfollowable: Message | None = None  # why the last redirect could not be followed
        self.status: int | None = None
        self.response_headers: dict[str, str] = {}
        self.body: Body | None = None
        self.error: TransportFailure | None = None

    def cached(self, reuse: bool) -> FetchResult | None:
        """The result from a fresh cached copy (under 24 hours, not a failure), if there is one and `reuse`."""
        if self.cache is None or not reuse:
            return None
        fresh = self.cache.fresh(self.robots_url)
        if fresh is None:
            return None
        result = self._result(fresh, Entry(fresh), from_cache=True)
        self.close()
        return result

    def remaining(self) -> float:
        """Seconds left of the one deadline that bounds the whole fetch."""
        return max(0.0, self.deadline - time.monotonic())

    def on_response(self, url: str, status: int, headers: Mapping[str, str], location: str | None) -> Body | None:
        """Record a hop (its URL, status, headers and Location); the body reader when this is the final
        response, None to go on to `next_url`."""
        self.hops.append((url, status))
        if status in REDIRECTS:
            target, self.unfollowable = redirect_target(url, location)
            if target is not None and any(target == seen for seen, _ in self.hops):
                self.loop = True
            elif target is not None and self.redirects < MAX_REDIRECTS:
                self.redirects += 1
                self.next_url = target
                return None
        self.next_url = None
        self.status = status
        self.response_headers = dict(headers)
        self.body = Body(headers.get("content-encoding", ""))
        return self.body

    def on_error(self, failure: TransportFailure) -> None:
        """The fetch failed on the wire (the shell says how): the result carries it, never raises it."""
        self.error = failure

    def finish(self) -> FetchResult:
        body = self.body.bytes() if self.body is not None else b""
        truncated = self.body.truncated if self.body is not None else False
        meta = {
            "hops": [list(hop) for hop in self.hops],
            "redirects": self.redirects,
            "loop": self.loop,
            "unfollowable": None
            if self.unfollowable is None
            else [self.unfollowable.code, dict(self.unfollowable.params)],
            "bytes_received": len(body),
            "truncated": truncated,
            # The whole body as far as it was counted (exact when `counted_all`).
            "body_size": self.body.size if self.body is not None else 0,
            "body_lines": self.body.lines if self.body is not None else 0,
            "counted_all": self.body.counted_all if self.body is not None else True,
            "error": None if self.error is None else [self.error.kind, self.error.message],
        }
        now = self.cache.now() if self.cache is not None else time.time()
        stored = Stored(
            self.status,
            self.response_headers,
            body,
            now,
            is_transient(self._outcome(self.status, meta)),
            meta,
        )
        entry = self.cache.put(self.robots_url, stored) if self.cache is not None else Entry(stored)
        result = self._result(stored, entry, from_cache=False)
        self.close()
        return result

    def close(self) -> None:
        if self._owns_cache and self.cache is not None:
            self.cache.close()

    @staticmethod
    def _outcome(status: int | None, meta: Mapping[str, Any], html: bool = False) -> Outcome:
        error = meta.get("error")
        why = meta.get("unfollowable")
        return Outcome(
            status,
            None if error is None else error[0],
            meta["redirects"],
            meta["loop"],
            html,
            None if why is None else Message(why[0], why[1]),
        )

    def _result(self, stored: Stored, entry: Entry, *, from_cache: bool) -> FetchResult:
        """The same reading for a fresh fetch and a cache hit: parse, decide for every policy."""
        meta = stored.meta
        fetched = None
        if not stored.transient and stored.status is not None and 200 <= stored.status < 300:
            # A cut body knows the size and line count of the whole file it was cut from.
            whole = (meta.get("body_size", 0), meta.get("body_lines", 0)) if meta.get("truncated") else None
            fetched = Robots(stored.body, cut_from=whole)
        outcome = self._outcome(stored.status, meta, fetched is not None and looks_like_html(fetched))
        good = entry.good if stored.transient else None
        cached = Cached(None if good is None else good.fetched_at, entry.failing_since)
        decisions = decide_all(outcome, cached=cached, now=stored.fetched_at)
        chosen = decisions[self.policy]
        robots = fetched if chosen.action is Action.PARSE else None
        if chosen.action is Action.CACHED_COPY and good is not None:
            robots = parse(good.body)
        error = meta.get("error")
        return FetchResult(
            robots_url=self.robots_url,
            hops=tuple((url, status) for url, status in meta["hops"]),
            status=stored.status,
            content_type=stored.headers.get("content-type"),
            headers=kept_headers(stored.headers),
            bytes_received=meta["bytes_received"],
            truncated=meta["truncated"],
            body_size=meta.get("body_size", meta["bytes_received"]),
            body_lines=meta.get("body_lines", 0),
            size_exact=meta.get("counted_all", True),
            error=None if error is None else TransportFailure(*error),
            policy=self.policy,
            decision=chosen.action,
            decisions=MappingProxyType(decisions),
            from_cache=from_cache,
            fetched_at=stored.fetched_at,
            robots=robots,
            body=stored.body,
            warnings=tuple(self.warnings + (self.cache.take_warnings() if self.cache is not None else [])),
        )
