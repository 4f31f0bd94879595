"""What every fuzz target shares: robotscope alone instrumented under atheris, and the fuzzing loop.

A target runs as a module from the repository root (`python -m tests.fuzz.fuzz_page SEEDS ...`);
imported by the tests it is a set of plain functions, and atheris is not needed.
"""

from __future__ import annotations

import resource
import shutil
import subprocess
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

ROOT = Path(__file__).parents[2]


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


def run_briefly(module: str, seeds: Path, scratch: Path, runs: int) -> None:
    """Run the target `module` under atheris for `runs` inputs from a copy of `seeds` (libFuzzer adds to
    its corpus folder); fails on a crash or when the fuzzer stops short of `runs`."""
    corpus = scratch / "corpus"
    shutil.copytree(seeds, corpus)
    # libFuzzer's memory limit reads the peak RSS, which Linux keeps across fork and exec: a child of
    # a test process that once held 4 GB starts "at" 4 GB. The limit is 1 GB above what it inherits.
    inherited = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    run = subprocess.run(
        # A crash's input is written to the scratch folder (not the repository), named in the failure.
        [
            sys.executable,
            "-m",
            module,
            str(corpus),
            f"-runs={runs}",
            f"-rss_limit_mb={inherited + 1024}",
            f"-artifact_prefix={scratch}/",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert f"Done {runs} runs" in run.stderr
