"""Input read one record at a time, within bounds: the discipline every bulk reader follows.

A record is a line of `bulk --urls`, a row of a survey table or a record of a
WARC file. Each reader reads one record at a time, every line through
`lines` (at most `cap` bytes held, a longer line read past in bounded
pieces) and every robots.txt body through `cut` (cut where the fetcher cuts
it). A bad record raises `BadRecord` where it is read; its reader hands it to
`Tally.skip`, with the file and the record's number, and carries on. A file
that stops being readable part-way (a cut `.gz`, a WARC record whose framing
is broken) is `Tally.stop`ped: what came before counts, the answer is
incomplete. A file that cannot be read at all, or lacks a required column,
raises `Unreadable`: the command stops (exit code 2).

The tally reports the first `REPORTED` records one by one (a file of random
bytes must not flood the terminal) and keeps them for a command's JSON,
counts every one by reason, and says at the end whether the answer is
complete.
"""

from __future__ import annotations

import math
import re
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any, NamedTuple

from ..fetch.body import Body
from ..messages import Message, message
from ..syntax.inflate import Incomplete, Undecodable

REPORTED = 50  # records reported one by one; past it they are only counted
_DRAIN = 65536


class BadRecord(Exception):
    """One record that cannot be used: skipped, the reading goes on."""

    def __init__(self, reason: Message) -> None:
        super().__init__(reason.render())
        self.reason = reason


class Unreadable(Exception):
    """A file that cannot be read at all, or lacks a required column: the command stops."""

    def __init__(self, reason: Message) -> None:
        super().__init__(reason.render())
        self.reason = reason


def detail(error: BaseException) -> str:
    """A library's error text for a message: on one line (Arrow's end with a line break), 200 characters at most."""
    return " ".join(str(error).split())[:200]


def skip_reason(code: str, **params: object) -> Message:
    """The reason a record is skipped: `records.skip.CODE`."""
    return message(f"records.skip.{code}", **params)


class Reported(NamedTuple):
    """One record skipped, or the record a file stopped at (`stopped`), as the tally reported it."""

    source: str
    unit: str  # line, row, record
    number: int
    reason: Message
    stopped: bool
    span: int = 1  # records from `number` on: a Parquet row group skipped whole

    def said(self) -> Message:
        where = (
            message("records.where.rows", source=self.source, number=self.number, last=self.number + self.span - 1)
            if self.span > 1
            else message(f"records.where.{self.unit}", source=self.source, number=self.number)
        )
        return message("records.stopped" if self.stopped else "records.skipped", where=where, reason=self.reason)

    def as_dict(self, lang: str) -> dict[str, Any]:
        return {
            "source": self.source,
            "unit": self.unit,
            "number": self.number,
            "count": self.span,
            "stopped": self.stopped,
            "reason": self.reason.as_dict(lang),
        }


class Tally:
    """The records a command skipped, by reason, and the files it could not read to the end.

    `reported` keeps the first `REPORTED` of them, for a command's JSON.
    """

    def __init__(self, report: Callable[[Message], None] = lambda _: None) -> None:
        self._report = report
        self.skipped: Counter[str] = Counter()
        self.stopped = 0
        self.reported: list[Reported] = []

    def skip(self, source: str, unit: str, number: int, reason: Message, count: int = 1) -> None:
        """Record `number` (a line, row or record of `source`) is skipped, for `reason`; `count` records from it."""
        self.skipped[reason.code] += count
        self._say(Reported(source, unit, number, reason, stopped=False, span=count))

    def stop(self, source: str, unit: str, number: int, reason: Message) -> None:
        """`source` cannot be read past record `number`: the rest of it is lost."""
        self.stopped += 1
        self._say(Reported(source, unit, number, reason, stopped=True))

    def _say(self, entry: Reported) -> None:
        shown = len(self.reported) + 1
        if shown <= REPORTED:
            self.reported.append(entry)
            self._report(entry.said())
        if shown == REPORTED:
            self._report(message("records.more", limit=REPORTED))

    @property
    def complete(self) -> bool:
        return not self.skipped and not self.stopped

    def _by_reason(self) -> list[tuple[str, int]]:
        return sorted(self.skipped.items(), key=lambda item: (-item[1], item[0]))

    def summary(self) -> list[Message]:
        """What the answer lacks, grouped by reason; empty when it is complete."""
        said = []
        if self.skipped:
            counts = [message("records.count", count=count, kind=_kind(code)) for code, count in self._by_reason()]
            said.append(message("records.incomplete.skipped", count=sum(self.skipped.values()), reasons=counts))
        if self.stopped:
            said.append(message("records.incomplete.stopped", count=self.stopped))
        return said

    def as_dict(self, lang: str) -> dict[str, Any]:
        """The same as JSON: whether the answer is complete, the counts by reason, the first records reported."""
        return {
            "complete": self.complete,
            "skipped": sum(self.skipped.values()),
            "stopped": self.stopped,
            "reasons": [
                {"code": code, "count": count, "text": _kind(code).render(lang)} for code, count in self._by_reason()
            ],
            "records": [entry.as_dict(lang) for entry in self.reported],
            "incomplete": [said.as_dict(lang) for said in self.summary()],
        }


def _kind(code: str) -> Message:
    """A reason's short name (`records.kind.X` for `records.skip.X`, `logs.kind.X` for a log's bad line
    `logs.bad.X`), as summaries count it."""
    return message(code.replace(".skip.", ".kind.").replace("logs.bad.", "logs.kind."))


def lines(stream: IO[bytes], cap: int) -> Iterator[bytes | None]:
    """Each line of `stream` with its end; None for a line of more than `cap` bytes, read past in bounded pieces."""
    while line := stream.readline(cap + 1):
        if len(line) <= cap:
            yield line
            continue
        while not line.endswith(b"\n") and (line := stream.readline(_DRAIN)):
            pass
        yield None


def cut(chunks: Iterable[bytes], encoding: str = "") -> bytes:
    """A robots.txt body kept as the fetcher keeps it: decoded within a budget, cut after the 500 KiB limit.

    Raises `Incomplete` when a compressed body ends before its end marker,
    `Undecodable` for an encoding the fetcher does not ask for and a
    corrupt compressed stream.
    """
    body = Body(encoding)
    try:
        for chunk in chunks:
            if body.feed(chunk):
                return body.bytes()
    except zlib.error as error:
        raise Undecodable(str(error)) from error
    body.end()
    return body.bytes()


_STATUS = re.compile(r"\s*([0-9]{3})(?:\.0*)?\s*")


def status_of(value: object) -> int | None:
    """An HTTP status from a table's cell: None (empty, null, NaN) for a fetch that got no response.

    Integers, and numbers with no fraction (200.0: Parquet and pandas store an
    integer column with gaps as floats, and CSV writers then print `200.0`),
    from 100 to 599; anything else is a bad record.
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    elif isinstance(value, str):
        if not value.strip():
            return None
        found = _STATUS.fullmatch(value)
        number = None if found is None else int(found[1])
    if number is None or not 100 <= number <= 599:
        raise BadRecord(skip_reason("status", value=repr(value)[:40]))
    return number


__all__ = [
    "BadRecord",
    "Incomplete",
    "Tally",
    "Undecodable",
    "Unreadable",
    "cut",
    "detail",
    "lines",
    "skip_reason",
    "status_of",
]
