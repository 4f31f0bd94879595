#!/usr/bin/env python
"""What a compiled build of the unchanged core would buy: robotscope pure, robotscope compiled with mypyc, Protego.

    python benchmarks/bench_compiled.py            # about 5 minutes on 2 cores (the build takes 1 min of CPU)
    python benchmarks/bench_compiled.py --reps 2 --step 4
    python benchmarks/bench_compiled.py --build DIR  # only build, unpacked into DIR (to put first on PYTHONPATH)

The compiled build is the wheel `tools/wheels.py --only compiled` makes (the
release's: pyproject.toml's mypyc hook compiles the core from the unchanged
source; the dev extra has build, hatchling and hatch-mypyc, and a C compiler
is needed), unpacked into a temporary directory. Each repetition runs the crawler workload of
bench.py (parse every file, then 20 URLs x 2 agents per file: first pass and
steady state, and robotscope's full verdict) once for each of the three, each
in a fresh process, in turn, so a slow spell of the machine slows all alike;
each figure is the best of the repetitions, as a ratio against Protego.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import zipfile
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RUNS = (("robotscope", "robotscope"), ("robotscope, mypyc", "robotscope"), ("Protego", "protego"))
FIGURES = (
    ("parse", "parse", "Parse"),
    ("first", "first", "`can_fetch`, first pass"),
    ("steady", "steady", "`can_fetch`, steady state"),
    ("verdict_first", "first", "`verdict()`, first pass, vs Protego's `can_fetch`"),
    ("verdict_steady", "steady", "`verdict()`, steady state, vs Protego's `can_fetch`"),
)


RUN_SECONDS = 900  # one library's repetition of the workload: under a minute here


def _run(command: list[str], what: str, seconds: int, **options: Any) -> subprocess.CompletedProcess[str]:
    """Run `command`; leave with one line (and the command's last output) if it fails or takes too long."""
    try:
        done = subprocess.run(command, check=False, capture_output=True, text=True, timeout=seconds, **options)
    except subprocess.TimeoutExpired:
        sys.exit(f"{what} took over {seconds} s")
    if done.returncode != 0:
        sys.exit(f"{what} failed:\n" + (done.stdout + done.stderr)[-3000:])
    return done


def build_wheel(into: str) -> str:
    """Build the compiled wheel into the folder `into`, as the release does; the wheel's path."""
    command = [sys.executable, os.path.join(ROOT, "tools", "wheels.py"), "--only", "compiled", "--no-isolation"]
    # tools/wheels.py bounds each build's time itself
    done = _run([*command, "--outdir", into], "the compiled build", 2 * RUN_SECONDS)
    return done.stdout.strip()


def build(into: str) -> list[str]:
    """Build the compiled wheel, unpack it into `into` and list its compiled modules.

    `into` is a folder to put first on PYTHONPATH.
    """
    with tempfile.TemporaryDirectory() as wheels, zipfile.ZipFile(build_wheel(wheels)) as unpacked:
        unpacked.extractall(into)
    found = glob.glob(os.path.join(into, "robotscope", "**", "*.so"), recursive=True)
    return sorted(os.path.relpath(path, into).split(".")[0].replace(os.sep, ".") for path in found)


def child(key: str, step: int) -> dict[str, float]:
    """One repetition of the workload for one library, in this process."""
    sys.path.insert(0, HERE)
    import bench

    corpus = bench.load_corpus(step)
    lib = bench.make_lib(key)
    if not lib.available:
        sys.exit(lib.error)
    idx, inputs, _ = bench.usable_inputs(lib, corpus)
    urls = [bench.make_urls(corpus[i][0], corpus[i][1], bench.WORKLOAD_URLS) for i in idx]
    out = bench.workload_pass(lib, inputs, urls)
    if key == "robotscope":
        from robotscope.access.build import build_kind

        out["compiled"] = float(build_kind() == "compiled")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--step", type=int, default=1, help="every Nth corpus file")
    ap.add_argument("--build", metavar="DIR", help="only build the compiled wheel, unpacked into DIR")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(args.child[0], int(args.child[1]))))
        return 0
    if args.build:
        print(" ".join(build(args.build)))
        return 0
    with tempfile.TemporaryDirectory() as built:
        print("... building the compiled wheel", file=sys.stderr, flush=True)
        compiled = build(built)
        best: dict[str, dict[str, float]] = {title: {} for title, _ in RUNS}
        for rep in range(args.reps):
            for title, key in RUNS:
                print(f"... repetition {rep + 1}: {title}", file=sys.stderr, flush=True)
                env = dict(os.environ)
                if "mypyc" in title:
                    env["PYTHONPATH"] = os.pathsep.join(filter(None, [built, env.get("PYTHONPATH")]))
                command = [sys.executable, os.path.abspath(__file__), "--child", key, str(args.step)]
                done = _run(command, title, RUN_SECONDS, env=env)
                found: dict[str, float] = json.loads(done.stdout)
                if key == "robotscope" and found.pop("compiled") != ("mypyc" in title):
                    sys.exit(f"{title}: the wrong build was imported")
                for name, seconds in found.items():
                    best[title][name] = min(best[title].get(name, seconds), seconds)
    base = best["Protego"]
    titles = " | ".join(title for title, _ in RUNS)
    print(f"| Crawler workload, best of {args.reps} (×N = vs Protego) | {titles} |")
    print("|---|" + "---|" * len(RUNS))
    for name, against, label in FIGURES:
        cells = []
        for title, _ in RUNS:
            seconds = best[title].get(name)
            cells.append("" if seconds is None else f"{seconds * 1000:,.1f} ms (×{base[against] / seconds:.2f})")
        print(f"| {label} | " + " | ".join(cells) + " |")
    corpus = "every corpus file" if args.step == 1 else f"every {args.step}th corpus file"
    print(
        f"\n- {corpus}; compiled with mypyc, from the unchanged source: {len(compiled)} modules, {', '.join(compiled)}."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
