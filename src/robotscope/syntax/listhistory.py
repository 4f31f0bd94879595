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
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable

from .ipindex import AddressIndex
from .iplists import IpList, creation_timestamp

_INDEXES_KEPT = 32  # distinct selections of versions indexed at once (a month of daily lists is about 30)


class ListHistory:
    """The versions of each list by name, oldest first; `at(when)` picks those in force."""

    def __init__(self, lists: Iterable[IpList]) -> None:
        dated: dict[str, dict[float, IpList]] = {}
        self._undated: dict[str, IpList] = {}
        for ip_list in lists:
            moment = None if ip_list.creation_time is None else creation_timestamp(ip_list.creation_time)
            if moment is None:
                self._undated[ip_list.name] = ip_list
            else:
                dated.setdefault(ip_list.name, {})[moment] = ip_list  # the same moment twice: the later one given
        self._moments = {name: sorted(found) for name, found in dated.items()}
        self._versions = {name: [found[m] for m in self._moments[name]] for name, found in dated.items()}
        self._indexes: dict[tuple[tuple[str, str | None], ...], AddressIndex] = {}

    def names(self) -> tuple[str, ...]:
        """Every list name with at least one version, sorted."""
        return tuple(sorted(self._versions.keys() | self._undated.keys()))

    def versions(self, name: str) -> tuple[IpList, ...]:
        """The dated versions of one list, oldest first."""
        return tuple(self._versions.get(name, ()))

    def at(self, when: float | None = None) -> tuple[IpList, ...]:
        """The version of each list in force at POSIX time `when` (None: the newest of each), by name."""
        chosen = []
        for name in self.names():
            moments = self._moments.get(name, [])
            if when is None:
                undated = self._undated.get(name)
                chosen_list = self._versions[name][-1] if moments else undated
            else:
                at = bisect_right(moments, when) - 1
                chosen_list = self._versions[name][at] if at >= 0 else None
            if chosen_list is not None:
                chosen.append(chosen_list)
        return tuple(chosen)

    def available(self, when: float | None = None) -> frozenset[str]:
        """The names of the lists at hand at `when`: in force then and read with at least one network."""
        return frozenset(found.name for found in self.at(when) if found.networks)

    def index(self, when: float | None = None) -> AddressIndex:
        """An index of the lists in force at `when`, built once per distinct selection of versions."""
        chosen = self.at(when)
        key = tuple((found.name, found.creation_time) for found in chosen)
        index = self._indexes.get(key)
        if index is None:
            if len(self._indexes) >= _INDEXES_KEPT:
                del self._indexes[next(iter(self._indexes))]  # the oldest built
            index = self._indexes[key] = AddressIndex(chosen)
        return index


__all__ = ["ListHistory"]
