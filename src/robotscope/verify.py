"""Is a request really from the crawler its User-Agent names? The library of `robotscope verify`.

`verify(address, agent)` judges one claim by the IP lists shipped in the
package, then, where they leave it open, forward-confirmed reverse DNS
through the system's resolver (`dns=False`: none). A `Verifier` judges many,
as a log audit needs: each by the lists in force at its own moment, repeats
answered from its caches (docs/verification.md).

>>> from robotscope.verify import Status, verify
>>> found = verify("66.249.66.1", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")
>>> found.status is Status.VERIFIED, found.token, found.method
(True, 'Googlebot', 'ip-list')
>>> verify("20.171.206.1", "Googlebot", dns=False).status.value
'spoofed'
"""

from __future__ import annotations

from datetime import datetime
from functools import cache

from .reports.verification import Status, Verification
from .syntax.listhistory import ListHistory
from .verifying.resolvers import resolver
from .verifying.verifier import Verifier


@cache
def _verifier(dns: bool) -> Verifier:
    return Verifier(resolver=resolver() if dns else None)


def verify(address: str, agent: str, *, when: float | datetime | None = None, dns: bool = True) -> Verification:
    """The verdict on `agent` sending from `address` at `when` (POSIX time or datetime; None: now).

    By the shipped lists (those in force at `when`: before a snapshot's
    `creationTime` its list is not at hand), and reverse DNS through the
    system's resolver unless `dns` is False. Verdicts are kept, as a
    `Verifier` keeps them. Raises ValueError when `address` is not an IP address.
    """
    return _verifier(dns).verify(address, agent, when)


__all__ = ["ListHistory", "Status", "Verification", "Verifier", "verify"]
