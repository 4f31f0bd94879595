"""Checks of what rules do together: blocked sites, dropped rules, dead rules, rule order."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from itertools import islice

from ..crawlers import search_engines
from ..matcher import priority
from ..messages import Message, message
from ..model import Group, Rule, Severity
from ..patterns import Pattern, compile_pattern, example_target, matches, matches_every_target
from ..robots import Robots
from ..rulebook import Rulebook, group_positions, groups_by_token
from . import Budget, Hit, check

_ASSET_PATTERN = re.compile(r"\.(?:css|js|mjs)\b|/(?:assets|static|css|js|scripts|styles|wp-includes|_next|dist|build)(?:/|$)", re.IGNORECASE)


def example_path(rule: Rule) -> str:
    return example_target(rule.normalised)


def _blocks_everything(rule: Rule) -> bool:
    return not rule.allow and matches_every_target(rule.normalised)


@check("blocksAll", Severity.WARNING)
def blocks_all(robots: Robots) -> Iterator[Hit]:
    # A complete block of a search engine is almost never meant; of other named
    # crawlers (AI, SEO tools) it usually is.
    engines = search_engines()
    for group in robots.groups:
        blocker = next((r for r in group.rules if _blocks_everything(r)), None)
        if blocker is None or any(r.allow and r.pattern for r in group.rules):
            continue
        lines = (*group.agent_lines, blocker.line)
        if "*" in group.agents:
            yield Hit(blocker.line, message("lint.blocksAll.star"), message("fix.blocksAll.star"), lines=lines)
        elif engines.intersection(group.agents):
            named = sorted(engines.intersection(group.agents))
            yield Hit(blocker.line, message("lint.blocksAll.search", engines=named), message("fix.blocksAll"), lines=lines)


# Messages name this many examples; past the step budget a check looks at only
# _QUICK_CHECKS candidates for each, enough to find them on files built to be slow.
_SHOWN = 5
_QUICK_CHECKS = 50


@check("namedGroupDropsGlobalRules", Severity.WARNING)
def named_group_drops_global_rules(robots: Robots) -> Iterator[Hit]:
    book = Rulebook(robots)
    global_groups = book.applying.get("*", ())
    if not global_groups:
        return
    # Rules that match something, once per pattern (patternNoSlash covers the others), but
    # not a block of everything: repeating that in a named group would block the crawler
    # the group exists for (an "only this crawler may crawl" file is meant as it is).
    global_disallows = list(
        {
            r.normalised: r
            for g in reversed(global_groups)
            for r in reversed(g.rules)
            if not r.allow and r.pattern[:1] in ("/", "*") and not matches_every_target(r.normalised)
        }.values()
    )[::-1]
    probes = [(rule, example_path(rule)) for rule in global_disallows]
    blocking = {g.position for g in robots.groups if any(_blocks_everything(r) for r in g.rules)}
    # Crawlers that share exactly the same groups share one finding.
    tokens_by_groups: dict[tuple[int, ...], list[str]] = defaultdict(list)
    for token, groups in book.applying.items():
        if token != "*":
            tokens_by_groups[group_positions(groups)].append(token)
    budget = Budget()
    for positions, tokens in tokens_by_groups.items():
        if blocking.intersection(positions):
            continue
        named = book.applying[tokens[0]]
        if _allows_everything(named):
            continue  # `Disallow:` or `Allow: /` alone: this crawler is meant to fetch everything
        exact = budget.take(len(probes))
        # Dropped: a `*` disallow no rule of the named group meets. Where the named group
        # has its own allow for the path, it allows it by design.
        allowed = (rule for rule, path in (probes if exact else probes[:_QUICK_CHECKS]) if book.best(tokens[0], path) is None)
        dropped = list(allowed if exact else islice(allowed, _SHOWN + 1))
        if not dropped:
            continue
        shown = [message("lint.rule-at", pattern=r.pattern, line=r.line) for r in dropped[:_SHOWN]]
        if exact:
            more = message("lint.more", count=len(dropped) - _SHOWN) if len(dropped) > _SHOWN else message("lint.nothing")
        elif len(dropped) > _SHOWN or len(probes) > _QUICK_CHECKS:
            more = message("lint.maybe-more")
        else:
            more = message("lint.nothing")
        # Every user-agent line of the groups, unless a group many crawlers share makes that quadratic.
        if budget.take(sum(len(g.agent_lines) for g in named)):
            group_lines = sorted(n for g in named for n in g.agent_lines)
        else:
            group_lines = [min(g.agent_lines[0] for g in named)]
        yield Hit(
            group_lines[0],
            message("lint.namedGroupDropsGlobalRules", agents=tokens, count=len(tokens), rules=shown, more=more),
            message("fix.namedGroupDropsGlobalRules", line=f"Disallow: {dropped[0].pattern}"),
            lines=(*group_lines, *(r.line for r in dropped)),
        )


def _allows_everything(groups: tuple[Group, ...]) -> bool:
    """True when the groups' only rules say "everything is allowed": empty Disallows and allows of `/`."""
    rules = [r for g in groups for r in g.rules]
    return bool(rules) and all((not r.allow and not r.normalised) or (r.allow and matches_every_target(r.normalised)) for r in rules)


def _shadowed(rules: Iterable[Rule], reported: set[int]) -> Iterator[Hit]:
    """A hit for each rule that another of `rules` with the same pattern beats, each line once."""
    by_pattern: dict[str, list[Rule]] = defaultdict(list)
    for rule in rules:
        by_pattern[rule.normalised].append(rule)
    for same in by_pattern.values():
        if len(same) < 2:
            continue
        winner = min(same, key=lambda r: (not r.allow, r.line))
        for rule in same:
            if rule is winner or rule.line in reported:
                continue
            reported.add(rule.line)
            if rule.allow == winner.allow:
                found, fix = message("lint.shadowedRule.repeat", other=winner.line), message("fix.shadowedRule.repeat")
            else:
                found, fix = message("lint.shadowedRule.tie", other=winner.line), message("fix.shadowedRule.tie")
            yield Hit(rule.line, found, fix, lines=(rule.line, winner.line))


@check("shadowedRule", Severity.WARNING)
def shadowed_rule(robots: Robots) -> Iterator[Hit]:
    # The rules of every group that applies to a crawler compete. A pattern that only
    # one group holds competes the same way whichever groups are merged with it, so
    # it is settled once in its group; only patterns several groups hold are
    # compared again for each set of groups some crawler merges, first crawler first
    # (which decides the winner a message names).
    holders = Counter(p for g in robots.groups for p in {r.normalised for r in g.rules if r.normalised})
    shared = {g.position: [r for r in g.rules if holders[r.normalised] > 1] for g in robots.groups}
    reported: set[int] = set()
    for group in robots.groups:
        if group.agents:  # a group no crawler selects decides nothing
            yield from _shadowed((r for r in group.rules if holders[r.normalised] == 1), reported)
    merged: set[tuple[int, ...]] = set()
    for groups in groups_by_token(robots).values():
        positions = group_positions(groups)
        if positions not in merged:
            merged.add(positions)
            yield from _shadowed((r for g in groups for r in shared[g.position]), reported)


class _EarlierDisallows:
    """The disallows of one group whose example paths begin with the same two characters.

    Only the first rule of each pattern is kept (it is the earliest). Plain
    patterns (no `*` or `$`) match the paths they begin, so they are looked up
    by the path's prefix of each length they come in; the others are tried in
    line order, so the first that matches is the earliest.
    """

    def __init__(self) -> None:
        self._plain: dict[str, Rule] = {}
        self._wildcards: dict[str, Rule] = {}
        self._lengths: list[int] = []
        self._compiled: list[tuple[Rule, Pattern]] = []
        self._lines: list[int] = []

    def add(self, rule: Rule) -> None:
        """Keep `rule` (given in file order) unless its pattern is kept already."""
        kept = self._plain if "*" not in rule.normalised and "$" not in rule.normalised else self._wildcards
        kept.setdefault(rule.normalised, rule)

    def seal(self) -> None:
        """Index what was added; call once, before `first`."""
        self._lengths = sorted({len(pattern) for pattern in self._plain})
        self._compiled = [(rule, compile_pattern(rule.normalised)) for rule in self._wildcards.values()]
        self._lines = [rule.line for rule in self._wildcards.values()]

    def first(self, path: str, allow: Rule, budget: Budget) -> Rule | None:
        """The earliest of these disallows that stands before `allow`, is shorter and matches `path`."""
        best: Rule | None = None
        for length in self._lengths:
            if length >= allow.length or length > len(path):
                break
            rule = self._plain.get(path[:length])
            if rule is not None and rule.line < allow.line and (best is None or rule.line < best.line):
                best = rule
        before = bisect_left(self._lines, allow.line if best is None else best.line)
        tried = before if budget.take(before) else min(before, _QUICK_CHECKS)
        for rule, pattern in islice(self._compiled, tried):
            if rule.length < allow.length and matches(pattern, path):
                return rule
        return best


def first_match_order_fix(group: Group) -> Message:
    """The fix of a firstMatchOrder finding: an order of the group's rules that serves both kinds of parser.

    Longest first (allow before disallow of the same length: RFC 9309's own
    ranking) makes the first matching line the longest match, so a
    first-match parser and an RFC 9309 one agree. Moving one allow up alone
    can let it shadow a longer disallow below it. With wildcards no order
    serves both: first-match parsers read `*` and `$` literally.
    """
    rules = [r for r in group.rules if r.normalised]
    if any("*" in r.normalised or "$" in r.normalised for r in rules):
        return message("fix.firstMatchOrder.wildcards")
    order = [r.line for r in sorted(rules, key=priority)]
    if len(order) > _ORDER_SHOWN:
        return message("fix.firstMatchOrder.sort", count=len(order), order=order)
    return message("fix.firstMatchOrder", order=order)


_ORDER_SHOWN = 12  # line numbers a fix lists; a longer group is told to sort its rules


@check("firstMatchOrder", Severity.WARNING)
def first_match_order(robots: Robots) -> Iterator[Hit]:
    budget = Budget()
    for group in robots.groups:
        # An allow meets the disallows whose example path begins like its own, and those
        # whose example path is `/` (`Disallow: /`, `/*`).
        disallows: dict[str, _EarlierDisallows] = defaultdict(_EarlierDisallows)
        for rule in group.rules:
            if not rule.allow and rule.normalised:
                disallows[example_path(rule)[:2]].add(rule)
        for kept in disallows.values():
            kept.seal()
        fix: Message | None = None  # one for the group, made on its first finding
        for rule in group.rules:
            if not rule.allow or not rule.normalised:
                continue
            path = example_path(rule)
            found = (disallows[key].first(path, rule, budget) for key in dict.fromkeys((path[:2], "/")) if key in disallows)
            earlier = [d for d in found if d is not None]
            if earlier:
                first = min(earlier, key=lambda d: d.line)
                if fix is None:
                    fix = first_match_order_fix(group)
                yield Hit(rule.line, message("lint.firstMatchOrder", other=first.line, path=path), fix, lines=(rule.line, first.line))


@check("blocksAssets", Severity.WARNING)
def blocks_assets(robots: Robots) -> Iterator[Hit]:
    book = Rulebook(robots)
    for group in robots.groups:
        if not group.agents:
            continue
        for rule in group.rules:
            if rule.allow or not rule.pattern or not _ASSET_PATTERN.search(rule.pattern):
                continue
            path = example_path(rule)
            asset = path if re.search(r"\.(?:css|js|mjs)$", path) else path.rstrip("/") + "/app.js"
            winner = book.best(group.agents[0], asset)  # the group's first crawler stands for all
            if winner is not None and winner.line == rule.line:
                yield Hit(rule.line, message("lint.blocksAssets", asset=asset), message("fix.blocksAssets"))
