"""One claim judged with every method at hand: a signature and the IP lists first, then forward-confirmed reverse DNS.

`reports.verification.judge` decides from what it is given; reverse DNS is
I/O, so it is asked here, and only when the lists and the signature left the
claim open and the operator publishes reverse-DNS names (a list or signature
that decides costs no lookup; a crawler with a complete list never waits for
DNS). The signature's verdict is the caller's (`verifying.signatures`: its key
directory is fetched there).
"""

from __future__ import annotations

from collections.abc import Collection
from ipaddress import IPv6Address, ip_address

from ..access.signatures.model import SignatureVerdict
from ..reports.verification import ReverseDns, Status, Verification, judge
from ..syntax.ipindex import AddressIndex
from ..syntax.verification import method
from .fcrdns import fcrdns
from .resolvers import Resolver


def verify_claim(
    address: str,
    agent: str,
    index: AddressIndex,
    available: Collection[str],
    resolver: Resolver | None,
    *,
    timeout: float = 2.0,
    deadline: float = 5.0,
    signature: SignatureVerdict | None = None,
) -> Verification:
    """The verdict on `agent` from `address` (with the request's `signature` verdict, when it was checked);
    `resolver` None: no DNS. Raises ValueError for a bad address."""
    found = judge(address, agent, index, available, signature=signature)
    if found.status is not Status.INCONCLUSIVE or resolver is None or found.token is None:
        return found
    published = method(found.token)
    if published is None or not published.rdns:
        return found
    ip = ip_address(address)
    if isinstance(ip, IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped  # as the lists read it: a dual-stack server logs an IPv4 client as ::ffff:a.b.c.d
    answer = fcrdns(ip, published.rdns, resolver, timeout=timeout, deadline=deadline)
    reverse = ReverseDns(Status(answer.outcome.value), answer.message)
    return judge(address, agent, index, available, reverse, signature)
