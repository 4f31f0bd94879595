"""The core imports no I/O layer and no third-party package; the public surface is complete."""

from __future__ import annotations

import subprocess
import sys

import pytest

import robotscope

CORE = ["crawlers", "compare", "generator", "model", "urls", "patterns", "useragents", "parser", "matcher", "robots", "render", "selftest", "policy", "linter"]
LAZY = {"FetchResult", "RobotsCache", "RobotsClient", "fetch_robots", "fetch_robots_async"}
FORBIDDEN = ["click", "httpx", "sqlite3", "socket", "asyncio", "robotscope.cli"]


@pytest.mark.parametrize("module", CORE)
def test_core_module_imports_nothing_from_the_edges(module: str) -> None:
    code = (
        f"import sys, robotscope.{module}\n"
        f"bad = [m for m in {FORBIDDEN!r} if m in sys.modules]\n"
        "print(','.join(bad))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


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
