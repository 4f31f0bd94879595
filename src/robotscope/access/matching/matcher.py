"""Decide a crawler's access: pick its groups, find the longest matching rule.

RFC 9309, Section 2.2.1: every group naming the crawler's product token is
merged; only when none does are the `*` groups used; with neither, all is
allowed. Section 2.2.2: the longest matching pattern wins, an allow wins a
tie with a disallow, no match means allowed, and /robots.txt is implicitly
allowed.

A `RuleSet` holds one crawler's merged rules. A small set is one bucket,
sorted best first once; a larger one groups its rules by the first two
characters of their literal start: a target only meets the rules of its own
two characters and those that can match anywhere (led by `*` or `/*`, key
""), and a group becomes a bucket on first use. One `str.startswith` with a
tuple rules out a whole bucket, large buckets are indexed by plain prefix,
and the rules that can match anywhere are ruled out together by a test of
the literals they need. A rule that matches every target (`Allow: /`) is
kept aside and decides only when no better rule matches. `winner` is the
fast path; `candidates` (for full verdicts, the explain path) uses the same
buckets, index and filter but collects every rule that matches.
"""

from __future__ import annotations

import heapq
import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import chain, groupby, repeat
from operator import add, itemgetter, mul

from ...syntax.model import Group, Reason, Rule, Verdict
from ...syntax.patterns import Pattern, compile_pattern, matches, matches_every_target
from ...syntax.urls import plain_target
from ...syntax.urls import target as url_target

_ROBOTS_TXT = "/robots.txt"


class GroupIndex:
    """A file's groups by the tokens they name: `select` is RFC 9309's choice of groups, made in one lookup.

    Built in one pass over the groups, so a file of thousands of groups
    asked about many crawlers finds each crawler's at once.
    """

    __slots__ = ("named",)

    def __init__(self, groups: tuple[Group, ...]) -> None:
        named: dict[str, list[Group]] = {}
        for group in groups:
            for agent in dict.fromkeys(group.agents):
                named.setdefault(agent, []).append(group)
        # Every token named (`*` too), in order of first mention, with the groups naming it.
        self.named = {agent: tuple(found) for agent, found in named.items()}

    def select(self, token: str) -> tuple[Group, ...]:
        """The groups that apply to `token`: those naming it, else the `*` groups (in file order)."""
        return self.named.get(token) or self.named.get("*", ())


def select_groups(groups: tuple[Group, ...], token: str) -> tuple[Group, ...]:
    """Return the groups that apply to `token`: those naming it, else the `*` groups (in file order).

    A scan: for the few groups of most files it costs less than building a
    `GroupIndex`, which makes the same choice (a property test says so).
    """
    return tuple(g for g in groups if token in g.agents) or tuple(g for g in groups if "*" in g.agents)


def priority(rule: Rule) -> tuple[int, bool, int]:
    """Sort key putting the rule that wins first: longest, then allow, then earliest."""
    return (-len(rule.normalised), not rule.allow, rule.line)  # len(): `length` is a property


_ALLOW = itemgetter(0)
_LINE = itemgetter(2)
_NORMALISED = itemgetter(3)


def best_first(rules: Sequence[Rule]) -> list[Rule]:
    """`sorted(rules, key=priority)` for rules given in file order, with the keys computed in C.

    Twice the length plus one for an allow orders longest first, allow before
    disallow; the stable sort keeps file order among equals.
    """
    keys = list(map(add, map(mul, map(len, map(_NORMALISED, rules)), repeat(2)), map(_ALLOW, rules)))
    return list(map(rules.__getitem__, sorted(range(len(rules)), key=keys.__getitem__, reverse=True)))


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
        return True, _BY_ROBOTS_TXT
    if rule is None:
        return True, _NO_MATCH if grouped else _NO_GROUP
    return rule.allow, _BY_RULE


# An Enum member looked up on its class costs more than the rest of `outcome`.
_BY_RULE, _BY_ROBOTS_TXT, _NO_MATCH, _NO_GROUP = Reason.RULE, Reason.ROBOTS_TXT, Reason.NO_MATCH, Reason.NO_GROUP


# Rule shapes, cheapest test first; the two-piece globs (`/*.pdf$`, `/*?`)
# are common enough to test inline rather than through `matches`.
_PREFIX, _EXACT, _STAR, _STAR_END, _GLOB = range(5)
_MAX_BUCKETS = 512


# A rule ready for matching, read by unpacking, as `start, shape, last, pattern,
# rule` (or by the getters below): the literal every target it matches starts
# with; its shape; its last piece (a glob: its longest later piece), which every
# match has in the target; its compiled pattern (None when plain); the rule. A plain
# tuple: a NamedTuple costs four times as much to build, once per rule of every set.
_Entry = tuple[str, int, str, "Pattern | None", Rule]
_ENTRY_START: Callable[[_Entry], str] = itemgetter(0)
_ENTRY_RULE: Callable[[_Entry], Rule] = itemgetter(4)


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
    return (pieces[0], shape, pieces[-1], pattern, rule)  # the shape and pieces say it all


_END = "\x00"  # marks "at the end of the target" in a literal trie


def _needed(pattern: Pattern) -> list[str]:
    """Every literal a target must contain for the pattern to match it (ending in _END: must end it)."""
    pieces = list(filter(None, pattern.pieces[1:]))
    if pattern.anchored:
        if len(pattern.pieces) == 1:
            return [pattern.pieces[0] + _END]  # `/a$`: the whole target
        if pattern.pieces[-1]:
            pieces[-1] += _END  # `/*.pdf$`: the last piece ends the target (`/*a*$` ends anyhow)
    return pieces


def _required(needed: list[str]) -> str | None:
    """The one literal the regex filter looks for: the end of the target if it is fixed, else the longest.

    None when the rule can match a target without one (e.g. `Disallow: /`).
    """
    if not needed:
        return None
    return needed[-1] if needed[-1].endswith(_END) else max(needed, key=len)


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


def _bucket_keys(rules: Sequence[Rule]) -> list[str]:
    """For each rule, the first two characters every target it matches starts with ("" if not fixed)."""
    keys = []
    for normalised in map(_NORMALISED, rules):
        head = normalised[:2]
        if "*" in head:
            head = ""  # the literal start is at most one character
        elif "$" in head:  # the end anchor, or a literal (`/$x` starts `/%24`)
            head = compile_pattern(normalised).pieces[0][:2]
        keys.append(head if len(head) == 2 else "")
    return keys


# Required literals of the key-less rules from which one regex search rules
# them out faster than scanning them (measured on the corpus: the regex costs
# ~0.2 ms to build).
_REGEX_FILTER_FROM = 6

# Keyed rules in one bucket from which an index of their plain prefixes beats
# scanning them (a file of thousands of `Disallow: /path` lines).
_INDEX_FROM = 24


class _Bucket:
    """The rules a target starting with one two-character key can meet (a small set's one bucket: every target)."""

    __slots__ = ("lengths", "merged", "others", "prefixes", "starts")

    def __init__(
        self, starts: tuple[str, ...], prefixes: dict[str, list[Rule]], others: list[_Entry], merged: list[_Entry] | None
    ) -> None:
        self.starts = starts  # every keyed rule's literal start: one `startswith` rules them all out
        self.prefixes = prefixes  # a large bucket's plain prefixes, each with its rules best first
        self.lengths = tuple(sorted({len(p) for p in prefixes}, reverse=True)) if prefixes else ()  # longest first
        self.others = others  # the keyed rules not indexed, in priority order
        self.merged = merged  # those and the key-less rules, in priority order (None until a target needs them)


def _by_priority(entry: _Entry) -> tuple[int, bool, int]:
    return priority(_ENTRY_RULE(entry))


def _make_bucket(entries: list[_Entry], anywhere: list[_Entry]) -> _Bucket:
    starts = tuple(map(_ENTRY_START, entries))
    prefixes: dict[str, list[Rule]] = {}
    others = entries
    if len(entries) >= _INDEX_FROM:
        others = []
        for entry in entries:
            first, shape, _, _, rule = entry
            # A plain prefix competes with its own length, so the longest one that
            # begins the target is its best; `/a*` (length 3, start `/a`) is not plain.
            if shape == _PREFIX and len(rule.normalised) == len(first):
                prefixes.setdefault(first, []).append(rule)  # entries come best first
            else:
                others.append(entry)
    return _Bucket(starts, prefixes, others, None if anywhere and others else others or anywhere)


_NO_RULES = _make_bucket([], [])


def _entry_matches(entry: _Entry, target: str) -> bool:
    """Whether one entry's rule matches `target` (the explain path; `RuleSet.winner` inlines the same tests)."""
    return target.startswith(_ENTRY_START(entry)) and _matches_from_start(entry, target)


def _add_matching(entries: list[_Entry], target: str, found: list[Rule]) -> None:
    """Append the rule of each of `entries` that matches `target` to `found` (the explain path's scan)."""
    for entry in entries:
        start, shape, last, _, rule = entry
        # Inline first: the literal start, then the last piece (every shape's match has it in the
        # target), each ruling out most entries in C; a plain prefix needs no more.
        if target.startswith(start) and last in target and (shape == _PREFIX or _matches_from_start(entry, target)):
            found.append(rule)


def _matches_from_start(entry: _Entry, target: str) -> bool:
    """`_entry_matches` for a target already known to start with the entry's literal start."""
    first, shape, last, pattern, _ = entry
    if shape == _PREFIX:
        return True
    if shape == _STAR:
        return target.find(last, len(first)) >= 0
    if shape == _STAR_END:
        return target.endswith(last) and len(target) - len(last) >= len(first)
    if shape == _EXACT:
        return target == first
    return last in target and matches(pattern, target)  # type: ignore[arg-type]


class _Contains:
    """The anywhere filter for one required literal: in the target (a class, not a lambda: it pickles)."""

    __slots__ = ("literal",)

    def __init__(self, literal: str) -> None:
        self.literal = literal

    def __call__(self, target: str) -> bool:
        return self.literal in target


class _EndsWith:
    """The anywhere filter for one required literal that must end the target."""

    __slots__ = ("suffix",)

    def __init__(self, suffix: str) -> None:
        self.suffix = suffix

    def __call__(self, target: str) -> bool:
        return target.endswith(self.suffix)


# Key-less rules from which their literals are indexed (`_LiteralIndex`) rather than
# ruled out by one regex: a regex of thousands of literals takes a second to compile.
_LITERAL_INDEX_FROM = 256
# Rules of a selection from which another engine's matching tests only `CandidateRules`' choice.
MANY_RULES = _LITERAL_INDEX_FROM
_GRAM = 3  # literals are indexed by their first (or, when they end the target, last) characters


class _LiteralIndex:
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
        self._built: dict[int, _Entry] = {}
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
            end = literal[-1] == _END  # literals are never empty
            text = literal[:-1] if end else literal
            if len(text) < _GRAM:
                self._short.append((text, end, position))
            elif end:
                self._tails.setdefault(text[-_GRAM:], []).append((text, position))
            else:
                self._heads.setdefault(text[:_GRAM], []).append((text, position))

    def positions(self, target: str) -> list[int]:
        """The positions (in `rules`, ascending) of the rules whose literal `target` contains or ends with."""
        found = [p for text, end, p in self._short if (target.endswith(text) if end else text in target)]
        found += [p for text, p in self._tails.get(target[-_GRAM:], ()) if target.endswith(text)]
        pieces = {target[i : i + _GRAM] for i in range(len(target) - _GRAM + 1)}
        for head in pieces.intersection(self._heads):
            found += [p for text, p in self._heads[head] if text in target]
        found.sort()
        return found

    def entries(self, target: str) -> list[_Entry]:
        built = self._built
        return [built.get(p) or built.setdefault(p, _entry(self._rules[p])) for p in self.positions(target)]


class CandidateRules:
    """Which of many rules can match a target, for an engine that tests them one by one with its own matcher.

    `pieces` is the engine's reading of a pattern (its literal pieces and end
    anchor): a rule can match only a target that contains every piece after
    the first (and ends with the last, when anchored), so the rules are
    indexed by the rarest such literal (`_LiteralIndex`) and only those the
    target meets are returned, with the rules that need no literal, in
    their given order. `always` marks rules to test every time (a second
    pattern the engine also tries).
    """

    __slots__ = ("_always", "_index", "_indexed", "_rules")

    def __init__(self, rules: Sequence[Rule], pieces: Callable[[str], Pattern], always: Callable[[Rule], bool]) -> None:
        self._rules = tuple(rules)
        needs = [[] if always(rule) else _needed(pieces(rule.normalised)) for rule in self._rules]
        self._indexed = [i for i, need in enumerate(needs) if need]
        self._always = [i for i, need in enumerate(needs) if not need]
        self._index = _LiteralIndex([self._rules[i] for i in self._indexed], [needs[i] for i in self._indexed])

    def of(self, target: str) -> list[Rule]:
        """The rules that may match `target` (a superset of those that do), in their given order."""
        indexed = self._indexed
        found = sorted([*self._always, *(indexed[p] for p in self._index.positions(target))])
        return [self._rules[i] for i in found]


# Targets a rule set is asked about before its regex filter is compiled. Measured: the
# regex costs as much to build as 45-75 scans of the rules it filters save (6 to 200
# literals alike), so compiling after that many asks never costs more than twice the
# better choice in hindsight, and a crawler asking a few dozen URLs of a host never pays.
_COMPILE_AFTER = 64


class _Union:
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
        if self._asked >= _COMPILE_AFTER:
            self._search = re.compile("(?s)" + _union(self._literals)).search
        return True


# Rule sets of at most this many rules keep all their rules in one bucket, built at
# once: on the corpus most crawlers' rules are this few, and building buckets per
# two characters costs more than it saves for them.
_SMALL = 16


# What crawlers that select the same groups share: everything a rule set holds but its token and groups.
_SHARED = (
    "_anywhere",
    "_buckets",
    "_everything",
    "_fallback",
    "_filter",
    "_grouped",
    "_literals",
    "_no_keyed",
    "_one",
    "_rekeyed",
    "_rules",
    "group_lines",
    "has_rules",
)


class RuleSet:
    """The rules that apply to one crawler (its groups merged), indexed for matching.

    A small set (at most `_SMALL` rules) is one bucket, sorted once. A larger
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
        self._buckets: dict[str, _Bucket] = {}
        small = len(rules) <= _SMALL
        if small:
            ordered = best_first(rules)
            keyed: list[Rule] = []
            anywhere: list[Rule] = []
            for key, rule in zip(_bucket_keys(ordered), ordered):
                (keyed if key else anywhere).append(rule)
            self._grouped: tuple[Rule, ...] = ()
            self._rekeyed: dict[str, list[Rule]] = {}
        else:
            anywhere = self._sort_by_start(rules)
        # A rule that matches every target (`Allow: /`, `Disallow: /`, `/*`) decides
        # only when nothing better matches: kept aside (the best of them), it does not
        # make every target meet every rule of its bucket.
        # Only `/`, `*` and `$` can make up a pattern that covers every target (most sets have none).
        everything = [rule for rule in anywhere if not rule.normalised.strip("/*$") and matches_every_target(rule.normalised)]
        rest = [rule for rule in anywhere if rule not in everything] if everything else anywhere
        self._everything = tuple(everything)
        self._fallback = everything[0] if everything else None
        self._literals: _LiteralIndex | None = None
        if len(rest) >= _LITERAL_INDEX_FROM:
            needs = [_needed(compile_pattern(rule.normalised)) for rule in rest]
            if all(needs):
                self._literals = _LiteralIndex(rest, needs)  # it builds each entry when a target can meet it
                self._anywhere: list[_Entry] = []
                self._filter = None
        if self._literals is None:
            self._anywhere = [_entry(rule) for rule in rest]
            # An entry keeps its compiled pattern; a plain one (no `*` or `$`) needs no literal.
            needs = [[] if pattern is None else _needed(pattern) for _, _, _, pattern, _ in self._anywhere]
            self._filter = self._anywhere_filter({_required(needed) for needed in needs}, small)
        self._one = _make_bucket([_entry(rule) for rule in keyed], self._anywhere) if small else None
        # A large set's bucket of every key no rule starts with (one shared, when there are no key-less rules).
        self._no_keyed = _make_bucket([], self._anywhere) if self._anywhere and not small else _NO_RULES

    def with_token(self, token: str) -> RuleSet:
        """The same rules for another crawler that selects the same groups: the index is shared, not rebuilt."""
        return RuleSet(token, self.groups, self)

    @staticmethod
    def _anywhere_filter(literals: set[str | None], small: bool) -> Callable[[str], object] | None:
        """A test that is false for every target no key-less rule can match (None: no such test).

        One required literal is tested with `in` or `endswith`; many with one
        regex search. For a few, or in a small set, scanning the rules
        themselves costs less than compiling a regex would save.
        """
        if not literals or None in literals or (1 < len(literals) and (small or len(literals) < _REGEX_FILTER_FROM)):
            return None
        if len(literals) == 1:
            literal = str(literals.pop())
            return _EndsWith(literal[:-1]) if literal.endswith(_END) else _Contains(literal)
        return _Union(literals)  # type: ignore[arg-type]  # None excluded above

    def _sort_by_start(self, rules: list[Rule]) -> list[Rule]:
        """Sort a large set's rules by pattern (in C), so each two-character key is a range; return the key-less ones.

        A rule is keyed by its first two characters unless they hold a `*` (key
        "": it can match anywhere) or a `$` (its literal start is `%24`...):
        only those few, found by bisection, are looked at one by one.
        """
        grouped = self._grouped = tuple(sorted(rules, key=_NORMALISED))
        self._rekeyed = {}
        slash, after = bisect_left(grouped, "/", key=_NORMALISED), bisect_left(grouped, "0", key=_NORMALISED)
        singles = bisect_left(grouped, "/\x00", key=_NORMALISED)  # exactly "/"
        odd = [*grouped[:slash], *grouped[slash:singles], *grouped[after:], *self._range("/$")]  # not led by "/", or "/" alone
        anywhere = list(self._range("/*"))  # no fixed start: no key to look up
        for key, rule in zip(_bucket_keys(odd), odd):
            if key:
                self._rekeyed.setdefault(key, []).append(rule)
            else:
                anywhere.append(rule)
        return best_first(sorted(anywhere, key=_LINE))

    def _range(self, key: str) -> tuple[Rule, ...]:
        """The rules of a large set whose pattern starts with the two characters `key`."""
        after = key[0] + chr(ord(key[1]) + 1)
        grouped = self._grouped
        return grouped[bisect_left(grouped, key, key=_NORMALISED) : bisect_left(grouped, after, key=_NORMALISED)]

    def _bucket_for(self, target: str) -> _Bucket:
        """The bucket of the rules `target` can meet (`winner` inlines the same lookup)."""
        if self._one is not None:
            return self._one
        return self._buckets.get(target[:2]) or self._bucket(target[:2])

    def _bucket(self, key: str) -> _Bucket:
        """The keyed rules that can match a target starting with `key`, in priority order."""
        rules = [*self._range(key), *self._rekeyed.get(key, ())] if len(key) == 2 and "$" not in key and "*" not in key else []
        bucket = _make_bucket([_entry(rule) for rule in best_first(sorted(rules, key=_LINE))], self._anywhere) if rules else self._no_keyed
        if len(self._buckets) >= _MAX_BUCKETS:
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

    def candidates(self, target: str) -> tuple[Rule, ...]:
        """Every rule that matches `target`, best first.

        The explain path: the same buckets, index and filter as `winner`, so
        only the rules that can match `target` are tried, but every one of them.
        """
        bucket = self._bucket_for(target)
        found: list[Rule] = [*self._everything] if self._everything else []
        if target.startswith(bucket.starts):
            if bucket.lengths:
                size, prefixes = len(target), bucket.prefixes
                for length in bucket.lengths:
                    if length <= size:
                        found.extend(prefixes.get(target[:length], ()))
            _add_matching(bucket.others, target, found)
        if self._literals is not None:
            found += [_ENTRY_RULE(entry) for entry in self._literals.entries(target) if _entry_matches(entry, target)]
        elif self._anywhere and (self._filter is None or self._filter(target)):
            _add_matching(self._anywhere, target, found)
        if len(found) > 1:
            found.sort(key=priority)
        return tuple(found)

    def winner(self, target: str) -> Rule | None:
        """The deciding rule alone (the best matching rule), on the fast path."""
        bucket = self._one
        if bucket is None:
            bucket = self._buckets.get(target[:2])
            if bucket is None:
                bucket = self._bucket(target[:2])
        keyed_possible = target.startswith(bucket.starts)
        entries: list[_Entry] | None
        best: Rule | None = None
        literals = self._literals
        # Key-less rules (led by `*` or `/*`) can match any target, unless the filter says none can.
        if literals is None and self._anywhere and (self._filter is None or self._filter(target)):
            entries = bucket.merged
            if entries is None:
                entries = bucket.merged = list(heapq.merge(bucket.others, self._anywhere, key=_by_priority))
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
        if literals is not None:  # many key-less rules: the first of those the target can meet that matches
            found = next((_ENTRY_RULE(entry) for entry in literals.entries(target) if _entry_matches(entry, target)), None)
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

    def verdict(self, url: str) -> Verdict:
        """The full verdict for `url`, with every matching rule."""
        plain = plain_target(url)  # url_target(url), its fast path inlined
        target = url_target(url) if plain is None else plain[1]
        candidates = self.candidates(target) if self.has_rules else ()
        allowed, reason = outcome(candidates[0] if candidates else None, target, bool(self.groups))
        winner = candidates[0] if reason is _BY_RULE else None
        line = None if winner is None else winner.line
        # tuple.__new__: NamedTuple's generated __new__ costs twice as much, on every verdict.
        return _new_tuple(Verdict, (allowed, winner, line, reason, self.token, self.group_lines, candidates, url, target, None))


_new_tuple = tuple.__new__
