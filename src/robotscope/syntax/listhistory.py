"""Every version of the operators' IP lists, and the ones in force at a moment. Pure.

An audit of last month's logs must judge each request by the lists its
operator published then, not today's: a range may have been added since
(a request that was the crawler would look spoofed) or dropped (a spoofer
would look verified). A version is in force from its `creationTime` until
the next version of the same list. Asked about a moment before a list's
first known version, the list is not at hand for that moment, so claims it
alone could settle stay inconclusive rather than spoofed. A version
without a readable `creationTime` cannot be placed in time: it is used
only for "now" (no moment given), and only for a list with no dated version.

A history of daily updates holds thousands of versions, and a claim needs
one of each list. So a version may be given unread (`Known`: its list's
name, its moment and a key) with a `load` that reads it by that key (from
the history store, say): it is read only when a moment first selects it,
and the versions read are kept, the least recently used dropped past
`VERSIONS_KEPT`. One moment then reads at most one version of each list,
and the moments of a month's log only the versions in force that month,
however long the history. Not locked: a `Verifier` shares one between
threads behind its own lock.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from typing import NamedTuple

from .ipindex import AddressIndex
from .iplists import IpList, creation_timestamp

_INDEXES_KEPT = 32  # distinct selections of versions indexed at once (a month of daily lists is about 30)
VERSIONS_KEPT = 64  # versions read and kept at once: every list's (about 15) for a few selections


class Known(NamedTuple):
    """A version not read yet: its list's `name`, the POSIX time of its `creationTime` (None: not
    readable), and the `key` its loader reads it by."""

    name: str
    moment: float | None
    key: Hashable


class ListHistory:
    """The versions of each list by name, oldest first; `at(when)` picks those in force.

    `lists`: versions read (`IpList`) or to be read by `load` when first
    needed (`Known`); of two versions of one list and moment, the later
    given is kept.
    """

    def __init__(self, lists: Iterable[IpList | Known], load: Callable[[Known], IpList] | None = None) -> None:
        self._given: list[IpList | Known] = []  # every version kept, by its number
        dated: dict[str, dict[float, int]] = {}
        self._undated: dict[str, int] = {}
        for version in lists:
            if isinstance(version, Known):
                if load is None:
                    raise ValueError(f"a version of {version.name} to be read later, and no loader to read it")
                moment = version.moment
            else:
                moment = None if version.creation_time is None else creation_timestamp(version.creation_time)
            self._given.append(version)
            number = len(self._given) - 1
            if moment is None:
                self._undated[version.name] = number
            else:
                dated.setdefault(version.name, {})[moment] = number  # the same moment twice: the later one given
        self._load = load
        self._moments = {name: sorted(found) for name, found in dated.items()}
        self._dated = {name: [found[m] for m in self._moments[name]] for name, found in dated.items()}
        self._names = tuple(sorted(self._dated.keys() | self._undated.keys()))
        self._read: OrderedDict[int, IpList] = OrderedDict()
        self._indexes: dict[tuple[int, ...], AddressIndex] = {}

    def __reduce__(self) -> tuple[type[ListHistory], tuple[object, ...]]:
        # Made again by the constructor, the versions read so far as read: the compiled build cannot restore a
        # class whose constructor takes arguments, and every `--jobs` worker is sent the lists.
        given = [self._read.get(number, version) for number, version in enumerate(self._given)]
        return ListHistory, (given, self._load)

    def names(self) -> tuple[str, ...]:
        """Every list name with at least one version, sorted."""
        return self._names

    def moments(self) -> tuple[float, ...]:
        """Every moment at which some list's version changes, sorted; nothing read."""
        return tuple(sorted({moment for found in self._moments.values() for moment in found}))

    def versions(self, name: str) -> tuple[IpList, ...]:
        """The dated versions of one list, oldest first (every one of them read)."""
        return tuple(self._version(number) for number in self._dated.get(name, ()))

    def at(self, when: float | None = None) -> tuple[IpList, ...]:
        """The version of each list in force at POSIX time `when` (None: the newest of each), by name."""
        return tuple(self._version(number) for number in self._chosen(when))

    def available(self, when: float | None = None) -> frozenset[str]:
        """The names of the lists at hand at `when`: in force then and read with at least one network."""
        return frozenset(found.name for found in self.at(when) if found.networks)

    def index(self, when: float | None = None) -> AddressIndex:
        """An index of the lists in force at `when`, built once per distinct selection of versions."""
        chosen = self._chosen(when)
        index = self._indexes.get(chosen)
        if index is None:
            if len(self._indexes) >= _INDEXES_KEPT:
                del self._indexes[next(iter(self._indexes))]  # the oldest built
            index = self._indexes[chosen] = AddressIndex([self._version(number) for number in chosen])
        return index

    def _chosen(self, when: float | None) -> tuple[int, ...]:
        """The number of each list's version in force at `when`, by name; nothing read."""
        chosen = []
        for name in self._names:
            numbers = self._dated.get(name, [])
            if when is None:
                number = numbers[-1] if numbers else self._undated.get(name)
            else:
                at = bisect_right(self._moments.get(name, []), when) - 1
                number = numbers[at] if at >= 0 else None
            if number is not None:
                chosen.append(number)
        return tuple(chosen)

    def _version(self, number: int) -> IpList:
        """Version `number`, read by the loader the first time it is needed since it was last dropped."""
        given = self._given[number]
        if not isinstance(given, Known):
            return given
        found = self._read.get(number)
        if found is None:
            assert self._load is not None  # checked when given
            found = self._read[number] = self._load(given)
            if len(self._read) > VERSIONS_KEPT:
                self._read.popitem(last=False)
        else:
            self._read.move_to_end(number)
        return found


__all__ = ["VERSIONS_KEPT", "Known", "ListHistory"]
