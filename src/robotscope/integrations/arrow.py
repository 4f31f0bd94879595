"""The Arrow schema of robotscope's verdict, survey and log-audit rows (extras `spark` and `survey`: pyarrow only)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pyarrow as pa

# Every column is a string but these (robotscope.reports.survey's VERDICT_COLUMNS and SURVEY_COLUMNS, the
# audit's rows, robotscope.reports.audit.judge.COLUMNS).
_TYPES = {
    "allowed": pa.bool_(),
    "line": pa.int32(),
    "status": pa.int32(),
    "number": pa.int64(),
    "time": pa.timestamp("us", tz="UTC"),
    "crawl_delay": pa.float64(),
}


def arrow_schema(columns: Sequence[str], types: Mapping[str, pa.DataType] | None = None) -> pa.Schema:
    """The schema of rows with these columns, in this order; `types` for columns of other types than these."""
    known = {**_TYPES, **(types or {})}
    return pa.schema([(name, known.get(name, pa.string())) for name in columns])
