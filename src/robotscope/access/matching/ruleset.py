"""`RuleSet`: one crawler's merged rules, indexed so that a target meets only the rules that can match it.

A set of a few rules (at most `tuning.SMALL`) is one list, best first, tried
in turn: the first that matches decides. A larger set is indexed by the
literals its rules need (`candidates.Candidates`): a target meets only the
rules whose literals it has, best first, whatever the patterns look like.
`winner` is the fast path; `explain.candidates` (full verdicts) collects
every rule that matches from the same list or index.
"""

from __future__ import annotations

from ...syntax.model import Group, Rule
from ...syntax.patterns import compile_pattern, matches
from . import tuning
from .candidates import Candidates
from .entries import EXACT, PREFIX, STAR, STAR_END, Entry, make_entry, matching
from .precedence import LINE, best_first


class RuleSet:
    """The rules that apply to one crawler (its groups merged), best first, indexed for matching."""

    __slots__ = ("_entries", "_index", "group_lines", "groups", "has_rules", "rules", "token")

    group_lines: tuple[int, ...]
    rules: tuple[Rule, ...]  # every rule that applies, best first (empty patterns left out: they match nothing)
    has_rules: bool
    _entries: list[Entry]  # a small set's rules, ready to be tried in turn (empty when indexed)
    _index: Candidates | None  # a larger set's index

    def __init__(self, token: str, groups: tuple[Group, ...], shared: RuleSet | None = None) -> None:
        """The rules of `groups` for the crawler `token`; with `shared`, a set of the same groups, its index."""
        self.token = token
        self.groups = groups
        if shared is not None:
            self.group_lines, self.rules, self.has_rules = shared.group_lines, shared.rules, shared.has_rules
            self._entries, self._index = shared._entries, shared._index
            return
        self.group_lines = tuple(sorted(n for g in groups for n in g.agent_lines))
        # RFC 9309, Section 2.2.2: an empty pattern matches nothing. In line order first, so that
        # the earliest of equals comes first (`diff` gives the rules that match in no order).
        self.rules = tuple(best_first(sorted([r for g in groups for r in g.rules if r.normalised], key=LINE)))
        self.has_rules = bool(self.rules)
        small = len(self.rules) <= tuning.SMALL
        self._entries = [make_entry(rule) for rule in self.rules] if small else []
        self._index = None if small else Candidates([compile_pattern(rule.normalised) for rule in self.rules])

    def with_token(self, token: str) -> RuleSet:
        """The same rules for another crawler that selects the same groups: the index is shared, not rebuilt."""
        return RuleSet(token, self.groups, self)

    def matching(self, target: str) -> list[Rule]:
        """Every rule that matches `target`, best first (the explain path)."""
        if self._index is not None:
            rules = self.rules
            return [rules[position] for position in self._index.every(target)]
        return matching(self._entries, target)

    def winner(self, target: str) -> Rule | None:
        """The deciding rule alone (the best matching rule), on the fast path."""
        index = self._index
        if index is not None:
            position = index.first(target)
            return None if position is None else self.rules[position]
        # A few rules, best first: the first that matches. Each shape's test inlined, cheapest first.
        for first, shape, last, pattern, rule in self._entries:
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

    def allows(self, target: str) -> bool:
        """Whether the best matching rule allows `target` (no match allows)."""
        rule = self.winner(target)
        return rule is None or rule.allow
