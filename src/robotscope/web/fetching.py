"""The fetch panel's fetch: robotscope's fetcher through a transport the web app chooses.

The transport is the `GuardedTransport` of `guard` when the app is bound to
a public address (every hop checked before it connects), else a plain one;
either way proxy settings from the environment are not read, and nothing is
cached: every fetch is fresh and the web app writes nothing to the user's disk.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import httpx

if TYPE_CHECKING:
    from ..fetch import FetchResult

TIMEOUT = 10.0


async def fetch(
    url: str, policy: str, transport: httpx.AsyncBaseTransport | None = None, timeout: float = TIMEOUT
) -> FetchResult:
    """Fetch `url`'s robots.txt through `transport`; raises what the guard raises, and `InvalidURL`."""
    from ..fetch import fetch_robots_async

    return await fetch_robots_async(
        url, policy=policy, timeout=timeout, cache=False, transport=transport or httpx.AsyncHTTPTransport()
    )
