"""Which module may import which: an explicit table, checked on every import statement of the package.

The core (parser, model, matcher, linter, views, ...) imports only the core
and the standard library's pure modules, so it runs under Pyodide; only the
edges import httpx, sqlite3, click, starlette and the like. A cross-layer
import, even one inside a function, fails here.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import robotscope

PACKAGE = Path(robotscope.__file__).parent

# Layers, by module path (a package's name covers its modules).
CORE = {"_version", "messages", "syntax", "access", "reports"}
EDGES: dict[str, set[str]] = {
    # module: the robotscope layers and third-party packages it may import, besides the core and stdlib
    "fetch": {"fetch", "cache", "httpx", "anyio"},
    "download": {"fetch", "httpx", "anyio"},
    "pagecheck": {"fetch", "download", "httpx", "anyio"},
    "cache": set(),
    "client": {"cache", "fetch"},
    "compat": {"fetch"},
    "integrations": {"integrations", "compat", "scrapy", "twisted", "pyspark", "pyarrow", "duckdb", "warcio"},
    "web": {"web", "fetch", "pagecheck", "httpx", "anyio", "starlette", "uvicorn"},
    "cli": {"cli", "web", "fetch", "download", "pagecheck", "cache", "click", "rich", "uvicorn", "integrations", "pyspark", "pyarrow"},
    "__init__": {"cache", "client", "fetch"},  # lazily, through module __getattr__
    "__main__": {"cli"},  # `python -m robotscope`
}
# Standard-library modules that do I/O or need an operating system: none of them in the core.
IO_STDLIB = {"socket", "sqlite3", "asyncio", "subprocess", "threading", "http", "urllib.request", "ssl", "multiprocessing", "select", "selectors"}
EDGE_STDLIB = {
    "cache": {"sqlite3", "threading"},
    "fetch": {"asyncio", "sqlite3"},  # sqlite3 for the cache's errors only
    "download": {"asyncio"},
    "pagecheck": set(),
    "client": {"asyncio"},
    "web": {"subprocess", "threading", "signal", "socket"},
    "cli": {"asyncio", "socket", "sqlite3", "threading", "subprocess", "multiprocessing"},
}
THIRD_PARTY = {
    "httpx", "anyio", "click", "rich", "starlette", "uvicorn", "scrapy", "twisted", "protego", "hypothesis",
    "pyspark", "pyarrow", "duckdb", "warcio",
}


def _layer(path: Path) -> str:
    return path.relative_to(PACKAGE).with_suffix("").parts[0]


def _imports(path: Path) -> set[str]:
    """Every module an import statement of `path` names, relative imports made absolute."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ["robotscope", *path.relative_to(PACKAGE).with_suffix("").parts[:-1]]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, node.module] if node.module else base)
            names.add(module)
            if node.level or module == "robotscope":
                names.update(f"{module}.{alias.name}" for alias in node.names)  # `from . import crawlers`
    return names


def _robotscope_layer(name: str) -> str | None:
    parts = name.split(".")
    if parts[0] != "robotscope" or len(parts) < 2:
        return None
    return parts[1] if (PACKAGE / parts[1]).exists() or (PACKAGE / f"{parts[1]}.py").exists() else None


MODULES = sorted(p for p in PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(PACKAGE)) for p in MODULES])
def test_every_import_is_allowed_by_the_table(path: Path) -> None:
    layer = _layer(path)
    assert layer in CORE or layer in EDGES, f"{layer} is in no layer of the table"
    allowed = CORE | ({layer} if layer in CORE else EDGES[layer])
    stdlib_allowed = EDGE_STDLIB.get(layer, set())
    bad = []
    for name in _imports(path):
        top = name.split(".")[0]
        inner = _robotscope_layer(name)
        if inner is not None and inner not in allowed or top in THIRD_PARTY and top not in allowed or (name in IO_STDLIB or top in IO_STDLIB) and name not in stdlib_allowed and top not in stdlib_allowed:
            bad.append(name)
    assert bad == [], f"{path.relative_to(PACKAGE)} ({layer}) imports {bad}"


def test_the_core_runs_without_any_edge_package_loaded() -> None:
    core = " ".join(f"robotscope.{m}" for m in sorted(CORE))
    code = (
        f"import sys; import importlib\nfor m in {core!r}.split(): importlib.import_module(m)\n"
        f"print(','.join(m for m in {sorted(THIRD_PARTY | IO_STDLIB)!r} if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


LAZY = {"FetchResult", "RobotsCache", "RobotsClient", "fetch_robots", "fetch_robots_async"}


def test_all_is_complete_and_sorted() -> None:
    public = {name for name in vars(robotscope) if not name.startswith("_")}
    modules = {name for name in public if type(getattr(robotscope, name)).__name__ == "module"}
    assert sorted(robotscope.__all__) == robotscope.__all__
    # The edge names are not in vars(): module __getattr__ imports them on first use.
    assert set(robotscope.__all__) == (public - modules) | LAZY
    for name in LAZY:
        assert getattr(robotscope, name).__name__ == name


def test_import_robotscope_loads_no_edge() -> None:
    code = "import sys, robotscope\nprint(','.join(m for m in ('httpx', 'sqlite3', 'click') if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""
