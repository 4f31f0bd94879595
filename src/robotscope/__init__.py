"""robotscope: may this crawler fetch this URL, and which line of robots.txt decides?

The core (`parse`, `Robots`, the model types) is pure Python with no
dependencies and no I/O. The fetching layer (`fetch_robots`,
`fetch_robots_async`, `FetchResult`, `RobotsClient`, `RobotsCache`) needs
httpx and sqlite3, so it is imported on first use, never by `import robotscope`.
"""

import importlib as _importlib
import typing as _typing

from . import crawlers as crawlers  # the catalogue module, re-exported
from ._version import __version__ as __version__
from .access.robots import Robots, parse
from .reports.generator import InvalidSpec, generate
from .reports.linter import lint
from .syntax.model import Finding, Group, Line, LineKind, Reason, Record, Rule, Severity, Verdict
from .syntax.tokens import product_token
from .syntax.urls import InvalidURL, robots_url

# Edge names, imported lazily: name -> module that defines it.
_LAZY = {
    "FetchResult": "fetch",
    "RobotsCache": "cache",
    "RobotsClient": "client",
    "fetch_robots": "fetch",
    "fetch_robots_async": "fetch",
}


if _typing.TYPE_CHECKING:
    from .cache import RobotsCache
    from .client import RobotsClient
    from .fetch import FetchResult, fetch_robots, fetch_robots_async


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'robotscope' has no attribute {name!r}")
    return getattr(_importlib.import_module(f".{module}", __name__), name)


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
