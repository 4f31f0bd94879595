"""The Arrow schema of robotscope's verdict, survey and log-audit rows (extras `spark` and `survey`: pyarrow only)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pyarrow as pa

from ..reports.audit.judge import COLUMNS, Row

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


AUDIT_SCHEMA = arrow_schema(COLUMNS)


def audit_batch(rows: Sequence[Row]) -> pa.RecordBatch:
    """The log audit's rows as one record batch of AUDIT_SCHEMA (times as UTC microseconds)."""
    columns = list(zip(*rows, strict=True)) if rows else [() for _ in COLUMNS]
    arrays = []
    for field, values in zip(AUDIT_SCHEMA, columns, strict=True):
        if field.name == "time":
            micros = [None if value is None else round(value * 1_000_000) for value in values]
            arrays.append(pa.array(micros, pa.int64()).cast(field.type))
        elif pa.types.is_floating(field.type):  # a Crawl-delay of 1e30 reads as an int past int64, refused
            arrays.append(pa.array([None if value is None else float(value) for value in values], field.type))
        else:
            arrays.append(pa.array(values, field.type))
    return pa.RecordBatch.from_arrays(arrays, schema=AUDIT_SCHEMA)
