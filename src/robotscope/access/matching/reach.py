"""Which of many URLs a set of rules can reach, by their literal starts, without matching each pair.

`readings` asks every engine about every crawler and URL, but a URL that no
engine's Disallow rule for a crawler matches is allowed by every engine: no
verdict there can split. `UrlIndex` files the URLs once by their literal
start, and `reached(patterns)` gives the URLs some pattern may match, each
found by a bisection, not a scan. The test is a superset for every engine,
whatever its encoding: it compares only the leading characters that no
engine encodes or decodes (letters, digits, `/`, `.`, `_`, `~`, `-`); a
pattern not led by `/` (`*.pdf`, `foo`) or led by `//` may reach every URL,
and so may a URL that is not a path.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from string import ascii_letters, digits

_PLAIN = frozenset(ascii_letters + digits + "/._~-")


def literal_start(text: str) -> tuple[str, bool]:
    """The leading characters no engine reencodes, and whether they are the whole text."""
    for at, char in enumerate(text):
        if char not in _PLAIN:
            return text[:at], False
    return text, True


class UrlIndex:
    """URLs filed by their literal starts, for finding those a pattern may match."""

    __slots__ = ("_always", "_cut", "_starts", "urls")

    def __init__(self, urls: Sequence[str]) -> None:
        self.urls = list(urls)
        self._always: list[int] = []  # not a path (`https://...`): any pattern may reach it
        starts: list[tuple[str, int]] = []
        self._cut: dict[str, list[int]] = {}  # a start cut short by a character that may be reencoded
        for index, url in enumerate(self.urls):
            if url[:1] != "/" or url[1:2] == "/":
                self._always.append(index)
                continue
            start, whole = literal_start(url)
            starts.append((start, index))
            if not whole:
                self._cut.setdefault(start, []).append(index)
        starts.sort()
        self._starts = starts

    def reached(self, patterns: Iterable[str]) -> list[int]:
        """The indices (ascending) of the URLs that some pattern (as written) may match."""
        found = set(self._always)
        for start in {literal_start(pattern)[0] for pattern in patterns}:
            if not start.startswith("/") or start.startswith("//"):
                # Led by `*`, or not a path: anything; `//x` is a network-path reference, whose
                # path urllib reads as empty (the legacy reading: a prefix of everything).
                return list(range(len(self.urls)))
            # Every URL whose start begins with the pattern's ...
            at = bisect_left(self._starts, (start, -1))
            while at < len(self._starts) and self._starts[at][0].startswith(start):
                found.add(self._starts[at][1])
                at += 1
            # ... and every URL cut short inside it (`/a%2Fb` may read as `/a/b`).
            for end in range(1, len(start) + 1):
                found.update(self._cut.get(start[:end], ()))
        return sorted(found)
