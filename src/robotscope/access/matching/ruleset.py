"""`RuleSet`: one crawler's merged rules, indexed so that a target meets only the rules that can match it.

A small set is one bucket, sorted best first once; a larger one groups its
rules by the first two characters of their literal start: a target only
meets the rules of its own two characters and those that can match anywhere
(led by `*` or `/*`, key ""), and a group becomes a bucket on first use. One
`str.startswith` with a tuple rules out a whole bucket, large buckets are
indexed by plain prefix, and the rules that can match anywhere are ruled out
together by a test of the literals they need (`literals`). A rule that
matches every target (`Allow: /`) is kept aside and decides only when no
better rule matches. `winner` is the fast path; `explain.candidates` (full
verdicts) walks the same buckets, index and filter but collects every rule
that matches.
"""

from __future__ import annotations

import heapq
from bisect import bisect_left

from ...syntax.model import Group, Rule
from ...syntax.patterns import compile_pattern, matches, matches_every_target
from . import tuning
from .entries import (
    ENTRY_RULE,
    EXACT,
    NO_RULES,
    PREFIX,
    STAR,
    STAR_END,
    Bucket,
    Entry,
    bucket_keys,
    by_priority,
    entry_matches,
    make_bucket,
    make_entry,
)
from .literals import LiteralIndex, anywhere_filter, needed, required
from .precedence import LINE, NORMALISED, best_first, priority

# What crawlers that select the same groups share: everything a rule set holds but its token and groups.
_SHARED = (
    "anywhere",
    "_buckets",
    "everything",
    "_fallback",
    "keyless_filter",
    "_grouped",
    "literals",
    "_no_keyed",
    "_one",
    "_rekeyed",
    "_rules",
    "group_lines",
    "has_rules",
)


class RuleSet:
    """The rules that apply to one crawler (its groups merged), indexed for matching.

    A small set (at most `tuning.SMALL` rules) is one bucket, sorted once. A larger
    one groups its rules by the first two characters of their literal start:
    a rule whose start has two or more characters can only match targets
    that begin with those two; shorter starts (key "") can match any. A
    group is sorted into a bucket on first use, so work and memory grow only
    with the parts of a site that are actually checked; `rules` (all of
    them, best first) is sorted on demand too.
    """

    __slots__ = ("groups", "token", *_SHARED)

    def __init__(self, token: str, groups: tuple[Group, ...], shared: RuleSet | None = None) -> None:
        """The rules of `groups` for the crawler `token`; with `shared`, a set of the same groups, its index."""
        self.token = token
        self.groups = groups
        if shared is not None:
            for name in _SHARED:
                setattr(self, name, getattr(shared, name))
            return
        self.group_lines = tuple(sorted(n for g in groups for n in g.agent_lines))
        # RFC 9309, Section 2.2.2: an empty pattern matches nothing.
        rules = [r for g in groups for r in g.rules if r.normalised]
        self.has_rules = bool(rules)
        self._rules: tuple[Rule, ...] | None = None  # all of them best first, sorted on demand
        self._buckets: dict[str, Bucket] = {}
        small = len(rules) <= tuning.SMALL
        if small:
            ordered = best_first(rules)
            keyed: list[Rule] = []
            anywhere: list[Rule] = []
            for key, rule in zip(bucket_keys(ordered), ordered, strict=True):
                (keyed if key else anywhere).append(rule)
            self._grouped: tuple[Rule, ...] = ()
            self._rekeyed: dict[str, list[Rule]] = {}
        else:
            anywhere = self._sort_by_start(rules)
        # A rule that matches every target (`Allow: /`, `Disallow: /`, `/*`) decides
        # only when nothing better matches: kept aside (the best of them), it does not
        # make every target meet every rule of its bucket.
        # Only `/`, `*` and `$` can make up a pattern that covers every target (most sets have none).
        everything = [
            rule for rule in anywhere if not rule.normalised.strip("/*$") and matches_every_target(rule.normalised)
        ]
        rest = [rule for rule in anywhere if rule not in everything] if everything else anywhere
        self.everything = tuple(everything)
        self._fallback = everything[0] if everything else None
        self.literals: LiteralIndex | None = None
        if len(rest) >= tuning.LITERAL_INDEX_FROM:
            needs = [needed(compile_pattern(rule.normalised)) for rule in rest]
            if all(needs):
                self.literals = LiteralIndex(rest, needs)  # it builds each entry when a target can meet it
                self.anywhere: list[Entry] = []
                self.keyless_filter = None
        if self.literals is None:
            self.anywhere = [make_entry(rule) for rule in rest]
            # An entry keeps its compiled pattern; a plain one (no `*` or `$`) needs no literal.
            needs = [[] if pattern is None else needed(pattern) for _, _, _, pattern, _ in self.anywhere]
            self.keyless_filter = anywhere_filter({required(needed) for needed in needs}, small)
        self._one = make_bucket([make_entry(rule) for rule in keyed], self.anywhere) if small else None
        # A large set's bucket of every key no rule starts with (one shared, when there are no key-less rules).
        self._no_keyed = make_bucket([], self.anywhere) if self.anywhere and not small else NO_RULES

    def with_token(self, token: str) -> RuleSet:
        """The same rules for another crawler that selects the same groups: the index is shared, not rebuilt."""
        return RuleSet(token, self.groups, self)

    def _sort_by_start(self, rules: list[Rule]) -> list[Rule]:
        """Sort a large set's rules by pattern (in C), so each two-character key is a range; return the key-less ones.

        A rule is keyed by its first two characters unless they hold a `*` (key
        "": it can match anywhere) or a `$` (its literal start is `%24`...):
        only those few, found by bisection, are looked at one by one.
        """
        grouped = self._grouped = tuple(sorted(rules, key=NORMALISED))
        self._rekeyed = {}
        slash, after = bisect_left(grouped, "/", key=NORMALISED), bisect_left(grouped, "0", key=NORMALISED)
        singles = bisect_left(grouped, "/\x00", key=NORMALISED)  # exactly "/"
        odd = [
            *grouped[:slash],
            *grouped[slash:singles],
            *grouped[after:],
            *self._range("/$"),
        ]  # not led by "/", or "/" alone
        anywhere = list(self._range("/*"))  # no fixed start: no key to look up
        for key, rule in zip(bucket_keys(odd), odd, strict=True):
            if key:
                self._rekeyed.setdefault(key, []).append(rule)
            else:
                anywhere.append(rule)
        return best_first(sorted(anywhere, key=LINE))

    def _range(self, key: str) -> tuple[Rule, ...]:
        """The rules of a large set whose pattern starts with the two characters `key`."""
        after = key[0] + chr(ord(key[1]) + 1)
        grouped = self._grouped
        return grouped[bisect_left(grouped, key, key=NORMALISED) : bisect_left(grouped, after, key=NORMALISED)]

    def bucket_for(self, target: str) -> Bucket:
        """The bucket of the rules `target` can meet (`winner` inlines the same lookup; `explain` reads it)."""
        if self._one is not None:
            return self._one
        return self._buckets.get(target[:2]) or self._bucket(target[:2])

    def _bucket(self, key: str) -> Bucket:
        """The keyed rules that can match a target starting with `key`, in priority order."""
        rules = (
            [*self._range(key), *self._rekeyed.get(key, ())]
            if len(key) == 2 and "$" not in key and "*" not in key
            else []
        )
        bucket = (
            make_bucket([make_entry(rule) for rule in best_first(sorted(rules, key=LINE))], self.anywhere)
            if rules
            else self._no_keyed
        )
        if len(self._buckets) >= tuning.MAX_BUCKETS:
            self._buckets.clear()
        self._buckets[key] = bucket
        return bucket

    @property
    def rules(self) -> tuple[Rule, ...]:
        """Every rule that applies, best first (empty patterns left out: they match nothing)."""
        if self._rules is None:
            # From the groups again rather than a list kept for the purpose: every rule set holds one.
            self._rules = tuple(best_first([r for g in self.groups for r in g.rules if r.normalised]))
        return self._rules

    def winner(self, target: str) -> Rule | None:
        """The deciding rule alone (the best matching rule), on the fast path."""
        bucket = self._one
        if bucket is None:
            bucket = self._buckets.get(target[:2])
            if bucket is None:
                bucket = self._bucket(target[:2])
        keyed_possible = target.startswith(bucket.starts)
        entries: list[Entry] | None
        best: Rule | None = None
        literals = self.literals
        # Key-less rules (led by `*` or `/*`) can match any target, unless the filter says none can.
        if literals is None and self.anywhere and (self.keyless_filter is None or self.keyless_filter(target)):
            entries = bucket.merged
            if entries is None:
                entries = bucket.merged = list(heapq.merge(bucket.others, self.anywhere, key=by_priority))
        elif keyed_possible:
            entries = bucket.others
        elif literals is None:
            return self._fallback
        else:
            entries = []
        if keyed_possible and bucket.lengths:
            size = len(target)
            for length in bucket.lengths:
                if length <= size:
                    indexed = bucket.prefixes.get(target[:length])
                    if indexed is not None:
                        best = indexed[0]
                        break
        # The first rule of `entries` that matches is their best.
        for first, shape, last, pattern, rule in entries:  # noqa: B007 - `rule` is read after the loop
            if not target.startswith(first):
                continue
            if shape == PREFIX:
                break
            if shape == STAR:
                if target.find(last, len(first)) >= 0:
                    break
            elif shape == STAR_END:
                if target.endswith(last) and len(target) - len(last) >= len(first):
                    break
            elif shape == EXACT:
                if target == first:
                    break
            elif last in target and matches(pattern, target):  # type: ignore[arg-type]
                break
        else:
            rule = None  # no entry matched
        if literals is not None:  # many key-less rules: the first of those the target can meet that matches
            found = next(
                (ENTRY_RULE(entry) for entry in literals.entries(target) if entry_matches(entry, target)), None
            )
            if found is not None and (rule is None or priority(found) < priority(rule)):
                rule = found
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
