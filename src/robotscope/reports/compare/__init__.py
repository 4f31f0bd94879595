"""Verdicts side by side: across crawlers (`matrix`), across file versions (`diff`), for many URLs (`bulk_row`).

Every answer here is the one all front ends give (`Robots.answer`, by
default the `rfc9309+profiles` reading: RFC 9309 with the operators'
documented crawler profiles), so `matrix`, `check`, `diff` and `bulk`
never disagree on the same crawler, URL and file. `diff` answers "which crawler/URL pairs flip between allowed and
disallowed?", not "which lines changed?": reordering, comments and
equivalent rewrites flip nothing. Pure: it only calls the core.
"""

from __future__ import annotations

from .bulk import BulkRow, bulk_row, verdict_row
from .diff import ANY_CRAWLER, Answers, Flip, agents_named, diff, probe_urls
from .matrix import MatrixRow, matrix

__all__ = [
    "ANY_CRAWLER",
    "Answers",
    "BulkRow",
    "Flip",
    "MatrixRow",
    "agents_named",
    "bulk_row",
    "diff",
    "matrix",
    "probe_urls",
    "verdict_row",
]
