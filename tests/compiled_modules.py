"""Which modules the compiled build compiles: pyproject.toml's mypyc hook patterns, read as the hook reads them."""

from __future__ import annotations

import tomllib

from pathspec import PathSpec

from tests.paths import ROOT

SOURCE = ROOT / "src"


def compiled_modules() -> set[str]:
    """Dotted names of the modules the hook's `include` takes and its `exclude` leaves.

    Git's wildcard rules, as hatch-mypyc matches them (it still names them `gitwildmatch`, which pathspec deprecates).
    """
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    hook = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]
    include = PathSpec.from_lines("gitignore", hook["include"])
    exclude = PathSpec.from_lines("gitignore", hook.get("exclude", []))
    return {
        ".".join(path.relative_to(SOURCE).with_suffix("").parts)
        for path in SOURCE.rglob("*.py")
        if include.match_file(relative := path.relative_to(ROOT).as_posix()) and not exclude.match_file(relative)
    }
