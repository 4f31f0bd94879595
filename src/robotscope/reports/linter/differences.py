"""The check of lines engines read differently (`readsDifferently`), and which engines read a line as a rule.

The lines engines read otherwise come from `reports.compare.lines`; a line without a
colon or with a misspelt key has its own finding (`keys`), which names the
engines that still read it (`rule_readers`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ...access.engines.registry import engine
from ...access.robots import Robots
from ...messages import Message, message
from ...syntax.model import Edit, LineKind, Severity
from ..compare.lines import LineReading, differences
from .file import unreadable
from .registry import Hit, check, replace_line


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
            yield Hit(first.line, message("lint.readsDifferently", readings=readings), *_fix(robots, run))
        else:
            readings = _by_reading(first.by_engine, _seen_in_run)
            text = message(
                "lint.readsDifferently.run", first=first.line, last=last.line, count=len(run), readings=readings
            )
            yield Hit(first.line, text, *_fix(robots, run))
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


def _fix(robots: Robots, run: list[LineReading]) -> tuple[Message, tuple[int, ...], Severity | None, Edit | None]:
    """How to make every engine read the lines alike: delete the empty line that ends the group for some
    (the 1994 convention's record end; an edit), else write them plainly. As the rest of a `Hit`."""
    ignoring = _ignoring(run[0])
    number = min(run[0].line - 1, len(robots.lines))  # past the size limit: some engines read on, no line kinds
    while ignoring and number >= 1 and robots.lines[number - 1].kind is LineKind.BLANK:
        if not robots.lines[number - 1].raw.strip():
            titles = [engine(name).title for name in run[0].by_engine if name in ignoring]
            fix = message("fix.readsDifferently.blank", line=number, engines=titles)
            return fix, (), None, replace_line(robots.lines[number - 1])
        number -= 1
    return message("fix.readsDifferently"), (), None, None


def _ignoring(reading: LineReading) -> frozenset[str] | None:
    """The engines that ignore the line, when every other engine reads it alike; else None."""
    ignoring = frozenset(name for name, seen in reading.by_engine.items() if seen == "-")
    others = {seen for seen in reading.by_engine.values() if seen != "-"}
    return ignoring if ignoring and len(others) == 1 else None


def _rule_differences(robots: Robots) -> list[LineReading]:
    """The lines engines read as different rules (`readings.differences`), found once per file for every check."""
    return robots.reading("lint.rule-differences", lambda parsed: differences(parsed, rules_only=True))


def rule_readers(robots: Robots) -> dict[int, list[str]]:
    """The engines (by title) that read each line as a rule where others do not, by line number (once per file)."""
    return robots.reading("lint.rule-readers", _find_rule_readers)


def _find_rule_readers(robots: Robots) -> dict[int, list[str]]:
    return {
        found.line: [engine(name).title for name, seen in found.by_engine.items() if seen != "-"]
        for found in _rule_differences(robots)
    }


def _by_reading(by_engine: dict[str, str], seen: Callable[[str, int], Message]) -> list[Message]:
    """`{engines} {what they make of it}`, one part for each distinct reading."""
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
