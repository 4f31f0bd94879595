"""robotscope: may this crawler fetch this URL, and which line of robots.txt decides?

The core (`parse`, `Robots`, the model types) is pure Python with no
dependencies and no I/O.
"""

from .linter import lint
from .model import Finding, Group, Line, LineKind, Reason, Record, Rule, Severity, Verdict
from .robots import Robots, parse
from .useragents import product_token

__all__ = [
    "Finding",
    "Group",
    "Line",
    "LineKind",
    "Reason",
    "Record",
    "Robots",
    "Rule",
    "Severity",
    "Verdict",
    "lint",
    "parse",
    "product_token",
]
__version__ = "0.1.0"
