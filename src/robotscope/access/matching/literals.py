"""What literals a target must hold for a key-less rule to match it, and the filters built on that.

A rule led by `*` (or `/*`) can match anywhere, so no two-character key
finds it; but it can match only a target that contains each of its later
pieces (and ends with the last, when anchored): `needed`. The rule set rules
such rules out together: one literal with `in` (`Contains`, `EndsWith`),
a few dozen with one regex compiled once the set has been asked often
(`AnyOf`), hundreds through an index of each rule's rarest literal
(`LiteralIndex`). `CandidateRules` lends that index to the engines that
match rule by rule with their own matcher.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import chain, groupby
from operator import itemgetter

from ...syntax.model import Rule
from ...syntax.patterns import Pattern
from . import tuning
from .entries import Entry, make_entry
from .tuning import GRAM, REGEX_FILTER_FROM

END = "\x00"  # marks "at the end of the target" in a literal trie


def needed(pattern: Pattern) -> list[str]:
    """Every literal a target must contain for the pattern to match it (ending in END: must end it)."""
    pieces = list(filter(None, pattern.pieces[1:]))
    if pattern.anchored:
        if len(pattern.pieces) == 1:
            return [pattern.pieces[0] + END]  # `/a$`: the whole target
        if pattern.pieces[-1]:
            pieces[-1] += END  # `/*.pdf$`: the last piece ends the target (`/*a*$` ends anyhow)
    return pieces


def required(needed: list[str]) -> str | None:
    """The one literal the regex filter looks for: the end of the target if it is fixed, else the longest.

    None when the rule can match a target without one (e.g. `Disallow: /`).
    """
    if not needed:
        return None
    return needed[-1] if needed[-1].endswith(END) else max(needed, key=len)


def union_pattern(literals: set[str]) -> str:
    """A regex matching any of `literals`, as a trie, so shared prefixes are tried once.

    Built from the sorted literals, one branch per first character and each
    branch's common prefix written at once (not a node per character).
    """

    def escaped(text: str) -> str:
        return re.escape(text[:-1]) + r"\Z" if text.endswith(END) else re.escape(text)

    def emit(group: list[str]) -> str:  # sorted, distinct
        if group[0] == "":
            return ""  # a shorter literal already matches: longer ones add nothing
        branches = []
        for _, members in groupby(group, key=itemgetter(0)):
            branch = list(members)
            first, last = branch[0], branch[-1]
            size = 1  # every member starts with the same character
            while size < len(first) and size < len(last) and first[size] == last[size]:
                size += 1
            rest = emit([member[size:] for member in branch]) if len(branch) > 1 else ""
            branches.append(escaped(first[:size]) + rest)
        return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"

    return emit(sorted(literals))


class Contains:
    """The anywhere filter for one required literal: in the target (a class, not a lambda: it pickles)."""

    __slots__ = ("literal",)

    def __init__(self, literal: str) -> None:
        self.literal = literal

    def __call__(self, target: str) -> bool:
        return self.literal in target


class EndsWith:
    """The anywhere filter for one required literal that must end the target."""

    __slots__ = ("suffix",)

    def __init__(self, suffix: str) -> None:
        self.suffix = suffix

    def __call__(self, target: str) -> bool:
        return target.endswith(self.suffix)


class LiteralIndex:
    """Which of many key-less rules can match a target, found from the literals each needs.

    Each rule is filed under the rarest of the literals it needs (so ten
    thousand `/*wNNNN*.pdf$` rules are told apart by `wNNNN`, not lumped
    under `.pdf`). `entries(target)` gives, best first, the rules whose
    literal the target contains (or ends with): the target's distinct
    three-character pieces meet the literals' heads in one set intersection,
    so the cost grows with the target, not with the number of rules. A
    rule's entry is built the first time a target can meet it.
    """

    __slots__ = ("_built", "_heads", "_rules", "_short", "_tails")

    def __init__(self, rules: list[Rule], needs: list[list[str]]) -> None:
        self._rules = rules  # best first
        self._built: dict[int, Entry] = {}
        self._heads: dict[str, list[tuple[str, int]]] = {}
        self._tails: dict[str, list[tuple[str, int]]] = {}
        self._short: list[tuple[str, bool, int]] = []  # shorter than a piece: tested one by one
        counts = Counter(chain.from_iterable(needs))
        for position, literals in enumerate(needs):
            if len(literals) == 1:
                literal = literals[0]
            elif len(literals) == 2:  # most globs (`/*x*.pdf$`): compared inline, min() per rule costs more
                first, second = literals
                literal = first if counts[first] <= counts[second] else second
            else:
                literal = min(literals, key=counts.__getitem__)
            end = literal[-1] == END  # literals are never empty
            text = literal[:-1] if end else literal
            if len(text) < GRAM:
                self._short.append((text, end, position))
            elif end:
                self._tails.setdefault(text[-GRAM:], []).append((text, position))
            else:
                self._heads.setdefault(text[:GRAM], []).append((text, position))

    def positions(self, target: str) -> list[int]:
        """The positions (in `rules`, ascending) of the rules whose literal `target` contains or ends with."""
        found = [p for text, end, p in self._short if (target.endswith(text) if end else text in target)]
        found += [p for text, p in self._tails.get(target[-GRAM:], ()) if target.endswith(text)]
        pieces = {target[i : i + GRAM] for i in range(len(target) - GRAM + 1)}
        for head in pieces.intersection(self._heads):
            found += [p for text, p in self._heads[head] if text in target]
        found.sort()
        return found

    def entries(self, target: str) -> list[Entry]:
        built = self._built
        return [built.get(p) or built.setdefault(p, make_entry(self._rules[p])) for p in self.positions(target)]


class CandidateRules:
    """Which of many rules can match a target, for an engine that tests them one by one with its own matcher.

    `pieces` is the engine's reading of a pattern (its literal pieces and end
    anchor): a rule can match only a target that contains every piece after
    the first (and ends with the last, when anchored), so the rules are
    indexed by the rarest such literal (`LiteralIndex`) and only those the
    target meets are returned, with the rules that need no literal, in
    their given order. A rule that needs no later literal but starts with
    one (`/private/`, the most common) can match only a target that starts
    with it: such rules are filed by that start, and a target meets those of
    its own prefixes only (one lookup per length of start in the file).
    `always` marks rules to test every time (a second pattern the engine
    also tries).
    """

    __slots__ = ("_always", "_index", "_indexed", "_lengths", "_rules", "_starts")

    def __init__(self, rules: Sequence[Rule], pieces: Callable[[str], Pattern], always: Callable[[Rule], bool]) -> None:
        self._rules = tuple(rules)
        read = [None if always(rule) else pieces(rule.normalised) for rule in self._rules]
        needs = [[] if pattern is None else needed(pattern) for pattern in read]
        self._indexed = [i for i, need in enumerate(needs) if need]
        self._starts: dict[str, list[int]] = {}
        self._always: list[int] = []
        for i, (pattern, need) in enumerate(zip(read, needs, strict=True)):
            if need:
                continue
            if pattern is None or not pattern.pieces[0]:
                self._always.append(i)
            else:
                self._starts.setdefault(pattern.pieces[0], []).append(i)
        self._lengths = sorted({len(start) for start in self._starts})
        self._index = LiteralIndex([self._rules[i] for i in self._indexed], [needs[i] for i in self._indexed])

    def of(self, target: str) -> list[Rule]:
        """The rules that may match `target` (a superset of those that do), in their given order."""
        indexed, starts = self._indexed, self._starts
        found = [*self._always, *(indexed[p] for p in self._index.positions(target))]
        for length in self._lengths:
            if length > len(target):
                break
            found.extend(starts.get(target[:length], ()))
        return [self._rules[i] for i in sorted(found)]


# Targets a rule set is asked about before its regex filter is compiled. Measured: the
# regex costs as much to build as 45-75 scans of the rules it filters save (6 to 200


class AnyOf:
    """The anywhere filter for many literals: one regex search, compiled once the set has been asked often.

    Until then it lets every target through (the rules are scanned, as for a
    few literals), so a rule set asked a few times never pays for the regex.
    """

    __slots__ = ("_asked", "_literals", "_search")

    def __init__(self, literals: set[str]) -> None:
        self._literals = literals
        self._asked = 0
        self._search: Callable[[str], object] | None = None

    def __call__(self, target: str) -> object:
        search = self._search
        if search is not None:
            return search(target)
        self._asked += 1
        if self._asked >= tuning.COMPILE_AFTER:
            self._search = re.compile("(?s)" + union_pattern(self._literals)).search
        return True


def anywhere_filter(literals: set[str | None], small: bool) -> Callable[[str], object] | None:
    """A test that is false for every target no key-less rule can match (None: no such test).

    `literals` holds each rule's `required` literal. One required literal is
    tested with `in` or `endswith`; many with one regex search. For a few, or
    in a small set, scanning the rules themselves costs less than compiling a
    regex would save.
    """
    if not literals or None in literals or (len(literals) > 1 and (small or len(literals) < REGEX_FILTER_FROM)):
        return None
    if len(literals) == 1:
        literal = str(literals.pop())
        return EndsWith(literal[:-1]) if literal.endswith(END) else Contains(literal)
    return AnyOf(literals)  # type: ignore[arg-type]  # None excluded above
