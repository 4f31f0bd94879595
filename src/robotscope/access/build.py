"""Which build of robotscope is running: the compiled one (mypyc) or pure Python.

The compiled build is the same source compiled by pyproject.toml's mypyc hook
into extension modules; the pure one runs the `.py` files. Which one a copy is
is a fact of its installed files, read here once for the CLI's `--version` and
the web's `/api/info`. Under Pyodide the answer is always "pure".
"""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES

from ..messages import Message, message
from .matching import ruleset

BUILDS = ("compiled", "pure")


def build_kind() -> str:
    """`"compiled"` when the core's modules are extension modules (`.so`, `.pyd`), else `"pure"`.

    The matcher's rule set stands for the core: the hook compiles it with every module a check runs through.
    """
    return "compiled" if ruleset.__file__.endswith(tuple(EXTENSION_SUFFIXES)) else "pure"


def build_name() -> Message:
    """The build as users read it: "compiled, mypyc" or "pure Python"."""
    return message(f"build.{build_kind()}")
