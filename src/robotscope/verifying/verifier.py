"""Many claims judged as a log audit meets them: each by the lists in force at its own moment, repeats from caches.

A month of access logs holds millions of requests but few distinct (address,
User-Agent) pairs, so a `Verifier` remembers, within bounds (least recently
used out first):

- the crawler each User-Agent string names (`recognise` reads the string);
- each verdict, by address, the crawler named (the User-Agent itself when it
  names none) and the selection of list versions in force at the moment
  asked (`ListHistory`): a repeat costs a few dictionary lookups and never a
  second DNS question, even when threads ask it at once (one asks, the
  others wait for its verdict).

The selection is found by one bisection over the moments at which any list
changes version: between two such moments the lists in force are the same.
A verdict that reverse DNS left inconclusive (a timeout) is remembered too,
for as long as the verifier keeps it: an audit does not wait on one silent
server once per request. A new `Verifier` asks again. The same claim under
another selection of lists is judged again: its DNS answers then come from
the resolver's own cache (`resolvers.resolver` keeps them for their TTL),
but a timeout is asked once more.
"""

from __future__ import annotations

import threading
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import replace
from datetime import UTC, datetime
from functools import cache
from typing import Generic, TypeVar

from ..reports.verification import Verification
from ..syntax.crawlers import recognise
from ..syntax.ipindex import AddressIndex
from ..syntax.iplists import shipped, snapshot
from ..syntax.listhistory import ListHistory
from .claims import verify_claim
from .fcrdns import DEADLINE, TIMEOUT
from .resolvers import Resolver

VERDICTS = 16_384  # verdicts kept: a few MB
AGENTS = 4_096  # User-Agent strings whose crawler is kept
SELECTIONS = 32  # selections of list versions kept indexed (a month of daily lists is about 30)
LONGEST_KEPT = 512  # characters of a User-Agent kept as a key: a longer one is read again each time

_Key = TypeVar("_Key", bound=Hashable)
_Value = TypeVar("_Value")
_NOW = -1  # the selection of `when=None`: the newest version of each list, dated or not


class _Recent(Generic[_Key, _Value]):
    """At most `size` values by key, the least recently used dropped first. Not locked: its owner locks."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[_Key, _Value] = OrderedDict()

    def get(self, key: _Key) -> _Value | None:
        value = self._values.get(key)
        if value is not None:
            self._values.move_to_end(key)
        return value

    def put(self, key: _Key, value: _Value) -> None:
        self._values[key] = value
        self._values.move_to_end(key)
        while len(self._values) > self.size:
            self._values.popitem(last=False)

    def __len__(self) -> int:
        return len(self._values)


@cache
def shipped_history() -> ListHistory:
    """The snapshots shipped in the package, one version of each list."""
    return ListHistory(snapshot(name) for name in shipped())


def moment(when: float | datetime | None) -> float | None:
    """`when` as a POSIX timestamp; a datetime without a zone is UTC, as the lists' `creationTime` is read."""
    if isinstance(when, datetime):
        return (when if when.tzinfo is not None else when.replace(tzinfo=UTC)).timestamp()
    return when


class Verifier:
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
        self.history = shipped_history() if history is None else history
        self.resolver, self.timeout, self.deadline = resolver, timeout, deadline
        self._changes = self.history.moments()  # known without reading a version
        self._verdicts: _Recent[tuple[str, str, bool, int], Verification] = _Recent(verdicts or VERDICTS)
        self._tokens: _Recent[str, tuple[str | None]] = _Recent(agents or AGENTS)
        self._selections: _Recent[int, tuple[AddressIndex, frozenset[str]]] = _Recent(SELECTIONS)
        self._asking: dict[tuple[str, str, bool, int], threading.Event] = {}
        self._lock = threading.Lock()

    def verify(self, address: str, agent: str, when: float | datetime | None = None) -> Verification:
        """The verdict on `agent` sending from `address` at `when` (POSIX time or datetime; None: now).

        Raises ValueError when `address` is not an IP address.
        """
        at = moment(when)
        while True:
            with self._lock:
                key = self._key(address, agent, at)
                found = self._verdicts.get(key)
                if found is not None:
                    return found if found.agent == agent else replace(found, agent=agent)
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
            if key[2] or len(agent) <= LONGEST_KEPT:
                with self._lock:
                    self._verdicts.put(key, found)
        finally:
            with self._lock:
                del self._asking[key]
            asking.set()
        return found

    def known(self, address: str, agent: str, when: float | datetime | None = None) -> Verification | None:
        """The verdict `verify` would give from its caches alone, or None when it would have to judge the claim."""
        with self._lock:
            found = self._verdicts.get(self._key(address, agent, moment(when)))
        if found is None or found.agent == agent:
            return found
        return replace(found, agent=agent)

    def _key(self, address: str, agent: str, at: float | None) -> tuple[str, str, bool, int]:
        """(address, crawler token or the agent when it names none, whether it named one, selection)."""
        named = self._tokens.get(agent)
        if named is None:
            crawler = recognise(agent)
            named = (None if crawler is None else crawler.token,)
            if len(agent) <= LONGEST_KEPT:
                self._tokens.put(agent, named)
        token = named[0]
        selection = _NOW if at is None else bisect_right(self._changes, at)
        return (address, agent, False, selection) if token is None else (address, token, True, selection)

    def _selection(self, selection: int, at: float | None) -> tuple[AddressIndex, frozenset[str]]:
        """The index of the lists in force at `at` and their names, built once per selection kept."""
        found = self._selections.get(selection)
        if found is None:
            found = (self.history.index(at), self.history.available(at))
            self._selections.put(selection, found)
        return found

    def cached(self) -> tuple[int, int]:
        """How many verdicts and User-Agent strings are kept (each at most its bound)."""
        with self._lock:
            return len(self._verdicts), len(self._tokens)
