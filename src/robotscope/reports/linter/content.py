"""Checks of the file as a whole and of each line's syntax and keys."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from ...messages import Message, message
from ...syntax.model import LineKind, Severity
from ...syntax.directives import KNOWN_KEYS, NON_STANDARD_KEYS, STANDARD_KEYS, did_you_mean, google_key
from ...syntax.html import looks_like_html
from ...syntax.parser import MAX_BYTES
from ...access.robots import Robots
from ...syntax.urls import path_and_query
from .registry import Hit, check, split_url

if TYPE_CHECKING:
    from ..compare.readings import LineReading

# Non-standard records that are likely a mistake where they stand; the others are worth knowing.
_WARNING_KEYS = frozenset({"host", "noindex", "nofollow"})


def _non_standard_severity(key: str) -> Severity:
    return Severity.WARNING if key in _WARNING_KEYS else Severity.INFO


def unreadable(robots: Robots) -> bool:
    """An HTML page or a UTF-16/UTF-32 file: one whole-file finding says it, not one per line."""
    return robots.encoding is not None or looks_like_html(robots)


@check("encodingNotUtf8", Severity.ERROR)
def encoding_not_utf8(robots: Robots) -> Iterator[Hit]:
    if robots.encoding is not None:
        name = robots.encoding.split("-")[0].upper() + "-" + robots.encoding.split("-")[1]
        yield Hit(None, message("lint.encodingNotUtf8", encoding=name), message("fix.encodingNotUtf8"))


@check("htmlContent", Severity.ERROR)
def html_content(robots: Robots) -> Iterator[Hit]:
    if robots.encoding is None and looks_like_html(robots):
        yield Hit(None, message("lint.htmlContent"), message("fix.htmlContent"))


_RECORD_KINDS = (LineKind.ALLOW, LineKind.DISALLOW, LineKind.USER_AGENT)


@check("oversize", Severity.ERROR)
def oversize(robots: Robots) -> Iterator[Hit]:
    if not robots.truncated:
        return
    first = len(robots.lines) + 1
    # The records the limit drops: from the whole file where it is small enough to read
    # again, else from the lines past the limit that are kept.
    whole = robots.without_limit()
    if whole is not None:
        lost = sorted(
            [n for g in whole.groups for n in g.agent_lines if n >= first] + [r.line for g in whole.groups for r in g.rules if r.line >= first]
        )
        shown = [message("lint.record-at", line=n, key=whole.line(n).key, value=whole.line(n).value) for n in lost[:5]]
    else:
        lines = [line for line in robots.overflow if line.kind in _RECORD_KINDS]
        lost = [line.number for line in lines]
        shown = [message("lint.record-at", line=line.number, key=line.key, value=line.value) for line in lines[:5]]
    about = {"size": robots.size, "limit": MAX_BYTES, "count": robots.overflow_line_count, "first": first}
    if lost:
        more = message("lint.more", count=len(lost) - 5) if len(lost) > 5 else message("lint.nothing")
        found = message("lint.oversize.records", **about, records=shown, more=more)
    else:
        found = message("lint.oversize", **about)
    yield Hit(None, found, message("fix.oversize"), lines=tuple(lost[:1000]))


@check("invalidUtf8", Severity.ERROR)
def invalid_utf8(robots: Robots) -> Iterator[Hit]:
    if not robots.invalid_utf8 or robots.encoding is not None:
        return
    for line in robots.lines:
        if "\ufffd" in line.raw:
            yield Hit(line.number, message("lint.invalidUtf8"), message("fix.invalidUtf8"))


@check("missingColon", Severity.ERROR)
def missing_colon(robots: Robots) -> Iterator[Hit]:
    if unreadable(robots):
        return  # htmlContent or encodingNotUtf8 says it once for the whole file
    for line in robots.lines:
        if line.kind is not LineKind.INVALID or line.key is None:
            continue
        key = line.key.lower()
        meaning = google_key(key)
        if meaning is None and key not in KNOWN_KEYS:
            continue
        shown = STANDARD_KEYS.get(meaning or "", KNOWN_KEYS.get(key, line.key))
        corrected = f"{shown}: {line.value}".rstrip()
        readers = _rule_readers(robots).get(line.number)
        if meaning == "disallow" and line.value:
            found = message("lint.missingColon.disallow.read" if readers else "lint.missingColon.disallow", value=line.value, engines=readers, n=len(readers or ()))
        else:
            found = message("lint.missingColon.read" if readers else "lint.missingColon", engines=readers, n=len(readers or ()))
        yield Hit(line.number, found, message("fix.write", line=corrected))


@check("invalidLine", Severity.WARNING)
def invalid_line(robots: Robots) -> Iterator[Hit]:
    if unreadable(robots):
        return  # htmlContent or encodingNotUtf8 says it once for the whole file
    for line in robots.lines:
        if line.kind is LineKind.INVALID and line.key is not None:
            key = line.key.lower()
            if google_key(key) is None and key not in KNOWN_KEYS:
                yield Hit(line.number, message("lint.invalidLine"), message("fix.invalidLine"))


@check("unknownDirective", Severity.WARNING)
def unknown_directive(robots: Robots) -> Iterator[Hit]:
    if unreadable(robots):
        return  # htmlContent or encodingNotUtf8 says it once for the whole file
    for line in robots.lines:
        if line.kind is not LineKind.OTHER or line.key is None or line.key.lower() in NON_STANDARD_KEYS:
            continue
        suggestion = did_you_mean(line.key)
        if suggestion is None:
            yield Hit(line.number, message("lint.unknownDirective", key=line.key), message("fix.unknownDirective"))
            continue
        readers = _rule_readers(robots).get(line.number)
        code = "lint.unknownDirective.read" if readers else "lint.unknownDirective.typo"
        severity = Severity.ERROR if suggestion.lower() in STANDARD_KEYS else None
        yield Hit(
            line.number,
            message(code, key=line.key, engines=readers, n=len(readers or ())),
            message("fix.unknownDirective.typo", suggestion=suggestion, line=f"{suggestion}: {line.value}"),
            severity=severity,
        )


@check("nonStandardDirective", Severity.INFO)
def non_standard_directive(robots: Robots) -> Iterator[Hit]:
    for line in robots.lines:
        if line.kind is LineKind.OTHER and line.key is not None and line.key.lower() in NON_STANDARD_KEYS:
            key = line.key.lower()
            yield Hit(
                line.number,
                message(f"lint.nonStandardDirective.{key}", value=line.value or ""),
                message(f"fix.nonStandardDirective.{key}"),
                severity=_non_standard_severity(key),
            )


@check("sitemapInvalid", Severity.ERROR)
def sitemap_invalid(robots: Robots) -> Iterator[Hit]:
    for sitemap in robots.sitemaps:
        parts = split_url(sitemap.value)
        if parts is None:
            # `https://[oops]/s.xml`: a URL, but its host is no host; its path is kept in the example.
            path = path_and_query(sitemap.value)
            code = "lint.sitemapInvalid.host"
            example = "https://www.example.com" + (path if path != "/" else "/sitemap.xml")
        elif parts.scheme in ("http", "https") and parts.netloc:
            continue
        else:
            code = "lint.sitemapInvalid"
            example = "https://www.example.com" + (sitemap.value if sitemap.value.startswith("/") else "/sitemap.xml")
        yield Hit(sitemap.line, message(code, value=sitemap.value), message("fix.sitemapInvalid", example=example))


@check("readsDifferently", Severity.INFO)
def reads_differently(robots: Robots) -> Iterator[Hit]:
    if unreadable(robots):
        return
    # A line without a colon, or with a misspelt key, already has its finding (missingColon,
    # unknownDirective), which says that Google still reads it.
    reported = {line.number for line in robots.lines if line.kind in (LineKind.INVALID, LineKind.OTHER)}
    found_all = [found for found in _rule_differences(robots) if found.line not in reported]
    runs = _runs(robots, found_all)
    for run in runs[:_READINGS_SHOWN]:
        first, last = run[0], run[-1]
        if len(run) == 1:
            readings = _by_reading(first.by_engine, _seen)
            yield Hit(first.line, message("lint.readsDifferently", readings=readings), _fix(robots, run))
        else:
            readings = _by_reading(first.by_engine, _seen_in_run)
            text = message("lint.readsDifferently.run", first=first.line, last=last.line, count=len(run), readings=readings)
            yield Hit(first.line, text, _fix(robots, run))
    if len(runs) > _READINGS_SHOWN:
        # A whole file read otherwise (Yandex ignores one over 500 KB) would be a finding a line.
        more = sum(len(run) for run in runs[_READINGS_SHOWN:])
        yield Hit(None, message("lint.readsDifferently.more", count=more), message("fix.readsDifferently"))


_READINGS_SHOWN = 20  # runs of lines named one by one; the rest are counted


def _runs(robots: Robots, found: list[LineReading]) -> list[list[LineReading]]:
    """Neighbouring rule lines that the same engines ignore (a blank line ends a record for some), as runs.

    One cause, such as a blank line inside a group, makes every rule after
    it read otherwise: that is one finding, not one per rule.
    """
    rule_lines = [line.number for line in robots.lines if line.kind in (LineKind.ALLOW, LineKind.DISALLOW)]
    position = {number: i for i, number in enumerate(rule_lines)}
    runs: list[list[LineReading]] = []
    for reading in found:
        if runs:
            previous = runs[-1][-1]
            ignored = _ignoring(reading)
            adjacent = position.get(reading.line, -2) == position.get(previous.line, -4) + 1
            if ignored is not None and adjacent and ignored == _ignoring(previous):
                runs[-1].append(reading)
                continue
        runs.append([reading])
    return runs


def _fix(robots: Robots, run: list[LineReading]) -> Message:
    """How to make every engine read the lines alike: delete the empty line that ends the group for some
    (the 1994 convention's record end), else write them plainly."""
    from ...access.engines.registry import engine

    ignoring = _ignoring(run[0])
    number = min(run[0].line - 1, len(robots.lines))  # past the size limit: some engines read on, no line kinds
    while ignoring and number >= 1 and robots.lines[number - 1].kind is LineKind.BLANK:
        if not robots.lines[number - 1].raw.strip():
            titles = [engine(name).title for name in run[0].by_engine if name in ignoring]
            return message("fix.readsDifferently.blank", line=number, engines=titles)
        number -= 1
    return message("fix.readsDifferently")


def _ignoring(reading: LineReading) -> frozenset[str] | None:
    """The engines that ignore the line, when every other engine reads it alike; else None."""
    ignoring = frozenset(name for name, seen in reading.by_engine.items() if seen == "-")
    others = {seen for seen in reading.by_engine.values() if seen != "-"}
    return ignoring if ignoring and len(others) == 1 else None


def _rule_differences(robots: Robots) -> list[LineReading]:
    """The lines engines read as different rules (`readings.differences`), found once per file for every check."""
    # Imported here: the readings run every engine, and an engine may use these checks' key tables.
    from ..compare.readings import differences

    return robots.reading("lint.rule-differences", lambda parsed: differences(parsed, rules_only=True))


def _rule_readers(robots: Robots) -> dict[int, list[str]]:
    """The engines (by title) that read each line as a rule where others do not, by line number (once per file)."""
    return robots.reading("lint.rule-readers", _find_rule_readers)


def _find_rule_readers(robots: Robots) -> dict[int, list[str]]:
    from ...access.engines.registry import engine

    return {
        found.line: [engine(name).title for name, seen in found.by_engine.items() if seen != "-"]
        for found in _rule_differences(robots)
    }


def _by_reading(by_engine: dict[str, str], seen: Callable[[str, int], Message]) -> list[Message]:
    """`{engines} {what they make of it}`, one part for each distinct reading."""
    from ...access.engines.registry import engine

    titles: dict[str, list[str]] = {}
    for name, description in by_engine.items():
        titles.setdefault(description, []).append(engine(name).title)
    return [
        message("lint.readsDifferently.as", engines=names, seen=seen(description, len(names)))
        for description, names in titles.items()
    ]


def _seen(description: str, engines: int) -> Message:
    """What `engines` engines make of a line (`Disallow: /x`, `user-agent`, `-`), as words."""
    if description == "-":
        return message("lint.readsDifferently.ignored", n=engines)
    if description == "user-agent":
        return message("lint.readsDifferently.agent", n=engines)
    return message("lint.readsDifferently.rule", rule=description, n=engines)


def _seen_in_run(description: str, engines: int) -> Message:
    """What `engines` engines make of a run of lines: ignore them, or read them as written."""
    code = "lint.readsDifferently.ignored-all" if description == "-" else "lint.readsDifferently.as-written"
    return message(code, n=engines)
