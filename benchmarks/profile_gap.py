"""Where robotscope's time goes on the crawler workload, next to the compiled C++ and Rust libraries.

    python benchmarks/profile_gap.py            # every 4th corpus file, about a minute
    python benchmarks/profile_gap.py --step 1   # the whole corpus

The crawler workload is bench.py's: every file parsed, then WORKLOAD_URLS URLs
for each of WORKLOAD_AGENTS, timed from the first check (first pass) and again
(steady state). Three tables:

1. the time per file (parse) and per check (first pass, steady state) of
   robotscope, texting_robots (Rust), Google's fast-robotstxt (C++) and
   Protego, best of --reps interleaved repetitions, and robotscope's gap to the
   compiled two;
2. robotscope's time in each phase, under cProfile, split by who spends it:
   robotscope's own Python code (bytecode run by the interpreter), the
   standard library's Python code, C functions (str and re methods, builtins:
   work already native) and the benchmark's loop; with the profiler's own
   cost per call taken off (calibrated on empty calls), the shares scaled to
   the unprofiled time. Python calls per unit times the measured cost of an
   empty Python call gives the part that is the calls alone;
3. the functions with the most own time in each phase.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import (
    LIB_CLASSES,
    WORKLOAD_AGENTS,
    WORKLOAD_URLS,
    Lib,
    Robotscope,
    bench_workload,
    load_corpus,
    make_urls,
    timed,
    usable_inputs,
)

SRC = str(Path(__file__).resolve().parent.parent / "src")
PHASES = ("parse", "first", "steady")
UNIT = {"parse": "file", "first": "check", "steady": "check"}
TOP = 8
CALIBRATION_CALLS = 200_000


def _empty(a: object, b: object) -> None:
    return None


def call_costs() -> dict[str, float]:
    """Seconds per empty Python call and per C call (`str.startswith`), unprofiled, and where the profiler adds its own.

    The profiler's cost per call lands partly in the callee's own time and
    partly in the caller's: `*_callee` and `*_caller` are each part, per call,
    measured on a loop of empty calls (an empty callee's own time, unprofiled,
    is taken as its whole call cost, so these are lower bounds).
    """
    args = list(range(CALIBRATION_CALLS))

    def python_calls() -> None:
        f = _empty
        for a in args:
            f(a, a)

    def c_calls() -> None:
        f = "/path".startswith  # the C call a check makes most
        for _ in args:
            f("/p")

    def bare_loop() -> None:
        for _ in args:
            pass

    loop = min(timed(bare_loop)[0] for _ in range(5))
    out = {}
    for name, fn, callee in (("python", python_calls, "_empty"), ("c", c_calls, "startswith")):
        plain = min(timed(fn)[0] for _ in range(5))
        callee_own, caller_own = float("inf"), float("inf")
        for _ in range(5):  # the least of five: a busy machine only adds
            profiler = cProfile.Profile()
            gc.disable()
            profiler.runcall(fn)
            gc.enable()
            entries = pstats.Stats(profiler).stats.items()  # type: ignore[attr-defined]
            callee_own = min(callee_own, sum(own for (_, _, f), (_, _, own, *_r) in entries if callee in f))
            caller_own = min(caller_own, sum(own for (_, _, f), (_, _, own, *_r) in entries if f == fn.__name__))
        cost = max(plain - loop, 0.0) / CALIBRATION_CALLS
        out[name] = cost
        out[name + "_callee"] = max(callee_own / CALIBRATION_CALLS - cost, 0.0)
        out[name + "_caller"] = max((caller_own - (plain - cost * CALIBRATION_CALLS)) / CALIBRATION_CALLS, 0.0)
    return out


def who(path: str) -> str:
    """Who spends a profile entry's own time."""
    if path == "~":
        return "C functions (str, re, builtins)"
    if path.startswith(SRC):
        return "robotscope Python code"
    if path.endswith(("bench.py", "profile_gap.py")):
        return "benchmark loop"
    return "stdlib Python code"


def profile_phase(run: Callable[[], object], costs: dict[str, float]) -> dict[str, Any]:
    """Own time per function under cProfile, less the profiler's calibrated cost in it (as callee and as caller)."""
    profiler = cProfile.Profile()
    gc.disable()
    try:
        profiler.runcall(run)
    finally:
        gc.enable()
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    own = {func: entry[2] - entry[1] * costs[_kind(func) + "_callee"] for func, entry in stats.items()}
    for func, entry in stats.items():
        for caller, (_, calls, *_r) in entry[4].items():
            if caller in own:
                own[caller] -= calls * costs[_kind(func) + "_caller"]
    rows = []
    for func, entry in stats.items():
        path, line, name = func
        label = name if path == "~" else f"{Path(path).name}:{line} {name}"
        rows.append({"function": label, "who": who(path), "calls": entry[1], "own": max(own[func], 0.0)})
    return {"functions": sorted(rows, key=lambda r: -r["own"])}


def _kind(func: tuple[str, int, str]) -> str:
    return "c" if func[0] == "~" else "python"


def robotscope_phases(inputs: list[Any], urls: list[list[str]], costs: dict[str, float]) -> dict[str, Any]:
    lib = Robotscope()
    out: dict[str, Any] = {"parse": profile_phase(lambda: lib.workload_parse(inputs), costs)}
    objs = lib.workload_parse(inputs)
    out["first"] = profile_phase(lambda: lib.workload_check(objs, urls), costs)
    lib.workload_check(objs, urls)  # the steady state is the third pass, as in bench.py
    out["steady"] = profile_phase(lambda: lib.workload_check(objs, urls), costs)
    return out


def per_unit(workload: dict[str, Any], key: str, phase: str) -> float | None:
    """Seconds per file (parse) or per check, from bench_workload's rates."""
    r = workload.get(key, {})
    field = {"parse": "parse_files_per_s", "first": "first_pass_checks_per_s", "steady": "steady_checks_per_s"}[phase]
    return 1 / r[field] if field in r else None


def us(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1e6:,.1f} µs"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--step", type=int, default=4, help="every STEP-th corpus file (default 4)")
    ap.add_argument("--reps", type=int, default=3, help="interleaved repetitions of the timed workload")
    args = ap.parse_args()

    corpus = load_corpus(args.step)
    urls = [make_urls(name, raw, WORKLOAD_URLS) for name, raw in corpus]
    libs = [lib for lib in (cls() for cls in LIB_CLASSES) if lib.available]
    runs: dict[str, tuple[Lib, list[Any], list[list[str]]]] = {}
    for lib in libs:
        idx, inputs, _ = usable_inputs(lib, corpus)
        runs[lib.key] = (lib, inputs, [urls[i] for i in idx])
    print(f"... timing the workload on {len(corpus):,} files, every library in turn", file=sys.stderr, flush=True)
    workload = bench_workload(runs, args.reps)
    costs = call_costs()
    print("... profiling robotscope", file=sys.stderr, flush=True)
    _, inputs, rs_urls = runs["robotscope"]
    profiles = robotscope_phases(inputs, rs_urls, costs)
    units = {"parse": len(inputs), "first": workload["robotscope"]["checks"]}
    units["steady"] = units["first"]
    print_times(workload, [lib.key for lib in libs])
    print_shares(workload, profiles, units, costs)
    print_top(workload, profiles, units)
    print(
        f"\n- {len(corpus):,} corpus files (every {args.step}th), {WORKLOAD_URLS} URLs x {len(WORKLOAD_AGENTS)} "
        f"agents per file; times best of {args.reps} interleaved repetitions (bench.py's workload). "
        f"Empty Python call {costs['python'] * 1e9:.0f} ns, C call {costs['c'] * 1e9:.0f} ns; the profiler "
        f"adds {costs['python_callee'] * 1e9:.0f} ns and {costs['c_callee'] * 1e9:.0f} ns to each callee's own "
        f"time and {costs['python_caller'] * 1e9:.0f} ns and {costs['c_caller'] * 1e9:.0f} ns to its caller's, "
        "taken off every entry."
    )


def print_times(workload: dict[str, Any], keys: list[str]) -> None:
    print("| phase (per unit) | " + " | ".join(keys) + " | gap to texting_robots | gap to Google |")
    print("|---|" + "---|" * (len(keys) + 2))
    for phase in PHASES:
        cells = [us(per_unit(workload, k, phase)) for k in keys]
        mine = per_unit(workload, "robotscope", phase)
        gaps = []
        for peer in ("texting_robots", "google"):
            theirs = per_unit(workload, peer, phase)
            if mine is None or theirs is None:
                gaps.append("-")
            else:
                gaps.append(f"{us(mine - theirs)} (×{mine / theirs:.2f})")
        print(f"| {phase} (per {UNIT[phase]}) | " + " | ".join(cells) + " | " + " | ".join(gaps) + " |")
    print(
        "\n- Google's fast-robotstxt has no parsed object: its parse is one is_allowed call per file, and "
        "every check parses again. texting_robots parses once per agent (both counted in its parse)."
    )


def print_shares(
    workload: dict[str, Any], profiles: dict[str, Any], units: dict[str, int], costs: dict[str, float]
) -> None:
    kinds = ("robotscope Python code", "stdlib Python code", "C functions (str, re, builtins)", "benchmark loop")
    print(
        "\n| robotscope, phase | measured per unit | Python calls per unit | C calls per unit | calls alone | "
        + " | ".join(kinds)
        + " |"
    )
    print("|---|---|---|---|---|" + "---|" * len(kinds))
    for phase in PHASES:
        functions = profiles[phase]["functions"]
        total = sum(f["own"] for f in functions) or 1.0
        measured = per_unit(workload, "robotscope", phase) or 0.0
        python_calls = sum(f["calls"] for f in functions if f["who"] != "C functions (str, re, builtins)")
        c_calls = sum(f["calls"] for f in functions) - python_calls
        calls_alone = (python_calls * costs["python"] + c_calls * costs["c"]) / units[phase]
        shares = [sum(f["own"] for f in functions if f["who"] == k) / total for k in kinds]
        print(
            f"| {phase} | {us(measured)} | {python_calls / units[phase]:,.1f} | {c_calls / units[phase]:,.1f} | "
            f"{us(calls_alone)} ({calls_alone / measured:.0%}) | "
            + " | ".join(f"{s:.0%} ({us(s * measured)})" for s in shares)
            + " |"
        )


def print_top(workload: dict[str, Any], profiles: dict[str, Any], units: dict[str, int]) -> None:
    for phase in PHASES:
        functions = profiles[phase]["functions"]
        total = sum(f["own"] for f in functions) or 1.0
        measured = per_unit(workload, "robotscope", phase) or 0.0
        print(
            f"\n| robotscope {phase}: top functions by own time | share | per {UNIT[phase]} | calls per {UNIT[phase]} |"
        )
        print("|---|---|---|---|")
        for f in functions[:TOP]:
            share = f["own"] / total
            print(f"| `{f['function']}` | {share:.0%} | {us(share * measured)} | {f['calls'] / units[phase]:,.2f} |")


if __name__ == "__main__":
    started = time.perf_counter()
    main()
    print(f"- Total time: {time.perf_counter() - started:.0f} s.")
