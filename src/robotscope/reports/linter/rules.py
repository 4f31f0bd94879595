"""Checks of single allow and disallow rules: their patterns as written."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...access.robots import Robots
from ...messages import message
from ...syntax.model import Group, Rule, Severity
from ...syntax.urls import path_and_query, split_url
from .registry import Hit, check, replace_line, rewritten

_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")
_STARS = re.compile(r"\*+")


def _rules(robots: Robots) -> Iterator[Rule]:
    for group in robots.groups:
        yield from group.rules


def _written(rule: Rule, pattern: str) -> str:
    return rule._replace(pattern=pattern).text


@check("emptyDisallow", Severity.INFO)
def empty_disallow(robots: Robots) -> Iterator[Hit]:
    for group in robots.groups:
        for rule in group.rules:
            if not rule.allow and not rule.pattern:
                code = "lint.emptyDisallow.others" if len(group.rules) > 1 else "lint.emptyDisallow"
                yield Hit(rule.line, message(code), message("fix.emptyDisallow"))


@check("emptyAllow", Severity.WARNING)
def empty_allow(robots: Robots) -> Iterator[Hit]:
    for rule in _rules(robots):
        if rule.allow and not rule.pattern:
            edit = replace_line(robots.lines[rule.line - 1])
            yield Hit(rule.line, message("lint.emptyAllow"), message("fix.emptyAllow"), edit=edit)


@check("patternNoSlash", Severity.ERROR)
def pattern_no_slash(robots: Robots) -> Iterator[Hit]:
    for rule in _rules(robots):
        pattern = rule.pattern
        if not pattern or pattern[0] in "/*":
            continue
        parts = split_url(pattern)
        if parts is None and pattern.lower().startswith(("http://", "https://")):
            # A full URL with a host urlsplit rejects (`http://[::1/`): its path is still plain.
            path, why = path_and_query(pattern), "lint.patternNoSlash.url"
        elif parts is not None and parts.scheme in ("http", "https") and parts.netloc:
            path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
            why = "lint.patternNoSlash.url"
        else:
            path, why = "/" + pattern, "lint.patternNoSlash"
        yield Hit(rule.line, message(why), message("fix.write", line=_written(rule, path)))


@check("dollarNotAtEnd", Severity.WARNING)
def dollar_not_at_end(robots: Robots) -> Iterator[Hit]:
    for rule in _rules(robots):
        if "$" in rule.pattern[:-1]:
            yield Hit(rule.line, message("lint.dollarNotAtEnd"), message("fix.dollarNotAtEnd"))


@check("redundantWildcard", Severity.INFO)
def redundant_wildcard(robots: Robots) -> Iterator[Hit]:
    # A `*` matches nothing more, but it counts in the rule's length, which decides
    # which rule wins: dropping it is offered only where the proof shows no verdict moves.
    for group in robots.groups:
        for rule in group.rules:
            pattern, line = rule.pattern, robots.lines[rule.line - 1]
            if "**" in pattern:
                single = _STARS.sub("*", pattern)
                yield Hit(
                    rule.line,
                    message("lint.redundantWildcard.double"),
                    message("fix.write", line=_written(rule, single)),
                    edit=replace_line(line, rewritten(line, single)),
                )
            elif len(pattern) > 2 and (pattern.endswith(("*", "*$"))):  # `/*` is the idiom for `/`
                shorter = pattern.rstrip("$").rstrip("*")
                rival = _tied_allow(group, rule)
                if rival is not None:
                    yield Hit(
                        rule.line,
                        message("lint.redundantWildcard.tie", pattern=pattern, shorter=shorter, other=rival.line),
                        message("fix.redundantWildcard.tie", shorter=rival.pattern, other=rival.line),
                        lines=(rule.line, rival.line),
                    )
                    continue
                yield Hit(
                    rule.line,
                    message("lint.redundantWildcard", pattern=pattern, shorter=shorter),
                    message("fix.write", line=_written(rule, shorter)),
                    edit=replace_line(line, rewritten(line, shorter)),
                )


def _tied_allow(group: Group, rule: Rule) -> Rule | None:
    """The allow of `rule`'s pattern without its trailing `*` that this disallow beats only by the `*`.

    `Allow: /grid/` with `Disallow: /grid/*`: both match the same URLs, the
    disallow is one longer and always wins; without the `*` the allow would.
    """
    if rule.allow:
        return None
    shorter = rule.normalised.rstrip("$").rstrip("*")
    return next((r for r in group.rules if r.allow and r.normalised == shorter), None)


@check("invalidPercentEncoding", Severity.WARNING)
def invalid_percent_encoding(robots: Robots) -> Iterator[Hit]:
    for rule in _rules(robots):
        if _BAD_ESCAPE.search(rule.pattern):
            fixed = _BAD_ESCAPE.sub("%25", rule.pattern)
            line = robots.lines[rule.line - 1]
            yield Hit(
                rule.line,
                message("lint.invalidPercentEncoding"),
                message("fix.invalidPercentEncoding", line=_written(rule, fixed)),
                edit=replace_line(line, rewritten(line, fixed)),
            )


@check("patternWithSpace", Severity.WARNING)
def pattern_with_space(robots: Robots) -> Iterator[Hit]:
    for rule in _rules(robots):
        words = rule.pattern.split()
        if len(words) > 1:
            lines = [f"`{_written(rule, word)}`" for word in words]
            yield Hit(rule.line, message("lint.patternWithSpace"), message("fix.patternWithSpace", lines=lines))
