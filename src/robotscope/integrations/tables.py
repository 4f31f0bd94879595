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
from .pages import BadPages, Group, largest_page, row_groups
from .records import BadRecord, Tally, Unreadable, cut, detail, lines, skip_reason, status_of

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
    except (pa.ArrowException, OSError, ValueError) as error:  # ValueError: a column name not UTF-8
        raise Unreadable(message("records.unreadable.parquet", source=source, detail=detail(error))) from None
    if any(name not in names for name in COLUMNS):
        raise _missing(path, names)
    first = 1  # the number of the row group's first row
    with path.open("rb") as stream:
        size = os.fstat(stream.fileno()).st_size
        try:
            groups = row_groups(stream, size, COLUMNS)
        except BadPages as error:
            raise Unreadable(message("records.unreadable.parquet", source=source, detail=detail(error))) from None
        if len(groups) != table.metadata.num_row_groups:
            raise Unreadable(message("records.unreadable.parquet", source=source, detail="row groups miscounted"))
        for index, group in enumerate(groups):
            number = first - 1  # the last row read
            try:
                _check(group, index + 1, stream, size)
                for batch in table.iter_batches(batch_size=_BATCH, row_groups=[index], columns=list(COLUMNS)):
                    for row in _cells(batch):
                        number += 1
                        try:
                            yield host_file(*row)
                        except BadRecord as bad:
                            tally.skip(source, "row", number, bad.reason)
            except (BadRecord, BadPages, pa.ArrowException, OSError) as error:
                reason = (
                    error.reason
                    if isinstance(error, BadRecord)
                    else skip_reason("group-bad", group=index + 1, detail=detail(error))
                )
                # The group's rows not read yet (one at least: a group that declares none is still reported).
                tally.skip(source, "row", number + 1, reason, count=max(first + group.rows - 1 - number, 1))
            first = max(first + max(group.rows, 0), number + 1)


def _cells(batch: Any) -> Iterator[tuple[object, ...]]:
    """Each row's host, status and body; text read as bytes, so that a cell not UTF-8 is one bad row, not a batch.

    Arrow raises on the first such cell when it makes the batch's strings
    (and a text body is bytes anyway): text columns are read as binary, and
    a host or status decoded keeping its bad bytes, which `host_file` refuses.
    """
    import pyarrow as pa

    columns = []
    for name in COLUMNS:
        column = batch.column(name)
        if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
            raw = column.cast(pa.large_binary() if pa.types.is_large_string(column.type) else pa.binary())
            columns.append([cell if name == "body" else _decoded(cell) for cell in raw.to_pylist()])
        else:
            columns.append(column.to_pylist())
    return zip(*columns, strict=True)


def _decoded(cell: object) -> object:
    return cell.decode("utf-8", "surrogateescape") if isinstance(cell, bytes) else cell


def _check(group: Group, number: int, stream: IO[bytes], size: int) -> None:
    """Refuse row group `number` past the bounds (`BadRecord`) before Arrow decodes any of it."""
    if group.rows > MAX_GROUP_ROWS:
        raise BadRecord(skip_reason("group-rows", group=number, limit=MAX_GROUP_ROWS))
    if group.chunks is None:
        raise BadPages("a column chunk without its metadata")
    for start, end in group.chunks:
        page = largest_page(stream, start, end, size)
        if page > MAX_PAGE:
            raise BadRecord(skip_reason("group-page", group=number, size=page, limit=MAX_PAGE))
