"""Web Bot Auth key directories, fetched within bounds and kept in a small in-memory cache.

A signed request names its agent (`Signature-Agent`, read by
`access.signatures.agent`); the agent's keys are the JWKS at
`/.well-known/http-message-signatures-directory` of its origin. The request's
sender chooses that URL, so fetching it is fetching a URL from a stranger:

- One GET through the bounded downloader (`robotscope.download`): a deadline
  over the whole exchange (`timeout`, 5 s), at most `MAX_DIRECTORY` bytes
  after decoding (a longer directory is refused, not cut and parsed), at
  most five redirects.
- Every hop stays on the agent's origin: a redirect elsewhere is refused
  before it is requested (a directory that moved off its origin is not the
  origin's word on its keys).
- The SSRF guard (`fetch.guard`) checks every address each hop's name
  resolves to and connects to the address it checked. Loopback, private,
  link-local and reserved addresses are refused: the sender of a request
  must not make robotscope probe the network it runs in. `local=True`
  (`--allow-local-directory`) allows loopback and private-use addresses (a
  signer under test on one's own machine or network; the tests' servers on
  127.0.0.1); link-local addresses stay refused even then, cloud metadata
  services live there. https is required, except to a loopback address
  (`access.signatures.agent`).
- The cache is per process, bounded (`MAX_ENTRIES`, least recently used
  dropped) and keyed by the directory URL. A directory is kept as long as
  its `Cache-Control: max-age` says, within `FLOOR` (a minute: a log of
  signed requests must not fetch once per line, whatever the directory
  asks) and `CEILING` (a day: keys are revoked too); `DEFAULT_TTL` (an hour)
  without one. A failure is kept `FLOOR` seconds, so a dead directory costs
  one deadline a minute rather than one per request.
- A signature whose key is not in a cached copy older than `FLOOR` fetches
  the directory once more (`refresh`): keys rotate. A younger copy is not
  fetched again, so made-up key ids cannot make robotscope fetch at will.

Every failure is part of the answer (`Directory.problem`, a message); none
is raised. The directory response's own signature (the directory draft
signs responses with RFC 9421) is not checked: https and the origin rule
stand for it.
"""

from __future__ import annotations

import ipaddress
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx

from ..access.signatures.keys import read_directory
from ..access.signatures.model import MAX_DIRECTORY
from ..access.signatures.verify import Keys
from ..download import get
from ..fetch import DEFAULT_UA
from ..fetch.guard import Address, GuardedTransport, RefusedTarget, Resolver, system_resolve
from ..messages import Message, message

TIMEOUT = 5.0  # seconds for one directory, every hop and byte included
MAX_ENTRIES = 256
FLOOR = 60.0
CEILING = 86_400.0
DEFAULT_TTL = 3_600.0
_MAX_AGE = re.compile(r"(?:^|,)\s*max-age\s*=\s*\"?(\d{1,12})\"?\s*(?:,|$)", re.IGNORECASE)
_NO_STORE = re.compile(r"(?:^|,)\s*(?:no-store|no-cache)\s*(?:,|=|$)", re.IGNORECASE)


@dataclass(frozen=True)
class Directory:
    """A key directory as fetched: its keys (None when the body is not a JWKS within bounds, or when nothing
    came: `problem` then says why), and the clock's time it was fetched and is fresh until."""

    url: str
    keys: Keys | None
    problem: Message | None
    fetched: float
    until: float


class _OffOrigin(Exception):
    """A hop left the agent's origin (raised by `_SameOrigin`, before the hop is requested)."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.url = url


def _origin(url: httpx.URL | str) -> tuple[str, str, int | None]:
    parts = httpx.URL(url) if isinstance(url, str) else url
    default = {"https": 443, "http": 80}.get(parts.scheme)
    return parts.scheme, parts.host, parts.port or default


class _SameOrigin(httpx.AsyncBaseTransport):
    """Every request to `origin` alone: the first one, and every redirect the downloader follows."""

    def __init__(self, inner: httpx.AsyncBaseTransport, origin: str) -> None:
        self.inner, self.origin = inner, _origin(origin)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if _origin(request.url) != self.origin:
            raise _OffOrigin(str(request.url))
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


def local(address: Address) -> bool:
    """Loopback or private-use, never link-local: what `local=True` allows."""
    if address.is_link_local:
        return False
    private = any(address in network for network in _PRIVATE)
    return address.is_loopback or private


_PRIVATE = tuple(
    ipaddress.ip_network(net)
    for net in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7")  # RFC 1918, 4193
)


def max_age(values: Sequence[str]) -> float | None:
    """The freshness the Cache-Control field lines give, in seconds (0 for no-store or no-cache), None when none.

    >>> max_age(["public, max-age=600"]), max_age(["no-store"]), max_age(["private"])
    (600.0, 0.0, None)
    """
    field = ", ".join(values)
    if _NO_STORE.search(field):
        return 0.0
    found = _MAX_AGE.search(field)
    return float(found.group(1)) if found else None


class KeyDirectories:
    """Key directories by URL: fetched within bounds (module docstring), cached, never raising."""

    def __init__(
        self,
        *,
        timeout: float = TIMEOUT,
        local_addresses: bool = False,
        entries: int = MAX_ENTRIES,
        clock: Callable[[], float] = time.monotonic,
        user_agent: str = DEFAULT_UA,
        resolve: Resolver = system_resolve,
    ) -> None:
        self.timeout, self.entries, self.clock, self.user_agent = timeout, entries, clock, user_agent
        self.resolve = resolve
        self.permit: Callable[[Address], bool] = local if local_addresses else lambda _: False
        self._cache: OrderedDict[str, Directory] = OrderedDict()
        self._lock = threading.Lock()
        self.fetches = 0  # directories requested so far (the cache's misses)

    def get(self, url: str) -> Directory:
        """The directory at `url`: the cached copy while it is fresh, else fetched now."""
        with self._lock:
            cached = self._cache.get(url)
            if cached is not None and cached.until > self.clock():
                self._cache.move_to_end(url)
                return cached
        return self._fetch(url)

    def refresh(self, url: str) -> Directory | None:
        """The directory fetched again when the cached copy is older than FLOOR; None when it is younger."""
        with self._lock:
            cached = self._cache.get(url)
        if cached is not None and self.clock() - cached.fetched < FLOOR:
            return None
        return self._fetch(url)

    def _fetch(self, url: str) -> Directory:
        started = self.clock()
        with self._lock:
            self.fetches += 1
        keys, problem, ttl = self._download(url)
        found = Directory(url, keys, problem, started, started + ttl)
        with self._lock:
            self._cache[url] = found
            self._cache.move_to_end(url)
            while len(self._cache) > self.entries:
                self._cache.popitem(last=False)
        return found

    def _download(self, url: str) -> tuple[Keys | None, Message | None, float]:
        guard = GuardedTransport(resolve=self.resolve, permit=self.permit)
        try:
            transport = _SameOrigin(guard, url)
            got = get(url, user_agent=self.user_agent, timeout=self.timeout, limit=MAX_DIRECTORY, transport=transport)
        except (httpx.InvalidURL, UnicodeError):  # an origin the core accepted that httpx cannot request
            # (UnicodeError: idna's, for an A-label that does not decode)
            return None, message("signature.directory.bad-url"), FLOOR
        except RefusedTarget as refused:
            return None, message("signature.directory.refused", host=refused.host, address=refused.address), FLOOR
        except _OffOrigin as off:
            parts = urlsplit(url)
            said = message(
                "signature.directory.off-origin", url=off.url[:300], origin=f"{parts.scheme}://{parts.netloc}"
            )
            return None, said, FLOOR
        if got.error is not None:
            return None, message(f"signature.directory.{got.error}", seconds=f"{self.timeout:g}"), FLOOR
        if not got.ok:
            return None, message("signature.directory.status", status=got.status), FLOOR
        if got.cut:
            return None, message("signature.directory.too-big", limit=MAX_DIRECTORY), FLOOR
        keys = read_directory(got.body)
        if keys is None:
            return None, None, FLOOR  # fetched, but not a JWKS: the signature's verdict says so
        asked = max_age([value for name, value in got.headers if name == "cache-control"])
        ttl = DEFAULT_TTL if asked is None else asked
        return keys, None, min(max(ttl, FLOOR), CEILING)
