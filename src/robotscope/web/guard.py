"""The fetch panel's guard: refuse loopback, private and link-local targets, on every hop.

When the web app listens on a non-loopback address, anyone who can reach it
could otherwise use its fetch panel to probe the machine's own network
(server-side request forgery). The guard sits where the connection is made,
not in front of the fetcher:

* `GuardedTransport` is an `httpx.AsyncBaseTransport` wrapped around the
  real one. The fetcher follows redirects by hand, so every hop is a separate
  request through this transport, and every request is checked.
* For each request it resolves the host (`resolve`, injectable for tests),
  checks EVERY address the name resolves to (one private address among public
  ones refuses the hop), and then sends the request to the first checked
  address itself: the URL's host is replaced by that IP, the `Host` header
  keeps the name and TLS keeps it for SNI and certificate checks (httpcore's
  `sni_hostname` extension). So the address that was checked is the address
  that is connected to; a second DNS answer (DNS rebinding) is never used.
* A refused target raises `RefusedTarget` before any connection is opened;
  it is not an httpx error, so it ends the whole fetch instead of being
  recorded as a network failure.
* The client is created with `trust_env=False`, so no proxy from the
  environment can carry a request around the guard.

`is_forbidden` is the address test: anything that is not globally routable
(loopback, RFC 1918 private, link-local, unique-local, shared 100.64/10,
unspecified, reserved, documentation ranges), multicast, and IPv6 addresses
that embed such an IPv4 address (IPv4-mapped, 6to4, Teredo).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Awaitable, Callable

import anyio
import httpx

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], Awaitable[list[str]]]


class RefusedTarget(Exception):
    """A fetch target whose host is (or resolves to) a loopback, private or link-local address."""

    def __init__(self, url: str, host: str, address: str) -> None:
        self.url = url
        self.host = host
        self.address = address
        self.hops: tuple[tuple[str, int], ...] = ()  # the responses before the refused hop
        super().__init__(f"refused to fetch {url}: {host} resolves to {address}, a non-public address")


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    return None


def is_forbidden(address: Address) -> bool:
    """True for every address the fetch panel must not reach from a public bind.

    >>> is_forbidden(ipaddress.ip_address("10.0.0.1")), is_forbidden(ipaddress.ip_address("::ffff:127.0.0.1"))
    (True, True)
    >>> is_forbidden(ipaddress.ip_address("93.184.216.34"))
    False
    """
    if isinstance(address, ipaddress.IPv6Address):
        if address.scope_id:
            return True
        embedded = _embedded_ipv4(address)
        if embedded is not None and is_forbidden(embedded):
            return True
    return (
        not address.is_global
        or address.is_multicast
        or address.is_loopback
        or address.is_private
        or address.is_link_local
        or address.is_reserved
        or address.is_unspecified
    )


async def system_resolve(host: str, port: int) -> list[str]:
    """Every address `host` resolves to, through the system resolver."""
    infos = await anyio.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


def _literal(host: str) -> Address | None:
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


class GuardedTransport(httpx.AsyncBaseTransport):
    """Check every request's host against `is_forbidden`, then connect to the checked address."""

    def __init__(self, inner: httpx.AsyncBaseTransport | None = None, resolve: Resolver = system_resolve) -> None:
        # No keep-alive: a connection made (and TLS-verified) for one name is never reused for
        # another name that resolved to the same address.
        no_reuse = httpx.Limits(max_keepalive_connections=0)
        self.inner = inner if inner is not None else httpx.AsyncHTTPTransport(trust_env=False, limits=no_reuse)
        self.resolve = resolve
        self.hops: list[tuple[str, int]] = []  # every response so far, so a refusal can show the chain

    async def check(self, url: httpx.URL) -> Address:
        """The address to connect to for `url`; raises `RefusedTarget` if any resolved address is forbidden."""
        host = url.host
        literal = _literal(host)
        if literal is not None:
            addresses: list[Address] = [literal]
        else:
            port = url.port or (443 if url.scheme == "https" else 80)
            try:
                found = await self.resolve(host, port)
            except (OSError, UnicodeError) as error:
                raise httpx.ConnectError(f"name resolution failed for {host}: {error}") from None
            addresses = []
            for text in found:
                parsed = _literal(text) if "%" not in text else None
                if parsed is None:  # a scoped (link-local) IPv6 address, or junk: never reachable from here
                    raise RefusedTarget(str(url), host, text)
                addresses.append(parsed)
            if not addresses:
                raise httpx.ConnectError(f"name resolution failed for {host}: no address")
        for address in addresses:
            if is_forbidden(address):
                raise RefusedTarget(str(url), host, str(address))
        return addresses[0]

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        try:
            address = await self.check(request.url)
        except RefusedTarget as refused:
            refused.hops = tuple(self.hops)
            raise
        response = await self._send(request, address)
        self.hops.append((str(request.url), response.status_code))
        return response

    async def _send(self, request: httpx.Request, address: Address) -> httpx.Response:
        if _literal(request.url.host) is not None:
            return await self.inner.handle_async_request(request)
        # Pin the connection to the checked address; the Host header (already set from the
        # original URL) and TLS SNI / certificate checks keep the name.
        pinned = httpx.Request(
            request.method,
            request.url.copy_with(host=str(address)),
            headers=request.headers,
            stream=request.stream,
            extensions={**request.extensions, "sni_hostname": request.url.host},
        )
        return await self.inner.handle_async_request(pinned)

    async def aclose(self) -> None:
        await self.inner.aclose()
