"""robotscope: may this crawler fetch this URL, and which line of robots.txt decides?

The core (`parse`, `Robots`, the model types) is pure Python with no
dependencies and no I/O.
"""

from .model import Group, Line, LineKind, Reason, Record, Rule, Verdict
from .robots import Robots, parse
from .useragents import product_token

__all__ = [
    "Group",
    "Line",
    "LineKind",
    "Reason",
    "Record",
    "Robots",
    "Rule",
    "Verdict",
    "parse",
    "product_token",
]
__version__ = "0.1.0"
