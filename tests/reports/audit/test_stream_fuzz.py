"""The page audit's fuzz target: its seeds, and a short run under atheris."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fuzz.fuzz_stream import SEEDS, check
from tests.fuzz.harness import run_briefly


@pytest.mark.parametrize("seed", sorted(SEEDS.iterdir()), ids=lambda p: p.name)
def test_the_fuzz_target_passes_on_every_seed(seed: Path) -> None:
    check(seed.read_bytes())


def test_the_fuzz_target_runs_under_atheris(tmp_path: Path) -> None:
    run_briefly("tests.fuzz.fuzz_stream", SEEDS, tmp_path, 300)  # each input is audited twice
