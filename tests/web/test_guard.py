"""The fetch guard's address table: which targets a publicly bound web tester may fetch.

Pure address checks (no network), then the same through the fetch endpoint
with a fake resolver and a transport that fails the test if it is ever used.
"""

from __future__ import annotations

import asyncio
import ipaddress

import httpx
import pytest

from robotscope.fetch.guard import _FORBIDDEN_V4, _FORBIDDEN_V6, is_forbidden
from robotscope.web import create_app

CASES = [
    # IPv4
    ("8.8.8.8", False, "public"),
    ("93.184.216.34", False, "public"),
    ("1.1.1.1", False, "public"),
    ("0.0.0.0", True, "this network, RFC 791"),
    ("0.1.2.3", True, "this network, RFC 791"),
    ("10.0.0.1", True, "private, RFC 1918"),
    ("172.16.0.1", True, "private, RFC 1918"),
    ("172.31.255.255", True, "private, RFC 1918"),
    ("172.32.0.1", False, "just past 172.16/12"),
    ("192.168.1.1", True, "private, RFC 1918"),
    ("100.64.0.1", True, "shared address space, RFC 6598"),
    ("100.127.255.254", True, "shared address space, RFC 6598"),
    ("100.128.0.1", False, "just past 100.64/10"),
    ("127.0.0.1", True, "loopback"),
    ("127.255.255.254", True, "loopback"),
    ("169.254.169.254", True, "link-local: cloud metadata"),
    ("192.0.0.8", True, "IETF protocol assignments, RFC 6890"),
    ("192.0.2.1", True, "TEST-NET-1"),
    ("192.88.99.1", True, "deprecated 6to4 relay anycast, RFC 7526"),
    ("198.18.0.1", True, "benchmarking, RFC 2544"),
    ("198.19.255.255", True, "benchmarking, RFC 2544"),
    ("198.51.100.7", True, "TEST-NET-2"),
    ("203.0.113.9", True, "TEST-NET-3"),
    ("224.0.0.1", True, "multicast"),
    ("239.255.255.250", True, "multicast (SSDP)"),
    ("240.0.0.1", True, "reserved"),
    ("255.255.255.255", True, "limited broadcast"),
    # IPv6
    ("2606:4700::1111", False, "public"),
    ("2a00:1450:4001:80b::200e", False, "public"),
    ("::", True, "unspecified"),
    ("::1", True, "loopback"),
    ("::8.8.8.8", True, "deprecated IPv4-compatible"),
    ("fe80::1", True, "link-local"),
    ("fec0::1", True, "site-local, deprecated by RFC 3879"),
    ("fefe::1", True, "site-local, deprecated by RFC 3879"),
    ("fc00::1", True, "unique local"),
    ("fd12:3456::1", True, "unique local"),
    ("ff02::1", True, "multicast"),
    ("2001:db8::1", True, "documentation, RFC 3849"),
    ("3fff::1", True, "documentation, RFC 9637"),
    ("100::1", True, "discard-only, RFC 6666"),
    ("5f00::1", True, "SRv6 SIDs, RFC 9602"),
    ("2001:2::1", True, "benchmarking, in IETF protocol assignments"),
    # IPv4-mapped: judged by the IPv4 address
    ("::ffff:8.8.8.8", False, "IPv4-mapped public"),
    ("::ffff:192.168.1.1", True, "IPv4-mapped private"),
    ("::ffff:127.0.0.1", True, "IPv4-mapped loopback"),
    ("::ffff:169.254.169.254", True, "IPv4-mapped metadata"),
    # NAT64 well-known prefix, RFC 6052: the last 32 bits
    ("64:ff9b::8.8.8.8", False, "NAT64 of a public address"),
    ("64:ff9b::808:808", False, "NAT64 of 8.8.8.8, hex form"),
    ("64:ff9b::10.0.0.1", True, "NAT64 of a private address"),
    ("64:ff9b::127.0.0.1", True, "NAT64 of loopback"),
    ("64:ff9b::169.254.169.254", True, "NAT64 of metadata"),
    ("64:ff9b::100.64.0.1", True, "NAT64 of shared space"),
    ("64:ff9b::", True, "NAT64 of 0.0.0.0"),
    # local-use NAT64, RFC 8215: refused whole (where its IPv4 sits depends on the site)
    ("64:ff9b:1::8.8.8.8", True, "local-use NAT64"),
    ("64:ff9b:1:abcd::a00:1", True, "local-use NAT64"),
    # 6to4, RFC 3056: the embedded router address
    ("2002:808:808::1", False, "6to4 via a public router"),
    ("2002:c0a8:101::1", True, "6to4 via 192.168.1.1"),
    ("2002:7f00:1::", True, "6to4 via loopback"),
    # Teredo, RFC 4380 (2001::/32, inside 2001::/23)
    ("2001:0:4136:e378:8000:63bf:3fff:fdd2", True, "Teredo"),
    ("2001:0:a00:1::", True, "Teredo with a private server"),
]


@pytest.mark.parametrize(("text", "forbidden", "why"), CASES, ids=[c[0] for c in CASES])
def test_is_forbidden(text: str, forbidden: bool, why: str) -> None:
    assert is_forbidden(ipaddress.ip_address(text)) is forbidden, why


def test_a_scoped_ipv6_address_is_forbidden() -> None:
    assert is_forbidden(ipaddress.IPv6Address("2606:4700::1111%eth0"))


def test_every_table_row_is_forbidden_at_both_ends() -> None:
    networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = [*_FORBIDDEN_V4, *_FORBIDDEN_V6]
    for network in networks:
        for address in (network.network_address, network.broadcast_address):
            assert is_forbidden(address), (network, address)


def _no_network(request: httpx.Request) -> httpx.Response:
    raise AssertionError(f"a connection was attempted to {request.url}")


@pytest.mark.parametrize(
    ("address", "status"),
    [
        ("fec0::1", 403),
        ("64:ff9b::a00:1", 403),
        ("64:ff9b::7f00:1", 403),
        ("::ffff:10.0.0.1", 403),
        ("64:ff9b::808:808", 200),
    ],
)
def test_the_fetch_endpoint_uses_the_table(address: str, status: int) -> None:
    async def resolve(host: str, port: int) -> list[str]:
        return [address]

    def handler(request: httpx.Request) -> httpx.Response:
        assert request.url.host == address  # connected to the checked address itself
        return httpx.Response(200, stream=httpx.ByteStream(b"User-agent: *\nDisallow:\n"))

    transport = httpx.MockTransport(handler if status == 200 else _no_network)
    app = create_app(bound_to_loopback=False, resolve=resolve, transport=transport)

    async def go() -> httpx.Response:
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://robots.example"
        ) as client:
            return await client.post("/api/fetch", json={"url": "https://v6only.example/"})

    r = asyncio.run(go())
    assert r.status_code == status, r.text
    if status == 403:
        assert r.json()["error"]["code"] == "refused-target" and r.json()["error"]["address"] == str(
            ipaddress.ip_address(address)
        )


def test_a_host_idna_cannot_decode_is_a_bad_url_not_a_server_error() -> None:
    # httpx reads an A-label back through idna, which raises InvalidCodepoint (a UnicodeError, not
    # InvalidURL) for `xn--localhost`, which the standard library's codec passes.
    async def resolve(host: str, port: int) -> list[str]:
        raise AssertionError(f"{host} was resolved")

    app = create_app(bound_to_loopback=False, resolve=resolve, transport=httpx.MockTransport(_no_network))

    async def go() -> httpx.Response:
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://robots.example"
        ) as client:
            return await client.post("/api/fetch", json={"url": "https://xn--localhost/"})

    r = asyncio.run(go())
    assert r.status_code == 422 and "invalid host name" in r.json()["error"]["message"], r.text
