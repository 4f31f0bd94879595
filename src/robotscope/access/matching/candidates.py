"""Candidate selection: which of many rules can match a target, from the literals the target has.

Rules are numbered in the order answers are wanted (best first, for RFC
9309). Each rule needs a few literals of the target (`literals.keys_of`);
its `SLOTS` rarest are its slots, and slot j of every rule is filed under
its literal. Given the literals a target has, the rules whose every slot is
among them are one bitwise expression over Python integers used as bit sets
(bit i = rule i):

    candidates = AND over j of (rules with no slot j | OR over literals the target has of rules filed there)

so the cost is one `|` per literal the target has and slot, each a pass
over the rule set's bits in C, whatever the patterns look like: a shape
that makes every literal common (many rules led by `*` sharing their words)
costs what a shape of distinct literals costs. The lowest set bit is the
best candidate; rules with more than `SLOTS` literals are candidates when
their rarest are present, and the exact match (`first`, or the engine's own
test) confirms each. A rule set's part of fewer than `INDEX_FROM` rules does
not build this at all (see `parts`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain

from ...syntax.model import Rule
from ...syntax.patterns import Pattern, matches
from . import tuning
from .literals import Literals, keys_of

_ONE = 49  # "1", in the bit string a mask is read from


def bits(positions: list[int], size: int) -> int:
    """The set of `positions` as an integer, in one pass over a string of `size` digits (not one shift each)."""
    if len(positions) < 2:
        return 1 << positions[0] if positions else 0
    row = bytearray(b"0") * size
    for position in positions:
        row[position] = _ONE
    return int(row[::-1], 2)  # base 2 is read in linear time


def _union(groups: Iterable[list[int]], size: int) -> int:
    return bits([position for group in groups for position in group], size)


def ones(mask: int) -> Iterator[int]:
    """The positions of the set bits of `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Candidates:
    """Rules (as patterns, in answer order) indexed so that a target meets only those whose literals it has."""

    __slots__ = (
        "_cache",
        "_cache_limit",
        "_filed",
        "_heads",
        "_lacking",
        "_literals",
        "_needing",
        "_one_character",
        "_startless",
        "_starts",
        "patterns",
    )

    def __init__(self, patterns: Sequence[Pattern]) -> None:
        self.patterns = patterns
        size = len(patterns)
        # The start first: one lookup per length of start rules out most of a file of paths.
        starts: defaultdict[str, list[int]] = defaultdict(list)
        for position, (pieces, _) in enumerate(patterns):
            if pieces[0]:
                starts[pieces[0]].append(position)
        self._starts = dict(starts)
        # The lengths of the starts, by their first two characters: a target meets only its own.
        heads: defaultdict[str, set[int]] = defaultdict(set)
        for start in starts:
            heads[start[:2]].add(len(start))
        self._heads = {head: sorted(lengths) for head, lengths in heads.items() if len(head) == 2}
        self._one_character = [head for head in heads if len(head) == 1]
        everything = (1 << size) - 1
        self._startless = everything ^ _union(starts.values(), size)
        keys = list(map(keys_of, patterns))
        counts = Counter(chain.from_iterable(keys))
        self._literals = Literals(counts)
        # Slot 0 holds each rule's rarest literal; later slots, only rules whose rarest literal is
        # common (the others are few wherever it is met, and the exact match sorts them).
        rarest = counts.__getitem__
        first: defaultdict[str, list[int]] = defaultdict(list)
        common = []
        for position, needs in enumerate(keys):
            if len(needs) == 1:
                first[needs[0]].append(position)
                continue
            if len(needs) == 2:  # most globs (`/*x*.pdf$`): compared inline, a sort per rule costs more
                a, b = needs
                if rarest(b) < rarest(a):
                    needs.reverse()
            elif needs:
                needs.sort(key=rarest)
            else:
                continue
            first[needs[0]].append(position)
            if rarest(needs[0]) > tuning.RARE:
                common.append(position)
        self._filed = [dict(first)] if first else []
        for slot in range(1, tuning.SLOTS if common else 1):
            filed: defaultdict[str, list[int]] = defaultdict(list)
            for position in common:
                if slot < len(keys[position]):
                    filed[keys[position][slot]].append(position)
            self._filed.append(dict(filed))
        self._lacking = [everything ^ _union(filed.values(), size) for filed in self._filed]
        self._needing = everything ^ self._lacking[0] if self._filed else 0  # rules that need more than a start
        # A mask is built the first time a target has its literal, and kept while they fit the budget.
        self._cache: dict[tuple[int, str], int] = {}
        self._cache_limit = max(1, tuning.MASK_BITS // max(size, 1))

    def _mask(self, slot: int, key: str, positions: list[int]) -> int:
        cache = self._cache
        found = cache.get((slot, key))
        if found is None:
            found = bits(positions, len(self.patterns))
            if len(positions) > 1:  # one bit costs less to make than to look up
                if len(cache) >= self._cache_limit:
                    cache.clear()
                cache[(slot, key)] = found
        return found

    def mask(self, target: str) -> int:
        """The rules that may match `target` (a superset of those that do), as a bit set."""
        found = self._startless
        starts = self._starts
        for head in self._one_character:
            if target.startswith(head):
                found |= self._mask(-1, head, starts[head])
        size = len(target)
        for length in self._heads.get(target[:2], ()):
            if length > size:
                break
            positions = starts.get(target[:length])
            if positions is not None:
                found |= self._mask(-1, target[:length], positions)
        if not found & self._needing:
            return found  # none of the rules it may meet needs more than its start
        present = self._literals.present(target)
        for slot, filed in enumerate(self._filed):
            mask = self._lacking[slot]
            for key in present:
                positions = filed.get(key)
                if positions is not None:
                    mask |= self._mask(slot, key, positions)
            found &= mask
            if not found:
                return 0
        return found

    def first(self, target: str) -> int | None:
        """The position of the first rule that matches `target` (None: none does)."""
        patterns = self.patterns
        for position in ones(self.mask(target)):
            if matches(patterns[position], target):
                return position
        return None

    def every(self, target: str) -> list[int]:
        """The positions of every rule that matches `target`, in order."""
        patterns = self.patterns
        return [position for position in ones(self.mask(target)) if matches(patterns[position], target)]


class CandidateRules:
    """Which of many rules can match a target, for an engine that tests them one by one with its own matcher.

    `pieces` is the engine's reading of a pattern (its literal pieces and end
    anchor), indexed by `Candidates`; `always` marks rules to test every time
    (a second pattern the engine also tries). `of(target)` gives the rules
    that may match, in their given order.
    """

    __slots__ = ("_always", "_index", "_pieces", "_rules")

    def __init__(self, rules: Sequence[Rule], pieces: Callable[[str], Pattern], always: Callable[[Rule], bool]) -> None:
        self._rules = tuple(rules)
        self._pieces, self._always = pieces, always
        # Made on the first target: a crawler's selection is often made only to compare groups (`readings`).
        self._index: Candidates | None = None

    def of(self, target: str) -> list[Rule]:
        """The rules that may match `target` (a superset of those that do), in their given order."""
        index = self._index
        if index is None:
            # A rule to test every time is given no literal: every target meets it.
            pieces, always = self._pieces, self._always
            index = self._index = Candidates(
                [_EVERY if always(rule) else pieces(rule.normalised) for rule in self._rules]
            )
        rules = self._rules
        return [rules[position] for position in ones(index.mask(target))]


_EVERY = Pattern(("",), False)  # needs no literal: a candidate for every target
