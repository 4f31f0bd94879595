"""The fuzz targets of tests/fuzz/fuzz_sources.py, run on their seeds without atheris, under a memory bound."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from tests.fuzz import fuzz_sources as FUZZ

SEEDS = [(name, seed) for name, folder in FUZZ.SEEDS.items() for seed in sorted(folder.iterdir())]


def test_every_target_has_seeds() -> None:
    assert {name for name, _ in SEEDS} == set(FUZZ.TARGETS) and len(SEEDS) >= 20


@pytest.mark.parametrize(("name", "seed"), SEEDS, ids=[f"{name}-{seed.name}" for name, seed in SEEDS])
def test_a_reader_raises_only_its_one_line_error_in_bounded_memory(name: str, seed: Path) -> None:
    # Once untraced first: a reader's first call imports what it needs (pyarrow 26 loads pyarrow.compute,
    # about 9 MB of module objects), and that is not memory the input costs.
    FUZZ.TARGETS[name](seed.read_bytes())
    tracemalloc.start()
    try:
        FUZZ.TARGETS[name](seed.read_bytes())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20  # a 2 MiB gzip bomb among the seeds: inflated only to the 500 KiB limit
