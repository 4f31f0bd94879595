"""One bounded HTTP GET of any URL (a sitemap, a page): one deadline, a size limit, redirects by hand.

The robots.txt fetcher (`robotscope.fetch`) has its own rules and cache;
this is the same discipline for everything else a command reads: a single
deadline over name resolution, connect, headers, body and every redirect
hop (a server pacing its bytes cannot stretch it), at most five redirects,
and the body read raw and inflated by the fetcher's bounded inflater
(`syntax.inflate`): at most `limit` bytes after decoding, whatever the
compression ratio, and one content coding at most (`gzip, gzip` is a
`decode` error, not a ratio squared). Transport failures are returned as
data, never raised.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

import anyio
import httpx

from .access.policy import MAX_REDIRECTS
from .fetch import client_for, location_of, redirect_target, run
from .syntax.inflate import Bounded, Incomplete, Undecodable

NO_CONDITIONS: Mapping[str, str] = MappingProxyType({})


class Download(NamedTuple):
    """How a GET ended: the final URL and status, headers, body (cut at the limit), or the error."""

    url: str
    status: int | None
    headers: tuple[
        tuple[str, str], ...
    ]  # every field line as received (name lower-cased): a repeated field is not joined
    body: bytes
    cut: bool
    redirects: tuple[str, ...]
    error: str | None  # timeout, network, redirects, bad-redirect, decode, incomplete (the body so far is kept)

    @property
    def ok(self) -> bool:
        return self.error is None and self.status is not None and 200 <= self.status < 300


async def get_async(
    url: str,
    *,
    user_agent: str,
    timeout: float,
    limit: int,
    transport: httpx.AsyncBaseTransport | None = None,
    conditions: Mapping[str, str] = NO_CONDITIONS,
) -> Download:
    """`conditions`: request header fields such as If-None-Match, to revalidate a cached copy (a 304 has no body)."""
    hops: list[str] = []
    current = url
    # Only the codings the inflater undoes (httpx would offer br and zstd when they are installed).
    asked = {**conditions, "User-Agent": user_agent, "Accept-Encoding": "gzip, deflate"}
    async with client_for(asked, timeout, transport) as client:
        try:
            with anyio.fail_after(timeout):
                while True:
                    async with client.stream("GET", current) as response:
                        headers = tuple(response.headers.multi_items())
                        if response.status_code in (301, 302, 303, 307, 308):
                            target, problem = redirect_target(current, location_of(response))
                            if target is None or problem is not None or len(hops) >= MAX_REDIRECTS:
                                why = "redirects" if target is not None and problem is None else "bad-redirect"
                                return Download(current, response.status_code, headers, b"", False, tuple(hops), why)
                            hops.append(current)
                            current = target
                            continue
                        body, error = await _read(response, limit)
                        return Download(
                            current, response.status_code, headers, body.bytes(), body.cut, tuple(hops), error
                        )
        except TimeoutError:
            return Download(current, None, (), b"", False, tuple(hops), "timeout")
        except (httpx.HTTPError, httpx.InvalidURL, OSError, ValueError):
            return Download(current, None, (), b"", False, tuple(hops), "network")


async def _read(response: httpx.Response, limit: int) -> tuple[Bounded, str | None]:
    """The body, raw from the wire and inflated within `limit`; and why it is not whole, if it is not."""
    try:
        body = Bounded(response.headers.get("content-encoding", ""), limit)
    except Undecodable:
        return Bounded("", 0), "decode"
    try:
        async for chunk in response.aiter_raw():
            if body.feed(chunk):
                return body, None  # cut at the limit: the rest is never read
        body.end()
    except zlib.error:
        return body, "decode"
    except Incomplete:
        return body, "incomplete"
    return body, None


def get(
    url: str, *, user_agent: str, timeout: float, limit: int, transport: httpx.AsyncBaseTransport | None = None
) -> Download:
    """`get_async` from synchronous code: in an event loop of its own, so the deadline holds."""
    return run(get_async(url, user_agent=user_agent, timeout=timeout, limit=limit, transport=transport))
