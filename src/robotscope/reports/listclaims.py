"""Many claims judged by the operators' IP lists alone, each by the lists in force at its own moment. Pure.

A month of access logs holds millions of requests but few distinct (address,
User-Agent) pairs, so a `ListVerifier` remembers, within bounds (least
recently used out first):

- the crawler each User-Agent string names (`recognise` reads the string);
- each verdict, by address, the crawler named (the User-Agent itself when it
  names none) and the selection of list versions in force at the moment
  asked (`ListHistory`): a repeat costs a few dictionary look-ups.

The selection is found by one bisection over the moments at which any list
changes version: between two such moments the lists in force are the same.

Without DNS a crawler its operator checks by reverse DNS alone stays
inconclusive. This is the verifier of an audit that has no network (the web
page's, under Pyodide); `verifying.Verifier` keeps the same caches, asks
reverse DNS where the lists leave a claim open, and may be shared between
threads. Not locked: one caller at a time.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import replace
from datetime import UTC, datetime
from functools import cache
from typing import Generic, TypeVar

from ..syntax.crawlers import recognise
from ..syntax.ipindex import AddressIndex
from ..syntax.iplists import shipped, snapshot
from ..syntax.listhistory import ListHistory
from .verification import Verification, judge

VERDICTS = 16_384  # verdicts kept: a few MB
AGENTS = 4_096  # User-Agent strings whose crawler is kept
SELECTIONS = 32  # selections of list versions kept indexed (a month of daily lists is about 30)
LONGEST_KEPT = 512  # characters of a User-Agent kept as a key: a longer one is read again each time

_Key = TypeVar("_Key", bound=Hashable)
_Value = TypeVar("_Value")
_NOW = -1  # the selection of `when=None`: the newest version of each list, dated or not

# A verdict's key: (address, crawler token or the agent when it names none, whether it named one, selection).
ClaimKey = tuple[str, str, bool, int]


class Recent(Generic[_Key, _Value]):
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


class ListVerifier:
    """Verdicts on (address, User-Agent) claims by `history`'s lists (default: the shipped snapshots), no DNS.

    At most `verdicts` verdicts and `agents` User-Agent strings are kept
    (default `VERDICTS`, `AGENTS`).
    """

    def __init__(self, history: ListHistory | None = None, *, verdicts: int | None = None, agents: int | None = None):
        self.history = shipped_history() if history is None else history
        self._changes = self.history.moments()  # known without reading a version
        self._verdicts: Recent[ClaimKey, Verification] = Recent(verdicts or VERDICTS)
        self._tokens: Recent[str, tuple[str | None]] = Recent(agents or AGENTS)
        self._selections: Recent[int, tuple[AddressIndex, frozenset[str]]] = Recent(SELECTIONS)

    def verify(self, address: str, agent: str, when: float | datetime | None = None) -> Verification:
        """The verdict on `agent` sending from `address` at `when` (POSIX time or datetime; None: now).

        Raises ValueError when `address` is not an IP address.
        """
        at = moment(when)
        key = self._key(address, agent, at)
        found = self._cached(key, agent)
        if found is None:
            index, available = self._selection(key[3], at)
            found = judge(address, agent, index, available)
            self._keep(key, agent, found)
        return found

    def span(self, when: float) -> tuple[float, float]:
        """The moments from which and before which the lists in force are those in force at `when` (POSIX
        seconds; -inf and inf where no list changes before or after it): a claim judged at `when` is judged
        the same at any of them, as a log audit takes it (`reports.audit.judge.Judge`'s `spans`)."""
        at = bisect_right(self._changes, when)
        changes = self._changes
        return (changes[at - 1] if at else -math.inf, changes[at] if at < len(changes) else math.inf)

    def known(self, address: str, agent: str, when: float | datetime | None = None) -> Verification | None:
        """The verdict `verify` would give from its caches alone, or None when it would have to judge the claim."""
        return self._cached(self._key(address, agent, moment(when)), agent)

    def cached(self) -> tuple[int, int]:
        """How many verdicts and User-Agent strings are kept (each at most its bound)."""
        return len(self._verdicts), len(self._tokens)

    def _cached(self, key: ClaimKey, agent: str) -> Verification | None:
        """The verdict kept under `key`, as given to `agent` (a crawler's verdict serves each of its strings)."""
        found = self._verdicts.get(key)
        if found is None or found.agent == agent:
            return found
        return replace(found, agent=agent)

    def _keep(self, key: ClaimKey, agent: str, found: Verification) -> None:
        if key[2] or len(agent) <= LONGEST_KEPT:
            self._verdicts.put(key, found)

    def _key(self, address: str, agent: str, at: float | None) -> ClaimKey:
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


__all__ = ["AGENTS", "LONGEST_KEPT", "SELECTIONS", "VERDICTS", "ListVerifier", "Recent", "moment", "shipped_history"]
