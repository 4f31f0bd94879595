"""The compiled build (mypyc, opt-in) gives the same answers as the pure-Python source it is made from.

The wheel is built as a user would build it (pyproject.toml's mypyc hook,
through benchmarks/bench_compiled.py --build) and the core's own tests run
against it in a fresh interpreter: the matching, parser, URL and pattern
tests, the RFC 9309 cases, the property tests and the differential tests
against Google's, Protego's and the standard library's parsers.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.paths import ROOT

pytestmark = pytest.mark.slow  # builds a wheel with mypyc and runs the core's tests against it

CORE_TESTS = [
    "tests/syntax/test_parser.py",
    "tests/syntax/test_patterns.py",
    "tests/syntax/test_urls.py",
    "tests/syntax/test_tokens.py",
    "tests/access/matching",
    "tests/access/test_robots.py",
    "tests/access/test_conformance.py",
    "tests/test_properties.py",
    "tests/test_corpus.py",
    "tests/differential",
]


def test_the_compiled_build_answers_as_the_source_does(tmp_path: Path) -> None:
    built = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_compiled.py"), "--build", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,  # the script's own limit is 600 s
    )
    assert built.returncode == 0, built.stderr[-3000:]
    assert not list((ROOT / "src").rglob("*.so")), "the build left compiled modules in the checkout"
    hook = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]
    listed = sorted(Path(path).stem for path in hook["mypyc"]["include"])
    assert built.stdout.split() == listed and "ruleset" in listed

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))}
    probe = (
        "import robotscope.access.matching.ruleset as m, robotscope.access.robots as r; print(m.__file__, r.__file__)"
    )
    imported = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert imported.returncode == 0, imported.stderr[-3000:]
    assert all(path.startswith(str(tmp_path)) and path.endswith(".so") for path in imported.stdout.split())

    # The doctests of src/ are left out (they would import the checkout); plugins as in the main run.
    tests = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-o",
            "addopts=--import-mode=importlib --strict-markers",
            "-W",
            "error",
            *CORE_TESTS,
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    assert tests.returncode == 0, tests.stdout[-4000:]
    assert " passed" in tests.stdout.splitlines()[-1] and "failed" not in tests.stdout.splitlines()[-1]
