"""Many claims judged as a log audit meets them: each by the lists in force at its own moment, repeats from caches.

A `Verifier` is `reports.listclaims.ListVerifier` (the caches: the crawler
each User-Agent names, each verdict by address, crawler and selection of
list versions) with reverse DNS asked where the lists leave a claim open,
and locks: a repeat costs a few dictionary lookups and never a second DNS
question, even when threads ask it at once (one asks, the others wait for
its verdict).

A verdict that reverse DNS left inconclusive (a timeout) is remembered too,
for as long as the verifier keeps it: an audit does not wait on one silent
server once per request. A new `Verifier` asks again. The same claim under
another selection of lists is judged again: its DNS answers then come from
the resolver's own cache (`resolvers.resolver` keeps them for their TTL),
but a timeout is asked once more.
"""

from __future__ import annotations

import threading
from datetime import datetime

from ..reports.listclaims import AGENTS, LONGEST_KEPT, SELECTIONS, VERDICTS, ClaimKey, ListVerifier, moment
from ..reports.verification import Verification
from ..syntax.listhistory import ListHistory
from .claims import verify_claim
from .fcrdns import DEADLINE, TIMEOUT
from .resolvers import Resolver


class Verifier(ListVerifier):
    """Verdicts on (address, User-Agent) claims by `history`'s lists (default: the shipped snapshots).

    `resolver` None: no DNS (reverse-DNS-only crawlers stay inconclusive);
    each lookup within `timeout` seconds, a claim's within `deadline`. At
    most `verdicts` verdicts and `agents` User-Agent strings are kept
    (default `VERDICTS`, `AGENTS`). Safe to share between threads.
    """

    def __init__(
        self,
        history: ListHistory | None = None,
        resolver: Resolver | None = None,
        *,
        timeout: float = TIMEOUT,
        deadline: float = DEADLINE,
        verdicts: int | None = None,
        agents: int | None = None,
    ) -> None:
        super().__init__(history, verdicts=verdicts, agents=agents)
        self.resolver, self.timeout, self.deadline = resolver, timeout, deadline
        self._asking: dict[ClaimKey, threading.Event] = {}
        self._lock = threading.Lock()

    def verify(self, address: str, agent: str, when: float | datetime | None = None) -> Verification:
        """The verdict on `agent` sending from `address` at `when` (POSIX time or datetime; None: now).

        Raises ValueError when `address` is not an IP address.
        """
        at = moment(when)
        while True:
            with self._lock:
                key = self._key(address, agent, at)
                found = self._cached(key, agent)
                if found is not None:
                    return found
                asking = self._asking.get(key)
                if asking is None:
                    asking = self._asking[key] = threading.Event()
                    index, available = self._selection(key[3], at)
                    break
            asking.wait()  # another thread asks the same: its verdict will be kept, or it failed and this one asks
        try:
            found = verify_claim(
                address, agent, index, available, self.resolver, timeout=self.timeout, deadline=self.deadline
            )
            with self._lock:
                self._keep(key, agent, found)
        finally:
            with self._lock:
                del self._asking[key]
            asking.set()
        return found

    def known(self, address: str, agent: str, when: float | datetime | None = None) -> Verification | None:
        with self._lock:
            return super().known(address, agent, when)

    def cached(self) -> tuple[int, int]:
        with self._lock:
            return super().cached()


__all__ = ["AGENTS", "LONGEST_KEPT", "SELECTIONS", "VERDICTS", "Verifier"]
