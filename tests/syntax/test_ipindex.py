"""The address index: the lists covering an address, by bisect over merged ranges, as a plain loop answers."""

from __future__ import annotations

import ipaddress

from hypothesis import given, settings
from hypothesis import strategies as st

from robotscope.syntax import iplists
from robotscope.syntax.ipindex import AddressIndex, Covering, parse_address
from robotscope.syntax.iplists import IpList, Network
from tests.fuzz.fuzz_iplists import MAPPED, covered

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
ADDRESS: dict[int, type[Address]] = {4: ipaddress.IPv4Address, 6: ipaddress.IPv6Address}


def ip_list(name: str, *prefixes: str, creation_time: str | None = "2026-09-21T00:00:00Z") -> IpList:
    return IpList(name, creation_time, tuple(ipaddress.ip_network(p) for p in prefixes), ())


def names(index: AddressIndex, address: str) -> list[str]:
    found = index.covering(address)
    assert found is not None
    return [c.name for c in found]


def test_overlapping_and_adjacent_prefixes_merge_into_one_range_per_set_of_lists() -> None:
    one = ip_list("a.json", "10.0.0.0/8", "10.1.0.0/16", "11.0.0.0/8", "2001:db8::/32", "2001:db8:1::/48")
    index = AddressIndex([one])
    assert index.ranges(4) == 1 and index.ranges(6) == 1  # 10/8 holds 10.1/16; 11/8 follows 10/8
    other = ip_list("b.json", "10.1.0.0/16", creation_time="2026-10-01")
    index = AddressIndex([one, other])
    assert index.ranges(4) == 3  # 10.0/16 a; 10.1/16 a and b; 10.2.0.0 to 11.255.255.255 a
    assert index.covering("10.1.2.3") == (Covering("a.json", "2026-09-21T00:00:00Z"), Covering("b.json", "2026-10-01"))
    assert names(index, "10.0.255.255") == ["a.json"] and names(index, "10.2.0.0") == ["a.json"]
    assert names(index, "11.255.255.255") == ["a.json"] and names(index, "12.0.0.0") == []
    assert names(index, "9.255.255.255") == []


def test_families_are_apart_and_mapped_addresses_are_their_ipv4_address() -> None:
    index = AddressIndex([ip_list("v4.json", "32.1.0.0/16"), ip_list("v6.json", "2001::/16")])
    assert names(index, "32.1.0.1") == ["v4.json"] and names(index, "2001::1") == ["v6.json"]  # 2001:: is 32.1.0.0
    assert names(index, "::ffff:32.1.0.1") == ["v4.json"] and names(index, "::2001:0:1") == []
    index = AddressIndex([ip_list("mapped.json", "::ffff:66.249.64.0/123")])
    assert names(index, "66.249.64.31") == ["mapped.json"] and names(index, "66.249.64.32") == []


def test_what_is_not_an_address_is_none() -> None:
    index = AddressIndex([ip_list("a.json", "0.0.0.0/0", "::/0")])
    arabic_one = "\u0661"  # a digit to str.isdigit, not to ipaddress
    bad = ("", "1.2.3", "1.2.3.4.5", "01.2.3.4", "1.2.3.256", "+1.2.3.4", "1.2.3.4 ", arabic_one + ".2.3.4", "x")
    for text in bad:
        assert index.covering(text) is None and parse_address(text) is None, text
    assert parse_address("255.255.255.255") == (4, 2**32 - 1) and parse_address("0.0.0.0") == (4, 0)
    assert parse_address(ipaddress.ip_address("::ffff:1.2.3.4")) == (4, 0x01020304)
    assert names(index, "2001:4860:4801:10::1") == ["a.json"] and index.covering("1.2.3.4/32") is None


def test_the_shipped_snapshots_answer_for_known_crawler_addresses() -> None:
    index = AddressIndex(iplists.snapshot(name) for name in iplists.shipped())
    assert names(index, "66.249.66.1") == ["google-common-crawlers.json"]  # Google's own FCrDNS example
    assert names(index, "66.249.90.77") == ["google-special-crawlers.json"]  # rate-limited-proxy-66-249-90-77
    assert names(index, "216.73.216.1") == ["anthropic-bots.json"]
    assert names(index, "74.7.228.1") == ["openai-gptbot.json", "openai-searchbot.json"]
    assert names(index, "8.8.8.8") == [] and names(index, "2001:4860:4801:10::1") == ["google-common-crawlers.json"]


def v4_networks() -> st.SearchStrategy[Network]:
    return st.builds(
        lambda n, length: ipaddress.IPv4Network((n >> (32 - length) << (32 - length), length)),
        st.integers(0, 2**32 - 1),
        st.integers(0, 32),
    )


def v6_networks() -> st.SearchStrategy[Network]:
    # Half of them near the IPv4-mapped block, where the two families meet.
    base = st.one_of(st.integers(0, 2**128 - 1), st.integers(MAPPED - 2**33, MAPPED + 2**33))
    return st.builds(
        lambda n, length: ipaddress.IPv6Network((n >> (128 - length) << (128 - length), length)),
        base,
        st.integers(0, 128),
    )


LISTS = st.lists(st.lists(st.one_of(v4_networks(), v6_networks()), max_size=12), min_size=1, max_size=4)


def probes(lists: list[list[Network]], extra: list[int]) -> list[Address]:
    """Each network's edges and the addresses just outside them, in both families, and some others."""
    found: list[Address] = []
    for networks in lists:
        for network in networks:
            first, last = int(network.network_address), int(network[-1])
            for number in (first - 1, first, last, last + 1):
                if 0 <= number < 2**network.max_prefixlen:
                    # ip_address(number) would read a small number as IPv4 whatever the network's family.
                    found.append(ADDRESS[network.version](number))
    found += [ipaddress.IPv4Address(n) for n in extra] + [ipaddress.IPv6Address(MAPPED + n) for n in extra]
    return found


@settings(max_examples=300, deadline=None)
@given(LISTS, st.lists(st.integers(0, 2**32 - 1), max_size=8))
def test_the_index_answers_as_a_plain_loop_over_the_prefixes(lists: list[list[Network]], extra: list[int]) -> None:
    read = [IpList(f"list-{i}.json", f"2026-09-{i + 10}", tuple(networks), ()) for i, networks in enumerate(lists)]
    index = AddressIndex(read)
    for address in probes(lists, extra):
        expected = [one.name for one in read if covered(one.networks, address)]
        found = index.covering(address)
        assert found is not None and [c.name for c in found] == expected, address
        assert index.covering(str(address)) == found


@given(st.text(alphabet="0123456789.:abcdef%", max_size=24))
def test_an_address_is_read_as_ipaddress_reads_it(text: str) -> None:
    # The fast IPv4 reader and the fallback together: any text of these characters, either way.
    try:
        expected = ipaddress.ip_address(text)
    except ValueError:
        assert parse_address(text) is None
        return
    assert parse_address(text) == parse_address(expected)


@given(st.lists(st.from_regex(r"0{0,2}[0-9]{1,3}", fullmatch=True), min_size=3, max_size=5).map(".".join))
def test_dotted_numbers_are_read_as_ipaddress_reads_them(text: str) -> None:
    # Near-addresses: octets past 255, leading zeros, three or five parts.
    try:
        expected = parse_address(ipaddress.ip_address(text))
    except ValueError:
        expected = None
    assert parse_address(text) == expected


@given(
    st.lists(st.from_regex(r"[0-9a-fA-F]{0,5}", fullmatch=True), min_size=1, max_size=10).map(":".join)
    | st.builds(ipaddress.IPv6Address, st.integers(0, 2**128 - 1)).map(lambda a: a.compressed)
)
def test_colon_groups_are_read_as_ipaddress_reads_them(text: str) -> None:
    # Near-IPv6 addresses: groups of 0-5 digits, empty ones making `::` (once, twice, at either end).
    try:
        expected = parse_address(ipaddress.ip_address(text))
    except ValueError:
        expected = None
    assert parse_address(text) == expected
