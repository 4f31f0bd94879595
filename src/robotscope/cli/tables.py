"""Rows written to a file as Parquet, CSV or JSON lines, all or nothing: what `survey` and `logs` write (and any
other text, with `write_rendered`: `logs --html`'s page)."""

from __future__ import annotations

import csv
import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

KINDS = (".parquet", ".csv", ".jsonl")


class RowsFile:
    """Rows to FILE as Parquet, CSV or JSON lines (`kind`, by default FILE's extension); Parquet in row groups,
    the others streamed.

    The rows go to a temporary file beside FILE, renamed to FILE by `close`
    once every row is written: a command that stops (an unreadable input,
    an interrupt) leaves no partial FILE, and an earlier FILE stays as it
    was. Parquet's columns are typed by `integrations.arrow.arrow_schema`
    (with `types` for columns it does not know); it needs pyarrow, which
    raises ImportError here when it is not installed.
    """

    def __init__(
        self, path: Path, columns: Sequence[str], kind: str | None = None, types: Mapping[str, Any] | None = None
    ) -> None:
        self.path, self.kind, self.columns = path, kind or path.suffix.lower(), tuple(columns)
        self.parquet: Any = None
        if self.kind == ".parquet":
            import pyarrow.parquet as pq

            from ..integrations.arrow import arrow_schema

            schema = arrow_schema(self.columns, types)
        handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent)
        os.close(handle)
        self.temporary = Path(name)
        if self.kind == ".parquet":
            self.stream = None
            self.parquet = pq.ParquetWriter(self.temporary, schema)
        else:
            self.stream = self.temporary.open("w", newline="", encoding="utf-8")
        self.csv = None
        if self.kind == ".csv" and self.stream is not None:
            self.csv = csv.DictWriter(self.stream, self.columns, lineterminator="\n")
            self.csv.writeheader()

    @property
    def schema(self) -> Any:
        """The Arrow schema of a Parquet file (None for the others)."""
        return None if self.parquet is None else self.parquet.schema

    def write(self, rows: list[dict[str, Any]]) -> None:
        if self.parquet is not None:
            import pyarrow as pa

            if rows:
                # Arrow refuses an int past int64 for a float column (a Crawl-delay of 1e30 reads as one).
                floats = [f.name for f in self.parquet.schema if pa.types.is_floating(f.type)]
                if floats:
                    rows = [row | {n: float(row[n]) for n in floats if row.get(n) is not None} for row in rows]
                self.parquet.write_table(pa.Table.from_pylist(rows, schema=self.parquet.schema))
        elif self.csv is not None:
            self.csv.writerows(rows)
        else:
            assert self.stream is not None
            self.stream.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)

    def write_rendered(self, rendered: Any) -> None:
        """Rows rendered elsewhere (a worker process): CSV text without the header, or an Arrow record batch."""
        if self.parquet is not None:
            if rendered.num_rows:
                self.parquet.write_batch(rendered)
        else:
            assert self.stream is not None
            self.stream.write(rendered)

    def close(self, keep: bool) -> None:
        """Close the file; rename it to FILE if `keep` (every row written), else remove it."""
        if self.parquet is not None:  # no rows is still a readable file
            self.parquet.close()
        if self.stream is not None:
            self.stream.close()
        if keep:
            mask = os.umask(0)  # read by setting it: a new file's mode, as open() would have made it
            os.umask(mask)
            os.chmod(self.temporary, 0o666 & ~mask)  # mkstemp's is 0600, for the partial file alone
            os.replace(self.temporary, self.path)
        else:
            self.temporary.unlink(missing_ok=True)
