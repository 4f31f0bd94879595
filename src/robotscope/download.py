"""One bounded HTTP GET of any URL (a sitemap, a page): one deadline, a size limit, redirects by hand.

The robots.txt fetcher (`robotscope.fetch`) has its own rules and cache;
this is the same discipline for everything else a command reads: a single
deadline over name resolution, connect, headers, body and every redirect
hop (a server pacing its bytes cannot stretch it), at most `limit` bytes of
the decoded body (a compressed bomb inflates only that far), at most five
redirects, and transport failures returned as data, never raised.
"""

from __future__ import annotations

from typing import NamedTuple

import anyio
import httpx

from .access.policy import MAX_REDIRECTS
from .fetch import location_of, redirect_target, run, take_location


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
    error: str | None  # timeout, network, redirects, bad-redirect

    @property
    def ok(self) -> bool:
        return self.error is None and self.status is not None and 200 <= self.status < 300


async def get_async(
    url: str, *, user_agent: str, timeout: float, limit: int, transport: httpx.AsyncBaseTransport | None = None
) -> Download:
    hops: list[str] = []
    current = url
    async with httpx.AsyncClient(
        headers={"User-Agent": user_agent},
        timeout=timeout,
        follow_redirects=False,
        transport=transport,
        trust_env=transport is None,
        event_hooks={"response": [take_location]},
    ) as client:
        try:
            with anyio.fail_after(timeout):
                while True:
                    async with client.stream("GET", current) as response:
                        if response.status_code in (301, 302, 303, 307, 308):
                            target, problem = redirect_target(current, location_of(response))
                            if target is None or problem is not None:
                                return Download(
                                    current,
                                    response.status_code,
                                    tuple(response.headers.multi_items()),
                                    b"",
                                    False,
                                    tuple(hops),
                                    "bad-redirect",
                                )
                            if len(hops) >= MAX_REDIRECTS:
                                return Download(
                                    current,
                                    response.status_code,
                                    tuple(response.headers.multi_items()),
                                    b"",
                                    False,
                                    tuple(hops),
                                    "redirects",
                                )
                            hops.append(current)
                            current = target
                            continue
                        body, cut = bytearray(), False
                        async for chunk in response.aiter_bytes():
                            body += chunk
                            if len(body) > limit:
                                body, cut = body[:limit], True
                                break
                        return Download(
                            current,
                            response.status_code,
                            tuple(response.headers.multi_items()),
                            bytes(body),
                            cut,
                            tuple(hops),
                            None,
                        )
        except TimeoutError:
            return Download(current, None, (), b"", False, tuple(hops), "timeout")
        except (httpx.HTTPError, httpx.InvalidURL, OSError, ValueError):
            return Download(current, None, (), b"", False, tuple(hops), "network")


def get(
    url: str, *, user_agent: str, timeout: float, limit: int, transport: httpx.AsyncBaseTransport | None = None
) -> Download:
    """`get_async` from synchronous code: in an event loop of its own, so the deadline holds."""
    return run(get_async(url, user_agent=user_agent, timeout=timeout, limit=limit, transport=transport))
