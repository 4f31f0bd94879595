"""FCrDNS against a real DNS server on 127.0.0.1: genuine, spoofed, mismatching, silent and hostile answers."""

from __future__ import annotations

import ipaddress
import itertools
import socket
import threading

import pytest
from dnslib import RCODE, RR, DNSLabel, DNSRecord
from hypothesis import given
from hypothesis import strategies as st

from robotscope.messages import render
from robotscope.verifying.fcrdns import DnsVerdict, Outcome, Reason, fcrdns, under_suffix
from robotscope.verifying.resolvers import (
    MAX_PACKETS,
    MAX_RECORDS,
    MAX_RESPONSE,
    Answer,
    CachingResolver,
    IPAddress,
    ServerResolver,
    Status,
    SystemResolver,
    name_text,
    parse_server,
    resolver,
)
from tests.verifying.dns_server import Script, dns_server, zone

GOOGLE = ("googlebot.com", "google.com")
IP = ipaddress.ip_address("66.249.66.1")
IP6 = ipaddress.ip_address("2001:4860:4801:2::1")

GENUINE = f"""
{IP.reverse_pointer}. 300 IN PTR crawl-66-249-66-1.googlebot.com.
crawl-66-249-66-1.googlebot.com. 300 IN A 66.249.66.1
{IP6.reverse_pointer}. 300 IN PTR crawl-6.googlebot.com.
crawl-6.googlebot.com. 300 IN AAAA 2001:4860:4801:0002:0000:0000:0000:0001
"""


def check(script: Script, ip: IPAddress = IP, timeout: float = 2.0) -> DnsVerdict:
    with dns_server(script) as server:
        verdict = fcrdns(ip, GOOGLE, ServerResolver("127.0.0.1", server.port), timeout=timeout)
    for lang in ("en", "ko"):
        assert "{" not in render(verdict.message, lang)
    return verdict


def test_genuine_googlebot_is_verified_with_its_chain() -> None:
    verdict = check(zone(GENUINE))
    assert (verdict.outcome, verdict.reason) == (Outcome.VERIFIED, Reason.VERIFIED)
    assert verdict.name == "crawl-66-249-66-1.googlebot.com"
    assert verdict.addresses == ("66.249.66.1",)


def test_genuine_ipv6_is_verified_comparing_addresses_not_text() -> None:
    verdict = check(zone(GENUINE), IP6)
    assert verdict.outcome is Outcome.VERIFIED
    assert verdict.addresses == ("2001:4860:4801:2::1",)


@pytest.mark.parametrize("name", ["crawl-1.googlebot.com.evil.example", "evilgooglebot.com"])
def test_a_name_outside_the_suffixes_is_spoofed(name: str) -> None:
    records = f"{IP.reverse_pointer}. 300 IN PTR {name}.\n{name}. 300 IN A 66.249.66.1\n"
    verdict = check(zone(records))
    assert (verdict.outcome, verdict.reason) == (Outcome.SPOOFED, Reason.OUTSIDE_SUFFIXES)
    assert verdict.names == (name,)


def test_a_label_holding_a_dot_does_not_pass_for_two_labels() -> None:
    def answer(request: DNSRecord) -> list[bytes]:
        reply = request.reply()
        reply.add_answer(*RR.fromZone(f"{IP.reverse_pointer}. 300 IN PTR x.com."))
        reply.rr[0].rdata.label = DNSLabel([b"a.googlebot", b"com"])
        return [reply.pack()]

    verdict = check(answer)
    assert (verdict.outcome, verdict.names) == (Outcome.SPOOFED, ("a\\046googlebot.com",))


def test_a_forward_answer_without_the_ip_is_spoofed() -> None:
    records = f"{IP.reverse_pointer}. 300 IN PTR crawl-1.googlebot.com.\ncrawl-1.googlebot.com. 300 IN A 66.249.66.2\n"
    verdict = check(zone(records))
    assert (verdict.outcome, verdict.reason) == (Outcome.SPOOFED, Reason.FORWARD_MISMATCH)
    assert verdict.addresses == ("66.249.66.2",)


def test_a_name_that_does_not_resolve_back_is_spoofed() -> None:
    verdict = check(zone(f"{IP.reverse_pointer}. 300 IN PTR crawl-1.googlebot.com.\n"))
    assert (verdict.outcome, verdict.reason) == (Outcome.SPOOFED, Reason.FORWARD_MISSING)


def test_an_address_without_ptr_is_spoofed_with_the_nxdomain() -> None:
    verdict = check(zone("other.example. 300 IN A 192.0.2.1\n"))
    assert (verdict.outcome, verdict.reason, verdict.detail) == (Outcome.SPOOFED, Reason.NO_NAME, "NXDOMAIN")


def test_a_silent_server_gives_inconclusive_within_the_deadline() -> None:
    verdict = check(lambda request: [], timeout=0.2)
    assert (verdict.outcome, verdict.reason) == (Outcome.INCONCLUSIVE, Reason.TIMEOUT)
    assert verdict.query == f"PTR {IP.reverse_pointer}"


def test_servfail_is_inconclusive() -> None:
    def answer(request: DNSRecord) -> list[bytes]:
        reply = request.reply()
        reply.header.rcode = RCODE.SERVFAIL
        return [reply.pack()]

    verdict = check(answer)
    assert (verdict.outcome, verdict.reason, verdict.detail) == (
        Outcome.INCONCLUSIVE,
        Reason.SERVER_FAILURE,
        "SERVFAIL",
    )


def _hostile(request: DNSRecord) -> list[bytes]:
    wrong_id = request.reply()
    wrong_id.header.id = (request.header.id + 1) % 65536
    wrong_id.add_answer(*RR.fromZone(f"{IP.reverse_pointer}. 300 IN PTR crawl-1.googlebot.com."))
    truncated = request.reply().pack()[:7]
    huge = request.reply().pack() + b"\0" * MAX_RESPONSE
    return [b"\xff" * 40, b"", truncated, huge, wrong_id.pack()]


def test_garbage_truncated_huge_and_wrong_id_answers_are_read_as_no_answer() -> None:
    verdict = check(_hostile, timeout=0.6)
    assert (verdict.outcome, verdict.reason) == (Outcome.INCONCLUSIVE, Reason.BAD_ANSWER)
    assert int(verdict.detail.split()[0]) in (5, 10)  # five bad packets per question; asked once or twice


def test_the_truncation_flag_is_inconclusive() -> None:
    def answer(request: DNSRecord) -> list[bytes]:
        reply = request.reply()
        reply.header.tc = 1
        return [reply.pack()]

    assert check(answer).reason is Reason.TRUNCATED


def test_an_unreachable_server_is_inconclusive() -> None:
    with dns_server(lambda request: []) as server:
        port = server.port
    verdict = fcrdns(IP, GOOGLE, ServerResolver("127.0.0.1", port), timeout=0.5)
    assert verdict.outcome is Outcome.INCONCLUSIVE
    assert verdict.reason in (Reason.UNREACHABLE, Reason.TIMEOUT)


def test_the_overall_deadline_stops_before_the_forward_lookup() -> None:
    ticks = itertools.chain([0.0, 0.0], itertools.repeat(10.0))
    with dns_server(zone(GENUINE)) as server:
        verdict = fcrdns(IP, GOOGLE, ServerResolver("127.0.0.1", server.port), deadline=5.0, clock=lambda: next(ticks))
        assert server.queries == [f"PTR {IP.reverse_pointer}."]
    assert (verdict.outcome, verdict.query) == (Outcome.INCONCLUSIVE, "A crawl-66-249-66-1.googlebot.com")


def test_the_cache_keeps_answers_for_their_ttl_and_no_more_entries_than_its_size() -> None:
    now = [0.0]
    with dns_server(zone(GENUINE)) as server:
        resolver = CachingResolver(ServerResolver("127.0.0.1", server.port), size=1, clock=lambda: now[0])
        for _ in range(3):
            assert fcrdns(IP, GOOGLE, resolver).outcome is Outcome.VERIFIED
        assert len(server.queries) == 6  # one entry: the PTR and the A answers evict each other
        resolver.size = 2
        fcrdns(IP, GOOGLE, resolver)
        fcrdns(IP, GOOGLE, resolver)
        assert len(server.queries) == 7  # the PTR once more; then both from the cache
        now[0] = 301.0  # past the records' TTL of 300 s
        fcrdns(IP, GOOGLE, resolver)
        assert len(server.queries) == 9


def test_timeouts_are_not_cached() -> None:
    calls: list[str] = []

    class Silent:
        def names(self, ip: IPAddress, timeout: float) -> Answer:
            calls.append("ptr")
            return Answer(Status.TIMEOUT)

        def addresses(self, name: str, version: int, timeout: float) -> Answer:
            raise AssertionError("not reached")

    resolver = CachingResolver(Silent())
    fcrdns(IP, GOOGLE, resolver)
    fcrdns(IP, GOOGLE, resolver)
    assert calls == ["ptr", "ptr"]


@pytest.mark.parametrize(
    ("text", "server"),
    [
        ("127.0.0.1:5353", ("127.0.0.1", 5353)),
        ("8.8.8.8", ("8.8.8.8", 53)),
        ("[::1]:53", ("::1", 53)),
        ("::1", ("::1", 53)),
    ],
)
def test_a_server_is_host_and_port(text: str, server: tuple[str, int]) -> None:
    assert parse_server(text) == server


@pytest.mark.parametrize("text", ["dns.google:53", "127.0.0.1:0", "127.0.0.1:x", "[::1]x", "1.2.3.4:70000"])
def test_a_bad_server_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_server(text)


LABEL = st.text(alphabet="abcXYZ0-", min_size=1, max_size=4)
NAME = st.lists(LABEL, min_size=1, max_size=4).map(".".join)


@given(NAME, NAME, st.booleans(), st.booleans())
def test_a_name_is_under_a_suffix_iff_equal_or_ending_in_dot_suffix(
    name: str, suffix: str, dot: bool, upper: bool
) -> None:
    written = (name.upper() if upper else name) + ("." if dot else "")
    expected = name.lower() == suffix.lower() or name.lower().endswith("." + suffix.lower())
    assert under_suffix(written, suffix) is expected


@given(NAME, NAME)
def test_a_name_built_under_a_suffix_is_under_it_and_a_glued_one_is_not(prefix: str, suffix: str) -> None:
    assert under_suffix(f"{prefix}.{suffix}", suffix)
    assert not under_suffix(f"{prefix}{suffix}", suffix)  # the boundary: `evilgooglebot.com`


def test_names_escape_every_byte_that_could_fake_a_label() -> None:
    assert name_text((b"crawl-1", b"googlebot", b"com")) == "crawl-1.googlebot.com"
    assert name_text((b"a.b", b"c d")) == "a\\046b.c\\032d"


def test_system_resolver_confirms_localhost() -> None:
    verdict = fcrdns(ipaddress.ip_address("127.0.0.1"), ("localhost",), SystemResolver())
    assert verdict.outcome is Outcome.VERIFIED, verdict


def test_a_reverse_delegation_through_cname_is_followed() -> None:
    # RFC 2317: a small network's reverse zone is reached through a CNAME.
    alias = "1.0-25.66.249.66.in-addr.arpa"
    records = f"""
{IP.reverse_pointer}. 300 IN CNAME {alias}.
{alias}. 300 IN PTR crawl-66-249-66-1.googlebot.com.
crawl-66-249-66-1.googlebot.com. 300 IN A 66.249.66.1
"""
    assert check(zone(records)).outcome is Outcome.VERIFIED


def test_a_flood_of_bad_packets_is_read_a_bounded_number_of_times() -> None:
    verdict = check(lambda request: [b"\xff" * 40] * (MAX_PACKETS * 3))
    assert (verdict.outcome, verdict.detail) == (Outcome.INCONCLUSIVE, f"{MAX_PACKETS} unreadable or unrelated packets")


def test_an_answer_keeps_a_bounded_number_of_addresses() -> None:
    many = "".join(f"crawl-1.googlebot.com. 300 IN A 10.0.0.{n}\n" for n in range(1, 100))
    records = f"{IP.reverse_pointer}. 300 IN PTR crawl-1.googlebot.com.\n{many}crawl-1.googlebot.com. 300 IN A {IP}\n"
    verdict = check(zone(records))
    assert (verdict.reason, len(verdict.addresses)) == (Reason.FORWARD_MISMATCH, MAX_RECORDS)


def test_the_system_resolver_bounds_lookups_left_running(monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    calls: list[str] = []

    def stuck(address: str) -> tuple[str, list[str], list[str]]:
        calls.append(address)
        release.wait(10)
        return "localhost", [], [address]

    monkeypatch.setattr(socket, "gethostbyaddr", stuck)
    system = SystemResolver(max_pending=1)
    try:
        first = system.names(IP, 0.05)
        second = system.names(IP, 0.05)
    finally:
        release.set()
    assert (first.status, second.status) == (Status.TIMEOUT, Status.TIMEOUT)
    assert second.detail == "too many lookups still pending"
    assert calls == [str(IP)]


def test_the_resolver_of_a_server_option_asks_that_server() -> None:
    with dns_server(zone(GENUINE)) as server:
        verdict = fcrdns(IP, GOOGLE, resolver(f"127.0.0.1:{server.port}"))
        assert len(server.queries) == 2
    assert verdict.outcome is Outcome.VERIFIED
    assert isinstance(resolver(None).inner, SystemResolver)


def test_a_lost_question_is_asked_once_more() -> None:
    seen: set[str] = set()
    answer = zone(GENUINE)

    def lossy(request: DNSRecord) -> list[bytes]:
        first = str(request.q.qname) not in seen
        seen.add(str(request.q.qname))
        return [] if first else answer(request)

    with dns_server(lossy) as server:
        verdict = fcrdns(IP, GOOGLE, ServerResolver("127.0.0.1", server.port), timeout=1.0)
        assert len(server.queries) == 4
    assert verdict.outcome is Outcome.VERIFIED
