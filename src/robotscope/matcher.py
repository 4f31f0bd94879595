"""Decide a crawler's access: pick its groups, find the longest matching rule.

RFC 9309, Section 2.2.1: every group naming the crawler's product token is
merged; only when none does are the `*` groups used; with neither, all is
allowed. Section 2.2.2: the longest matching pattern wins, an allow wins a
tie with a disallow, no match means allowed, and /robots.txt is implicitly
allowed.

A `RuleSet` holds one crawler's merged rules sorted best first, so the first
rule that matches decides. For the fast path the rules are also bucketed by
the first two characters of their literal start: a target only meets the
rules that can match it, and most of those cost one `str.startswith`.
"""

from __future__ import annotations

import re
import sys
from typing import Any

from .model import Group, Reason, Rule, Verdict
from .patterns import Pattern, compile_pattern, matches
from .urls import target as url_target

_ROBOTS_TXT = "/robots.txt"


def select_groups(groups: tuple[Group, ...], token: str) -> tuple[Group, ...]:
    """Return the groups that apply to `token`: those naming it, else the `*` groups."""
    named = tuple(g for g in groups if token in g.agents)
    return named or tuple(g for g in groups if "*" in g.agents)


def priority(rule: Rule) -> tuple[int, bool, int]:
    """Sort key putting the rule that wins first: longest, then allow, then earliest."""
    return (-rule.length, not rule.allow, rule.line)


def is_robots_txt(target: str) -> bool:
    return target.startswith(_ROBOTS_TXT) and (len(target) == 11 or target[11] == "?")


# Rule shapes, cheapest test first; the two-piece globs (`/*.pdf$`, `/*?`)
# are common enough to test inline rather than through `matches`.
_PREFIX, _EXACT, _STAR, _STAR_END, _GLOB = range(5)
# (literal start, shape, last piece, glob pattern or None, rule)
_Entry = tuple[str, int, str, "Pattern | None", Rule]
# (every entry, keyed entries only, the keyed entries' literal starts)
_Bucket = tuple[list[_Entry], list[_Entry], tuple[str, ...]]
_MAX_BUCKETS = 512


def _entry(rule: Rule) -> _Entry:
    normalised = rule.normalised
    if "*" not in normalised and "$" not in normalised:
        return (normalised, _PREFIX, "", None, rule)
    pattern = compile_pattern(normalised)
    pieces = pattern.pieces
    if len(pieces) == 1:
        shape = _EXACT if pattern.anchored else _PREFIX
    elif len(pieces) == 2:
        shape = _STAR_END if pattern.anchored else _STAR
    else:
        shape = _GLOB
    return (pieces[0], shape, pieces[-1], pattern, rule)


# A RuleSet with this many rules that can match any target gets a regex that
# rules them all out at once (below it, scanning them is as cheap).
_FILTER_FROM = 4
_END = "\x00"  # marks "at the end of the target" in a literal trie


def _required(rule: Rule) -> str | None:
    """A literal every target the rule matches contains (ending in _END when it must end the target).

    None when the rule can match a target without one (e.g. `Disallow: /`).
    """
    pattern = compile_pattern(rule.normalised)
    pieces = [p for p in pattern.pieces[1:] if p]
    if not pieces:
        return None if not pattern.anchored else pattern.pieces[0] + _END
    if pattern.anchored and pattern.pieces[-1]:
        return pattern.pieces[-1] + _END
    return max(pieces, key=len)


def _union(literals: set[str]) -> str:
    """A regex matching any of `literals`, as a trie, so shared prefixes are tried once."""
    trie: dict[str, Any] = {}
    for literal in literals:
        node = trie
        for char in literal:
            node = node.setdefault(char, {})
        node[""] = {}

    def emit(node: dict[str, Any]) -> str:
        if "" in node:
            return ""  # a shorter literal already matches: longer ones add nothing
        branches = [(r"\Z" if char == _END else re.escape(char)) + emit(child) for char, child in sorted(node.items())]
        return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"

    return emit(trie)


def _bucket_key(rule: Rule) -> str:
    """The first two characters every target the rule matches starts with ("" if not fixed)."""
    normalised = rule.normalised
    if "*" in normalised or "$" in normalised:
        normalised = compile_pattern(normalised).pieces[0]
    return normalised[:2] if len(normalised) >= 2 else ""


class RuleSet:
    """The rules that apply to one crawler, merged and sorted best first.

    The fast path meets rules in buckets keyed by the first two characters
    of the target: a rule whose literal start has two or more characters
    can only match targets that begin with those two; shorter starts can
    match any. Buckets are filled on first use, so memory grows only with
    the parts of a site that are actually checked.
    """

    __slots__ = ("_buckets", "_filter", "_keyed_only", "_keys", "group_lines", "groups", "rules", "token")

    def __init__(self, token: str, groups: tuple[Group, ...]) -> None:
        self.token = token
        self.groups = groups
        self.group_lines = tuple(sorted(n for g in groups for n in g.agent_lines))
        # RFC 9309, Section 2.2.2: an empty pattern matches nothing.
        self.rules = tuple(sorted((r for g in groups for r in g.rules if r.normalised), key=priority))
        # Interned: the same few two-character keys recur in every file.
        self._keys = tuple(sys.intern(_bucket_key(rule)) for rule in self.rules)
        self._buckets: dict[str, _Bucket] = {}
        # With no key-less rule at all, a target only ever meets keyed rules.
        self._keyed_only = all(self._keys)
        self._filter = self._anywhere_filter()

    def _anywhere_filter(self) -> re.Pattern[str] | None:
        """A regex that finds nothing in a target no key-less rule can match, when worth having."""
        anywhere = [rule for rule, key in zip(self.rules, self._keys, strict=True) if not key]
        if len(anywhere) < _FILTER_FROM:
            return None
        literals = {_required(rule) for rule in anywhere}
        if None in literals:
            return None
        return re.compile("(?s)" + _union(literals))  # type: ignore[arg-type]  # None excluded above

    def _bucket(self, key: str) -> _Bucket:
        """The entries that can match a target starting with `key`, in priority order.

        All of them, the keyed ones only, and the keyed ones' literal starts
        (for one C-level `startswith` that rules them all out at once).
        """
        merged = [_entry(rule) for rule, k in zip(self.rules, self._keys, strict=True) if k == key or not k]
        keyed = [e for e in merged if len(e[0]) >= 2]
        if len(self._buckets) >= _MAX_BUCKETS:
            self._buckets.clear()
        bucket = self._buckets[key] = merged, keyed, tuple(e[0] for e in keyed)
        return bucket

    def candidates(self, target: str) -> tuple[Rule, ...]:
        """Every rule that matches `target`, best first."""
        return tuple(r for r in self.rules if matches(compile_pattern(r.normalised), target))

    def winner(self, target: str) -> Rule | None:
        """The deciding rule alone (the first, best, matching rule), on the fast path."""
        key = target[:2]
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._bucket(key)
        # When no key-less rule can match, only the keyed ones need a look, and
        # none at all when no keyed rule's literal start begins the target.
        if self._keyed_only or (self._filter is not None and self._filter.search(target) is None):
            if not target.startswith(bucket[2]):
                return None
            entries = bucket[1]
        else:
            entries = bucket[0]
        for first, shape, last, pattern, rule in entries:
            if not target.startswith(first):
                continue
            if shape == _PREFIX:
                return rule
            if shape == _STAR:
                if target.find(last, len(first)) >= 0:
                    return rule
            elif shape == _STAR_END:
                if target.endswith(last) and len(target) - len(last) >= len(first):
                    return rule
            elif shape == _EXACT:
                if target == first:
                    return rule
            elif matches(pattern, target):  # type: ignore[arg-type]
                return rule
        return None

    def allows(self, target: str) -> bool:
        """Whether the best matching rule allows `target` (no match allows)."""
        rule = self.winner(target)
        return rule is None or rule.allow

    def verdict(self, url: str) -> Verdict:
        """The full verdict for `url`, with every matching rule."""
        target = url_target(url)
        candidates = self.candidates(target)
        if is_robots_txt(target):
            reason, winner = Reason.ROBOTS_TXT, None
        elif not self.groups:
            reason, winner = Reason.NO_GROUP, None
        elif not candidates:
            reason, winner = Reason.NO_MATCH, None
        else:
            reason, winner = Reason.RULE, candidates[0]
        allowed = winner is None or winner.allow
        line = None if winner is None else winner.line
        return Verdict(allowed, winner, line, reason, self.token, self.group_lines, candidates, url, target)
