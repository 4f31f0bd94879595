"""Checks of what rules do together: blocked sites, dropped rules, dead rules, rule order."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from itertools import islice

from ...access.matching.precedence import priority
from ...access.matching.rulebook import Rulebook, group_positions
from ...access.robots import Robots
from ...messages import Message, message
from ...syntax.crawlers import search_engines
from ...syntax.model import Edit, Group, Rule, Severity
from ...syntax.patterns import example_target, matches_every_target
from .registry import Budget, Hit, check, replace_line

_ASSET_PATTERN = re.compile(
    r"\.(?:css|js|mjs)\b|/(?:assets|static|css|js|scripts|styles|wp-includes|_next|dist|build)(?:/|$)", re.IGNORECASE
)


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
            yield Hit(
                blocker.line, message("lint.blocksAll.search", engines=named), message("fix.blocksAll"), lines=lines
            )


# Messages name this many examples; past the step budget a check looks at only
# _QUICK_CHECKS candidates for each, enough to find them on files built to be slow.
_SHOWN = 5
_QUICK_CHECKS = 50


@check("namedGroupDropsGlobalRules", Severity.WARNING)
def named_group_drops_global_rules(robots: Robots) -> Iterator[Hit]:
    book = Rulebook(robots.group_index)
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
        allowed = (
            rule for rule, path in (probes if exact else probes[:_QUICK_CHECKS]) if book.best(tokens[0], path) is None
        )
        dropped = list(allowed if exact else islice(allowed, _SHOWN + 1))
        if not dropped:
            continue
        shown = [message("lint.rule-at", pattern=r.pattern, line=r.line) for r in dropped[:_SHOWN]]
        if exact:
            more = (
                message("lint.more", count=len(dropped) - _SHOWN) if len(dropped) > _SHOWN else message("lint.nothing")
            )
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
    return bool(rules) and all(
        (not r.allow and not r.normalised) or (r.allow and matches_every_target(r.normalised)) for r in rules
    )


def _shadowed(robots: Robots, rules: Iterable[Rule], reported: set[int]) -> Iterator[Hit]:
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
            edit = None
            if rule.allow == winner.allow:
                found, fix = message("lint.shadowedRule.repeat", other=winner.line), message("fix.shadowedRule.repeat")
                edit = replace_line(robots.lines[rule.line - 1])
                group = robots.groups[robots.lines[rule.line - 1].group or 0]
                if len(group.rules) == 1:
                    # Deleting a group's only rule would join its user-agent lines to the next group's.
                    lines = (*group.agent_lines, rule.line)
                    fix = message("fix.shadowedRule.group", lines=list(lines), other=winner.line)
                    edit = None if group.records else Edit(tuple((n, ()) for n in lines))
            else:
                found, fix = message("lint.shadowedRule.tie", other=winner.line), message("fix.shadowedRule.tie")
            yield Hit(rule.line, found, fix, lines=(rule.line, winner.line), edit=edit)


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
            yield from _shadowed(robots, (r for r in group.rules if holders[r.normalised] == 1), reported)
    merged: set[tuple[int, ...]] = set()
    for groups in robots.group_index.named.values():
        positions = group_positions(groups)
        if positions not in merged:
            merged.add(positions)
            yield from _shadowed(robots, (r for g in groups for r in shared[g.position]), reported)


class _EarlierRules:
    """The rules of one kind (allows, or disallows) of one group, as first-match parsers read them.

    Those parsers (urllib.robotparser before its RFC 9309 update, most old
    crawlers) compare a pattern literally, as a prefix of the path: `*` and
    `$` are characters like any other, and only a pattern of `*` alone
    matches every path. So a rule is looked up by the path's prefix of each
    length the patterns come in; only the first rule of each pattern is
    kept (it is the earliest).
    """

    def __init__(self) -> None:
        self._prefixes: dict[str, Rule] = {}
        self._lengths: list[int] = []

    def add(self, rule: Rule) -> None:
        """Keep `rule` (given in file order) unless its pattern is kept already."""
        self._prefixes.setdefault(literal_prefix(rule), rule)

    def seal(self) -> None:
        """Index what was added; call once, before `first`."""
        self._lengths = sorted({len(prefix) for prefix in self._prefixes})

    def first(self, path: str, later: Rule) -> Rule | None:
        """The earliest of these rules that stands before `later`, is shorter and begins `path`."""
        best: Rule | None = None
        for length in self._lengths:
            if length >= later.length or length > len(path):
                break
            rule = self._prefixes.get(path[:length])
            if rule is not None and rule.line < later.line and (best is None or rule.line < best.line):
                best = rule
        return best


def first_match_order_fix(robots: Robots, rules: list[Rule]) -> tuple[Message, Edit | None]:
    """The fix of a firstMatchOrder finding: an order of the rules in conflict that serves both kinds of parser.

    `rules` are the rules of a group a first-match parser may stop at for the
    same path (`conflicting`). Longest first (allow before disallow of the
    same length: RFC 9309's own ranking) makes the first matching line the
    longest match, so a first-match parser and an RFC 9309 one agree. Moving
    one allow up alone can let it shadow a longer disallow below it. With
    wildcards among them no order serves both: first-match parsers read `*`
    and `$` literally. The order is also an edit, for the proof.
    """
    if any(_wildcard(r) for r in rules):
        return message("fix.firstMatchOrder.wildcards"), None
    ordered = sorted(rules, key=priority)
    order = [r.line for r in ordered]
    places = sorted(order)
    edit = Edit(tuple((place, (robots.lines[rule.line - 1].raw,)) for place, rule in zip(places, ordered, strict=True)))
    if len(order) > _ORDER_SHOWN:
        return message("fix.firstMatchOrder.sort", count=len(order), order=order), edit
    return message("fix.firstMatchOrder", order=order), edit


def _wildcard(rule: Rule) -> bool:
    return rule.normalised != "*" and ("*" in rule.normalised or "$" in rule.normalised)


def conflicting(group: Group) -> dict[int, list[Rule]]:
    """The group's rules in sets a first-match parser may confuse, by line: each with every rule whose
    pattern, read literally, begins its own or is begun by it (and those rules' own, and so on).

    Other rules match other paths, for either kind of parser, so their place does not matter.
    """
    rules = sorted((r for r in group.rules if r.normalised), key=literal_prefix)
    parent = {r.line: r.line for r in rules}

    def root(line: int) -> int:
        while parent[line] != line:
            parent[line] = parent[parent[line]]
            line = parent[line]
        return line

    # Sorted, a pattern's literal prefixes stand before it: the nearest one on the stack links it.
    stack: list[Rule] = []
    for rule in rules:
        prefix = literal_prefix(rule)
        while stack and not prefix.startswith(literal_prefix(stack[-1])):
            stack.pop()
        if stack:
            parent[root(rule.line)] = root(stack[-1].line)
        stack.append(rule)
    sets: dict[int, list[Rule]] = defaultdict(list)
    for rule in group.rules:
        if rule.normalised:
            sets[root(rule.line)].append(rule)
    return {r.line: sets[root(r.line)] for r in rules}


_ORDER_SHOWN = 12  # line numbers a fix lists; a longer group is told to sort its rules


def literal_prefix(rule: Rule) -> str:
    """What a first-match parser compares the start of a path with: the pattern as written ("" for `*` alone)."""
    return "" if rule.normalised == "*" else rule.normalised


def _first_before(rules: dict[str, _EarlierRules], path: str, later: Rule) -> Rule | None:
    """The earliest of `rules` before `later`, shorter than it, that a first-match parser finds for `path`."""
    found = (rules[key].first(path, later) for key in dict.fromkeys((path[:2], path[:1], "")) if key in rules)
    return min((rule for rule in found if rule is not None), key=lambda rule: rule.line, default=None)


@check("firstMatchOrder", Severity.WARNING)
def first_match_order(robots: Robots) -> Iterator[Hit]:
    for group in robots.groups:
        # A rule meets the earlier, shorter rules a first-match parser would stop at for its
        # example path, filed by their first two characters: a longer allow below such a
        # disallow is blocked by those parsers, a longer disallow below such an allow ignored.
        by_kind: dict[bool, dict[str, _EarlierRules]] = {
            True: defaultdict(_EarlierRules),
            False: defaultdict(_EarlierRules),
        }
        for rule in group.rules:
            if rule.normalised:
                by_kind[rule.allow][literal_prefix(rule)[:2]].add(rule)
        for kept in (k for kind in by_kind.values() for k in kind.values()):
            kept.seal()
        sets: dict[int, list[Rule]] | None = None  # made on the group's first finding
        fixes: dict[int, tuple[Message, Edit | None]] = {}  # one for each set of rules in conflict
        for rule in group.rules:
            if not rule.normalised:
                continue
            path = example_path(rule)
            first = _first_before(by_kind[not rule.allow], path, rule)
            if first is not None:
                alike = _first_before(by_kind[rule.allow], path, rule)
                if alike is not None and alike.line < first.line:
                    continue  # a first-match parser stops earlier, at a rule of the same kind: the same answer
                sets = sets or conflicting(group)
                rules = sets[rule.line]
                fix, edit = fixes.get(id(rules)) or fixes.setdefault(id(rules), first_match_order_fix(robots, rules))
                code = "lint.firstMatchOrder" if rule.allow else "lint.firstMatchOrder.disallow"
                found = message(code, other=first.line, path=path)
                yield Hit(rule.line, found, fix, lines=(rule.line, first.line), edit=edit)


@check("blocksAssets", Severity.WARNING)
def blocks_assets(robots: Robots) -> Iterator[Hit]:
    book = Rulebook(robots.group_index)
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
