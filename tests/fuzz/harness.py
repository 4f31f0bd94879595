"""What every fuzz target shares: robotscope alone instrumented under atheris, and the fuzzing loop.

A target runs as a module from the repository root (`python -m tests.fuzz.fuzz_page SEEDS ...`);
imported by the tests it is a set of plain functions, and atheris is not needed.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Any


def instrumented(name: str) -> AbstractContextManager[Any]:
    """Around a target's robotscope imports: coverage for the fuzzer when the target runs (`name` is `__main__`).

    Only robotscope is instrumented: `atheris.instrument_all()` took minutes on 2 cores.
    """
    if name != "__main__":
        return nullcontext()
    import atheris  # optional: only the fuzzer needs it

    instrumenting: AbstractContextManager[Any] = atheris.instrument_imports(include=["robotscope"])
    return instrumenting


def fuzz(target: Callable[[bytes], None]) -> None:
    """Fuzz `target` with the command line's libFuzzer options (seed folders, -runs, -max_total_time, ...)."""
    import atheris

    atheris.Setup(sys.argv, target)
    atheris.Fuzz()
