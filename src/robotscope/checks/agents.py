"""Checks of groups and their user-agent lines."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from ..model import LineKind, Severity
from ..robots import Robots
from ..useragents import group_token
from . import Budget, Hit, check


@check("ruleOutsideGroup", Severity.ERROR, "an allow or disallow line before any user-agent line")
def rule_outside_group(robots: Robots) -> Iterator[Hit]:
    for line in robots.lines:
        if line.kind in (LineKind.ALLOW, LineKind.DISALLOW) and line.group is None:
            yield Hit(
                line.number,
                "this rule stands before any user-agent line, so it belongs to no group and no crawler obeys it",
                "put `User-agent: *` (or the crawler's name) on a line above it",
            )


@check("duplicateAgent", Severity.WARNING, "the same crawler named in several groups, which are merged")
def duplicate_agent(robots: Robots) -> Iterator[Hit]:
    lines_of: dict[str, list[int]] = defaultdict(list)
    groups_of: dict[str, dict[int, None]] = defaultdict(dict)  # an ordered set of group positions
    for line in robots.lines:
        if line.kind is LineKind.USER_AGENT and line.group is not None:
            token = group_token(line.value or "")
            if token is not None:
                lines_of[token].append(line.number)
                groups_of[token][line.group] = None
    # The rules are listed for every crawler only while that stays linear in the
    # file: a hostile file names thousands of crawlers in the same large groups.
    budget = Budget()
    for token, positions in groups_of.items():
        if len(positions) < 2:
            continue
        groups = [robots.groups[g] for g in positions]
        involved = lines_of[token]
        rule_lines = [r.line for g in groups for r in g.rules] if budget.take(sum(len(g.rules) for g in groups)) else []
        shown = ", ".join(str(n) for n in involved)
        yield Hit(
            involved[-1],
            f"`{token}` is named in {len(groups)} groups (user-agent lines {shown}); crawlers merge them, "
            "so rules far apart in the file apply together",
            "put all rules for this crawler in one group",
            lines=(*involved, *rule_lines),
        )


@check("agentNotToken", Severity.WARNING, "a user-agent value that is more than a product token")
def agent_not_token(robots: Robots) -> Iterator[Hit]:
    for line in robots.lines:
        if line.kind is not LineKind.USER_AGENT or not line.value:
            continue
        token = group_token(line.value)
        if token is None or token == "*" or token == line.value.lower():
            continue
        written = line.value[: len(token)]
        yield Hit(
            line.number,
            f"only the product token before the first character outside a-z, A-Z, `-` and `_` counts, "
            f"so this group applies to `{written}`",
            f"write `User-agent: {written}`",
        )


@check("agentWildcard", Severity.ERROR, "a user-agent value with a wildcard, which matches no crawler")
def agent_wildcard(robots: Robots) -> Iterator[Hit]:
    for line in robots.lines:
        if line.kind is LineKind.USER_AGENT and line.value and "*" in line.value and group_token(line.value) is None:
            name = line.value.replace("*", "")
            fix = f"name the crawler exactly, e.g. `User-agent: {name}`, or use `User-agent: *` for all" if name else "write `User-agent: *`"
            yield Hit(line.number, "wildcards do not work in user-agent values: this group matches no crawler", fix)


@check("agentInvalid", Severity.ERROR, "a user-agent value with no product token")
def agent_invalid(robots: Robots) -> Iterator[Hit]:
    for line in robots.lines:
        if line.kind is LineKind.USER_AGENT and "*" not in (line.value or "") and group_token(line.value or "") is None:
            what = f"`{line.value}` has" if line.value else "an empty value has"
            yield Hit(
                line.number,
                f"{what} no product token (letters, `-` and `_`), so this line names no crawler",
                "write the crawler's product token, e.g. `User-agent: Googlebot`, or `User-agent: *`",
            )


@check("emptyGroup", Severity.INFO, "a group without rules: its crawlers may fetch everything")
def empty_group(robots: Robots) -> Iterator[Hit]:
    for group in robots.groups:
        if not group.rules and group.agents:
            who = (
                "every crawler without a group of its own"
                if "*" in group.agents
                else ", ".join(group.agents) + " (the `*` group does not apply to them)"
            )
            yield Hit(
                group.agent_lines[0],
                f"this group has no rules, so {who} may fetch everything",
                "add the rules meant for them, or `Disallow:` to say so explicitly",
                lines=group.agent_lines,
            )
