"""The README's examples are run, so they cannot go stale.

- ```python blocks are doctests (`>>>` lines with their output);
- ```console blocks hold `$ robotscope ...` commands, each followed by its
  exact output (and an optional `[exit N]` line); they run in the repository
  with this interpreter's `robotscope`, without network, in English;
- ```sh and ```text blocks are shown, not run (set-up commands, output of a
  live site).
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"^```(\w+)\n(.*?)^```", README, re.DOTALL | re.MULTILINE)


def _console_examples() -> list[tuple[str, str, int]]:
    examples = []
    for kind, body in BLOCKS:
        if kind != "console":
            continue
        for chunk in re.split(r"^(?=\$ )", body, flags=re.MULTILINE):
            if not chunk.startswith("$ "):
                continue
            command, _, output = chunk[2:].partition("\n")
            code = 0
            found = re.search(r"^\[exit (\d+)\]\n\Z", output, re.MULTILINE)
            if found:
                code, output = int(found.group(1)), output[: found.start()]
            examples.append((command, output, code))
    return examples


CONSOLE = _console_examples()


def test_the_readme_has_examples_of_every_kind() -> None:
    kinds = {kind for kind, _ in BLOCKS}
    assert {"python", "console"} <= kinds and len(CONSOLE) >= 5


@pytest.mark.parametrize(("command", "output", "code"), CONSOLE, ids=[c for c, _, _ in CONSOLE])
def test_console_example(command: str, output: str, code: int) -> None:
    assert command.startswith(("robotscope ", "printf ")), command
    env = {**os.environ, "ROBOTSCOPE_LANG": "en", "COLUMNS": "100", "NO_COLOR": "1"}
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    done = subprocess.run(
        command, shell=True, cwd=ROOT, capture_output=True, text=True, env=env, timeout=120, check=False
    )
    assert done.returncode == code, done.stderr
    assert [line.rstrip() for line in done.stdout.splitlines()] == [line.rstrip() for line in output.splitlines()]


def test_python_examples_run_as_doctests() -> None:
    source = "\n".join(body for kind, body in BLOCKS if kind == "python")
    parser = doctest.DocTestParser()
    test = parser.get_doctest(source, {"__name__": "readme"}, "README.md", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        runner.run(test)
    finally:
        os.chdir(cwd)
    result = runner.summarize(verbose=False)
    assert result.attempted > 5 and result.failed == 0


def test_commands_shown_in_console_blocks_are_real_commands() -> None:
    from robotscope.cli import cli

    for command, _, _ in CONSOLE:
        words = shlex.split(command.split("|")[-1].strip())
        if words[0] == "robotscope":
            assert words[1] in cli.commands, command
