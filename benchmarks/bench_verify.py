"""Which published lists cover an address: the index against a plain `ipaddress` loop, in one run.

    python benchmarks/bench_verify.py                    # 200,000 addresses, about 20 s
    python benchmarks/bench_verify.py --addresses 50000

The lists are every snapshot shipped in the package (`robotscope.syntax.iplists.shipped()`). The
addresses are text, as a log holds them: a third inside the lists (a random address of a random
prefix), the rest random IPv4 addresses, one in ten of all IPv6. Three ways, on one core:

- `index (text)`: `AddressIndex.covering(text)`, parsing included (IPv4 by a regular expression,
  IPv6 groups split and joined, which costs most of an IPv6 lookup), on all addresses and per family;
- `index (integer)`: `AddressIndex.find(version, n)`, for a caller that already holds integers;
- `ipaddress loop`: `ip_address(text)`, then `address in network` over every list's networks, the
  plain way; run on a tenth of the addresses (it is slow) and reported per second all the same.

Both answer the same on every address the loop sees (checked before timing). The garbage collector
is off while timing; each figure is the best of three.
"""

from __future__ import annotations

import argparse
import gc
import ipaddress
import random
import time
from collections.abc import Callable, Sequence

from robotscope.syntax.ipindex import AddressIndex, parse_address
from robotscope.syntax.iplists import IpList, shipped, snapshot

TARGET = 500_000  # lookups per second the issue asks of one core


def addresses(lists: Sequence[IpList], count: int, seed: int = 25) -> list[str]:
    """`count` addresses as text: a third inside a list, the rest random, one in ten IPv6."""
    rng = random.Random(seed)
    networks = [network for one in lists for network in one.networks]
    found = []
    for i in range(count):
        if i % 3 == 0:
            network = rng.choice(networks)
            found.append(str(network[rng.randrange(network.num_addresses)]))
        elif i % 10 == 1:
            found.append(str(ipaddress.IPv6Address(rng.getrandbits(128))))
        else:
            found.append(str(ipaddress.IPv4Address(rng.getrandbits(32))))
    return found


def plain(lists: Sequence[IpList]) -> Callable[[str], tuple[str, ...]]:
    """The plain way: parse with ipaddress, test every network of every list."""

    def covering(text: str) -> tuple[str, ...]:
        address = ipaddress.ip_address(text)
        return tuple(one.name for one in lists if any(address in network for network in one.networks))

    return covering


def rate(run: Callable[[], object], count: int) -> float:
    """Lookups per second: the best of three runs of `run`, which does `count` lookups."""
    best = float("inf")
    for _ in range(3):
        gc.collect()
        gc.disable()
        try:
            started = time.perf_counter()
            run()
            best = min(best, time.perf_counter() - started)
        finally:
            gc.enable()
    return count / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--addresses", type=int, default=200_000)
    options = parser.parse_args()
    lists = [snapshot(name) for name in shipped()]
    started = time.perf_counter()
    index = AddressIndex(lists)
    built = time.perf_counter() - started
    texts = addresses(lists, options.addresses)
    parsed = [parse_address(text) for text in texts]
    assert all(p is not None for p in parsed)
    numbers = [p for p in parsed if p is not None]
    loop = plain(lists)
    few = texts[: max(1, len(texts) // 10)]
    for text in few:  # the two ways agree before either is timed
        found = index.covering(text)
        assert found is not None and tuple(c.name for c in found) == loop(text), text
    covering, find = index.covering, index.find
    v4 = [t for t in texts if ":" not in t]
    v6 = [t for t in texts if ":" in t]
    rows = [
        ("index (text)", rate(lambda: [covering(t) for t in texts], len(texts))),
        ("index (text, IPv4 only)", rate(lambda: [covering(t) for t in v4], len(v4))),
        ("index (text, IPv6 only)", rate(lambda: [covering(t) for t in v6], len(v6))),
        ("index (integer)", rate(lambda: [find(v, n) for v, n in numbers], len(numbers))),
        ("ipaddress loop", rate(lambda: [loop(t) for t in few], len(few))),
    ]
    networks = sum(len(one.networks) for one in lists)
    print(f"{len(lists)} lists, {networks:,} prefixes; index: {index.ranges(4):,} IPv4 and {index.ranges(6):,} IPv6")
    print(f"ranges after merging, built in {built * 1000:.1f} ms; {len(texts):,} addresses\n")
    print("| way | lookups/s | × loop | target 500,000/s |")
    print("|---|---:|---:|---|")
    for name, per_second in rows:
        met = "met" if per_second >= TARGET else "not met"
        print(f"| {name} | {per_second:,.0f} | ×{per_second / rows[-1][1]:,.0f} | {met} |")


if __name__ == "__main__":
    main()
