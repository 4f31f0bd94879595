"""The export fuzz targets (export, and export --check) on their seeds, and under atheris."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fuzz import fuzz_export, fuzz_export_check
from tests.fuzz.harness import run_briefly


@pytest.mark.parametrize("seed", sorted(fuzz_export.SEEDS.iterdir()), ids=lambda p: p.name)
def test_the_fuzz_target_passes_on_every_seed(seed: Path) -> None:
    fuzz_export.check(seed.read_bytes())


def test_the_fuzz_target_runs_under_atheris(tmp_path: Path) -> None:
    run_briefly("tests.fuzz.fuzz_export", fuzz_export.SEEDS, tmp_path, 2000)


@pytest.mark.parametrize("seed", sorted(fuzz_export_check.SEEDS.iterdir()), ids=lambda p: p.name)
def test_the_check_fuzz_target_passes_on_every_seed(seed: Path) -> None:
    fuzz_export_check.check(seed.read_bytes())


def test_the_check_fuzz_target_runs_under_atheris(tmp_path: Path) -> None:
    run_briefly("tests.fuzz.fuzz_export_check", fuzz_export_check.SEEDS, tmp_path, 600)
