"""Rules filed for many crawlers at once: which groups each token selects, and indexes of their rules.

The linter and `diff` ask about every crawler a file names (thousands, in
bad-bot lists) against every rule; the file's `GroupIndex` holds the groups
of all of them, found in one pass, and `RuleIndex` / `Rulebook` file rules
by their literal start so that each question meets only the rules that can
match. A property test keeps their answers equal to the matcher's.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ...syntax.model import Group, Rule
from ...syntax.patterns import Pattern, compile_pattern, matches
from .precedence import priority
from .selection import GroupIndex
from .tuning import MERGED_FROM


class _Filed:
    """The rules filed under one literal start (see `RuleIndex`)."""

    __slots__ = ("end_lengths", "ends", "glob_count", "glob_lengths", "globs", "plain")

    def __init__(self) -> None:
        self.plain: list[Rule] = []  # rules that match every target beginning with the start
        self.ends: dict[str, list[tuple[Rule, Pattern]]] = {}  # anchored rules, by their last literal
        self.end_lengths: list[int] = []
        self.globs: dict[str, list[tuple[Rule, Pattern]]] = {}  # other wildcard rules, by their longest later literal
        self.glob_lengths: list[int] = []
        self.glob_count = 0

    def add(self, rule: Rule, pattern: Pattern) -> None:
        if pattern.anchored:
            self.ends.setdefault(pattern.pieces[-1], []).append((rule, pattern))
        elif len(pattern.pieces) == 1:
            self.plain.append(rule)  # `/a*` is `/a`
        else:
            self.globs.setdefault(max(pattern.pieces[1:], key=len), []).append((rule, pattern))
            self.glob_count += 1

    def seal(self) -> None:
        self.end_lengths = sorted({len(end) for end in self.ends})
        self.glob_lengths = sorted({len(literal) for literal in self.globs})

    def matching(self, target: str, after: int) -> Iterator[Rule]:
        """The rules filed here that match `target`, which begins with their start (`after` characters)."""
        yield from self.plain
        size = len(target)
        for length in self.end_lengths:
            if length > size:
                break
            yield from (
                rule for rule, pattern in self.ends.get(target[size - length :], ()) if matches(pattern, target)
            )
        if not self.glob_count:
            return
        rest = target[after:]
        if len(rest) * len(self.glob_lengths) < self.glob_count:
            # Fewer substrings of the target than rules: look the literals up.
            found = {rest[i : i + n] for n in self.glob_lengths for i in range(len(rest) - n + 1)}
            tried = (entry for literal in found for entry in self.globs.get(literal, ()))
        else:
            tried = (entry for entries in self.globs.values() for entry in entries)
        yield from (rule for rule, pattern in tried if matches(pattern, target))


class RuleIndex:
    """Rules filed by their literal start, to find those that match a target without trying the rest.

    A rule matches only targets that begin with its start (the text before its
    first `*`), so a target meets only the rules filed under its own prefixes:
    one dict lookup for each length the starts come in. Under a start, plain
    rules match outright, rules anchored by `$` are filed again by their last
    literal (which the target must end with), and other wildcard rules by the
    longest literal they need, looked up among the target's substrings when
    that is cheaper than trying them all. Copies of a rule (the same allow and
    pattern) are filed once. A `RuleSet` bucket, by contrast, tests every rule
    whose start shares the target's first two characters.
    """

    __slots__ = ("_copies", "_lengths", "_starts")

    def __init__(self, rules: Iterable[Rule]) -> None:
        same: dict[tuple[bool, str], list[Rule]] = {}
        for rule in rules:
            if rule.normalised:  # an empty pattern matches nothing
                same.setdefault((rule.allow, rule.normalised), []).append(rule)
        self._copies = {key: copies for key, copies in same.items() if len(copies) > 1}
        self._starts: dict[str, _Filed] = {}
        for copies in same.values():
            first = min(copies, key=lambda r: r.line)  # of equal rules, the earliest wins
            pattern = compile_pattern(first.normalised)
            self._starts.setdefault(pattern.pieces[0], _Filed()).add(first, pattern)
        for filed in self._starts.values():
            filed.seal()
        self._lengths = sorted({len(start) for start in self._starts})

    def _first_copies(self, target: str) -> Iterator[Rule]:
        size = len(target)
        for length in self._lengths:
            if length > size:
                break
            filed = self._starts.get(target[:length])
            if filed is not None:
                yield from filed.matching(target, length)

    def matching(self, target: str) -> list[Rule]:
        """Every rule that matches `target`, copies included, in no particular order."""
        return [
            copy
            for rule in self._first_copies(target)
            for copy in self._copies.get((rule.allow, rule.normalised), (rule,))
        ]

    def best(self, target: str) -> Rule | None:
        """The best rule that matches `target` (None: none does)."""
        return min(self._first_copies(target), key=priority, default=None)


class Rulebook:
    """One file's rules, indexed for many questions: for any crawler, the groups that apply and the rules that match.

    Each group is indexed once, on first use (see `RuleIndex`); the answers
    equal those of `Robots.rules_for(token)` without building a `RuleSet` for
    every crawler.
    """

    def __init__(self, index: GroupIndex) -> None:
        self.applying = index.named  # every token the file names (`*` too), with the groups naming it
        self._global = self.applying.get("*", ())
        self._by_group: dict[int, RuleIndex] = {}
        self._merged: dict[str, RuleIndex] = {}

    def groups(self, token: str) -> tuple[Group, ...]:
        """The groups that apply to a product token (or `*`): those naming it, else the `*` groups."""
        return self.applying.get(token) or self._global

    def _indexes(self, token: str) -> list[RuleIndex]:
        groups = self.groups(token)
        if len(groups) < MERGED_FROM:
            return [self._group_index(group) for group in groups]
        key = token if token in self.applying else "*"
        merged = self._merged.get(key)
        if merged is None:
            merged = self._merged[key] = RuleIndex(r for g in groups for r in g.rules)
        return [merged]

    def _group_index(self, group: Group) -> RuleIndex:
        index = self._by_group.get(group.position)
        if index is None:
            index = self._by_group[group.position] = RuleIndex(group.rules)
        return index

    def matching(self, token: str, target: str) -> list[Rule]:
        """Every rule of the groups that apply to `token` that matches `target`, in no particular order."""
        return [rule for index in self._indexes(token) for rule in index.matching(target)]

    def best(self, token: str, target: str) -> Rule | None:
        """The rule that decides `target` for `token` (None: no rule matches), as `RuleSet.winner`."""
        bests = (index.best(target) for index in self._indexes(token))
        return min((rule for rule in bests if rule is not None), key=priority, default=None)

    def allows(self, token: str, target: str) -> bool:
        """Whether the deciding rule allows `target` (no match allows), as `RuleSet.allows`."""
        rule = self.best(token, target)
        return rule is None or rule.allow


def group_positions(groups: tuple[Group, ...]) -> tuple[int, ...]:
    """What identifies a set of groups: their positions in the file."""
    return tuple(group.position for group in groups)
