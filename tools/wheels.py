#!/usr/bin/env python
"""Build robotscope's sdist and both wheels: pure Python (any platform) and compiled with mypyc (this one).

    python tools/wheels.py                    # into dist/
    python tools/wheels.py --outdir DIR --no-isolation --only compiled

It runs `python -m build` twice from the checkout: as it is (the sdist and the
pure wheel, `py3-none-any`), then with the environment pyproject.toml's
`[tool.cibuildwheel]` gives the release's compiled wheels (the sdist again, and
a wheel tagged for this CPython and platform). `python -m build` makes one
wheel per run, and each run builds its wheel from the sdist in a temporary
folder, so nothing compiled is left in the checkout. Without a C compiler the
compiled wheel is left out, and said so. The wheels' paths are printed, one a
line. --no-isolation builds with this environment's hatchling and hatch-mypyc
(the dev extra) instead of fetching them.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD_SECONDS = 1200  # the compiled wheel takes about 1 min of CPU here, the pure one seconds
KINDS = ("pure", "compiled")


def compiled_environment() -> dict[str, str]:
    """The variables that turn the mypyc hook on: the release's, from `[tool.cibuildwheel]`."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    environment: dict[str, str] = config["tool"]["cibuildwheel"]["environment"]
    return environment


def missing_compiler() -> str | None:
    """The C compiler the build would call, when it is not on PATH (None when found, or unknown: Windows)."""
    command = os.environ.get("CC") or sysconfig.get_config_var("CC")
    if not command:
        return None  # MSVC is found by setuptools itself
    program = shlex.split(command)[0]
    return None if shutil.which(program) else program


def build(kind: str, outdir: Path, isolation: bool) -> Path:
    """Run `python -m build` for the `kind` of wheel into `outdir`; the wheel's path (one line and exit on failure)."""
    env = {name: value for name, value in os.environ.items() if name not in compiled_environment()}
    if kind == "compiled":
        env.update(compiled_environment())
    command = [sys.executable, "-m", "build", "--outdir", str(outdir), *([] if isolation else ["--no-isolation"])]
    try:
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=BUILD_SECONDS)
    except subprocess.TimeoutExpired:
        sys.exit(f"wheels: the {kind} build took over {BUILD_SECONDS} s")
    if done.returncode != 0:
        sys.exit(f"wheels: the {kind} build failed:\n" + (done.stdout + done.stderr)[-3000:])
    names: list[str] = re.findall(r"[\w.+-]+\.whl", done.stdout)  # from "Successfully built ..."
    named = {outdir / name for name in names}
    if len(named) != 1 or not all(path.is_file() for path in named):
        sys.exit(f"wheels: the {kind} build did not name one wheel:\n" + done.stdout[-3000:])
    return named.pop()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--outdir", default=str(ROOT / "dist"), help="where the sdist and wheels go (dist/)")
    ap.add_argument("--only", choices=KINDS, help="build only this wheel")
    ap.add_argument("--no-isolation", action="store_true", help="build with this environment's build backend")
    args = ap.parse_args()
    if importlib.util.find_spec("build") is None:
        sys.exit("wheels: `python -m build` is missing: pip install build (or the dev extra)")
    outdir = Path(args.outdir).resolve()
    outdir.mkdir(parents=True, exist_ok=True)
    for kind in [args.only] if args.only else KINDS:
        compiler = missing_compiler() if kind == "compiled" else None
        if compiler is not None:
            print(f"wheels: no C compiler ({compiler}): the compiled wheel is left out", file=sys.stderr)
            if args.only:
                return 1
            continue
        print(build(kind, outdir, isolation=not args.no_isolation))
    left = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "src").rglob("*") if path.suffix in (".so", ".pyd"))
    if left:
        sys.exit(f"wheels: compiled modules were left in the checkout: {', '.join(left)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
