"""An audit of a stream of log lines: each line read by its format's reader, judged, and counted. Pure.

The caller reads the lines (files, standard input, compressed, in chunks for `--jobs`) and hands them
over numbered, as text (`integrations.logfiles.log_lines` gives them so; a line it could not hold is
reported by it, never handed over).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

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


__all__ = ["audit"]
