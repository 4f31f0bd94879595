"""Checks of what rules do together: blocked sites, dropped rules, dead rules, rule order."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator

from ..matcher import select_groups
from ..model import Rule, Severity
from ..patterns import compile_pattern, example_target, matches
from ..robots import Robots
from . import Hit, check

_ASSET_PATTERN = re.compile(r"\.(?:css|js|mjs)\b|/(?:assets|static|css|js|scripts|styles|wp-includes|_next|dist|build)(?:/|$)", re.IGNORECASE)


def example_path(rule: Rule) -> str:
    return example_target(rule.normalised)


def _blocks_everything(rule: Rule) -> bool:
    pattern = compile_pattern(rule.normalised)
    return not rule.allow and bool(rule.normalised) and not pattern.anchored and pattern.pieces in (("/",), ("",))


# Search engine crawlers whose complete block is almost never meant; a
# complete block of other named crawlers (AI, SEO tools) usually is.
_SEARCH_ENGINES = frozenset(
    ["googlebot", "bingbot", "yeti", "baiduspider", "yandex", "yandexbot", "duckduckbot", "applebot", "slurp", "seznambot", "naverbot", "msnbot"]
)


@check("blocksAll", Severity.WARNING, "a group that disallows the whole site with nothing allowed back")
def blocks_all(robots: Robots) -> Iterator[Hit]:
    for group in robots.groups:
        blocker = next((r for r in group.rules if _blocks_everything(r)), None)
        if blocker is None or any(r.allow and r.pattern for r in group.rules):
            continue
        if "*" in group.agents:
            yield Hit(
                blocker.line,
                "every crawler without a group of its own may fetch nothing on this site "
                "(a staging robots.txt shipped to production looks exactly like this)",
                "if this is not meant, remove the line or narrow it to the paths to hide, e.g. `Disallow: /private/`",
                lines=(*group.agent_lines, blocker.line),
            )
        elif _SEARCH_ENGINES.intersection(group.agents):
            engines = ", ".join(sorted(_SEARCH_ENGINES.intersection(group.agents)))
            yield Hit(
                blocker.line,
                f"{engines} may fetch nothing on this site, so its pages drop out of that search engine",
                "if this is not meant, remove the line or narrow it to the paths to hide",
                lines=(*group.agent_lines, blocker.line),
            )


@check("namedGroupDropsGlobalRules", Severity.WARNING, "a named group that lacks disallow rules the `*` group has")
def named_group_drops_global_rules(robots: Robots) -> Iterator[Hit]:
    global_groups = tuple(g for g in robots.groups if "*" in g.agents)
    if not global_groups:
        return
    # Rules that match something, once per pattern (patternNoSlash covers the others).
    global_disallows = list(
        {
            r.normalised: r for g in reversed(global_groups) for r in reversed(g.rules) if not r.allow and r.pattern[:1] in ("/", "*")
        }.values()
    )[::-1]
    # Crawlers that share exactly the same groups share one finding.
    tokens_by_groups: dict[tuple[int, ...], list[str]] = defaultdict(list)
    for token in dict.fromkeys(t for g in robots.groups for t in g.agents if t != "*"):
        tokens_by_groups[tuple(g.position for g in select_groups(robots.groups, token))].append(token)
    for tokens in tokens_by_groups.values():
        named = robots.rules_for(tokens[0])
        if any(_blocks_everything(r) for r in named.rules):
            continue
        dropped = [r for r in global_disallows if named.allows(example_path(r))]
        if not dropped:
            continue
        shown = ", ".join(f"{r.pattern} (line {r.line})" for r in dropped[:5])
        more = f" and {len(dropped) - 5} more" if len(dropped) > 5 else ""
        who = f"{tokens[0]} has its own group" if len(tokens) == 1 else ", ".join(tokens) + " have their own group"
        pronoun = "it" if len(tokens) == 1 else "they"
        yield Hit(
            named.group_lines[0],
            f"{who}, so the `*` group does not apply: {pronoun} may fetch {shown}{more}, which every other crawler may not",
            f"repeat the `*` rules they should obey in their group, e.g. `Disallow: {dropped[0].pattern}`",
            lines=(*named.group_lines, *(r.line for r in dropped)),
        )


@check("shadowedRule", Severity.WARNING, "a rule that can never decide any URL")
def shadowed_rule(robots: Robots) -> Iterator[Hit]:
    reported: set[int] = set()
    for token in dict.fromkeys(t for g in robots.groups for t in g.agents):
        by_pattern: dict[str, list[Rule]] = defaultdict(list)
        for group in select_groups(robots.groups, token):
            for rule in group.rules:
                if rule.normalised:
                    by_pattern[rule.normalised].append(rule)
        for same in by_pattern.values():
            winner = min(same, key=lambda r: (not r.allow, r.line))
            for rule in same:
                if rule is winner or rule.line in reported:
                    continue
                reported.add(rule.line)
                if rule.allow == winner.allow:
                    why, fix = f"it repeats line {winner.line}", "delete the duplicate"
                else:
                    why = f"line {winner.line} allows the same pattern and an allow wins a tie"
                    fix = "delete one of the two lines: decide whether the path is allowed or not"
                yield Hit(rule.line, f"this rule never decides any URL: {why}", fix, lines=(rule.line, winner.line))


@check("firstMatchOrder", Severity.WARNING, "an allow that wins only by length but stands after a broader disallow")
def first_match_order(robots: Robots) -> Iterator[Hit]:
    for group in robots.groups:
        disallows: dict[str, list[Rule]] = defaultdict(list)
        for rule in group.rules:
            if not rule.allow and rule.normalised:
                disallows[example_path(rule)[:2]].append(rule)
        for rule in group.rules:
            if not rule.allow or not rule.normalised:
                continue
            path = example_path(rule)
            earlier = [
                d
                for d in (*disallows.get(path[:2], ()), *disallows.get("/", ()))
                if d.line < rule.line and d.length < rule.length and matches(compile_pattern(d.normalised), path)
            ]
            if earlier:
                first = min(earlier, key=lambda d: d.line)
                yield Hit(
                    rule.line,
                    f"RFC 9309 crawlers obey this allow because it is longer, but parsers that take the first matching "
                    f"line (urllib.robotparser before its 2026 RFC 9309 update, many older crawlers) stop at line "
                    f"{first.line} and block {path}",
                    f"move this line above line {first.line}",
                    lines=(rule.line, first.line),
                )


@check("blocksAssets", Severity.WARNING, "rules that block CSS or JavaScript files")
def blocks_assets(robots: Robots) -> Iterator[Hit]:
    for group in robots.groups:
        if not group.agents:
            continue
        ruleset = robots.rules_for(group.agents[0])
        for rule in group.rules:
            if rule.allow or not rule.pattern or not _ASSET_PATTERN.search(rule.pattern):
                continue
            path = example_path(rule)
            asset = path if re.search(r"\.(?:css|js|mjs)$", path) else path.rstrip("/") + "/app.js"
            winners = ruleset.candidates(asset)
            if winners and winners[0].line == rule.line:
                yield Hit(
                    rule.line,
                    f"this rule blocks {asset} and files like it; search engines render pages with their CSS and "
                    "JavaScript, so blocked assets can make pages look broken to them",
                    "allow the assets back, e.g. `Allow: /*.css$` and `Allow: /*.js$`, or narrow the rule",
                )
