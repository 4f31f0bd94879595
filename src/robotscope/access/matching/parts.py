"""A rule set's rules in parts by the first two characters of their start, each part read on first use.

A rule whose literal start has two characters or more can match only a
target that begins with them, so a target meets two parts: the rules of its
own first two characters and the rules that can match anywhere (led by `*`
or `/*`, or `/` alone). A part is made the first time a target meets it, so
a crawler asking a few URLs of a large file pays for the parts those URLs
meet, not for the whole file. A part of fewer than `INDEX_FROM` rules is
tried in turn; a larger one is indexed by the literals its rules need (`Candidates`), so its
cost does not depend on what its patterns look like.

While the rules that can match anywhere are few, each head's part holds them
too, so a target is tried against one part.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from ...syntax.model import Rule
from ...syntax.patterns import compile_pattern, matches
from . import tuning
from .candidates import Candidates
from .entries import EXACT, PREFIX, STAR, STAR_END, make_entry, matches_from_start
from .precedence import priority


def head_of(normalised: str) -> str:
    """The first two characters every target a pattern matches starts with ("": not fixed)."""
    head = normalised[:2]
    if "*" in head:
        return ""  # the literal start is at most one character
    if "$" in head:  # the end anchor, or a literal (`/$x` starts `/%24`)
        head = compile_pattern(normalised).pieces[0][:2]
    return head if len(head) == 2 else ""


class Part:
    """Some of a rule set's rules, best first, tried in turn or through their index."""

    __slots__ = ("_entries", "_index", "_keyed", "_loose", "_rules")

    def __init__(self, rules: Sequence[Rule]) -> None:
        few = len(rules) < tuning.INDEX_FROM
        self._rules = () if few else rules  # an index answers by position; entries carry their rule
        self._entries = [make_entry(rule) for rule in rules] if few else []
        # The starts of two characters or more: one `startswith` rules all their rules out at once,
        # leaving the loose ones (led by `*`, `/*`, `/`) to try.
        self._keyed = tuple(entry[0] for entry in self._entries if len(entry[0]) > 1)
        self._loose = [entry for entry in self._entries if len(entry[0]) < 2]
        self._index = None if few else Candidates([compile_pattern(rule.normalised) for rule in rules])

    def first(self, target: str) -> Rule | None:
        """The best rule of the part that matches `target` (None: none does)."""
        index = self._index
        if index is not None:
            found = index.first(target)
            return None if found is None else self._rules[found]
        # Best first: the first that matches. Each shape's test inlined, cheapest first.
        for first, shape, last, pattern, rule in self._entries if target.startswith(self._keyed) else self._loose:
            if not target.startswith(first):
                continue
            if shape == PREFIX:
                return rule
            if shape == STAR:
                if target.find(last, len(first)) >= 0:
                    return rule
            elif shape == STAR_END:
                if target.endswith(last) and len(target) - len(last) >= len(first):
                    return rule
            elif shape == EXACT:
                if target == first:
                    return rule
            elif last in target and matches(pattern, target):  # type: ignore[arg-type]
                return rule
        return None

    def every(self, target: str) -> list[Rule]:
        """Every rule of the part that matches `target`, best first."""
        if self._index is not None:
            rules = self._rules
            return [rules[found] for found in self._index.every(target)]
        # Inline first: the literal start, then the last piece (every shape's match has it in the
        # target), each ruling out most entries in C; a plain prefix needs no more.
        return [
            entry[4]
            for entry in (self._entries if target.startswith(self._keyed) else self._loose)
            if target.startswith(entry[0])
            and entry[2] in target
            and (entry[1] == PREFIX or matches_from_start(entry, target))
        ]


class Parts:
    """A rule set's parts by head, each made on first use.

    While the rules that can match anywhere are too few to index, each head's
    part holds them too (merged in order), so a target is tried against one
    part; many of them are a part of their own, indexed, asked besides the
    head's.
    """

    __slots__ = ("_apart", "_heads", "_made", "_rules", "single")

    def __init__(self, rules: Sequence[Rule]) -> None:
        self._rules = rules
        self._made: dict[str, Part] = {}
        heads: defaultdict[str, list[int]] = defaultdict(list)
        self.single = Part(rules) if len(rules) <= tuning.SMALL else None  # a few rules: one part, whatever the head
        if self.single is not None:
            self._made[""] = self.single
        else:
            for position, rule in enumerate(rules):
                heads[head_of(rule.normalised)].append(position)
        anywhere = heads.pop("", [])
        self._heads = dict(heads)
        self._heads[""] = anywhere
        self._apart = len(anywhere) >= tuning.INDEX_FROM

    def part(self, head: str) -> Part:
        """The part a target starting with `head` meets ("": a head no rule starts with)."""
        found = self._made.get(head)
        if found is None:
            own = self._heads.get(head, [])
            if head and not self._apart:  # the few rules that can match anywhere, merged in
                own = sorted(own + self._heads[""])
            found = self._made[head] = Part([self._rules[position] for position in own])
        return found

    def first(self, target: str) -> Rule | None:
        """The best rule that matches `target` (None: none does)."""
        head = target[:2]
        if head not in self._heads:
            head = ""
        found = (self._made.get(head) or self.part(head)).first(target)
        if not self._apart or not head:
            return found
        anywhere = (self._made.get("") or self.part("")).first(target)
        if found is None or (anywhere is not None and priority(anywhere) < priority(found)):
            return anywhere
        return found

    def every(self, target: str) -> list[Rule]:
        """Every rule that matches `target`, best first."""
        head = target[:2]
        if head not in self._heads:
            head = ""
        found = self.part(head).every(target)
        if self._apart and head:
            found = sorted(found + self.part("").every(target), key=priority)
        return found
