"""`RuleSet`: one crawler's merged rules, indexed so that a target meets only the rules that can match it.

A set of a few rules (at most `tuning.SMALL`) is one list, best first, tried
in turn: the first that matches decides. A larger set is in parts by the
first two characters of its rules' starts (`parts.Parts`), each made on first
use and, when large, indexed by the literals its rules need
(`candidates.Candidates`): a target meets only the rules whose literals it
has, whatever the patterns look like. `winner` is the fast path;
`explain.candidates` (full verdicts) collects every rule that matches from
the same parts.
"""

from __future__ import annotations

from ...syntax.model import Group, Rule
from .parts import Parts
from .precedence import LINE, best_first


class RuleSet:
    """The rules that apply to one crawler (its groups merged), best first, indexed for matching."""

    __slots__ = ("_parts", "group_lines", "groups", "has_rules", "rules", "token")

    group_lines: tuple[int, ...]
    rules: tuple[Rule, ...]  # every rule that applies, best first (empty patterns left out: they match nothing)
    has_rules: bool
    _parts: Parts

    def __init__(self, token: str, groups: tuple[Group, ...], shared: RuleSet | None = None) -> None:
        """The rules of `groups` for the crawler `token`; with `shared`, a set of the same groups, its index."""
        self.token = token
        self.groups = groups
        if shared is not None:
            self.group_lines, self.rules, self.has_rules = shared.group_lines, shared.rules, shared.has_rules
            self._parts = shared._parts
            return
        self.group_lines = tuple(sorted(n for g in groups for n in g.agent_lines))
        # RFC 9309, Section 2.2.2: an empty pattern matches nothing. In line order first, so that
        # the earliest of equals comes first (`diff` gives the rules that match in no order).
        self.rules = tuple(best_first(sorted([r for g in groups for r in g.rules if r.normalised], key=LINE)))
        self.has_rules = bool(self.rules)
        self._parts = Parts(self.rules)

    def with_token(self, token: str) -> RuleSet:
        """The same rules for another crawler that selects the same groups: the index is shared, not rebuilt."""
        return RuleSet(token, self.groups, self)

    def matching(self, target: str) -> list[Rule]:
        """Every rule that matches `target`, best first (the explain path)."""
        single = self._parts.single
        return single.every(target) if single is not None else self._parts.every(target)

    def winner(self, target: str) -> Rule | None:
        """The deciding rule alone (the best matching rule), on the fast path."""
        single = self._parts.single
        return single.first(target) if single is not None else self._parts.first(target)

    def allows(self, target: str) -> bool:
        """Whether the best matching rule allows `target` (no match allows)."""
        rule = self.winner(target)
        return rule is None or rule.allow
