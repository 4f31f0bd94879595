"""A rule ready for matching (an entry): what a set of a few rules is tried in turn by.

An entry is a rule read once for matching: the literal every target it
matches starts with, its shape (plain prefix, exact, one `*`, `*` and `$`, or
a longer glob), the last piece every match has in the target, its compiled
pattern. `parts.Part` tries entries in turn, with the tests of `matches_from_start` inlined.
"""

from __future__ import annotations

from ...syntax.model import Rule
from ...syntax.patterns import Pattern, compile_pattern, matches

# Rule shapes, cheapest test first; the two-piece globs (`/*.pdf$`, `/*?`)
# are common enough to test inline rather than through `matches`.
PREFIX, EXACT, STAR, STAR_END, GLOB = range(5)


# A rule ready for matching, read by unpacking, as `start, shape, last, pattern,
# rule`: the literal every target it matches starts
# with; its shape; its last piece (a glob: its longest later piece), which every
# match has in the target; its compiled pattern (None when plain); the rule. A plain
# tuple: a NamedTuple costs four times as much to build, once per rule of every set.
Entry = tuple[str, int, str, "Pattern | None", Rule]


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


def matches_from_start(entry: Entry, target: str) -> bool:
    """Whether one entry's rule matches `target`, already known to start with the entry's literal start."""
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
