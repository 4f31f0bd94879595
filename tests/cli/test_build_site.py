"""`robotscope build-site` without a browser: what goes into the folder, and what it refuses to replace."""

from __future__ import annotations

import json
import zipfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest
from click.testing import CliRunner

from robotscope.access.matching import ruleset
from robotscope.cli import cli
from robotscope.cli.build_site import PACKAGE, PYODIDE_FILES, PYODIDE_VERSION, site_modules
from robotscope.reports.audit.html import STYLE

EDGES = {"cli", "web", "fetch", "cache.py", "client.py", "compat.py", "download.py", "pagecheck.py", "integrations"}


def fake_pyodide(folder: Path) -> Path:
    """A folder shaped like a Pyodide release (the browser tests use the real one)."""
    folder.mkdir()
    for name in PYODIDE_FILES:
        (folder / name).write_text(json.dumps({"version": PYODIDE_VERSION}) if name == "package.json" else name)
    return folder


def build(out: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["build-site", str(out), *args])
    return result.exit_code, result.output


def test_the_site_holds_the_page_the_core_and_the_fixed_answers(tmp_path: Path) -> None:
    code, output = build(tmp_path / "site", "--pyodide", str(fake_pyodide(tmp_path / "pyodide")))
    assert code == 0 and "robotscope modules" in output, output
    site = tmp_path / "site"
    names = set(zipfile.ZipFile(site / "robotscope.zip").namelist())
    assert {
        "robotscope/reports/api.py",
        "robotscope/messages/ko.json",
        "robotscope/syntax/crawlers.csv",
        "robotscope/reports/reference_cases.json",
        "robotscope/reports/audit/stream.py",  # the Logs panel's audit
        "robotscope/reports/listclaims.py",
        "robotscope/syntax/iplists/google-common-crawlers.json",  # claims checked by the lists shipped
    } <= names
    assert not any(part in EDGES for name in names for part in Path(name).parts[1:2]), sorted(names)
    assert (site / "static" / "js" / "pyodide-worker.js").is_file() and not (site / "static" / "index.html").exists()
    page = (site / "index.html").read_text()
    assert 'content="pyodide"' in page and 'content="server"' not in page and "connect-src 'self'" in page
    assert '<link rel="stylesheet" href="static/audit.css">' in page
    assert (site / "static" / "audit.css").read_text() == STYLE  # the log report's, as `logs --html` inlines it
    info = json.loads((site / "api" / "info.json").read_text())
    assert info["fetch"] is False and info["time_budget"] == 10 and info["build"] == "pure"
    assert json.loads((site / "api" / "strings-ko.json").read_text())["lang"] == "ko"
    assert set(json.loads((site / "robotscope-site.json").read_text())["bytes"]) >= {
        "index.html",
        "robotscope.zip",
        "pyodide/pyodide.asm.wasm",
    }


def test_the_site_runs_the_pure_build_whoever_builds_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ruleset, "__file__", f"ruleset{EXTENSION_SUFFIXES[0]}")  # as in the compiled build
    code, output = build(tmp_path / "site", "--pyodide", str(fake_pyodide(tmp_path / "pyodide")))
    assert code == 0, output
    assert json.loads((tmp_path / "site" / "api" / "info.json").read_text())["build"] == "pure"


def test_the_page_needs_only_core_modules() -> None:
    modules = {
        str(p.relative_to(PACKAGE)) for entry in ("reports.api", "reports.audit.stream") for p in site_modules(entry)
    }
    assert {
        "reports/api.py",
        "reports/analysis.py",
        "syntax/parser.py",
        "access/matching/ruleset.py",
        "access/engines/google.py",
        "reports/linter/rules.py",
        "reports/audit/judge.py",
        "syntax/logformats/registry.py",
    } <= modules
    assert not {m for m in modules if m.split("/")[0] in EDGES}


def test_an_earlier_build_is_replaced_only_with_force_and_nothing_else_ever(tmp_path: Path) -> None:
    pyodide = str(fake_pyodide(tmp_path / "pyodide"))
    out = tmp_path / "site"
    assert build(out, "--pyodide", pyodide)[0] == 0
    code, output = build(out, "--pyodide", pyodide)
    assert code == 2 and "pass --force" in output
    assert build(out, "--pyodide", pyodide, "--force")[0] == 0
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("keep me")
    code, output = build(other, "--pyodide", pyodide, "--force")
    assert code == 2 and "not a robotscope site" in output and (other / "notes.txt").read_text() == "keep me"


def test_a_folder_that_is_not_pyodide_is_refused_in_one_line(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    code, output = build(tmp_path / "site", "--pyodide", str(empty))
    assert code == 2 and "is not a Pyodide release" in output and len(output.strip().splitlines()) == 1
