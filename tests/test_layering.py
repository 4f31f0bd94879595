"""The package's layers, in order, and the rules every import statement of it must keep.

robotscope is ordered in layers; a module imports only from its own layer
and the layers below it, never above, not even inside a function or under
`if TYPE_CHECKING:` (an import is a dependency wherever it stands). The
import graph has no cycle: not between modules, and not through a package's
`__init__`, which Python runs before any module inside the package.

The core (messages through reports) imports no third-party package and no
standard-library module that does I/O, so it runs under Pyodide; each edge
and front end names the third-party packages it may import.

`layer_problems` and `cycles` read any copy of the package, so the last
tests show them catching an upward import and a cycle inserted into one.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import robotscope

PACKAGE = Path(robotscope.__file__).parent

# Public import paths that re-export a module of a layer (and the package root): nothing inside imports them.
SURFACE = ("__init__", "agent", "crawlers", "enforce", "logs", "profiles", "verify", "views")

# The layers, lowest first: the top-level names (modules or packages) each holds.
LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    ("foundation", frozenset({"_version", "messages"})),
    ("syntax", frozenset({"syntax"})),
    ("access", frozenset({"access"})),
    ("reports", frozenset({"reports"})),
    (
        "edges",
        frozenset(
            {
                "sqlite_file",
                "cache",
                "history",
                "fetch",
                "download",
                "pagecheck",
                "client",
                "compat",
                "integrations",
                "watching",
                "webbotauth",
                "verifying",
                "auditing",
                "gating",
            }
        ),
    ),
    # The public surface: the package's re-exports, and modules at the paths users import them from.
    ("surface", frozenset(SURFACE)),
    ("front ends", frozenset({"cli", "web", "mcp", "__main__"})),
)
CORE = ("foundation", "syntax", "access", "reports")

# Third-party packages each top-level name outside the core may import (the core may import none).
THIRD_PARTY_ALLOWED: dict[str, frozenset[str]] = {
    "auditing": frozenset({"httpx"}),  # the type of a transport handed to the fetcher
    "fetch": frozenset({"httpx", "anyio"}),
    "watching": frozenset({"httpx", "anyio"}),
    "download": frozenset({"httpx", "anyio"}),
    "pagecheck": frozenset({"httpx", "anyio"}),
    "integrations": frozenset({"scrapy", "twisted", "pyspark", "pyarrow", "duckdb"}),
    "web": frozenset({"httpx", "anyio", "starlette", "uvicorn"}),
    "cli": frozenset({"click", "rich", "uvicorn", "pyspark", "pyarrow"}),
    "webbotauth": frozenset({"cryptography"}),
    "verifying": frozenset({"dnslib", "httpx"}),
    # The guard's check of a cached copy's chain (httpx URLs), within the fetch's deadline (anyio).
    "gating": frozenset({"httpx", "anyio"}),
    # The MCP SDK, the tools' input schemas checked by jsonschema, anyio's threads for CPU work, the
    # fetcher's transport type, and the streamable HTTP app's type.
    "mcp": frozenset({"mcp", "jsonschema", "anyio", "httpx", "starlette"}),
}
THIRD_PARTY = frozenset(
    {
        "httpx",
        "anyio",
        "click",
        "rich",
        "starlette",
        "uvicorn",
        "scrapy",
        "twisted",
        "protego",
        "hypothesis",
        "pyspark",
        "pyarrow",
        "duckdb",
        "warcio",
        "cryptography",
        "dnslib",
        "mcp",
        "mcp_types",
        "jsonschema",
    }
)
# Standard-library modules that do I/O or need an operating system: none of them in the core.
IO_STDLIB = frozenset(
    {
        "socket",
        "sqlite3",
        "asyncio",
        "subprocess",
        "threading",
        "http",
        "urllib.request",
        "ssl",
        "multiprocessing",
        "select",
        "selectors",
        "signal",
    }
)
IO_ALLOWED: dict[str, frozenset[str]] = {
    # git, stopped at its deadline by a timer; log pieces audited in worker processes (`--jobs`), started with
    # Ctrl-C blocked and ended with the process that started them.
    "auditing": frozenset({"subprocess", "threading", "multiprocessing", "signal"}),
    "sqlite_file": frozenset({"sqlite3", "threading"}),
    "cache": frozenset({"sqlite3"}),
    "history": frozenset({"sqlite3"}),
    "watching": frozenset({"asyncio"}),
    # sqlite3 for the cache's errors only; ssl: one TLS context; socket: the SSRF guard's name lookups.
    "fetch": frozenset({"asyncio", "sqlite3", "ssl", "socket"}),
    "download": frozenset({"asyncio"}),
    "client": frozenset({"asyncio"}),
    "verifying": frozenset({"asyncio", "socket", "threading"}),
    "web": frozenset({"subprocess", "threading", "signal", "socket"}),
    # signal: SIGINT and SIGTERM turned into a clean stop and exit 130 / 143 (`output.interruptible`).
    "cli": frozenset({"asyncio", "socket", "sqlite3", "threading", "subprocess", "multiprocessing", "signal"}),
    # stdin read in a daemon thread, which a client that never closes it cannot keep alive.
    "mcp": frozenset({"threading"}),
}


def module_name(package: Path, path: Path) -> str:
    """`robotscope.access.robots` for access/robots.py; a package is named by its `__init__`."""
    parts = list(path.relative_to(package).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["robotscope", *parts])


def modules(package: Path) -> dict[str, Path]:
    return {module_name(package, path): path for path in sorted(package.rglob("*.py"))}


def imports(package: Path, path: Path) -> Iterator[tuple[str, int]]:
    """Every module an import statement of `path` names (relative ones made absolute), with its line.

    `from . import x` names the module `x` when there is one, else its package.
    """
    known = modules(package)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = module_name(package, path).split(".")
    here = own if path.name == "__init__.py" else own[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = here[: len(here) - node.level + 1] if node.level else []
            module = ".".join([*base, node.module] if node.module else base)
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                yield (sub if sub in known else module), node.lineno


def layer_of(name: str) -> str | None:
    """The layer of a module of the package (by its top-level name), None for anything else."""
    parts = name.split(".")
    if parts[0] != "robotscope":
        return None
    top = parts[1] if len(parts) > 1 else "__init__"
    for layer, names in LAYERS:
        if top in names:
            return layer
    raise AssertionError(f"{name} is in no layer of LAYERS")


def _rank(layer: str) -> int:
    return [name for name, _ in LAYERS].index(layer)


def layer_problems(package: Path) -> list[str]:
    """Every import that points upward, or at the package's root from inside it, as one line each."""
    problems = []
    for name, path in modules(package).items():
        layer = layer_of(name)
        assert layer is not None
        for target, line in imports(package, path):
            if target == "robotscope" and name != "robotscope":
                problems.append(f"{name}:{line} imports the package root, which re-exports every layer")
                continue
            theirs = layer_of(target)
            if theirs is not None and _rank(theirs) > _rank(layer):
                problems.append(f"{name}:{line} ({layer}) imports {target} ({theirs}), a layer above")
    return problems


def graph(package: Path) -> dict[str, set[str]]:
    """The package's import graph: an edge to every module imported, and to each package above it
    (Python runs a package's `__init__` before any module inside it; the root's aside: nothing imports it)."""
    known = modules(package)
    edges: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        for target, _ in imports(package, path):
            while target and target not in known:
                target = target.rpartition(".")[0]  # `from .x import name`: the module x
            parts = target.split(".")
            for depth in range(2, len(parts) + 1):
                ancestor = ".".join(parts[:depth])
                if ancestor != name and ancestor in known and not name.startswith(ancestor + "."):
                    edges[name].add(ancestor)
    return edges


def cycles(package: Path) -> list[list[str]]:
    """The import graph's strongly connected components of more than one module (Tarjan's algorithm)."""
    edges = graph(package)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(edges[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_every_module_is_in_a_layer() -> None:
    for name in modules(PACKAGE):
        assert layer_of(name) is not None, name


def test_no_module_imports_a_layer_above_its_own() -> None:
    assert layer_problems(PACKAGE) == []


def test_nothing_imports_the_public_surface() -> None:
    # The surface re-exports for users; inside, every module imports a name from its one home.
    users = [
        f"{name} imports {target}"
        for name, path in modules(PACKAGE).items()
        if name != "robotscope"
        for target, _ in imports(PACKAGE, path)
        if target.startswith("robotscope.") and target.split(".")[1] in SURFACE
    ]
    assert users == []


def test_the_import_graph_has_no_cycle() -> None:
    assert cycles(PACKAGE) == []


MODULES = sorted(modules(PACKAGE).items())


@pytest.mark.parametrize(("name", "path"), MODULES, ids=[name for name, _ in MODULES])
def test_third_party_and_io_imports_stay_at_the_edges(name: str, path: Path) -> None:
    top = name.split(".")[1] if "." in name else "__init__"
    core = layer_of(name) in CORE
    bad = []
    for target, line in imports(PACKAGE, path):
        head = target.split(".")[0]
        if head in THIRD_PARTY and (core or head not in THIRD_PARTY_ALLOWED.get(top, frozenset())):
            bad.append(f"{target} (line {line})")
        io = target if target in IO_STDLIB else head if head in IO_STDLIB else None
        if io is not None and (core or io not in IO_ALLOWED.get(top, frozenset())):
            bad.append(f"{target} (line {line})")
    assert bad == [], f"{name} imports {bad}"


def test_the_core_runs_without_any_edge_package_loaded() -> None:
    core = " ".join(name for name in modules(PACKAGE) if layer_of(name) in CORE)
    code = (
        f"import sys, importlib\nfor m in {core!r}.split(): importlib.import_module(m)\n"
        f"print(','.join(m for m in {sorted(THIRD_PARTY | IO_STDLIB)!r} if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


# The names `robotscope` imports on first use: the reports and the edges.
LAZY = {
    "FetchResult",
    "InvalidSpec",
    "RobotsCache",
    "RobotsClient",
    "fetch_robots",
    "fetch_robots_async",
    "generate",
    "lint",
}


def test_all_is_complete_and_sorted() -> None:
    public = {name for name in vars(robotscope) if not name.startswith("_")}
    modules_exported = {name for name in public if type(getattr(robotscope, name)).__name__ == "module"}
    assert sorted(robotscope.__all__) == robotscope.__all__
    # The lazy names are in vars() only once asked for: module __getattr__ imports them on first use.
    assert set(robotscope.__all__) == (public - modules_exported) | LAZY
    assert set(robotscope._LAZY) == LAZY
    for name in LAZY:
        assert getattr(robotscope, name).__name__ == name


def test_import_robotscope_loads_the_core_alone() -> None:
    code = (
        "import sys, robotscope\n"
        "print(','.join(m for m in sys.modules if m in ('httpx', 'sqlite3', 'click') or m.startswith("
        "('robotscope.reports', 'robotscope.fetch', 'robotscope.cli', 'robotscope.web'))))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


# --- The checks catch what they are for -------------------------------------------------------


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    target = tmp_path / "robotscope"
    shutil.copytree(PACKAGE, target, ignore=shutil.ignore_patterns("__pycache__", "static", "*.json", "*.csv"))
    return target


def _append(path: Path, code: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + code, encoding="utf-8")


def test_an_upward_import_inside_a_function_is_caught(copy: Path) -> None:
    # The syntax layer asking the façade above it, as `Robots` once asked the engines.
    _append(
        copy / "syntax" / "parsed.py",
        "\n\ndef _upward() -> None:\n    from ..access.robots import Robots  # noqa: F401\n",
    )
    problems = layer_problems(copy)
    assert len(problems) == 1
    assert (
        problems[0].startswith("robotscope.syntax.parsed:")
        and "imports robotscope.access.robots (access), a layer above" in problems[0]
    )


def test_an_upward_import_for_type_checking_only_is_caught(copy: Path) -> None:
    _append(
        copy / "syntax" / "model.py", "\nif TYPE_CHECKING:\n    from ..access.profiles import Answer  # noqa: F401\n"
    )
    assert [p.split(" ")[0] for p in layer_problems(copy)] == [
        f"robotscope.syntax.model:{_last_line(copy / 'syntax' / 'model.py')}"
    ]


def test_a_cycle_within_a_layer_is_caught(copy: Path) -> None:
    # Matching importing the engines that build on it: both in `access`, so only the graph sees it.
    _append(
        copy / "access" / "matching" / "ruleset.py",
        "\n\ndef _back() -> None:\n    from ..engines import registry  # noqa: F401\n",
    )
    assert layer_problems(copy) == []
    found = cycles(copy)
    assert any({"robotscope.access.matching.ruleset", "robotscope.access.engines.registry"} <= set(c) for c in found)


def test_a_cycle_through_a_package_init_is_caught(copy: Path) -> None:
    # The engines' `__init__` importing the façade, which imports `engines.registry`: Python runs the
    # `__init__` before the registry, so the façade waits on itself, though no statement of the
    # registry names the façade.
    _append(copy / "access" / "engines" / "__init__.py", "\nfrom ..robots import Robots  # noqa: F401\n")
    assert layer_problems(copy) == []
    found = cycles(copy)
    assert any({"robotscope.access.engines", "robotscope.access.robots"} <= set(c) for c in found)


def _last_line(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())
