"""Which IP lists cover an address: sorted integer ranges and a binary search, IPv4 and IPv6 apart. Pure.

Built once from any number of lists (`iplists.IpList`): each family's
prefixes become integer ranges, cut where any list's range starts or ends,
and adjacent pieces covered by the same lists are merged back, so the index
holds disjoint ranges in order, each with the lists that cover it (two
lists may share a range: OpenAI's GPTBot and OAI-SearchBot lists do). A
lookup is one `bisect` over the range starts: O(log n), whatever the
number of lists.

An IPv4 address and its IPv4-mapped IPv6 form (`::ffff:66.249.66.1`, as
dual-stack servers log IPv4 clients) are one address: a mapped address is
looked up as the IPv4 address it carries, and the part of an IPv6 prefix
inside `::ffff:0:0/96` also covers the IPv4 addresses it maps.
"""

from __future__ import annotations

import ipaddress
import re
from bisect import bisect_right
from collections.abc import Iterable
from itertools import pairwise
from typing import NamedTuple

from .iplists import IpList


class Covering(NamedTuple):
    """A list that covers an address, and the version of it that does."""

    name: str
    creation_time: str | None


_MAPPED = 0xFFFF << 32  # ::ffff:0.0.0.0, the first IPv4-mapped IPv6 address
_MAPPED_LAST = _MAPPED + 2**32 - 1


def _order(owner: Covering) -> tuple[str, str]:
    return owner.name, owner.creation_time or ""


class _Family:
    """Disjoint ranges of one address family, in order, with the lists covering each."""

    def __init__(self, ranges: Iterable[tuple[int, int, Covering]]) -> None:
        # A sweep over range edges: +1 where a list's range starts, -1 one past where it ends.
        edges: dict[int, dict[Covering, int]] = {}
        for first, last, owner in ranges:
            edges.setdefault(first, {}).setdefault(owner, 0)
            edges[first][owner] += 1
            edges.setdefault(last + 1, {}).setdefault(owner, 0)
            edges[last + 1][owner] -= 1
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.owners: list[tuple[Covering, ...]] = []
        depth: dict[Covering, int] = {}
        # Every range has ended by the last edge: no piece starts there, so pairs of edges are enough.
        for point, following in pairwise(sorted(edges)):
            for owner, change in edges[point].items():
                depth[owner] = depth.get(owner, 0) + change
            owners = tuple(sorted((o for o, count in depth.items() if count > 0), key=_order))
            if not owners:
                continue
            if self.owners and self.owners[-1] == owners and self.ends[-1] == point - 1:
                self.ends[-1] = following - 1  # the same lists go on: one range
            else:
                self.starts.append(point)
                self.ends.append(following - 1)
                self.owners.append(owners)

    def find(self, number: int) -> tuple[Covering, ...]:
        at = bisect_right(self.starts, number) - 1
        if at >= 0 and number <= self.ends[at]:
            return self.owners[at]
        return ()


_OCTET = r"(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
# A dotted-quad IPv4 address as `ipaddress` reads it (ASCII digits, no leading zeros), at a fraction of its cost.
_IPV4 = re.compile(r"\.".join([_OCTET] * 4)).fullmatch


def _ipv4(text: str) -> int | None:
    found = _IPV4(text)
    if found is None:
        return None
    a, b, c, d = found.groups()
    return int(a) << 24 | int(b) << 16 | int(c) << 8 | int(d)


# IPv6 written in hexadecimal groups and colons only; dotted IPv4 tails and zones go to `ipaddress`.
_HEXTETS = re.compile(r"[0-9A-Fa-f:]{2,39}").fullmatch


def _ipv6(text: str) -> int | None:
    """An IPv6 address of groups and colons only, as `ipaddress` reads it; None for anything else."""
    if _HEXTETS(text) is None:
        return None
    head, shortened, tail = text.partition("::")
    groups = head.split(":") if head else []
    rest = tail.split(":") if tail else []
    if shortened:
        if len(groups) + len(rest) > 7 or "::" in tail:  # `::` stands for one group at least, and once
            return None
        groups += ["0"] * (8 - len(groups) - len(rest)) + rest
    elif len(groups) != 8:
        return None
    for group in groups:
        if not 0 < len(group) <= 4:  # an empty group: a colon alone at either end, or `:::`
            return None
    return int("".join(group.rjust(4, "0") for group in groups), 16)


def parse_address(address: str | ipaddress.IPv4Address | ipaddress.IPv6Address) -> tuple[int, int] | None:
    """`(version, integer)` of an address, IPv4-mapped IPv6 as IPv4; None when it is not an IP address."""
    if isinstance(address, str):
        number = _ipv4(address)
        if number is not None:
            return 4, number
        number = _ipv6(address)
        if number is not None:
            if _MAPPED <= number <= _MAPPED_LAST:
                return 4, number - _MAPPED
            return 6, number
        try:
            address = ipaddress.ip_address(address)
        except ValueError:
            return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.version, int(address)


class AddressIndex:
    """The lists that cover an address, for any number of lists."""

    def __init__(self, lists: Iterable[IpList]) -> None:
        ranges: dict[int, list[tuple[int, int, Covering]]] = {4: [], 6: []}
        for ip_list in lists:
            owner = Covering(ip_list.name, ip_list.creation_time)
            for network in ip_list.networks:
                first = int(network.network_address)
                last = first + network.num_addresses - 1
                ranges[network.version].append((first, last, owner))
                if network.version == 6 and first <= _MAPPED_LAST and last >= _MAPPED:
                    ranges[4].append((max(first, _MAPPED) - _MAPPED, min(last, _MAPPED_LAST) - _MAPPED, owner))
        self._families = {version: _Family(found) for version, found in ranges.items()}

    def ranges(self, version: int) -> int:
        """How many disjoint ranges the index holds for a family, after merging."""
        return len(self._families[version].starts)

    def find(self, version: int, number: int) -> tuple[Covering, ...]:
        """The lists covering an address given as its family and integer (the fast path for logs)."""
        return self._families[version].find(number)

    def covering(self, address: str | ipaddress.IPv4Address | ipaddress.IPv6Address) -> tuple[Covering, ...] | None:
        """The lists covering `address`, by name; () when none does; None when it is not an IP address."""
        parsed = parse_address(address)
        if parsed is None:
            return None
        return self.find(*parsed)


__all__ = ["AddressIndex", "Covering", "parse_address"]
