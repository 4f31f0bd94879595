"""Fuzz target: an operator's IP list, from the reader to the index, never raises and answers as a plain loop.

With atheris installed (`pip install atheris`), from the repository root:

    python -m tests.fuzz.fuzz_iplists tests/fuzz/seeds_iplists -max_total_time=60

Without it, `check(data)` is a plain function: tests/syntax/test_iplists.py runs
it on every file of tests/fuzz/seeds_iplists/ (real lists, bad JSON, bad
prefixes, host bits, mixed families, deep nesting, bytes that are not UTF-8,
...). Add each input a fuzzer finds there.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from pathlib import Path

from tests.fuzz.harness import fuzz, instrumented

with instrumented(__name__):
    from robotscope.syntax.ipindex import AddressIndex, parse_address
    from robotscope.syntax.iplists import MAX_PROBLEMS, Network, read_list

SEEDS = Path(__file__).parent / "seeds_iplists"
MAPPED = 0xFFFF << 32  # ::ffff:0.0.0.0


def covered(networks: Sequence[Network], address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """The plain answer: a loop over the networks, an IPv4 address and its mapped IPv6 form being one address."""
    forms: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = [address]
    if isinstance(address, ipaddress.IPv4Address):
        forms.append(ipaddress.IPv6Address(MAPPED + int(address)))
    elif address.ipv4_mapped is not None:
        forms.append(address.ipv4_mapped)
    return any(form in network for form in forms for network in networks if form.version == network.version)


def check(data: bytes) -> None:
    """Read `data` as a list and index it; raise only on a bug."""
    ip_list = read_list(data, "fuzz.json")
    assert len(ip_list.problems) <= MAX_PROBLEMS
    for problem in ip_list.problems:
        text = problem.render()
        assert "\n" not in text and text.startswith("fuzz.json: ")
        assert "\n" not in problem.render("ko")
    index = AddressIndex([ip_list])
    # Each network's first and last address, and the one past it, answer as a loop over the networks does.
    for network in ip_list.networks[:50]:
        edges = (int(network.network_address), int(network.broadcast_address), int(network.broadcast_address) + 1)
        for number in edges:
            if number < 2 ** (32 if network.version == 4 else 128):
                address = ipaddress.ip_address(number) if network.version == 4 else ipaddress.IPv6Address(number)
                assert bool(index.covering(address)) == covered(ip_list.networks, address)
    # The input's text read as an address is an address or None, never an error.
    parse_address(data.decode("utf-8", "replace")[:100])


if __name__ == "__main__":
    fuzz(check)
