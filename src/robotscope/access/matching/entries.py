"""A rule ready for matching (an entry), and the buckets a rule set files its entries in.

An entry is a rule read once for matching: the literal every target it
matches starts with, its shape (plain prefix, exact, one `*`, `*` and `$`, or
a longer glob), the last piece every match has in the target, its compiled
pattern. `matches_from_start` tests one entry the way `RuleSet.winner`
inlines it. A bucket holds the entries a target starting with one
two-character key can meet, with large buckets' plain prefixes indexed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter

from ...syntax.model import Rule
from ...syntax.patterns import Pattern, compile_pattern, matches
from .precedence import NORMALISED, priority
from .tuning import INDEX_FROM

# Rule shapes, cheapest test first; the two-piece globs (`/*.pdf$`, `/*?`)
# are common enough to test inline rather than through `matches`.
PREFIX, EXACT, STAR, STAR_END, GLOB = range(5)


# A rule ready for matching, read by unpacking, as `start, shape, last, pattern,
# rule` (or by the getters below): the literal every target it matches starts
# with; its shape; its last piece (a glob: its longest later piece), which every
# match has in the target; its compiled pattern (None when plain); the rule. A plain
# tuple: a NamedTuple costs four times as much to build, once per rule of every set.
Entry = tuple[str, int, str, "Pattern | None", Rule]
ENTRY_START: Callable[[Entry], str] = itemgetter(0)
ENTRY_RULE: Callable[[Entry], Rule] = itemgetter(4)


def make_entry(rule: Rule) -> Entry:
    normalised = rule.normalised
    if "*" not in normalised and "$" not in normalised:
        return (normalised, PREFIX, "", None, rule)
    pattern = compile_pattern(normalised)
    pieces = pattern.pieces
    if len(pieces) == 1:
        shape = EXACT if pattern.anchored else PREFIX
    elif len(pieces) == 2:
        shape = STAR_END if pattern.anchored else STAR
    else:
        # A glob keeps its longest later piece: one `in` rules out most targets
        # before the full match (`/*?*sort_by=` needs `sort_by=`).
        return (pieces[0], GLOB, max(pieces[1:], key=len), pattern, rule)
    return (pieces[0], shape, pieces[-1], pattern, rule)  # the shape and pieces say it all


def bucket_keys(rules: Sequence[Rule]) -> list[str]:
    """For each rule, the first two characters every target it matches starts with ("" if not fixed)."""
    keys = []
    for normalised in map(NORMALISED, rules):
        head = normalised[:2]
        if "*" in head:
            head = ""  # the literal start is at most one character
        elif "$" in head:  # the end anchor, or a literal (`/$x` starts `/%24`)
            head = compile_pattern(normalised).pieces[0][:2]
        keys.append(head if len(head) == 2 else "")
    return keys


class Bucket:
    """The rules a target starting with one two-character key can meet (a small set's one bucket: every target)."""

    __slots__ = ("lengths", "merged", "others", "prefixes", "starts")

    def __init__(
        self, starts: tuple[str, ...], prefixes: dict[str, list[Rule]], others: list[Entry], merged: list[Entry] | None
    ) -> None:
        self.starts = starts  # every keyed rule's literal start: one `startswith` rules them all out
        self.prefixes = prefixes  # a large bucket's plain prefixes, each with its rules best first
        self.lengths = tuple(sorted({len(p) for p in prefixes}, reverse=True)) if prefixes else ()  # longest first
        self.others = others  # the keyed rules not indexed, in priority order
        self.merged = merged  # those and the key-less rules, in priority order (None until a target needs them)


def by_priority(entry: Entry) -> tuple[int, bool, int]:
    return priority(ENTRY_RULE(entry))


def make_bucket(entries: list[Entry], anywhere: list[Entry]) -> Bucket:
    starts = tuple(map(ENTRY_START, entries))
    prefixes: dict[str, list[Rule]] = {}
    others = entries
    if len(entries) >= INDEX_FROM:
        others = []
        for entry in entries:
            first, shape, _, _, rule = entry
            # A plain prefix competes with its own length, so the longest one that
            # begins the target is its best; `/a*` (length 3, start `/a`) is not plain.
            if shape == PREFIX and len(rule.normalised) == len(first):
                prefixes.setdefault(first, []).append(rule)  # entries come best first
            else:
                others.append(entry)
    return Bucket(starts, prefixes, others, None if anywhere and others else others or anywhere)


NO_RULES = make_bucket([], [])


def entry_matches(entry: Entry, target: str) -> bool:
    """Whether one entry's rule matches `target` (the explain path; `RuleSet.winner` inlines the same tests)."""
    return target.startswith(ENTRY_START(entry)) and matches_from_start(entry, target)


def add_matching(entries: list[Entry], target: str, found: list[Rule]) -> None:
    """Append the rule of each of `entries` that matches `target` to `found` (the explain path's scan)."""
    for entry in entries:
        start, shape, last, _, rule = entry
        # Inline first: the literal start, then the last piece (every shape's match has it in the
        # target), each ruling out most entries in C; a plain prefix needs no more.
        if target.startswith(start) and last in target and (shape == PREFIX or matches_from_start(entry, target)):
            found.append(rule)


def matches_from_start(entry: Entry, target: str) -> bool:
    """`entry_matches` for a target already known to start with the entry's literal start."""
    first, shape, last, pattern, _ = entry
    if shape == PREFIX:
        return True
    if shape == STAR:
        return target.find(last, len(first)) >= 0
    if shape == STAR_END:
        return target.endswith(last) and len(target) - len(last) >= len(first)
    if shape == EXACT:
        return target == first
    return last in target and matches(pattern, target)  # type: ignore[arg-type]
