"""The HTTP shell around one `Fetch`: the only code of robotscope that requests robots.txt, on httpx.

`fetch_robots_async` moves bytes between httpx and one `machine.Fetch`,
which decides everything else. `timeout` is one deadline for the whole
fetch (DNS, connect, headers, body, every redirect hop), so a server that
trickles bytes cannot hold it; `fetch_robots` runs the async fetch in an
event loop of its own for that reason. Transport errors (DNS, connect, TLS,
timeout, incomplete) become a `TransportFailure` in the result; they are
never raised. `transport` is swappable (httpx's seam): the web server puts
its SSRF guard there, the tests a mock.
"""

from __future__ import annotations

import asyncio
import zlib
from collections.abc import AsyncIterator, Coroutine, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import anyio
import anyio.to_thread
import httpx

from .._version import __version__
from ..cache import RobotsCache
from ..syntax.inflate import Incomplete, Undecodable
from .body import COUNT_SECONDS, Body
from .machine import Fetch
from .result import FetchResult, TransportFailure
from .tls import tls_context

_T = TypeVar("_T")
DEFAULT_UA = f"robotscope/{__version__}"


class _Deadline(Exception):
    """The fetch as a whole ran out of time."""


def _failure(error: BaseException) -> TransportFailure:
    message = str(error) or type(error).__name__
    lowered = message.lower()
    if isinstance(error, (httpx.TimeoutException, _Deadline)):
        kind = "timeout"
    elif isinstance(error, (Incomplete, httpx.RemoteProtocolError)):
        kind = "incomplete"
    elif isinstance(error, (Undecodable, zlib.error, httpx.DecodingError)):
        kind = "decode"
    elif isinstance(error, httpx.ConnectError):
        if any(s in lowered for s in ("name or service", "nodename", "getaddrinfo", "name resolution", "no address")):
            kind = "dns"
        elif any(s in lowered for s in ("ssl", "tls", "certificate")):
            kind = "tls"
        else:
            kind = "connect"
    else:
        kind = "network"
    return TransportFailure(kind, message)


# What the I/O shells catch: every way a fetch can fail on the wire.
_FAILURES = (httpx.HTTPError, httpx.InvalidURL, _Deadline, Undecodable, Incomplete, zlib.error)


def fetch_robots(
    url: str,
    *,
    policy: str = "rfc9309",
    user_agent: str = DEFAULT_UA,
    timeout: float = 10.0,
    cache: RobotsCache | bool | None = None,
    transport: httpx.BaseTransport | httpx.AsyncBaseTransport | None = None,
    reuse: bool = True,
) -> FetchResult:
    """Fetch the robots.txt of `url`'s origin and decide what it means under every policy.

    `timeout` is one deadline for the whole fetch: name resolution, connect,
    status line and headers, body, and every redirect hop. A fetch that
    misses it is a timeout (the file is unreachable), however the server
    paces its bytes. `cache`: a `RobotsCache`, None for the default one in
    the user's cache directory, or False for none. `reuse=False` fetches even
    when a fresh copy is cached; the response is still kept, and the last
    good copy still serves a policy that falls back to it. `transport`: an httpx
    transport every request goes through (e.g. one that refuses private
    addresses); with one, proxy settings from the environment are not read,
    so nothing bypasses it. Raises `InvalidURL` for a URL that has no
    robots.txt and ValueError for an unknown policy; network failures are
    part of the result, never raised.

    The fetch runs on `fetch_robots_async` in an event loop of its own (in
    a worker thread when this thread already runs one), because only a
    cancellable fetch can be held to one deadline: blocking socket reads
    can bound each read, not their sum.
    """
    fetching = fetch_robots_async(
        url,
        policy=policy,
        user_agent=user_agent,
        timeout=timeout,
        cache=cache,
        transport=_as_async(transport),
        reuse=reuse,
    )
    return run(fetching)


def run(coroutine: Coroutine[Any, Any, _T]) -> _T:
    """Run `coroutine` in an event loop of its own (every bounded fetch from synchronous code),
    in a worker thread when this thread already runs a loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return _run_here(coroutine)
    with ThreadPoolExecutor(1) as worker:
        return worker.submit(_run_here, coroutine).result()


def _run_here(coroutine: Coroutine[Any, Any, _T]) -> _T:
    # Not asyncio.run: it waits for the loop's executor threads, and a DNS lookup
    # abandoned at the deadline may still be running in one.
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(coroutine)
    finally:
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()  # shuts the executor down without waiting


def _as_async(transport: httpx.BaseTransport | httpx.AsyncBaseTransport | None) -> httpx.AsyncBaseTransport | None:
    if transport is None or isinstance(transport, httpx.AsyncBaseTransport):
        return transport
    return _ThreadedTransport(transport)


class _ThreadedTransport(httpx.AsyncBaseTransport):
    """A blocking transport run in worker threads, so the deadline can abandon its calls."""

    def __init__(self, inner: httpx.BaseTransport) -> None:
        self.inner = inner

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await anyio.to_thread.run_sync(self.inner.handle_request, request, abandon_on_cancel=True)
        return httpx.Response(
            response.status_code,
            headers=response.headers,
            stream=_ThreadedStream(response.stream),  # type: ignore[arg-type]  # a sync stream
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        await anyio.to_thread.run_sync(self.inner.close, abandon_on_cancel=True)


class _ThreadedStream(httpx.AsyncByteStream):
    def __init__(self, inner: httpx.SyncByteStream) -> None:
        self._chunks = iter(inner)
        self._inner = inner

    async def __aiter__(self) -> AsyncIterator[bytes]:
        while True:
            chunk = await anyio.to_thread.run_sync(next, self._chunks, None, abandon_on_cancel=True)
            if chunk is None:
                return
            yield chunk

    async def aclose(self) -> None:
        self._inner.close()


async def fetch_robots_async(
    url: str,
    *,
    policy: str = "rfc9309",
    user_agent: str = DEFAULT_UA,
    timeout: float = 10.0,
    cache: RobotsCache | bool | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    reuse: bool = True,
    started: float | None = None,
) -> FetchResult:
    """`fetch_robots` for asyncio: the same requests, limits, deadline and decisions. `started`: the
    `time.monotonic()` the `timeout` counts from, when the caller spent some of it first."""
    fetch = Fetch(url, policy, user_agent, timeout, cache, started)
    hit = fetch.cached(reuse)
    if hit is not None:
        return hit
    try:
        async with client_for(fetch.headers, timeout, transport) as client:
            try:
                # One deadline over every hop, however the server paces its bytes (httpx's
                # timeouts bound each network operation, not their sum).
                with anyio.fail_after(fetch.remaining()):
                    await _exchange(client, fetch)
            except TimeoutError:
                fetch.on_error(_failure(_Deadline(f"no complete answer within the {timeout:g} s timeout")))
            except _FAILURES as error:
                fetch.on_error(_failure(error))
    except BaseException:  # what ends the fetch unrecorded (a target the guard refuses): the cache it opened closed
        fetch.close()
        raise
    return fetch.finish()


def client_for(
    headers: Mapping[str, str], timeout: float, transport: httpx.AsyncBaseTransport | None
) -> httpx.AsyncClient:
    """The client of every bounded GET (robots.txt here, anything else in `download`): redirects
    followed by hand, each Location kept by `take_location`; the environment's proxies and CA
    bundle read only when the transport is httpx's own (a guard or a mock is not bypassed)."""
    return httpx.AsyncClient(
        headers=headers,
        timeout=timeout,
        follow_redirects=False,
        transport=transport,
        trust_env=transport is None,
        verify=tls_context(transport is None),
        event_hooks={"response": [take_location]},
    )


_LOCATION = "robotscope.location"


async def take_location(response: httpx.Response) -> None:
    """A response hook for redirects followed by hand (`redirect_target`): the Location moves to
    `location_of(response)`, since httpx would parse it itself and raise on `javascript:` and
    other URLs it cannot build."""
    location = response.headers.pop("location", None)
    response.extensions[_LOCATION] = location


def location_of(response: httpx.Response) -> str | None:
    """The Location a response carried, as `take_location` kept it."""
    location: str | None = response.extensions.get(_LOCATION)
    return location


async def _exchange(client: httpx.AsyncClient, fetch: Fetch) -> None:
    """Request each hop of the chain and read the final body, as `fetch` directs."""
    while fetch.next_url is not None:
        async with client.stream("GET", fetch.next_url) as response:
            body = fetch.on_response(
                str(response.request.url), response.status_code, response.headers, location_of(response)
            )
            if body is None:
                continue
            chunks = response.aiter_raw()
            async for chunk in chunks:
                if body.feed(chunk):
                    await _count_rest(chunks, body, fetch)
                    break
            else:
                body.end()


async def _count_rest(chunks: AsyncIterator[bytes], body: Body, fetch: Fetch) -> None:
    """Read on past the cut only to count bytes and lines: for COUNT_SECONDS at most, and never
    into the second half of what is left of the deadline (the count must not turn a fetch into a timeout)."""
    with anyio.move_on_after(min(COUNT_SECONDS, fetch.remaining() / 2)):
        async for chunk in chunks:
            if body.count(chunk):
                return
        body.counted_all = True
