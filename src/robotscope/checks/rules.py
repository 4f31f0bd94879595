"""Checks of single allow and disallow rules: their patterns as written."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..model import Rule, Severity
from ..robots import Robots
from ..urls import path_and_query
from . import Hit, check, split_url

_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")
_STARS = re.compile(r"\*+")


def _rules(robots: Robots) -> Iterator[Rule]:
    for group in robots.groups:
        yield from group.rules


def _written(rule: Rule, pattern: str) -> str:
    return f"{'Allow' if rule.allow else 'Disallow'}: {pattern}"


@check("emptyDisallow", Severity.INFO, "`Disallow:` with no value allows everything")
def empty_disallow(robots: Robots) -> Iterator[Hit]:
    for group in robots.groups:
        for rule in group.rules:
            if not rule.allow and not rule.pattern:
                others = "; the group's other rules still apply" if len(group.rules) > 1 else ""
                yield Hit(
                    rule.line,
                    f"an empty Disallow matches nothing, so it blocks nothing for this group{others}",
                    "keep it if the group is meant to allow everything; otherwise write the path to block, e.g. `Disallow: /private/`",
                )


@check("emptyAllow", Severity.WARNING, "`Allow:` with no value does nothing")
def empty_allow(robots: Robots) -> Iterator[Hit]:
    for rule in _rules(robots):
        if rule.allow and not rule.pattern:
            yield Hit(
                rule.line,
                "an empty Allow matches nothing, so this line does nothing (it does not allow everything)",
                "delete it; to allow everything, leave the group without Disallow rules or write `Disallow:`",
            )


@check("patternNoSlash", Severity.ERROR, "a pattern that starts with neither `/` nor `*`")
def pattern_no_slash(robots: Robots) -> Iterator[Hit]:
    for rule in _rules(robots):
        pattern = rule.pattern
        if not pattern or pattern[0] in "/*":
            continue
        parts = split_url(pattern)
        if parts is None and pattern.lower().startswith(("http://", "https://")):
            # A full URL with a host urlsplit rejects (`http://[::1/`): its path is still plain.
            path = path_and_query(pattern)
            why = "a rule holds a path, not a full URL"
        elif parts is not None and parts.scheme in ("http", "https") and parts.netloc:
            path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
            why = "a rule holds a path, not a full URL"
        else:
            path = "/" + pattern
            why = "paths always start with `/`"
        yield Hit(rule.line, f"this pattern never matches any URL: {why}", f"write `{_written(rule, path)}`")


@check("dollarNotAtEnd", Severity.WARNING, "`$` in the middle of a pattern is a literal character")
def dollar_not_at_end(robots: Robots) -> Iterator[Hit]:
    for rule in _rules(robots):
        if "$" in rule.pattern[:-1]:
            yield Hit(
                rule.line,
                "only a final `$` anchors the end; this `$` is a literal character and matches only URLs that contain `$`",
                "end the pattern at the `$` to anchor it, or write `%24` if a literal `$` is meant",
            )


@check("redundantWildcard", Severity.INFO, "`**`, or a trailing `*`, adds nothing")
def redundant_wildcard(robots: Robots) -> Iterator[Hit]:
    for rule in _rules(robots):
        pattern = rule.pattern
        if "**" in pattern:
            single = _STARS.sub("*", pattern)
            yield Hit(rule.line, "`**` means the same as `*`", f"write `{_written(rule, single)}`")
        elif len(pattern) > 2 and (pattern.endswith(("*", "*$"))):  # `/*` is the idiom for `/`
            shorter = pattern.rstrip("$").rstrip("*")
            yield Hit(
                rule.line,
                f"rules match by prefix, so a trailing `*` adds nothing: `{pattern}` means the same as `{shorter}`",
                f"write `{_written(rule, shorter)}`",
            )


@check("invalidPercentEncoding", Severity.WARNING, "a `%` not followed by two hex digits")
def invalid_percent_encoding(robots: Robots) -> Iterator[Hit]:
    for rule in _rules(robots):
        if _BAD_ESCAPE.search(rule.pattern):
            fixed = _BAD_ESCAPE.sub("%25", rule.pattern)
            yield Hit(
                rule.line,
                "a `%` that does not start a two-digit hex escape is not valid in a URL, so crawlers may read this pattern differently",
                f"write a literal `%` as `%25`: `{_written(rule, fixed)}`",
            )


@check("patternWithSpace", Severity.WARNING, "a pattern with whitespace inside, often two paths on one line")
def pattern_with_space(robots: Robots) -> Iterator[Hit]:
    for rule in _rules(robots):
        words = rule.pattern.split()
        if len(words) > 1:
            lines = "`, `".join(_written(rule, word) for word in words)
            yield Hit(
                rule.line,
                "this pattern contains whitespace, so it matches only URLs with a literal space (%20), not the paths it lists",
                f"write one rule a line: `{lines}`",
            )
