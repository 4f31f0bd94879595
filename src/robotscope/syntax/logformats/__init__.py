"""Server access logs in the formats people have, read line by line into `Request`s. Pure.

`reader(name, log_format, mapping)` reads one format (`FORMATS`); `detect(first_lines)` names the
format of a log. Every line is a `Request`, a `BadLine` (with its number and why) or None (a header,
a comment, a blank line): never an exception. A format that cannot be read, or lacks what the audit
needs, is refused once with a `FormatError`.
"""

from __future__ import annotations

from .fielded import is_fields
from .jsonlines import parse_mapping
from .model import BadLine, LineReader, Request
from .problems import AUDIT, MAX_LINE, FormatError
from .registry import DETECT_LINES, FORMATS, detect, directive_kind, reader

__all__ = [
    "AUDIT",
    "DETECT_LINES",
    "FORMATS",
    "MAX_LINE",
    "BadLine",
    "FormatError",
    "LineReader",
    "Request",
    "detect",
    "directive_kind",
    "is_fields",
    "parse_mapping",
    "reader",
]
