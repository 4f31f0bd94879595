"""An audit of a stream of log lines: each line read by its format's reader, judged, and counted. Pure.

The caller reads the lines (files, standard input, compressed, in chunks for `--jobs`) and hands them
over numbered, as text (`integrations.logfiles.log_lines` gives them so; a line it could not hold is
reported by it, never handed over).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import groupby

from ...syntax.logformats.fielded import FieldsInForce, Header
from ...syntax.logformats.model import BadLine, LineReader
from .judge import Judge, Row
from .summary import Summary


def audit(
    lines: Iterable[tuple[int, str]], reader: LineReader, judge: Judge, summary: Summary, source: str = ""
) -> Iterator[Row]:
    """The rows of the audited requests among `lines` ((number, text) each, read from `source`), each counted
    in `summary` with every other line: requests of no catalogue crawler, bad lines."""
    read = reader.read
    for number, line in lines:
        found = read(number, line)
        if found is None:
            continue  # a header or a comment
        if isinstance(found, BadLine):
            summary.bad(source, found)
            continue
        row = judge.judge(found, source)
        if row is None:
            summary.unaudited(found.time)
            continue
        summary.add(row)
        yield row


def audit_table(
    lines: Iterable[tuple[str, int, str]],
    new_reader: Callable[[], LineReader],
    headers: FieldsInForce | None,
    judge: Judge,
    summary: Summary,
) -> Iterator[Row]:
    """The rows of `lines` ((source, number, text) each) as a table holds them: lines of many logs, in any
    order. Each run of lines of one log under one `#Fields:` header (`headers`; None for a format without
    one) is read by a fresh reader that has seen that header first: what a line reads as never depends on
    the rows above it in the table."""

    def run_of(line: tuple[str, int, str]) -> tuple[str, Header | None]:
        return line[0], None if headers is None else headers.at(line[0], line[1])

    for (source, header), run in groupby(lines, run_of):
        reader = new_reader()
        if header is not None:
            reader.read(*header)  # a bad header is counted where the table holds it, as a line
        yield from audit(((number, text) for _, number, text in run), reader, judge, summary, source)


__all__ = ["audit", "audit_table"]
