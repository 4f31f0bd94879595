"""The Arrow schema of robotscope's verdict and survey rows (extras `spark` and `survey`: pyarrow only)."""

from __future__ import annotations

from collections.abc import Sequence

import pyarrow as pa

# Every column is a string but these (robotscope.reports.survey's VERDICT_COLUMNS and SURVEY_COLUMNS).
_TYPES = {"allowed": pa.bool_(), "line": pa.int32(), "status": pa.int32()}


def arrow_schema(columns: Sequence[str]) -> pa.Schema:
    """The schema of rows with these columns, in this order."""
    return pa.schema([(name, _TYPES.get(name, pa.string())) for name in columns])
