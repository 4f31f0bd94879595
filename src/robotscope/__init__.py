"""robotscope: may this crawler fetch this URL, and which line of robots.txt decides?

The core (`parse`, `Robots`, the model types) is pure Python with no
dependencies and no I/O; `import robotscope` loads it alone. The reports
(`lint`, `generate`) are imported on first use, so a crawler that only asks
verdicts does not load them; so is the fetching layer (`fetch_robots`,
`fetch_robots_async`, `FetchResult`, `RobotsClient`, `RobotsCache`), which
needs httpx and sqlite3.
"""

import importlib as _importlib
import typing as _typing

from . import crawlers as crawlers  # the catalogue module, re-exported
from ._version import __version__ as __version__
from .access.robots import Robots, parse
from .syntax.model import Finding, Group, Line, LineKind, Reason, Record, Rule, Severity, Verdict
from .syntax.tokens import product_token
from .syntax.urls import InvalidURL, robots_url

# Names imported on first use: name -> module that defines it.
_LAZY = {
    "FetchResult": "fetch",
    "InvalidSpec": "reports.generator",
    "generate": "reports.generator",
    "lint": "reports.linter",
    "RobotsCache": "cache",
    "RobotsClient": "client",
    "fetch_robots": "fetch",
    "fetch_robots_async": "fetch",
}


if _typing.TYPE_CHECKING:
    from .cache import RobotsCache
    from .client import RobotsClient
    from .fetch import FetchResult, fetch_robots, fetch_robots_async
    from .reports.generator import InvalidSpec, generate
    from .reports.linter import lint


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'robotscope' has no attribute {name!r}")
    value = getattr(_importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # found once: later lookups do not come back here
    return value


__all__ = [
    "FetchResult",
    "Finding",
    "Group",
    "InvalidSpec",
    "InvalidURL",
    "Line",
    "LineKind",
    "Reason",
    "Record",
    "Robots",
    "RobotsCache",
    "RobotsClient",
    "Rule",
    "Severity",
    "Verdict",
    "fetch_robots",
    "fetch_robots_async",
    "generate",
    "lint",
    "parse",
    "product_token",
    "robots_url",
]
