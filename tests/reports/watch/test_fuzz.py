"""The watch fuzz target over its seeds, and briefly under atheris: what a fuzzer once found stays found."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fuzz.fuzz_watch import SEEDS, check
from tests.fuzz.harness import run_briefly

RUNS = 300  # each run compares two files for every crawler asked: slower than a parse


@pytest.mark.parametrize("seed", sorted(SEEDS.iterdir()), ids=lambda p: p.name)
def test_every_seed_runs_without_error(seed: Path) -> None:
    check(seed.read_bytes())


def test_the_target_runs_under_atheris(tmp_path: Path) -> None:
    run_briefly("tests.fuzz.fuzz_watch", SEEDS, tmp_path, RUNS)
