"""Survey tables (`.csv`, `.parquet`) read row by row, within bounds: one host's fetch per row.

The `host`, `status` and `body` columns are required (a table without them
is refused, not read as hosts that answered nothing); other columns are
ignored. `status` is an HTTP status from 100 to 599, or empty for a fetch
that got no response; `200.0` counts as 200 (`records.status_of`). A body
is kept as the fetcher keeps it, cut after the 500 KiB limit.

CSV is UTF-8: a row whose host is not valid UTF-8 is skipped; a body keeps
its bytes as they are in the file (the robots.txt parser and linter judge
them). A CSV row may hold at most `ROW_LIMIT` bytes, over all its lines; a
longer one is skipped, as is one that does not parse, and the reading goes
on at the next line. Parquet is read row group by row group, 256 rows at a
time; a row group of more than MAX_GROUP_ROWS rows, with a page declaring
more than MAX_PAGE decoded bytes (`pages`: Arrow would allocate them whole)
or that cannot be read is skipped, its rows counted, and the reading goes on
at the next group.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from ..messages import message
from ..reports.survey import HostFile
from .pages import BadPages, largest_page
from .records import BadRecord, Tally, Unreadable, cut, lines, skip_reason, status_of

COLUMNS = ("host", "status", "body")
ROW_LIMIT = 4 * 1024 * 1024  # bytes of one CSV row: a body eight times the limit, before it is cut
_BATCH = 256  # Parquet rows read at a time
# A Parquet row group is read only within these bounds (else its rows are skipped): rows, four times
# pyarrow's default group; and the decoded bytes a page declares, which Arrow allocates before
# decoding it (DuckDB writes pages of up to about 100 MB).
MAX_GROUP_ROWS = 4 * 1024 * 1024
MAX_PAGE = 128 * 1024 * 1024
_PIECE = 65536  # bytes of a cell's body handed to `cut` at a time


def host_file(host: object, status: object, body: object) -> HostFile:
    """One row's fetch; raises `BadRecord` for a row that cannot be one."""
    if not isinstance(host, str) or not host.strip():
        raise BadRecord(skip_reason("host"))
    try:
        host.encode("utf-8")
    except UnicodeEncodeError:
        raise BadRecord(skip_reason("not-utf8")) from None
    found = status_of(status)
    if isinstance(body, str):
        body = body.encode("utf-8", "surrogateescape")
    elif body is None:
        body = b""
    elif not isinstance(body, bytes):
        raise BadRecord(skip_reason("body", kind=type(body).__name__))
    kept = cut(body[start : start + _PIECE] for start in range(0, len(body), _PIECE))  # never a whole copy
    return HostFile(host.strip(), found, kept, error="network" if found is None else None)


def _missing(source: Path, names: list[str]) -> Unreadable:
    missing = [name for name in COLUMNS if name not in names]
    return Unreadable(message("records.unreadable.columns", source=str(source), columns=missing))


def read_table(path: Path, tally: Tally) -> Iterator[HostFile]:
    return read_parquet(path, tally) if path.name.lower().endswith(".parquet") else read_csv(path, tally)


class _Lines:
    """The lines a CSV reader parses: each decoded as UTF-8 (bad bytes kept as surrogates), a row within its limit."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._lines = lines(stream, ROW_LIMIT)
        self.number = 0  # the last line read
        self.row = 0  # bytes of the row being read

    def __iter__(self) -> _Lines:
        return self

    def __next__(self) -> str:
        line = next(self._lines)
        self.number += 1
        self.row += ROW_LIMIT + 1 if line is None else len(line)
        if line is None or self.row > ROW_LIMIT:  # a line past the limit, or a row of lines past it
            raise BadRecord(skip_reason("too-long", limit=ROW_LIMIT))
        return line.decode("utf-8", "surrogateescape")


def read_csv(path: Path, tally: Tally) -> Iterator[HostFile]:
    csv.field_size_limit(ROW_LIMIT)  # a field is never longer than its row
    source = str(path)
    with path.open("rb") as stream:
        physical = _Lines(stream)
        reader = csv.reader(physical)
        try:
            header = next(reader)
        except (BadRecord, csv.Error, StopIteration):
            raise Unreadable(message("records.unreadable.header", source=source)) from None
        names = [name.strip().lower() for name in header]
        if any(name not in names for name in COLUMNS):
            raise _missing(path, names)
        where = [names.index(name) for name in COLUMNS]
        while True:
            start, physical.row = physical.number + 1, 0
            try:
                row = next(reader)
                if not row:
                    continue  # a blank line
                if len(row) < len(names):
                    raise BadRecord(skip_reason("columns", found=len(row), expected=len(names)))
                yield host_file(*(row[index] for index in where))
            except StopIteration:
                return
            except (BadRecord, csv.Error) as error:
                reason = error.reason if isinstance(error, BadRecord) else skip_reason("csv", detail=str(error))
                tally.skip(source, "line", start, reason)
                reader = csv.reader(physical)  # the row is lost: go on at the next line


def read_parquet(path: Path, tally: Tally) -> Iterator[HostFile]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    source = str(path)
    try:
        table = pq.ParquetFile(path)
        names = table.schema_arrow.names
    except (pa.ArrowException, OSError) as error:
        raise Unreadable(message("records.unreadable.parquet", source=source, detail=str(error)[:200])) from None
    if any(name not in names for name in COLUMNS):
        raise _missing(path, names)
    first = 1  # the number of the row group's first row
    with path.open("rb") as stream:
        size = os.fstat(stream.fileno()).st_size
        for index in range(table.metadata.num_row_groups):
            number = first - 1  # the last row read
            rows = 0
            try:
                group = table.metadata.row_group(index)
                rows = max(group.num_rows, 0)
                _check(group, index + 1, stream, size)
                for batch in table.iter_batches(batch_size=_BATCH, row_groups=[index], columns=list(COLUMNS)):
                    for row in batch.to_pylist():
                        number += 1
                        try:
                            yield host_file(row["host"], row["status"], row["body"])
                        except BadRecord as bad:
                            tally.skip(source, "row", number, bad.reason)
            except (BadRecord, BadPages, pa.ArrowException, OSError) as error:
                reason = (
                    error.reason
                    if isinstance(error, BadRecord)
                    else skip_reason("group-bad", group=index + 1, detail=str(error)[:200])
                )
                # The group's rows not read yet (one at least: a group that declares none is still reported).
                tally.skip(source, "row", number + 1, reason, count=max(first + rows - 1 - number, 1))
            first = max(first + rows, number + 1)


def _check(group: Any, number: int, stream: IO[bytes], size: int) -> None:
    """Refuse row group `number` past the bounds (`BadRecord`) before Arrow decodes any of it."""
    if group.num_rows > MAX_GROUP_ROWS:
        raise BadRecord(skip_reason("group-rows", group=number, limit=MAX_GROUP_ROWS))
    for index in range(group.num_columns):
        chunk = group.column(index)
        if chunk.path_in_schema.split(".")[0] in COLUMNS:
            page = largest_page(stream, chunk, size)
            if page > MAX_PAGE:
                raise BadRecord(skip_reason("group-page", group=number, size=page, limit=MAX_PAGE))
