"""The SSRF guard: refuse loopback, private and link-local targets, on every hop.

Whoever chooses the URL a robotscope process fetches could otherwise make it
probe the machine's own network (server-side request forgery): anyone who
can reach the web app when it listens on a non-loopback address, and the
sender of a signed request, whose `Signature-Agent` names the key directory
`robotscope.verifying.keydirectory` fetches. The guard sits where the
connection is made, not in front of the fetcher:

* `GuardedTransport` is an `httpx.AsyncBaseTransport` wrapped around the
  real one. The fetcher follows redirects by hand, so every hop is a separate
  request through this transport, and every request is checked.
* For each request it resolves the host (`resolve`, injectable for tests),
  checks EVERY address the name resolves to (one private address among public
  ones refuses the hop; `permit` lets a caller allow some, such as loopback
  for a signer under test), and then sends the request to the first checked
  address itself: the URL's host is replaced by that IP, the `Host` header
  keeps the name and TLS keeps it for SNI and certificate checks (httpcore's
  `sni_hostname` extension). So the address that was checked is the address
  that is connected to; a second DNS answer (DNS rebinding) is never used.
* A refused target raises `RefusedTarget` before any connection is opened;
  it is not an httpx error, so it ends the whole fetch instead of being
  recorded as a network failure.
* The client is created with `trust_env=False`, so no proxy from the
  environment can carry a request around the guard.

`is_forbidden` is the address test: an explicit table of the networks no
fetch may reach (each row citing its RFC, mostly from the IANA IPv4 and IPv6
Special-Purpose Address Registries), then the standard library's address
properties as a second net (their lists differ between Python versions, so
the table alone decides what this module promises). IPv6 addresses that
stand for an IPv4 address (IPv4-mapped `::ffff:0:0/96`, the NAT64
well-known prefix `64:ff9b::/96`) are judged by that IPv4 address alone, so
`64:ff9b::8.8.8.8` is allowed and `64:ff9b::10.0.0.1` is not; tunnel
addresses (6to4, Teredo) are refused when the IPv4 address they embed is.
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


# Networks no fetch may reach, whatever the standard library of the running Python says.
# Rows are from the IANA IPv4 / IPv6 Special-Purpose Address Registries (entries that are not
# globally reachable) unless noted; the RFC is the one the registry cites.
_FORBIDDEN_V4 = tuple(
    ipaddress.IPv4Network(net)
    for net in (
        "0.0.0.0/8",  # "this network", RFC 791 section 3.2
        "10.0.0.0/8",  # private use, RFC 1918
        "100.64.0.0/10",  # shared address space (carrier-grade NAT), RFC 6598
        "127.0.0.0/8",  # loopback, RFC 1122 section 3.2.1.3
        "169.254.0.0/16",  # link-local (cloud metadata lives here), RFC 3927
        "172.16.0.0/12",  # private use, RFC 1918
        "192.0.0.0/24",  # IETF protocol assignments, RFC 6890 section 2.1 (its two anycast /32s serve no web)
        "192.0.2.0/24",  # documentation TEST-NET-1, RFC 5737
        "192.88.99.0/24",  # deprecated 6to4 relay anycast, RFC 7526
        "192.168.0.0/16",  # private use, RFC 1918
        "198.18.0.0/15",  # benchmarking, RFC 2544
        "198.51.100.0/24",  # documentation TEST-NET-2, RFC 5737
        "203.0.113.0/24",  # documentation TEST-NET-3, RFC 5737
        "224.0.0.0/4",  # multicast, RFC 5771 (not in the registry: never a single host)
        "240.0.0.0/4",  # reserved, RFC 1112 section 4, with 255.255.255.255 limited broadcast, RFC 8190
    )
)
_FORBIDDEN_V6 = tuple(
    ipaddress.IPv6Network(net)
    for net in (
        "::/96",  # unspecified ::, loopback ::1, deprecated IPv4-compatible ::a.b.c.d: RFC 4291 sections 2.5.2-2.5.5.1
        "64:ff9b:1::/48",  # local-use NAT64, RFC 8215: a site's own translator; where the IPv4 sits in it
        # depends on the site's prefix length (RFC 6052 section 2.2), so it cannot be read back and checked
        "100::/64",  # discard-only, RFC 6666
        "2001::/23",  # IETF protocol assignments, RFC 2928 (Teredo 2001::/32, RFC 4380, lies in it)
        "2001:db8::/32",  # documentation, RFC 3849
        "3fff::/20",  # documentation, RFC 9637
        "5f00::/16",  # segment routing (SRv6) SIDs, RFC 9602
        "fc00::/7",  # unique local, RFC 4193
        "fe80::/10",  # link-local unicast, RFC 4291 section 2.5.6
        "fec0::/10",  # site-local, deprecated by RFC 3879 (not in the registry; the stdlib's is_global misses it)
        "ff00::/8",  # multicast, RFC 4291 section 2.7 (not in the registry: never a single host)
    )
)
_IPV4_MAPPED = ipaddress.IPv6Network("::ffff:0:0/96")  # RFC 4291 section 2.5.5.2
_NAT64_WELL_KNOWN = ipaddress.IPv6Network("64:ff9b::/96")  # RFC 6052 section 2.1


def _translated_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address stands for: IPv4-mapped, or NAT64 well-known prefix (the last 32 bits)."""
    if address in _IPV4_MAPPED or address in _NAT64_WELL_KNOWN:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def _tunnel_ipv4(address: ipaddress.IPv6Address) -> tuple[ipaddress.IPv4Address, ...]:
    """The IPv4 addresses a tunnel address embeds.

    The 6to4 router (RFC 3056), the Teredo server and client (RFC 4380).
    """
    if address.sixtofour is not None:
        return (address.sixtofour,)
    if address.teredo is not None:
        return address.teredo
    return ()


def is_forbidden(address: Address) -> bool:
    """True for every address no fetch may reach unless its caller permits it (a loopback, private or reserved one).

    >>> is_forbidden(ipaddress.ip_address("10.0.0.1")), is_forbidden(ipaddress.ip_address("::ffff:127.0.0.1"))
    (True, True)
    >>> is_forbidden(ipaddress.ip_address("93.184.216.34")), is_forbidden(ipaddress.ip_address("64:ff9b::808:808"))
    (False, False)
    """
    if isinstance(address, ipaddress.IPv6Address):
        if address.scope_id:
            return True
        translated = _translated_ipv4(address)
        if translated is not None:
            # The connection ends at that IPv4 address; the stdlib calls the whole prefix
            # reserved or private (Python version dependent), which would refuse public ones.
            return is_forbidden(translated)
        if any(is_forbidden(embedded) for embedded in _tunnel_ipv4(address)):
            return True
        table: tuple[ipaddress.IPv4Network, ...] | tuple[ipaddress.IPv6Network, ...] = _FORBIDDEN_V6
        site_local = address.is_site_local
    else:
        table = _FORBIDDEN_V4
        site_local = False
    if any(address in network for network in table):
        return True
    return (
        not address.is_global
        or address.is_multicast
        or address.is_loopback
        or address.is_private
        or address.is_link_local
        or address.is_reserved
        or address.is_unspecified
        or site_local
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

    def __init__(
        self,
        inner: httpx.AsyncBaseTransport | None = None,
        resolve: Resolver = system_resolve,
        permit: Callable[[Address], bool] = lambda _: False,
    ) -> None:
        # No keep-alive: a connection made (and TLS-verified) for one name is never reused for
        # another name that resolved to the same address.
        no_reuse = httpx.Limits(max_keepalive_connections=0)
        self.inner = inner if inner is not None else httpx.AsyncHTTPTransport(trust_env=False, limits=no_reuse)
        self.resolve = resolve
        self.permit = permit  # forbidden addresses the caller allows all the same
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
            if is_forbidden(address) and not self.permit(address):
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
