"""The pre-commit hooks of .pre-commit-hooks.yaml, run by pre-commit itself on a temporary repository.

pre-commit builds each hook's environment from this checkout (`pip install . .[cli]`: robotscope from here,
its dependencies from the package index), which takes a while: slow. `try-repo` clones the checkout as it
is, uncommitted changes included; `pre-commit run` needs a commit, so the checkout is cloned with those
changes committed (`snapshot`).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.ci_site import git
from tests.paths import ROOT

BROKEN = b"User-agent: *\nDisallow /private/\n"
FIXED = b"User-agent: *\nDisallow: /private/\n"
SPEC = '[[block]]\nagent = "*"\ndisallow = ["/private/"]\n'
EXPECT = '[[block]]\nagent = "Googlebot"\nurl = "/private/x"\n'


def pre_commit(site: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    env.pop("PYTHONPATH", None)  # the hooks run the robotscope pre-commit installed, not this checkout's source
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args],
        cwd=site,
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
    )


def site_with(tmp_path: Path, robots: bytes) -> Path:
    site = tmp_path / "site"
    (site / "public").mkdir(parents=True)
    git(site, "init", "-q", "-b", "main")
    (site / "public" / "robots.txt").write_bytes(robots)
    git(site, "add", ".")
    return site


@pytest.mark.slow
def test_try_repo_lint_fails_with_the_finding_and_passes_after_the_fix(tmp_path: Path) -> None:
    site = site_with(tmp_path, BROKEN)
    home = tmp_path / "pre-commit-home"
    broken = pre_commit(site, home, "try-repo", str(ROOT), "robotscope-lint", "--all-files")
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert "public/robots.txt:2: error missingColon" in broken.stdout
    (site / "public" / "robots.txt").write_bytes(FIXED)
    git(site, "add", ".")
    fixed = pre_commit(site, home, "try-repo", str(ROOT), "robotscope-lint", "--all-files")
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert "robotscope lint" in fixed.stdout and "Passed" in fixed.stdout


def snapshot(tmp_path: Path) -> tuple[Path, str]:
    """A clone of this checkout with its uncommitted changes committed (as try-repo makes one); its commit."""
    clone = tmp_path / "robotscope"
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(ROOT), str(clone)], check=True, timeout=300)
    git(clone, "checkout", "-q", git(ROOT, "rev-parse", "HEAD").strip())
    changes = subprocess.run(
        ["git", "-C", str(ROOT), "diff", "HEAD", "--binary"], check=True, capture_output=True, timeout=300
    ).stdout
    if changes:
        subprocess.run(["git", "-C", str(clone), "apply", "--index"], input=changes, check=True, timeout=300)
        git(clone, "commit", "-q", "-m", "uncommitted changes")
    return clone, git(clone, "rev-parse", "HEAD").strip()


@pytest.mark.slow
def test_the_expect_and_generate_hooks_fail_until_the_file_matches(tmp_path: Path) -> None:
    clone, rev = snapshot(tmp_path)
    site = site_with(tmp_path, b"User-agent: *\nDisallow: /\n")
    (site / "robots.toml").write_text(SPEC)
    (site / "robots-expect.toml").write_text(EXPECT)
    hooks = [
        {"id": "robotscope-lint"},
        {"id": "robotscope-expect", "args": ["robots-expect.toml", "public/robots.txt"]},
        {"id": "robotscope-generate", "args": ["--spec", "robots.toml", "-o", "public/robots.txt"]},
    ]
    config = {"repos": [{"repo": str(clone), "rev": rev, "hooks": hooks}]}
    (site / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    git(site, "add", ".")
    home = tmp_path / "pre-commit-home"
    # The file blocks everything: the expectation holds, but it is not what the spec generates.
    drifted = pre_commit(site, home, "run", "--all-files")
    assert drifted.returncode == 1, drifted.stdout + drifted.stderr
    assert "public/robots.txt is not what the spec generates" in drifted.stdout
    assert "-Disallow: /\n+Disallow: /private/" in drifted.stdout
    # Generated from the spec, then edited to let Googlebot in: the expectation fails too.
    (site / "public" / "robots.txt").write_bytes(
        b"User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nAllow: /\n"
    )
    git(site, "add", ".")
    edited = pre_commit(site, home, "run", "--all-files")
    assert edited.returncode == 1 and "expected Googlebot may not fetch /private/x" in edited.stdout
    (site / "public" / "robots.txt").write_bytes(FIXED)
    git(site, "add", ".")
    synced = pre_commit(site, home, "run", "--all-files")
    assert synced.returncode == 0, synced.stdout + synced.stderr
    assert synced.stdout.count("Passed") == 3
