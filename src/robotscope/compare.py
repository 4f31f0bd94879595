"""Verdicts side by side: across crawlers (`matrix`) and across file versions (`diff`).

`matrix` applies each crawler's documented operator behaviour (its profile:
a fallback group, or ignoring the `*` group) on top of the RFC 9309 verdict
and says when that changed the answer. `diff` answers "which crawler/URL
pairs flip between allowed and disallowed?", not "which lines changed?":
reordering, comments and equivalent rewrites flip nothing. Pure: it only
calls the core.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NamedTuple, Protocol

from .crawlers import PURPOSES, Crawler
from .matcher import RuleSet, is_robots_txt, priority
from .model import Group, Reason, Rule, Verdict
from .patterns import Pattern, compile_pattern, example_target, matches
from .robots import Robots
from .urls import target
from .useragents import product_token

# The crawler standing for "any crawler without a group of its own".
ANY_CRAWLER = "*"


class Flip(NamedTuple):
    """An agent/URL pair whose verdict differs between the old and the new file."""

    agent: str
    url: str
    old: Verdict
    new: Verdict

    def as_dict(self) -> dict[str, Any]:
        return {"agent": self.agent, "url": self.url, "old": self.old.as_dict(), "new": self.new.as_dict()}


class ProfiledVerdict(NamedTuple):
    """A crawler's verdict with its operator's documented behaviour applied.

    `rfc` is the plain RFC 9309 verdict for its token; `profile` says how the
    profile chose the group used (None when it did not apply), and `changed`
    whether that changed the answer.
    """

    verdict: Verdict
    rfc: Verdict
    profile: str | None

    @property
    def changed(self) -> bool:
        return self.verdict.allowed != self.rfc.allowed

    def as_dict(self) -> dict[str, Any]:
        return {**self.verdict.as_dict(), "rfc_allowed": self.rfc.allowed, "profile": self.profile, "changed": self.changed}


def apply_profile(robots: Robots, crawler: Crawler, url: str) -> ProfiledVerdict:
    """The verdict for `crawler`, with its documented fallback or `*`-group behaviour applied."""
    rfc = robots.verdict(crawler.token, url)
    named = {t for g in robots.groups for t in g.agents}
    token = crawler.token.lower()
    if token in named:
        return ProfiledVerdict(rfc, rfc, None)
    if crawler.fallback and crawler.fallback.lower() in named:
        note = f"no group names {crawler.token}; {crawler.operator} documents that it then obeys the {crawler.fallback} group"
        return ProfiledVerdict(robots.verdict(crawler.fallback, url), rfc, note)
    if crawler.ignores_global and "*" in named:
        note = f"{crawler.operator} documents that {crawler.token} ignores the `*` group and obeys only groups naming it"
        return ProfiledVerdict(RuleSet(token, ()).verdict(url), rfc, note)
    return ProfiledVerdict(rfc, rfc, None)


class MatrixRow(NamedTuple):
    """One crawler's verdicts for each path of a matrix."""

    crawler: Crawler
    cells: tuple[ProfiledVerdict, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"crawler": self.crawler.as_dict(), "cells": [c.as_dict() for c in self.cells]}


def matrix(robots: Robots, crawlers: Iterable[Crawler], paths: Sequence[str]) -> list[MatrixRow]:
    """Crawlers (rows, grouped by purpose) by paths (columns), profiles applied."""
    rows = [MatrixRow(c, tuple(apply_profile(robots, c, p) for p in paths)) for c in crawlers]
    rows.sort(key=lambda r: PURPOSES.index(r.crawler.purpose) if r.crawler.purpose in PURPOSES else len(PURPOSES))
    return rows


def groups_by_token(robots: Robots) -> dict[str, tuple[Group, ...]]:
    """Every token the file names (`*` too), in order of first mention, with the groups that apply to it.

    The groups naming it: what `select_groups` returns for each, but in one
    pass over the file rather than one pass over every group per token.
    """
    naming: dict[str, list[Group]] = {}
    for group in robots.groups:
        for token in dict.fromkeys(group.agents):
            naming.setdefault(token, []).append(group)
    return {token: tuple(groups) for token, groups in naming.items()}


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
            yield from (rule for rule, pattern in self.ends.get(target[size - length :], ()) if matches(pattern, target))
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
        return [copy for rule in self._first_copies(target) for copy in self._copies.get((rule.allow, rule.normalised), (rule,))]

    def best(self, target: str) -> Rule | None:
        """The best rule that matches `target` (None: none does)."""
        return min(self._first_copies(target), key=priority, default=None)


# A crawler named in this many groups or more is answered from one index of their
# rules merged; below that, group by group, so that a group many crawlers share is
# indexed once rather than once for each of them.
_MERGED_FROM = 8


class Rulebook:
    """One file's rules, indexed for many questions: for any crawler, the groups that apply and the rules that match.

    Each group is indexed once, on first use (see `RuleIndex`); the answers
    equal those of `Robots.rules_for(token)` without building a `RuleSet` for
    every crawler.
    """

    def __init__(self, robots: Robots) -> None:
        self.applying = groups_by_token(robots)
        self._global = self.applying.get("*", ())
        self._by_group: dict[int, RuleIndex] = {}
        self._merged: dict[str, RuleIndex] = {}

    def groups(self, token: str) -> tuple[Group, ...]:
        """The groups that apply to a product token (or `*`): those naming it, else the `*` groups."""
        return self.applying.get(token) or self._global

    def _indexes(self, token: str) -> list[RuleIndex]:
        groups = self.groups(token)
        if len(groups) < _MERGED_FROM:
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


def agents_named(*files: Robots) -> list[str]:
    """Every product token the files name, then `*` for every other crawler."""
    tokens = dict.fromkeys(t for robots in files for g in robots.groups for t in g.agents if t != "*")
    return [*tokens, ANY_CRAWLER]


def probe_urls(*files: Robots) -> list[str]:
    """URLs derived from the files' rules: one example target per pattern, and `/`."""
    paths = dict.fromkeys(
        example_target(rule.normalised)
        for robots in files
        for group in robots.groups
        for rule in group.rules
        if rule.normalised[:1] in ("/", "*")
    )
    return ["/", *(p for p in paths if p != "/")]


class Answers(Protocol):
    """Anything that answers verdicts: a `Robots`, or a fetched file with its policy decision."""

    def verdict(self, agent: str, url: str) -> Verdict: ...


def diff(old: Answers, new: Answers, urls: Iterable[str], agents: Sequence[str], *, limit: int | None = None) -> list[Flip]:
    """The agent/URL pairs whose verdict flips from `old` to `new`, in agent then URL order.

    For two parsed files, `probe_urls(old, new)` and `agents_named(old, new)`
    give the URLs their rules cover and every crawler they name, and the flips
    are found without asking every agent about every URL (see `_FileDiff`).
    Other answers (a fetch's decision) are asked about every pair. `limit`
    stops at that many flips: thousands of crawlers can each flip at
    thousands of URLs, and each flip carries two full verdicts.
    """
    url_list = list(urls)
    if isinstance(old, Robots) and isinstance(new, Robots):
        return _FileDiff(old, new, url_list).flips(agents, limit)
    flips: list[Flip] = []
    for agent in agents:
        for url in url_list:
            if len(flips) == limit:
                return flips
            before, after = old.verdict(agent, url), new.verdict(agent, url)
            if before.allowed != after.allowed:
                flips.append(Flip(agent, url, before, after))
    return flips


class _FileDiff:
    """The flips between two parsed files, found in time near-linear in the files and the flips.

    Whether a URL is allowed depends only on which (allow, pattern) pairs of
    the crawler's groups match it. So crawlers that select the same groups in
    both files flip at the same URLs; groups that hold the same pairs in both
    files cancel out; and only URLs that a remaining pair matches can flip.
    Those are found from the URLs sorted (a pattern matches only URLs that begin
    with its literal start) and tested through each file's `Rulebook`; only the
    flips get full verdicts.
    """

    def __init__(self, old: Robots, new: Robots, urls: list[str]) -> None:
        self.books = Rulebook(old), Rulebook(new)
        self.urls = urls
        self.targets = [target(url) for url in urls]
        self._sorted = sorted(range(len(urls)), key=self.targets.__getitem__)
        self._sorted_targets = [self.targets[i] for i in self._sorted]
        self._matched: dict[str, list[int]] = {}
        self._blocks: dict[tuple[int, int], tuple[str, list[int]]] = {}  # runs of sorted targets, joined
        # Each group's (allow, pattern) pairs, as an id shared by every group of either file holding the same.
        self._kind_ids: dict[frozenset[tuple[bool, str]], int] = {}
        self._kinds: list[frozenset[tuple[bool, str]]] = []
        self._group_kinds: tuple[dict[int, int], dict[int, int]] = {}, {}

    def flips(self, agents: Sequence[str], limit: int | None) -> list[Flip]:
        keys: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {}  # by product token
        flipping: dict[tuple[tuple[int, ...], tuple[int, ...]], list[int]] = {}  # by the groups' positions
        lines: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, ...], tuple[int, ...]]] = {}
        flips: list[Flip] = []
        for agent in agents:
            if len(flips) == limit:
                break
            token = product_token(agent)
            key = keys.get(token)
            if key is None:
                key = keys[token] = (group_positions(self.books[0].groups(token)), group_positions(self.books[1].groups(token)))
            found = flipping.get(key)
            if found is None:
                found = flipping[key] = self._flipping(token)
            if found and key not in lines:
                lines[key] = (self._agent_lines(0, token), self._agent_lines(1, token))
            for index in found[: None if limit is None else limit - len(flips)]:
                url = self.urls[index]
                before, after = (self._verdict(side, lines[key][side], token, url) for side in (0, 1))
                flips.append(Flip(agent, url, before, after))
        return flips

    def _agent_lines(self, side: int, token: str) -> tuple[int, ...]:
        return tuple(sorted(n for g in self.books[side].groups(token) for n in g.agent_lines))

    def _verdict(self, side: int, agent_lines: tuple[int, ...], token: str, url: str) -> Verdict:
        """The full verdict, from a `RuleSet` of just the rules that match (and the user-agent lines it reports)."""
        if not agent_lines:  # no group applies
            return RuleSet(token, ()).verdict(url)
        matching = tuple(self.books[side].matching(token, target(url)))
        return RuleSet(token, (Group(0, (), agent_lines, matching, ()),)).verdict(url)

    def _flipping(self, token: str) -> list[int]:
        """The indexes of the URLs whose verdict flips for `token`, in URL order."""
        patterns = {pattern for _, pattern in self._changed(token)}
        maybe = sorted({i for pattern in patterns for i in self._matching(pattern)})
        old, new = self.books
        return [
            i
            for i in maybe
            if (old.allows(token, self.targets[i]) != new.allows(token, self.targets[i])) and not is_robots_txt(self.targets[i])
        ]

    def _changed(self, token: str) -> frozenset[tuple[bool, str]]:
        """(allow, pattern) pairs only one file's groups for `token` hold, and maybe some both hold.

        Groups holding the same pairs in both files are left out first:
        (A | R) ^ (B | R) is within A ^ B.
        """
        held = [[self._kind_id(side, g) for g in self.books[side].groups(token)] for side in (0, 1)]
        both = Counter(held[0]) & Counter(held[1])
        unions = []
        for ids in held:
            left = Counter(ids) - both
            unions.append(frozenset().union(*(self._kinds[i] for i in left)))
        return unions[0] ^ unions[1]

    def _kind_id(self, side: int, group: Group) -> int:
        known = self._group_kinds[side].get(group.position)
        if known is None:
            kinds = frozenset((r.allow, r.normalised) for r in group.rules if r.normalised)
            known = self._kind_ids.setdefault(kinds, len(self._kinds))
            if known == len(self._kinds):
                self._kinds.append(kinds)
            self._group_kinds[side][group.position] = known
        return known

    def _matching(self, normalised: str) -> list[int]:
        """The indexes of the URLs a pattern matches."""
        found = self._matched.get(normalised)
        if found is None:
            pattern = compile_pattern(normalised)
            start = pattern.pieces[0]
            low = bisect_left(self._sorted_targets, start)
            high = bisect_left(self._sorted_targets, start + "\U0010ffff", low)
            if "*" not in normalised and "$" not in normalised:  # it matches every URL it begins
                found = [self._sorted[k] for k in range(low, high)]
            else:
                begun = self._containing(low, high, max(pattern.pieces[1:], key=len, default=""))
                found = [self._sorted[k] for k in begun if matches(pattern, self._sorted_targets[k])]
            self._matched[normalised] = found
        return found

    def _containing(self, low: int, high: int, literal: str) -> Iterable[int]:
        """The positions among the sorted URLs `low` to `high` whose target contains `literal`.

        Many wildcard rules with the same start (`/a*b1`, `/a*b2`, ...) each
        meet every URL that begins with it: one `str.find` over those URLs
        joined finds the few that hold the rest of the pattern.
        """
        if not literal or high - low < 2:
            return range(low, high)
        block = self._blocks.get((low, high))
        if block is None:
            text = "\n".join(self._sorted_targets[low:high])  # targets never hold a line break
            starts = [0]
            for t in self._sorted_targets[low : high - 1]:
                starts.append(starts[-1] + len(t) + 1)
            block = self._blocks[(low, high)] = (text, starts)
        text, starts = block
        found = []
        at = text.find(literal)
        while at >= 0:
            k = bisect_right(starts, at) - 1
            found.append(low + k)
            at = text.find(literal, starts[k + 1]) if k + 1 < len(starts) else -1
        return found


class BulkRow(NamedTuple):
    """The verdict for one URL of a bulk check, without the candidate list (the fast path)."""

    url: str
    agent_token: str
    allowed: bool
    reason: str
    line: int | None
    rule: str | None  # the deciding rule as written, e.g. `Disallow: /private/`

    def as_dict(self) -> dict[str, Any]:
        return self._asdict()


def bulk_row(robots: Robots, agent: str, url: str) -> BulkRow:
    """The fast verdict for one URL: the deciding rule found on the matcher's fast path."""
    ruleset = robots.rules_for(agent)
    path = target(url)
    rule = ruleset.winner(path)
    if is_robots_txt(path):
        return BulkRow(url, ruleset.token, True, Reason.ROBOTS_TXT.value, None, None)
    if rule is None:
        reason = Reason.NO_MATCH if ruleset.groups else Reason.NO_GROUP
        return BulkRow(url, ruleset.token, True, reason.value, None, None)
    written = f"{'Allow' if rule.allow else 'Disallow'}: {rule.pattern}"
    return BulkRow(url, ruleset.token, rule.allow, Reason.RULE.value, rule.line, written)
