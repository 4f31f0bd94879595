"""Both wheels, built as the release builds them, say which build they are, and the compiled one answers as the source.

`tools/wheels.py` runs `python -m build` twice, as a clone's user would, each
in an isolated build environment as the release's (so the build needs PyPI):
the pure wheel (`py3-none-any`) and the compiled one (mypyc, tagged for this
CPython and platform, with the environment `[tool.cibuildwheel]` gives the
release). Each is installed with pip into a folder of its own; each one's
`robotscope --version` names its build, and the core's own tests run
against the compiled one in a fresh interpreter: the matching, parser, URL
and pattern tests, the RFC 9309 cases, the property tests, the
differential tests against Google's, Protego's and the standard library's
parsers, and the log audit's; both wheels audit the same log to the same
JSON.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from robotscope import __version__
from tests.compiled_modules import compiled_modules
from tests.paths import ROOT

pytestmark = pytest.mark.slow  # builds both wheels, one with mypyc, and runs the core's tests against it

CORE_TESTS = [
    "tests/syntax",
    "tests/access/matching",
    "tests/access/test_robots.py",
    "tests/access/test_conformance.py",
    "tests/access/test_build.py",
    "tests/test_properties.py",
    "tests/test_corpus.py",
    "tests/differential",
    "tests/reports/audit",
    "tests/logs",
    "tests/cli/test_logs.py",  # --jobs 2 sends versions to workers and summaries back: pickled compiled classes
]
# A log the audit judges by a robots.txt with a Crawl-delay: each wheel's command must print the same JSON to the
# byte (a Crawl-delay of 2 stays 2, where a compiled class would store a float).
ROBOTS = "User-agent: *\nCrawl-delay: 2\nDisallow: /private/\n"
LOG = "".join(
    f'192.0.2.7 - - [02/Nov/2026:00:00:0{second} +0000] "GET {path} HTTP/1.1" 200 10 "-" "CCBot/2.0"\n'
    for second, path in enumerate(["/robots.txt", "/a", "/private/b", "/c"])
)


def run(command: list[str], env: dict[str, str] | None = None, seconds: int = 120) -> str:
    """Run `command` from the checkout; its output (the test fails with its last lines if it fails)."""
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=seconds, check=False)
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    return done.stdout


def installed(wheel: Path, into: Path) -> dict[str, str]:
    """Install `wheel` with pip into the folder `into`: the environment that imports it first."""
    run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(into), str(wheel)])
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(into), os.environ.get("PYTHONPATH")]))}


def test_both_wheels_say_their_build_and_the_compiled_one_answers_as_the_source(tmp_path: Path) -> None:
    # tools/wheels.py bounds each build (20 minutes); the compiled one takes about one of CPU here.
    built = run([sys.executable, "tools/wheels.py", "--outdir", str(tmp_path / "dist")], seconds=3000)
    wheels = sorted(Path(line).name for line in built.split())
    cpython = f"cp{sys.version_info.major}{sys.version_info.minor}"
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    assert wheels == [
        f"robotscope-{__version__}-{cpython}-{cpython}-{platform}.whl",
        f"robotscope-{__version__}-py3-none-any.whl",
    ]
    # The hook compiles next to the sources and hides pyproject.toml meanwhile: the checkout is left alone.
    left = [path for path in (ROOT / "src").rglob("*") if path.suffix in (".so", ".pyd", ".c")]
    assert not left and not (ROOT / "pyproject.toml.bak").exists(), left

    pure = installed(tmp_path / "dist" / wheels[1], tmp_path / "pure")
    assert run([sys.executable, str(tmp_path / "pure" / "bin" / "robotscope"), "--version"], pure) == (
        f"robotscope {__version__} (pure Python)\n"
    )
    assert not list((tmp_path / "pure").rglob("*.so"))

    compiled = installed(tmp_path / "dist" / wheels[0], tmp_path / "compiled")
    version = run([sys.executable, str(tmp_path / "compiled" / "bin" / "robotscope"), "--version"], compiled)
    assert version == f"robotscope {__version__} (compiled, mypyc)\n"
    # Exactly the modules pyproject.toml's hook names are extension modules, imported from the installed wheel.
    extensions = {
        ".".join(path.relative_to(tmp_path / "compiled").parts).split(".cpython")[0]
        for path in (tmp_path / "compiled" / "robotscope").rglob("*.so")
    }
    assert extensions == compiled_modules() and "robotscope.access.matching.ruleset" in extensions
    probe = (
        "import robotscope.access.matching.ruleset as m, robotscope.syntax.parser as p; print(m.__file__, p.__file__)"
    )
    files = run([sys.executable, "-c", probe], compiled).split()
    assert all(path.startswith(str(tmp_path / "compiled")) and path.endswith(".so") for path in files), files
    (tmp_path / "robots" / "example.com").mkdir(parents=True)
    (tmp_path / "robots" / "example.com" / "2026-11-01T00:00Z.txt").write_text(ROBOTS)
    (tmp_path / "access.log").write_text(LOG)
    audit = ["logs", str(tmp_path / "access.log"), "--robots-dir", str(tmp_path / "robots"), "--no-dns", "--json"]
    audit += ["--site", "https://example.com"]
    audited = [run([sys.executable, "-m", "robotscope", *audit], env) for env in (pure, compiled)]
    assert audited[0] == audited[1] and '"delay": 2,' in audited[0] and '"unverified": 1' in audited[0]

    # The doctests of src/ are left out (they would import the checkout); plugins as in the main run.
    options = ["-q", "-p", "no:cacheprovider", "-o", "addopts=--import-mode=importlib --strict-markers", "-W", "error"]
    options += ["-m", "not source"]  # tests that replace a method of an object, which a compiled class refuses
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *options, *CORE_TESTS],
        cwd=ROOT,
        env=compiled,
        capture_output=True,
        text=True,
        timeout=3600,
        check=False,
    )
    last = done.stdout.splitlines()[-1] if done.stdout else done.stderr[-3000:]
    assert done.returncode == 0, done.stdout[-4000:]
    assert " passed" in last and "failed" not in last
