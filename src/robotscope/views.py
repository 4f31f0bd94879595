"""The JSON-ready views every front end shows, at the path users import them from (`robotscope.reports.views`)."""

from .reports.views import (
    explanation,
    finding_view,
    origin_note,
    overflow_note,
    readings_view,
    rule_text,
    split_note,
    usage_text,
    verdict_view,
)

__all__ = [
    "explanation",
    "finding_view",
    "origin_note",
    "overflow_note",
    "readings_view",
    "rule_text",
    "split_note",
    "usage_text",
    "verdict_view",
]
