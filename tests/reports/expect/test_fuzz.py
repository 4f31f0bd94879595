"""The expect fuzz target over its seeds, and briefly under atheris: what a fuzzer once found stays found."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.fuzz.fuzz_expect import SEEDS, check

ROOT = Path(__file__).parents[3]
RUNS = 2000


@pytest.mark.parametrize("seed", sorted(SEEDS.iterdir()), ids=lambda p: p.name)
def test_every_seed_runs_without_error(seed: Path) -> None:
    check(seed.read_bytes())


def test_the_target_runs_under_atheris(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for seed in SEEDS.iterdir():
        (corpus / seed.name).write_bytes(seed.read_bytes())
    run = subprocess.run(
        [sys.executable, "-m", "tests.fuzz.fuzz_expect", str(corpus), f"-runs={RUNS}", "-rss_limit_mb=1024"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert f"Done {RUNS} runs" in run.stderr
