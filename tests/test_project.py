"""The project's own set-up: one version, the license pyproject declares, the tools CI runs configured once."""

from __future__ import annotations

import ast
import re
import tomllib
from importlib import metadata
from pathlib import Path

import robotscope
from robotscope import _version
from tests.compiled_modules import compiled_modules
from tests.paths import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_version_has_one_home() -> None:
    assert PYPROJECT["project"]["dynamic"] == ["version"] and "version" not in PYPROJECT["project"]
    assert PYPROJECT["tool"]["hatch"]["version"]["path"] == "src/robotscope/_version.py"
    # The package, the installed distribution (built from the same file) and the changelog agree.
    assert robotscope.__version__ == _version.__version__ == metadata.version("robotscope")
    release = _version.__version__.split(".dev")[0]
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"## {release} - " in changelog or f"{release} (this entry" in changelog


def test_the_license_file_is_the_one_pyproject_declares() -> None:
    assert PYPROJECT["project"]["license"] == "BSD-3-Clause"
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("BSD 3-Clause License") and "Neither the name of the copyright holder" in text


def test_ruff_checks_a_chosen_rule_set_with_the_line_length_enforced() -> None:
    lint = PYPROJECT["tool"]["ruff"]["lint"]
    assert {"E", "W", "F", "B", "UP", "I", "SIM"} <= set(lint["select"])
    assert "E501" not in lint.get("ignore", []) and PYPROJECT["tool"]["ruff"]["line-length"] == 120


def test_the_slow_marker_is_registered_for_the_fast_loop() -> None:
    assert any(marker.startswith("slow:") for marker in PYPROJECT["tool"]["pytest"]["ini_options"]["markers"])


def test_the_compiled_build_takes_every_module_of_the_matcher() -> None:
    # Whole packages are compiled, so a module added to the matcher is compiled with it.
    compiled = compiled_modules()
    folder = ROOT / "src" / "robotscope" / "access" / "matching"
    matcher = {f"robotscope.access.matching.{path.stem}" for path in folder.glob("*.py")}
    assert len(matcher) > 5 and matcher <= compiled
    assert {"robotscope.syntax.parser", "robotscope.access.robots", "robotscope.access.verdicts"} <= compiled
    assert "robotscope.syntax.structured" not in compiled  # subclasses built-in types: mypyc cannot compile it


def test_the_cli_extra_installs_what_its_commands_import() -> None:
    # `pip install robotscope[cli]` must run every command: verify asks DNS through dnslib, watch
    # fetches through httpx (with sniffio, which httpcore looks for on every request).
    required = PYPROJECT["project"]["optional-dependencies"]["cli"]
    cli = {requirement.split(">")[0].split("=")[0] for requirement in required}
    assert {"click", "rich", "httpx", "sniffio", "dnslib"} <= cli


def test_ci_runs_the_readmes_test_command() -> None:
    # One list of system packages: the README's test command and .ci/run install the same.
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    install = re.compile(r"apt-get install -y -qq --no-install-recommends [^\n&]*")
    (shown,) = install.findall(readme)
    (ran,) = install.findall(ci)
    assert shown.strip() == ran.strip()
    assert {"nginx", "apache2", "caddy", "haproxy", "lighttpd", "chromium"} <= set(shown.split())


def test_no_compiled_module_holds_a_surrogate_in_a_string_literal() -> None:
    # mypyc refuses a string constant holding a surrogate (`"[\ud800-\udfff]"` must be written for `re` to read
    # the escapes, `r"[\ud800-\udfff]"`); only the slow wheel build would otherwise find it.
    found = []
    for name in sorted(compiled_modules()):
        path = ROOT / "src" / Path(*name.split(".")).with_suffix(".py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            text = node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else ""
            if any(0xD800 <= ord(char) <= 0xDFFF for char in text):
                found.append(f"{name}:{getattr(node, 'lineno', 0)}")
    assert not found
