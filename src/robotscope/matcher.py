"""Decide a crawler's access: pick its groups, find the longest matching rule.

RFC 9309, Section 2.2.1: every group naming the crawler's product token is
merged; only when none does are the `*` groups used; with neither, all is
allowed. Section 2.2.2: the longest matching pattern wins, an allow wins a
tie with a disallow, no match means allowed, and /robots.txt is implicitly
allowed.

A `RuleSet` holds one crawler's merged rules, grouped by the first two
characters of their literal start: a target only meets the rules of its own
two characters and those that can match anywhere (led by `*` or `/*`, key
""). A group becomes a bucket on first use: its rules sorted best first, so
the first that matches decides; one `str.startswith` with a tuple rules out
a whole bucket, large buckets are indexed by plain prefix, and the rules
that can match anywhere are ruled out together by a test of the literals
they need. A rule that matches every target (`Allow: /`) is kept aside and
decides only when no better rule matches. `winner` is the fast path;
`candidates` (for full verdicts) tries every rule of the same two groups.
"""

from __future__ import annotations

import heapq
import re
import sys
from array import array
from bisect import bisect_left
from collections.abc import Callable
from itertools import groupby
from operator import itemgetter
from typing import Any

from .model import Group, Reason, Rule, Verdict
from .patterns import Pattern, compile_pattern, matches, matches_every_target
from .urls import target as url_target

_ROBOTS_TXT = "/robots.txt"


def select_groups(groups: tuple[Group, ...], token: str) -> tuple[Group, ...]:
    """Return the groups that apply to `token`: those naming it, else the `*` groups."""
    named = tuple(g for g in groups if token in g.agents)
    return named or tuple(g for g in groups if "*" in g.agents)


def priority(rule: Rule) -> tuple[int, bool, int]:
    """Sort key putting the rule that wins first: longest, then allow, then earliest."""
    return (-len(rule.normalised), not rule.allow, rule.line)  # len(): `length` is a property


def is_robots_txt(target: str) -> bool:
    """RFC 9309, Section 2.2.2: the /robots.txt URI is implicitly allowed (its query aside)."""
    return target.startswith(_ROBOTS_TXT) and (len(target) == 11 or target[11] == "?")


def outcome(rule: Rule | None, target: str, grouped: bool) -> tuple[bool, Reason]:
    """The one reading of a match: whether `target` is allowed, and why, given the best matching `rule`.

    `/robots.txt` is always allowed; no matching rule means allowed (no group
    applied at all when `grouped` is false); otherwise the rule decides.
    `Robots.can_fetch` inlines the same reading on its fast path.
    """
    if is_robots_txt(target):
        return True, Reason.ROBOTS_TXT
    if rule is None:
        return True, Reason.NO_MATCH if grouped else Reason.NO_GROUP
    return rule.allow, Reason.RULE


# Rule shapes, cheapest test first; the two-piece globs (`/*.pdf$`, `/*?`)
# are common enough to test inline rather than through `matches`.
_PREFIX, _EXACT, _STAR, _STAR_END, _GLOB = range(5)
# (literal start, shape, last piece (a glob: its longest later piece), glob pattern or None, rule)
_Entry = tuple[str, int, str, "Pattern | None", Rule]
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
        # A glob keeps its longest later piece: one `in` rules out most targets
        # before the full match (`/*?*sort_by=` needs `sort_by=`).
        return (pieces[0], _GLOB, max(pieces[1:], key=len), pattern, rule)
    return (pieces[0], shape, pieces[-1], None, rule)  # the shape and pieces say it all


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
    """A regex matching any of `literals`, as a trie, so shared prefixes are tried once.

    Built from the sorted literals, one branch per first character and each
    branch's common prefix written at once (not a node per character).
    """

    def escaped(text: str) -> str:
        return re.escape(text[:-1]) + r"\Z" if text.endswith(_END) else re.escape(text)

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


def _bucket_key(rule: Rule) -> str:
    """The first two characters every target the rule matches starts with ("" if not fixed)."""
    head = rule.normalised[:2]
    if "*" in head or "$" in head:  # `$` as the end anchor or as a literal (`/$x` starts `/%24`)
        head = compile_pattern(rule.normalised).pieces[0][:2]
    return head if len(head) == 2 else ""


# Required literals of the key-less rules from which one regex search rules
# them out faster than scanning them (measured on the corpus: the regex costs
# ~0.2 ms to build).
_REGEX_FILTER_FROM = 6

# Keyed rules in one bucket from which an index of their plain prefixes beats
# scanning them (a file of thousands of `Disallow: /path` lines).
_INDEX_FROM = 24


# A bucket, as a plain list (indexing is cheaper than named attributes on this path):
# every keyed rule's literal start (one `startswith` rules them all out); for large
# buckets the lengths of the indexed plain prefixes, longest first, and the best rule
# of each prefix; the keyed rules not indexed, in priority order; and those merged
# with the key-less rules, in priority order (None until a target needs them).
_Keyed = list[Any]


def _by_priority(entry: _Entry) -> tuple[int, bool, int]:
    return priority(entry[4])


def _keyed(entries: list[_Entry], anywhere: list[_Entry]) -> _Keyed:
    starts = tuple(e[0] for e in entries)
    prefixes: dict[str, Rule] = {}
    others = entries
    if len(entries) >= _INDEX_FROM:
        others = []
        for entry in entries:
            first, shape, _, _, rule = entry
            # A plain prefix competes with its own length, so the longest one that
            # begins the target is its best; `/a*` (length 3, start `/a`) is not plain.
            if shape == _PREFIX and len(rule.normalised) == len(first):
                prefixes.setdefault(first, rule)  # entries come best first
            else:
                others.append(entry)
    merged = None if anywhere and others else others or anywhere
    return [starts, tuple(sorted({len(p) for p in prefixes}, reverse=True)), prefixes, others, merged]


_NO_RULES: _Keyed = _keyed([], [])


class RuleSet:
    """The rules that apply to one crawler (its groups merged), indexed for matching.

    Rules are grouped by the first two characters of their literal start: a
    rule whose start has two or more characters can only match targets that
    begin with those two; shorter starts (key "") can match any. A group is
    sorted into a bucket on first use, so work and memory grow only with the
    parts of a site that are actually checked; `rules` (all of them, best
    first) is sorted on demand too.
    """

    __slots__ = (
        "_anywhere",
        "_buckets",
        "_fallback",
        "_filter",
        "_grouped",
        "_keys",
        "_no_keyed",
        "_rules",
        "_starts",
        "group_lines",
        "groups",
        "has_rules",
        "token",
    )

    def __init__(self, token: str, groups: tuple[Group, ...]) -> None:
        self.token = token
        self.groups = groups
        self.group_lines = tuple(sorted(n for g in groups for n in g.agent_lines))
        # RFC 9309, Section 2.2.2: an empty pattern matches nothing.
        rules = [r for g in groups for r in g.rules if r.normalised]
        self.has_rules = bool(rules)
        self._rules: tuple[Rule, ...] | None = None  # all of them best first, sorted on demand
        # The rules grouped by key (a stable sort keeps each key's rules in file order,
        # sorted by priority when their bucket is first built), each key's range found
        # by bisection: a fraction of the memory of a dict of per-key tuples. Key ""
        # holds the rules that can match any target.
        pairs = sorted(zip(map(_bucket_key, rules), rules), key=itemgetter(0))
        keys = [key for key, _ in pairs]
        self._grouped = tuple(rule for _, rule in pairs)
        # Interned: the same few keys recur in every file.
        self._keys = tuple(sys.intern(key) for key in dict.fromkeys(keys) if key)
        self._starts = array("i", [bisect_left(keys, key) for key in self._keys] + [len(keys)])
        anywhere = sorted(self._grouped[: self._starts[0]], key=priority)
        # A rule that matches every target (`Allow: /`, `Disallow: /`, `/*`) decides
        # only when nothing better matches: kept aside (the best of them), it does not
        # make every target meet every rule of its bucket.
        everything: list[Rule] = []
        others: list[Rule] = []
        for rule in anywhere:
            (everything if matches_every_target(rule.normalised) else others).append(rule)
        self._fallback = everything[0] if everything else None
        anywhere = others
        self._buckets: dict[str, _Keyed] = {}
        self._anywhere = [_entry(rule) for rule in anywhere]
        self._filter = self._anywhere_filter(anywhere)
        # The bucket of every key no rule starts with (one shared, when there are no key-less rules).
        self._no_keyed = _keyed([], self._anywhere) if self._anywhere else _NO_RULES

    def with_token(self, token: str) -> RuleSet:
        """The same rules for another crawler that selects the same groups: the index is shared, not rebuilt."""
        twin = RuleSet.__new__(RuleSet)
        for name in RuleSet.__slots__:
            setattr(twin, name, getattr(self, name))
        twin.token = token
        return twin

    @staticmethod
    def _anywhere_filter(anywhere: list[Rule]) -> Callable[[str], object] | None:
        """A test that is false for every target no key-less rule can match (None: no such test).

        One required literal is tested with `in` or `endswith`; many with one
        regex search. For a few, scanning the rules themselves costs less than
        compiling a regex would save.
        """
        literals = {_required(rule) for rule in anywhere}
        if not literals or None in literals or 1 < len(literals) < _REGEX_FILTER_FROM:
            return None
        if len(literals) == 1:
            literal = str(literals.pop())
            if literal.endswith(_END):
                suffix = literal[:-1]
                return lambda target: target.endswith(suffix)
            return lambda target: literal in target
        return re.compile("(?s)" + _union(literals)).search  # type: ignore[arg-type]  # None excluded above

    def _rules_of(self, key: str) -> tuple[Rule, ...]:
        """The rules whose literal start begins with `key` (two characters), in file order."""
        index = bisect_left(self._keys, key)
        if index < len(self._keys) and self._keys[index] == key:
            return self._grouped[self._starts[index] : self._starts[index + 1]]
        return ()

    def _bucket(self, key: str) -> _Keyed:
        """The keyed rules that can match a target starting with `key`, in priority order."""
        rules = self._rules_of(key)
        keyed = _keyed([_entry(rule) for rule in sorted(rules, key=priority)], self._anywhere) if rules else self._no_keyed
        if len(self._buckets) >= _MAX_BUCKETS:
            self._buckets.clear()
        self._buckets[key] = keyed
        return keyed

    @property
    def rules(self) -> tuple[Rule, ...]:
        """Every rule that applies, best first (empty patterns left out: they match nothing)."""
        if self._rules is None:
            self._rules = tuple(sorted(self._grouped, key=priority))
        return self._rules

    def candidates(self, target: str) -> tuple[Rule, ...]:
        """Every rule that matches `target`, best first.

        Only the rules keyed by the target's first two characters and the
        key-less ones can match it, so only those are tried.
        """
        possible = (*self._grouped[: self._starts[0]], *self._rules_of(target[:2]))
        return tuple(sorted((r for r in possible if matches(compile_pattern(r.normalised), target)), key=priority))

    def winner(self, target: str) -> Rule | None:
        """The deciding rule alone (the best matching rule), on the fast path."""
        keyed = self._buckets.get(target[:2])
        if keyed is None:
            keyed = self._bucket(target[:2])
        keyed_possible = target.startswith(keyed[0])  # (see _Keyed for the five fields)
        entries: list[_Entry]
        best: Rule | None = None
        # Key-less rules (led by `*` or `/*`) can match any target, unless the filter says none can.
        if self._anywhere and (self._filter is None or self._filter(target)):
            entries = keyed[4]
            if entries is None:
                entries = keyed[4] = list(heapq.merge(keyed[3], self._anywhere, key=_by_priority))
        elif keyed_possible:
            entries = keyed[3]
        else:
            return self._fallback
        if keyed_possible and keyed[1]:
            size = len(target)
            for length in keyed[1]:
                if length <= size:
                    best = keyed[2].get(target[:length])
                    if best is not None:
                        break
        # The first rule of `entries` that matches is their best.
        for first, shape, last, pattern, rule in entries:
            if not target.startswith(first):
                continue
            if shape == _PREFIX:
                break
            if shape == _STAR:
                if target.find(last, len(first)) >= 0:
                    break
            elif shape == _STAR_END:
                if target.endswith(last) and len(target) - len(last) >= len(first):
                    break
            elif shape == _EXACT:
                if target == first:
                    break
            elif last in target and matches(pattern, target):  # type: ignore[arg-type]
                break
        else:
            rule = None  # no entry matched
        # The best of three: the first matching entry, the indexed prefix, the fallback.
        if rule is None or (best is not None and priority(best) < priority(rule)):
            rule = best
        fallback = self._fallback
        if fallback is not None and (rule is None or priority(fallback) < priority(rule)):
            return fallback
        return rule

    def allows(self, target: str) -> bool:
        """Whether the best matching rule allows `target` (no match allows)."""
        rule = self.winner(target)
        return rule is None or rule.allow

    def verdict(self, url: str) -> Verdict:
        """The full verdict for `url`, with every matching rule."""
        target = url_target(url)
        candidates = self.candidates(target)
        allowed, reason = outcome(candidates[0] if candidates else None, target, bool(self.groups))
        winner = candidates[0] if reason is Reason.RULE else None
        line = None if winner is None else winner.line
        return Verdict(allowed, winner, line, reason, self.token, self.group_lines, candidates, url, target)
