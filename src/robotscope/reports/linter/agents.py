"""Checks of groups and their user-agent lines."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator

from ...access.robots import Robots
from ...messages import message
from ...syntax.model import LineKind, Severity
from ...syntax.tokens import group_token
from .registry import Budget, Hit, check, replace_line, rewritten


@check("ruleOutsideGroup", Severity.ERROR)
def rule_outside_group(robots: Robots) -> Iterator[Hit]:
    for line in robots.lines:
        if line.kind in (LineKind.ALLOW, LineKind.DISALLOW) and line.group is None:
            yield Hit(line.number, message("lint.ruleOutsideGroup"), message("fix.ruleOutsideGroup"))


@check("duplicateAgent", Severity.WARNING)
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
        yield Hit(
            involved[-1],
            message("lint.duplicateAgent", token=token, count=len(groups), lines=involved),
            message("fix.duplicateAgent"),
            lines=(*involved, *rule_lines),
        )


@check("agentNotToken", Severity.WARNING)
def agent_not_token(robots: Robots) -> Iterator[Hit]:
    for line in robots.lines:
        if line.kind is not LineKind.USER_AGENT or not line.value:
            continue
        value = line.value
        token = group_token(value)
        if token is None or token == "*" or token == value.lower():
            continue
        written = value[: len(token)]
        listed = _listed(value)
        if listed is not None:
            # `Googlebot, Bingbot`: one line each; the others obey another group today, so
            # the fix changes what they may fetch and is a suggestion, not an edit.
            lines = [f"`User-agent: {name}`" for name in listed]
            yield Hit(
                line.number,
                message("lint.agentNotToken.list", token=written, others=listed[1:], n=len(listed) - 1),
                message("fix.agentNotToken.list", lines=lines),
            )
        elif value[len(token) : len(token) + 1] == "." and _TOKEN_CHARACTER.match(value[len(token) + 1 :]):
            # `com.plumanalytics`: a crawler's own dotted name. Cutting it would name another crawler.
            yield Hit(
                line.number,
                message("lint.agentNotToken.dotted", value=value, token=written),
                message("fix.agentNotToken.dotted", value=value),
            )
        else:
            yield Hit(
                line.number,
                message("lint.agentNotToken", token=written),
                message("fix.agentNotToken", token=written),
                edit=replace_line(line, rewritten(line, written)),
            )


_TOKEN_CHARACTER = re.compile(r"[A-Za-z0-9_-]")
_LISTED = re.compile(r"\s*,\s*")


def _listed(value: str) -> list[str] | None:
    """The crawlers of a comma-separated list (`Googlebot, Bingbot/2.0`), as tokens written; None if it is none."""
    parts = [part for part in _LISTED.split(value.strip()) if part]
    if len(parts) < 2:
        return None
    tokens = [group_token(part) for part in parts]
    if any(token is None or token == "*" for token in tokens):
        return None
    return list(dict.fromkeys(part[: len(token or "")] for part, token in zip(parts, tokens, strict=True)))


_DIGIT = re.compile(r"[A-Za-z_-]*")


@check("agentStrictToken", Severity.INFO)
def agent_strict_token(robots: Robots) -> Iterator[Hit]:
    # RFC 9309's grammar has no digits in a token, and Google's parser stops at the
    # first one; the crawler's own name has them, so nothing is to be renamed.
    for line in robots.lines:
        if line.kind is not LineKind.USER_AGENT or not line.value:
            continue
        token = group_token(line.value)
        if token is None or token == "*" or not any(c.isdigit() for c in token):
            continue
        written = line.value[: len(token)]
        strict = _DIGIT.match(written)
        seen = strict.group() if strict is not None else ""
        code = "lint.agentStrictToken.none" if not seen else "lint.agentStrictToken"
        yield Hit(
            line.number, message(code, token=written, strict=seen), message("fix.agentStrictToken", token=written)
        )


@check("agentWildcard", Severity.ERROR)
def agent_wildcard(robots: Robots) -> Iterator[Hit]:
    for line in robots.lines:
        if line.kind is LineKind.USER_AGENT and line.value and "*" in line.value and group_token(line.value) is None:
            name = line.value.replace("*", "").strip()
            fix = message("fix.agentWildcard.named", name=name) if name else message("fix.agentWildcard")
            # `* foo`: Google's parser takes the `*` and drops the rest (engines.google).
            star_text = line.value[:1] == "*" and line.value[1:2].isspace()
            what = (
                message("lint.agentWildcard.star-text", value=line.value)
                if star_text
                else message("lint.agentWildcard")
            )
            yield Hit(line.number, what, fix)


@check("agentInvalid", Severity.ERROR)
def agent_invalid(robots: Robots) -> Iterator[Hit]:
    for line in robots.lines:
        if line.kind is LineKind.USER_AGENT and "*" not in (line.value or "") and group_token(line.value or "") is None:
            what = message("lint.agentInvalid", value=line.value) if line.value else message("lint.agentInvalid.empty")
            yield Hit(line.number, what, message("fix.agentInvalid"))


@check("emptyGroup", Severity.INFO)
def empty_group(robots: Robots) -> Iterator[Hit]:
    for group in robots.groups:
        if not group.rules and group.agents:
            if "*" in group.agents:
                found = message("lint.emptyGroup.star")
            else:
                found = message("lint.emptyGroup", agents=list(group.agents))
            yield Hit(group.agent_lines[0], found, message("fix.emptyGroup"), lines=group.agent_lines)


@check("recordSplitsGroup", Severity.WARNING)
def record_splits_group(robots: Robots) -> Iterator[Hit]:
    # `User-agent: a / Crawl-delay: 5 / User-agent: b / Disallow: /x`: RFC 9309 makes a
    # and b one group (a record does not end it), while the standard library, Protego
    # and the 1996 draft start a new group at `User-agent: b`, leaving a without rules.
    for group in robots.groups:
        first, last = group.agent_lines[0], group.agent_lines[-1]
        between = [r for r in group.records if first < r.line < last]
        if not between or not group.rules:
            continue
        record = between[0]
        before = [line for line in group.agent_lines if line < record.line]
        after = [line for line in group.agent_lines if line > record.line]
        yield Hit(
            record.line,
            message("lint.recordSplitsGroup", key=record.key, before=before, after=after, start=after[0]),
            message("fix.recordSplitsGroup", key=record.key),
            lines=(*group.agent_lines, record.line),
        )
