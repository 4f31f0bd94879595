"""Fetch /robots.txt the way crawlers do: the only HTTP code of robotscope, on httpx.

`fetch_robots_async` is a thin shell around one `_Fetch`, which holds
everything but the I/O: which URL to request next
(redirects are followed by hand, up to five hops, across hosts, loops
detected), how much of the body to keep, what to store in the cache, and
the `FetchResult` with the decision of every policy (`policy.decide`).

Limits: at most 500 KiB of body (plus the rest of the line the limit falls
in, at most 2 KiB more) is decoded, and decoding stops there too. The body
is read raw and inflated here with a bounded `zlib` decompressor, because
httpx's decoders inflate a whole network read at once (a 64 KiB read of a
gzip bomb would become 64 MB); a compressed body that ends before its end
marker is incomplete data, a transient failure. `timeout` is one deadline
for the whole fetch (DNS, connect, headers, body, every redirect hop), so a
server that trickles bytes cannot hold it; `fetch_robots` runs the async
fetch in an event loop of its own for that reason. A redirect that cannot be followed (no Location,
`javascript:`, `ftp:`, malformed) ends the chain the same way whatever the
reason, and the reason is kept. Transport errors (DNS, connect, TLS,
timeout, incomplete) land in the result; they are never raised.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import time
import zlib
from collections.abc import AsyncIterator, Coroutine, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeVar
from urllib.parse import urldefrag, urljoin

import anyio
import anyio.to_thread
import httpx

from .._version import __version__
from ..cache import Entry, RobotsCache, Stored
from ..syntax.html import looks_like_html
from ..messages import DEFAULT_LANG, Message, message
from ..syntax.parser import MAX_BYTES
from ..access.policy import (
    MAX_REDIRECTS,
    POLICIES,
    Action,
    Cached,
    Decision,
    Outcome,
    decide_all,
    is_transient,
)
from ..access.engines.registry import DEFAULT as DEFAULT_ENGINE
from ..access.engines.registry import PROFILED
from ..access.profiles import Answer
from ..access.robots import Robots, answer_after, parse, verdict_after
from ..syntax.model import Verdict
from ..syntax.urls import robots_url as _robots_url

_T = TypeVar("_T")
DEFAULT_UA = f"robotscope/{__version__}"
LINE_SLACK = 2048  # how far past MAX_BYTES the line the limit falls in may run
_LIMIT = MAX_BYTES + LINE_SLACK
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_EOL = re.compile(rb"[\r\n]")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")  # RFC 3986, Section 3.1


@dataclass(frozen=True)
class FetchError:
    """A transport failure: `kind` is timeout, dns, connect, tls, network or decode."""

    kind: str
    message: str


@dataclass(frozen=True)
class FetchResult:
    """What fetching an origin's robots.txt gave, and what every policy concludes from it.

    `hops` are every response of the redirect chain, (URL, status), in
    order; `status` the final one (None when none came). `decision` and
    `explanation` are those of `policy`; `decisions` holds all four policies.
    `robots` is the parsed file the decision uses (the fetched body for
    `parse`, the last good copy for `cached-copy`), else None.
    """

    robots_url: str
    hops: tuple[tuple[str, int], ...]
    status: int | None
    content_type: str | None
    bytes_received: int
    truncated: bool
    error: FetchError | None
    policy: str
    decision: Action  # `policy`'s; `decisions` has every policy's
    decisions: Mapping[str, Decision]
    from_cache: bool
    body_size: int = 0  # the whole body's decoded size as far as it was counted past the cut
    body_lines: int = 0  # and its lines
    size_exact: bool = True  # False when counting stopped (COUNT_BYTES, COUNT_SECONDS): sizes are lower bounds
    robots: Robots | None = field(default=None, repr=False)
    body: bytes = field(default=b"", repr=False)
    warnings: tuple[str, ...] = ()

    @property
    def explanation(self) -> str:
        """Why `policy` decided as it did, in English (`decisions[policy].reason` is the message)."""
        return self.decisions[self.policy].explanation

    def verdict(self, agent: str, url: str, engine: str = DEFAULT_ENGINE) -> Verdict:
        """May `agent` fetch `url` of this origin? The file's verdict where its rules apply after the fetch
        (`Action.rules_apply`), else `policy`'s allow-all or disallow-all (`access.robots.verdict_after`)."""
        return verdict_after(self.decisions[self.policy], self.robots, agent, url, engine)

    def answer(self, agent: str, url: str, reading: str = PROFILED) -> Answer:
        """The answer front ends show for `agent` on `url` (`Robots.answer`, or the policy's when no rule applies)."""
        return answer_after(self.decisions[self.policy], self.robots, agent, url, reading)

    def as_dict(self, lang: str = DEFAULT_LANG) -> dict[str, Any]:
        return {
            "robots_url": self.robots_url,
            "hops": [{"url": url, "status": status} for url, status in self.hops],
            "status": self.status,
            "content_type": self.content_type,
            "bytes_received": self.bytes_received,
            "truncated": self.truncated,
            "body_size": self.body_size,
            "body_lines": self.body_lines,
            "size_exact": self.size_exact,
            "error": None if self.error is None else {"kind": self.error.kind, "message": self.error.message},
            "policy": self.policy,
            "decision": self.decision,
            "explanation": self.decisions[self.policy].reason.render(lang),
            "decisions": {name: d.as_dict(lang) for name, d in self.decisions.items()},
            "from_cache": self.from_cache,
            "warnings": list(self.warnings),
        }


class _Deadline(Exception):
    """The fetch as a whole ran out of time."""


class _Undecodable(Exception):
    """A Content-Encoding robotscope does not ask for and cannot decode."""


class _Incomplete(Exception):
    """The body ended before its encoding did (a gzip stream cut short): incomplete data."""


# Kept at most: the limit, the rest of the line it falls in, a CRLF pair that may end
# that line on its last byte, and one byte more, which tells that the body goes on.
_KEEP = _LIMIT + 2


# Past the cut, the rest of a body is read only to count its bytes and lines (for
# "the file is 1,200,151 bytes, 34,408 lines"), and only this far and this long.
COUNT_BYTES = 16 * 1024 * 1024
COUNT_SECONDS = 2.0
_COUNT_CHUNK = 65536


class _Body:
    """The body as it arrives: decoded with a bounded inflater, cut after the line the limit falls in.

    The inflater never produces more than the room left, so memory stays
    under `_KEEP` bytes whatever the compression ratio. Once the cut is
    known, the rest is only counted (`size`, `line_ends`), up to
    `COUNT_BYTES`; `counted_all` tells whether the count reached the end.
    """

    def __init__(self, encoding: str) -> None:
        encoding = encoding.strip().lower()
        if encoding in ("gzip", "x-gzip"):
            self._inflater: Any = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif encoding == "deflate":
            self._inflater = zlib.decompressobj()
        elif encoding in ("", "identity"):
            self._inflater = None
        else:
            raise _Undecodable(f"unsupported Content-Encoding {encoding!r}")
        self._data = bytearray()
        self.truncated = False
        self.size = 0  # decoded bytes seen, kept or only counted
        self.line_ends = 0
        self.counted_all = False
        self._after_cr = False
        self._ends_line = False

    def feed(self, raw: bytes) -> bool:
        """Take one network read; True once enough is kept (the rest goes to `count`)."""
        while raw:
            room = _KEEP - len(self._data)  # never 0 here: a full buffer always decides the cut
            if self._inflater is not None:
                chunk = self._inflater.decompress(raw, room)
                raw = self._inflater.unconsumed_tail
            else:
                chunk, raw = raw[:room], raw[room:]
            self._tally(chunk)
            self._data += chunk
            if self._cut():
                self.count(raw)
                return True
            if not chunk:
                break
        return False

    def count(self, raw: bytes) -> bool:
        """Count one network read past the cut without keeping it; True once counting should stop."""
        while raw and self.size < COUNT_BYTES:
            if self._inflater is not None:
                chunk = self._inflater.decompress(raw, _COUNT_CHUNK)
                raw = self._inflater.unconsumed_tail
            else:
                chunk, raw = raw[:_COUNT_CHUNK], raw[_COUNT_CHUNK:]
            if not chunk:
                break
            self._tally(chunk)
        return self.size >= COUNT_BYTES

    def _tally(self, chunk: bytes | bytearray) -> None:
        # LF, CR and CRLF each end one line, also when a CRLF is split between reads.
        if not chunk:
            return
        self.size += len(chunk)
        self.line_ends += chunk.count(b"\n") + chunk.count(b"\r") - chunk.count(b"\r\n")
        if self._after_cr and chunk[:1] == b"\n":
            self.line_ends -= 1
        self._after_cr = chunk[-1] == 0x0D
        self._ends_line = chunk[-1] in b"\r\n"

    @property
    def lines(self) -> int:
        """Lines in the body as far as it was counted (a last line without its end counts too)."""
        return self.line_ends + (1 if self.size and not self._ends_line else 0)

    def end(self) -> None:
        """The network stream ended: raise `_Incomplete` if the encoded stream had not."""
        self.counted_all = True
        if self._inflater is not None and not self._inflater.eof:
            raise _Incomplete("the compressed body ended before its end marker: the data is incomplete")

    def _cut(self) -> bool:
        """Cut after the line the limit falls in, once that line's end is known; True if cut."""
        data = self._data
        size = len(data)
        if size <= MAX_BYTES:
            return False
        if data[MAX_BYTES - 1] in b"\r\n":
            end = MAX_BYTES  # the limit falls on a line end
        else:
            eol = _EOL.search(data, MAX_BYTES, _LIMIT)
            if eol is None:
                if size <= _LIMIT:
                    return False  # the line may still end within the slack
                end = _LIMIT  # a line longer than the slack: cut inside it (the parser drops it)
            else:
                end = eol.end()
        if data[end - 1] == 0x0D:  # a CR: an LF right after it belongs to the same line end
            if size == end:
                return False  # not known yet
            if data[end] == 0x0A:
                end += 1
        if size <= end:
            return False  # the body may end here: one more byte tells
        del data[end:]
        self.truncated = True
        return True

    def bytes(self) -> bytes:
        return bytes(self._data)


def _error(error: BaseException) -> FetchError:
    message = str(error) or type(error).__name__
    lowered = message.lower()
    if isinstance(error, (httpx.TimeoutException, _Deadline)):
        kind = "timeout"
    elif isinstance(error, (_Incomplete, httpx.RemoteProtocolError)):
        kind = "incomplete"
    elif isinstance(error, (_Undecodable, zlib.error, httpx.DecodingError)):
        kind = "decode"
    elif isinstance(error, httpx.ConnectError):
        if any(
            s in lowered
            for s in ("name or service", "nodename", "getaddrinfo", "name resolution", "no address")
        ):
            kind = "dns"
        elif any(s in lowered for s in ("ssl", "tls", "certificate")):
            kind = "tls"
        else:
            kind = "connect"
    else:
        kind = "network"
    return FetchError(kind, message)


# What the I/O shells catch: every way a fetch can fail on the wire.
_FAILURES = (httpx.HTTPError, httpx.InvalidURL, _Deadline, _Undecodable, _Incomplete, zlib.error)


def redirect_target(base: str, location: str | None) -> tuple[str | None, Message | None]:
    """Where a redirect from `base` leads: (URL, None), or (None, why it cannot be followed).

    Only an absolute or relative reference that resolves to an http or https
    URL with a valid host and port can be followed; `javascript:`, `ftp:`,
    `file:`, a missing Location and a malformed one all end the chain alike.
    """
    if location is None or not location.strip():
        return None, message("redirect.no-location")
    shown = location.strip()[:200]
    try:
        target = urldefrag(urljoin(base, location.strip())).url
        _robots_url(target)  # http(s), a host, a valid port: the one home of that test
        httpx.URL(target)
    except (ValueError, httpx.InvalidURL) as error:  # InvalidURL (ours) is a ValueError
        scheme = _SCHEME.match(shown)
        if scheme is not None and scheme[1].lower() not in ("http", "https"):
            return None, message("redirect.scheme", location=shown, scheme=scheme[1].lower())
        return None, message("redirect.malformed", location=shown, problem=str(error))
    return target, None


def _open_cache(cache: RobotsCache | bool | None) -> tuple[RobotsCache | None, bool, list[str]]:
    """The cache to use, whether this fetch owns (and closes) it, and any warning."""
    if isinstance(cache, RobotsCache):
        return cache, False, []
    if cache is False:
        return None, False, []
    try:
        return RobotsCache(), True, []
    except (OSError, sqlite3.Error) as error:
        return None, False, [f"cache disabled: {error}"]


class _Fetch:
    """One fetch's state and decisions; the shells only move bytes."""

    def __init__(
        self, url: str, policy: str, user_agent: str, timeout: float, cache: RobotsCache | bool | None
    ) -> None:
        if policy not in POLICIES:
            raise ValueError(f"unknown policy {policy!r}: choose one of {', '.join(POLICIES)}")
        self.robots_url = _robots_url(url)
        self.policy = policy
        self.timeout = timeout
        self.headers = {"User-Agent": user_agent, "Accept-Encoding": "gzip, deflate"}
        self.cache, self._owns_cache, warnings = _open_cache(cache)
        self.warnings = warnings  # the cache's own are read when the result is made, after `put`
        self.deadline = time.monotonic() + timeout
        self.next_url: str | None = self.robots_url
        self.hops: list[tuple[str, int]] = []
        self.redirects = 0
        self.loop = False
        self.unfollowable: Message | None = None  # why the last redirect could not be followed
        self.status: int | None = None
        self.response_headers: dict[str, str] = {}
        self.body: _Body | None = None
        self.error: FetchError | None = None

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

    def on_response(self, response: httpx.Response) -> _Body | None:
        """Record a hop; the body reader when this is the final response, None to go on."""
        url, status = str(response.request.url), response.status_code
        self.hops.append((url, status))
        if status in _REDIRECTS:
            target, self.unfollowable = redirect_target(url, location_of(response))
            if target is not None and any(target == seen for seen, _ in self.hops):
                self.loop = True
            elif target is not None and self.redirects < MAX_REDIRECTS:
                self.redirects += 1
                self.next_url = target
                return None
        self.next_url = None
        self.status = status
        self.response_headers = dict(response.headers)
        self.body = _Body(response.headers.get("content-encoding", ""))
        return self.body

    def on_error(self, error: BaseException) -> None:
        self.error = _error(error)

    def finish(self) -> FetchResult:
        body = self.body.bytes() if self.body is not None else b""
        truncated = self.body.truncated if self.body is not None else False
        meta = {
            "hops": [list(hop) for hop in self.hops],
            "redirects": self.redirects,
            "loop": self.loop,
            "unfollowable": None if self.unfollowable is None else [self.unfollowable.code, dict(self.unfollowable.params)],
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
            bytes_received=meta["bytes_received"],
            truncated=meta["truncated"],
            body_size=meta.get("body_size", meta["bytes_received"]),
            body_lines=meta.get("body_lines", 0),
            size_exact=meta.get("counted_all", True),
            error=None if error is None else FetchError(*error),
            policy=self.policy,
            decision=chosen.action,
            decisions=MappingProxyType(decisions),
            from_cache=from_cache,
            robots=robots,
            body=stored.body,
            warnings=tuple(self.warnings + (self.cache.take_warnings() if self.cache is not None else [])),
        )


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
) -> FetchResult:
    """`fetch_robots` for asyncio: the same requests, limits, deadline and decisions."""
    fetch = _Fetch(url, policy, user_agent, timeout, cache)
    hit = fetch.cached(reuse)
    if hit is not None:
        return hit
    async with httpx.AsyncClient(
        headers=fetch.headers,
        timeout=timeout,
        follow_redirects=False,
        transport=transport,
        trust_env=transport is None,
        event_hooks={"response": [take_location]},
    ) as client:
        try:
            # One deadline over every hop, however the server paces its bytes (httpx's
            # timeouts bound each network operation, not their sum).
            with anyio.fail_after(fetch.remaining()):
                await _exchange(client, fetch)
        except TimeoutError:
            fetch.on_error(_Deadline(f"no complete answer within the {timeout:g} s timeout"))
        except _FAILURES as error:
            fetch.on_error(error)
    return fetch.finish()


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


async def _exchange(client: httpx.AsyncClient, fetch: _Fetch) -> None:
    """Request each hop of the chain and read the final body, as `fetch` directs."""
    while fetch.next_url is not None:
        async with client.stream("GET", fetch.next_url) as response:
            body = fetch.on_response(response)
            if body is None:
                continue
            chunks = response.aiter_raw()
            async for chunk in chunks:
                if body.feed(chunk):
                    await _count_rest(chunks, body, fetch)
                    break
            else:
                body.end()


async def _count_rest(chunks: AsyncIterator[bytes], body: _Body, fetch: _Fetch) -> None:
    """Read on past the cut only to count bytes and lines: for COUNT_SECONDS at most, and never
    into the second half of what is left of the deadline (the count must not turn a fetch into a timeout)."""
    with anyio.move_on_after(min(COUNT_SECONDS, fetch.remaining() / 2)):
        async for chunk in chunks:
            if body.count(chunk):
                return
        body.counted_all = True
