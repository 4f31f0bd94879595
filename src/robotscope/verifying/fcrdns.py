"""Forward-confirmed reverse DNS: the PTR name of an address must lie under the operator's suffixes and resolve back.

Google's documented check: reverse-resolve the IP, the name must end in
one of the operator's domains on a label boundary (`crawl-1.googlebot.com`
is under `googlebot.com`, `evilgooglebot.com` is not), then the name's A or
AAAA records must include the IP. The verdict is data: verified with the
chain, spoofed with the name or addresses that failed, inconclusive with
the lookup that did not answer.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import partial

from ..messages import Message, message
from .resolvers import Answer, IPAddress, Resolver, Status

MAX_NAMES = 8  # PTR names checked for one address
TIMEOUT = 2.0  # seconds for one lookup
DEADLINE = 5.0  # seconds for the whole check


class Outcome(StrEnum):
    VERIFIED = "verified"
    SPOOFED = "spoofed"
    INCONCLUSIVE = "inconclusive"


class Reason(StrEnum):
    """Why the verdict is what it is (each a message `dns.<value>`)."""

    VERIFIED = "verified"
    NO_NAME = "no-name"
    OUTSIDE_SUFFIXES = "outside-suffixes"
    FORWARD_MISMATCH = "forward-mismatch"
    FORWARD_MISSING = "forward-missing"
    TIMEOUT = "timeout"
    SERVER_FAILURE = "server-failure"
    BAD_ANSWER = "bad-answer"
    TRUNCATED = "truncated"
    UNREACHABLE = "unreachable"


@dataclass(frozen=True)
class DnsVerdict:
    """The check of `ip`: the PTR `names`, the `name` followed forward and its `addresses`, and why."""

    outcome: Outcome
    reason: Reason
    ip: str
    names: tuple[str, ...] = ()
    name: str = ""
    addresses: tuple[str, ...] = ()
    query: str = ""  # the lookup that failed, for inconclusive verdicts
    detail: str = ""

    @property
    def message(self) -> Message:
        return message(
            f"dns.{self.reason}",
            ip=self.ip,
            names=list(self.names),
            name=self.name,
            addresses=list(self.addresses),
            query=self.query,
            detail=self.detail,
        )


def _normal(name: str) -> str:
    return name.lower().removesuffix(".")


def under_suffix(name: str, suffix: str) -> bool:
    """Whether `name` is `suffix` or ends in `.suffix` (case-insensitive, a trailing dot ignored on either).

    >>> under_suffix("crawl-1.googlebot.com", "googlebot.com"), under_suffix("evilgooglebot.com", "googlebot.com")
    (True, False)
    """
    name, suffix = _normal(name), _normal(suffix).removeprefix(".")  # `.googlebot.com` as written in guides
    return bool(suffix) and (name == suffix or name.endswith("." + suffix))


def fcrdns(
    ip: IPAddress,
    suffixes: Sequence[str],
    resolver: Resolver,
    *,
    timeout: float = TIMEOUT,
    deadline: float = DEADLINE,
    clock: Callable[[], float] = time.monotonic,
) -> DnsVerdict:
    """Whether `ip` is forward-confirmed under one of `suffixes`: each lookup in `timeout` s, all in `deadline` s."""
    if not suffixes:
        raise ValueError("no reverse-DNS suffixes to check against")
    end = clock() + deadline

    def budget() -> float:
        return min(timeout, end - clock())

    ptr = ip.reverse_pointer
    answer = _ask(budget(), partial(resolver.names, ip))
    if answer.status is not Status.OK:
        return _failed(ip, answer, f"PTR {ptr}")
    names = answer.values[:MAX_NAMES]
    under = [name for name in names if any(under_suffix(name, suffix) for suffix in suffixes)]
    if not under:
        return DnsVerdict(Outcome.SPOOFED, Reason.OUTSIDE_SUFFIXES, str(ip), names, detail=", ".join(suffixes))
    mismatch: DnsVerdict | None = None
    for name in under:
        kind = "A" if ip.version == 4 else "AAAA"
        forward = _ask(budget(), partial(resolver.addresses, name, ip.version))
        if forward.status not in (Status.OK, Status.NO_NAME):
            return _failed(ip, forward, f"{kind} {name}", names)
        addresses = forward.values
        if ip in _addresses(addresses):
            return DnsVerdict(Outcome.VERIFIED, Reason.VERIFIED, str(ip), names, name, addresses)
        reason = Reason.FORWARD_MISMATCH if addresses else Reason.FORWARD_MISSING
        mismatch = mismatch or DnsVerdict(Outcome.SPOOFED, reason, str(ip), names, name, addresses, f"{kind} {name}")
    assert mismatch is not None  # `under` is not empty
    return mismatch


def _ask(budget: float, lookup: Callable[[float], Answer]) -> Answer:
    """The lookup's answer within `budget` seconds, or a timeout without asking when the deadline has passed."""
    return lookup(budget) if budget > 0 else Answer(Status.TIMEOUT, detail="the deadline passed")


def _addresses(values: Sequence[str]) -> set[IPAddress]:
    found: set[IPAddress] = set()
    for value in values:
        try:
            found.add(ipaddress.ip_address(value))
        except ValueError:
            continue  # not an address: it confirms nothing
    return found


def _failed(ip: IPAddress, answer: Answer, query: str, names: tuple[str, ...] = ()) -> DnsVerdict:
    if answer.status is Status.NO_NAME:  # an answer that the address has no name: no operator's crawler
        return DnsVerdict(Outcome.SPOOFED, Reason.NO_NAME, str(ip), query=query, detail=answer.detail)
    reason = Reason(answer.status.value)
    return DnsVerdict(Outcome.INCONCLUSIVE, reason, str(ip), names, query=query, detail=answer.detail)
