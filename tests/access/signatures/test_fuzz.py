"""The signature fuzz target over its seeds, and briefly under atheris: what a fuzzer once found stays found."""

from __future__ import annotations

from pathlib import Path

import pytest

from robotscope.webbotauth import verify_request
from tests.fuzz.fuzz_signatures import DIRECTORY, SEEDS, check, request
from tests.fuzz.harness import run_briefly
from tests.fuzz.signing import NOW


@pytest.mark.parametrize("seed", sorted(SEEDS.iterdir()), ids=lambda p: p.name)
def test_every_seed_runs_without_error(seed: Path) -> None:
    check(seed.read_bytes())


def test_the_valid_seed_verifies_and_its_mutations_do_not() -> None:
    verdicts = {seed.name: verify_request(request(seed.read_bytes()), DIRECTORY, NOW) for seed in SEEDS.iterdir()}
    assert {name for name, verdict in verdicts.items() if verdict.verified} == {
        "valid.txt",
        "not-utf8.txt",
    }  # an unsigned extra field changes nothing


def test_the_target_runs_under_atheris(tmp_path: Path) -> None:
    run_briefly("tests.fuzz.fuzz_signatures", SEEDS, tmp_path, 3000)
