"""The log audit at scale beside GoAccess, in one run: lines per second, CPU and peak memory of whole runs.

    python benchmarks/bench_logs_scale.py                    # 10,000,000 lines (2 GB), about an hour on 2 cores
    python benchmarks/bench_logs_scale.py --lines 1000000    # a quick run
    python benchmarks/bench_logs_scale.py --build compiled=/tmp/compiled/bin/python   # the compiled build too

The log is `make_logs.hosted(N)` (three hosts in Apache's `vhost_combined` lines, GoAccess's
VCOMBINED; browsers, tools, the catalogue's crawlers from their operators' addresses and one time in
eight from elsewhere, robots.txt fetches, 6,000 paths drawn Zipf-like; shop.example's robots.txt
changes half-way, `make_logs.robots_dir`), written once into `--workdir` and kept. Each way runs as
its own process on the same file, one after another:

- `goaccess parse-only`: `goaccess LOG --log-format=VCOMBINED --process-and-exit` (Debian's 1.7:
  reads and counts every line, writes nothing), and again on the smaller log (GoAccess slows down as
  its tables grow with a log); with `--goaccess-json`, `goaccess to JSON`, writing its JSON report;
- `robotscope parse-only, J workers`: the file cut into blocks as `robotscope logs` cuts it
  (`log_blocks`), each block decoded, split and read into `Request`s by the combined reader in J
  worker processes (this script's `--parse-only` mode), nothing judged;
- `robotscope audit, J workers`: `robotscope logs LOG --robots-dir DIR --no-dns --jobs J --json`:
  every request's crawler, IP verification by the shipped lists (no DNS), the robots.txt in force for
  its host at its time, the verdict with its deciding line, the class, and the whole summary;
- the audit again on a tenth of the lines (`--flat`), to show the peak memory does not grow with them.

For each: the wall time and lines/s; the CPU time of every process of the run together (user + system,
workers included); the `2-core bound`, the lines/s the run would reach with two cores to itself
(lines / max(CPU / 2, the busiest process's CPU)); the peak resident memory, the sum over the run's
processes sampled every 0.1 s (the `--jobs` workers included). The ratios are against GoAccess's
parse-only run, wall against wall and bound against bound: on a machine other work keeps busy the
wall times say what the load left, the bounds what the work costs. The machine, its load before and
after each run, and each build's kind are printed with the table.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import NamedTuple

from make_logs import hosted, robots_dir

TARGET = 5.0  # the goal: the full audit on 2 cores at least 5x GoAccess's parse-only run
TICK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


class Run(NamedTuple):
    """One measured run: its wall time, CPU time of all its processes, the busiest's, and peak memory."""

    way: str
    lines: int
    wall: float
    cpu: float
    busiest: float
    peak: int  # bytes, the sum of the processes' resident sets
    load: tuple[float, float]  # 1-minute load average before and after
    code: int

    def rate(self) -> float:
        return self.lines / self.wall

    def bound(self, cores: int = 2) -> float:
        return self.lines / max(self.cpu / cores, self.busiest)


def _children() -> dict[int, list[int]]:
    """Every process's children, from /proc."""
    found: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rpartition(")")[2].split()
            except OSError:
                continue  # it ended meanwhile
            found.setdefault(int(fields[1]), []).append(int(entry))
    return found


def _tree(root: int) -> list[int]:
    children = _children()
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def _sample(pid: int) -> tuple[float, int] | None:
    """A process's CPU seconds so far and resident bytes; None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rpartition(")")[2].split()
        with open(f"/proc/{pid}/statm") as statm:
            resident = int(statm.read().split()[1]) * PAGE
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICK, resident


def measure(way: str, lines: int, command: list[str], env: dict[str, str] | None = None) -> Run:
    """Run `command` (its output thrown away) and measure it and every process it starts."""
    # Its standard error goes to a file, not a pipe: GoAccess stops once a pipe it writes progress to is full.
    with tempfile.TemporaryFile() as said:
        load = os.getloadavg()[0]
        started = time.perf_counter()
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=said, env=env)
        cpu: dict[int, float] = {}
        peak = 0
        done = threading.Event()

        def watch() -> None:
            nonlocal peak
            while not done.is_set():
                resident = 0
                for pid in _tree(process.pid):
                    found = _sample(pid)
                    if found is not None:
                        cpu[pid] = max(cpu.get(pid, 0.0), found[0])
                        resident += found[1]
                peak = max(peak, resident)
                done.wait(0.1)

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        done.set()
        watcher.join()
        code = os.waitstatus_to_exitcode(status)
        if code not in (0, 1):
            said.seek(0)
            sys.exit(f"{way}: exit code {code}\n{said.read().decode(errors='replace')[-2000:]}")
    total = usage.ru_utime + usage.ru_stime  # every process it waited for, workers included
    return Run(way, lines, wall, total, max(cpu.values(), default=total), peak, (load, os.getloadavg()[0]), code)


# --parse-only: the file cut as `robotscope logs` cuts it, each block read into requests, nothing judged.
def _parse_block(data: tuple[str, int, bytes]) -> int:
    from robotscope.integrations.logfiles import Block, block_lines
    from robotscope.integrations.records import Tally
    from robotscope.syntax.logformats import Request, reader

    read = reader("combined").read
    requests = 0
    for number, line in block_lines(Block(*data), Tally()):
        requests += isinstance(read(number, line), Request)
    return requests


def parse_only(log: str, jobs: int) -> int:
    from robotscope.integrations.logfiles import log_blocks
    from robotscope.integrations.records import Tally

    blocks = ((block.source, block.first, block.data) for block in log_blocks(log, Tally()))
    if jobs == 1:
        return sum(_parse_block(block) for block in blocks)
    requests = 0
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:  # as the CLI's
        pending: list[Future[int]] = []
        for block in blocks:
            pending.append(pool.submit(_parse_block, block))
            if len(pending) >= 2 * jobs:
                requests += pending.pop(0).result()
        requests += sum(found.result() for found in pending)
    return requests


def audit_command(python: str, log: Path, robots: Path, jobs: int) -> list[str]:
    return [
        python,
        "-m",
        "robotscope",
        "logs",
        str(log),
        "--robots-dir",
        str(robots),
        "--no-dns",
        "--json",
        "--jobs",
        str(jobs),
    ]


def generated(folder: Path, lines: int) -> tuple[Path, Path]:
    """The log of `lines` lines and its robots.txt folder, written once and kept."""
    log, robots = folder / f"access-{lines}.log", folder / f"robots-{lines}"
    if not log.exists():
        folder.mkdir(parents=True, exist_ok=True)
        partial = log.with_suffix(".partial")
        with partial.open("w") as out:
            out.writelines(hosted(lines))
        partial.rename(log)
    if not robots.exists():
        robots_dir(robots, lines)
    return log, robots


def builds(given: list[str]) -> Iterator[tuple[str, str, dict[str, str]]]:
    """(name, interpreter, environment) of each build: this one, and each `NAME=PYTHON` given. Another
    interpreter runs its own installed robotscope, so PYTHONPATH is dropped for it."""
    yield _kind(sys.executable, dict(os.environ)), sys.executable, dict(os.environ)
    for item in given:
        name, _, python = item.partition("=")
        env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
        kind = _kind(python, env)
        if kind != name:
            sys.exit(f"{python} runs the {kind} build, not {name}")
        yield name, python, env


def _kind(python: str, env: dict[str, str]) -> str:
    code = "from robotscope.access.build import build_kind; print(build_kind())"
    return subprocess.run([python, "-c", code], env=env, capture_output=True, text=True, check=True).stdout.strip()


def machine() -> str:
    cpu = platform.machine()
    with open("/proc/cpuinfo") as info:
        for line in info:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return f"{cpu}, {os.cpu_count()} cores, {platform.python_implementation()} {platform.python_version()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=10_000_000)
    parser.add_argument("--flat", type=int, default=None, help="lines of the memory check's smaller log (lines/10)")
    parser.add_argument("--jobs", default="1,2", help="worker counts, comma-separated")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/robotscope-bench-logs"))
    parser.add_argument("--build", action="append", default=[], metavar="NAME=PYTHON", help="another build to run")
    parser.add_argument("--goaccess-json", action="store_true", help="also time GoAccess writing its JSON report")
    parser.add_argument("--parse-only", metavar="LOG", help=argparse.SUPPRESS)
    parser.add_argument("--workers", type=int, default=1, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.parse_only:
        print(parse_only(options.parse_only, options.workers))
        return
    goaccess = shutil.which("goaccess")
    if goaccess is None:
        sys.exit("goaccess is not installed (Debian: apt-get install goaccess)")
    jobs = [int(found) for found in options.jobs.split(",")]
    small = options.flat or options.lines // 10
    log, robots = generated(options.workdir, options.lines)
    small_log, small_robots = generated(options.workdir, small)
    said = subprocess.run([goaccess, "--version"], capture_output=True, text=True).stdout
    print(f"{machine()}; {said.splitlines()[0].strip()}")  # "GoAccess - 1.7."
    print(f"{options.lines:,} lines, {log.stat().st_size / 1e9:.2f} GB; memory checked again on {small:,} lines\n")
    runs: list[Run] = []

    def run(way: str, lines: int, command: list[str], env: dict[str, str] | None = None) -> None:
        found = measure(way, lines, command, env)
        runs.append(found)
        print(
            f"  {way}: {found.wall:.1f} s, {found.cpu:.1f} s CPU, {found.peak / 1e6:.0f} MB, "
            f"load {found.load[0]:.1f} to {found.load[1]:.1f}",
            file=sys.stderr,
        )

    formats = ["--log-format=VCOMBINED", "--no-global-config"]
    run("goaccess parse-only", options.lines, [goaccess, str(log), *formats, "--process-and-exit"])
    if options.goaccess_json:
        out = str(options.workdir / "out.json")
        run("goaccess to JSON", options.lines, [goaccess, str(log), *formats, "-o", out])
    # GoAccess's rate falls as its tables grow with a log: its rate on the smaller log, for comparison.
    run(f"goaccess parse-only, {small:,} lines", small, [goaccess, str(small_log), *formats, "--process-and-exit"])
    script = str(Path(__file__).resolve())
    for name, python, env in builds(options.build):
        for count in jobs:
            command = [python, script, "--parse-only", str(log), "--workers", str(count)]
            run(f"robotscope {name} parse-only, {count} worker{'s' * (count > 1)}", options.lines, command, env)
        for count in jobs:
            command = audit_command(python, log, robots, count)
            run(f"robotscope {name} audit, {count} worker{'s' * (count > 1)}", options.lines, command, env)
        command = audit_command(python, small_log, small_robots, max(jobs))
        run(f"robotscope {name} audit, {max(jobs)} worker{'s' * (max(jobs) > 1)}, {small:,} lines", small, command, env)
    base = runs[0]
    print("| way | wall s | lines/s | × GoAccess | CPU s | 2-core bound, lines/s | × GoAccess | peak RSS MB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for found in runs:
        print(
            f"| {found.way} | {found.wall:,.1f} | {found.rate():,.0f} | ×{found.rate() / base.rate():.1f} "
            f"| {found.cpu:,.1f} | {found.bound():,.0f} | ×{found.bound() / base.bound():.1f} "
            f"| {found.peak / 1e6:,.0f} |"
        )
    loads = [value for found in runs for value in found.load]
    print(f"\nload average (1 min) from {min(loads):.1f} to {max(loads):.1f} during the runs")
    for found in runs:
        if "audit, 2 workers" in found.way and "lines" not in found.way.rpartition(",")[2]:
            met = found.bound() / base.bound() >= TARGET
            print(
                f"{found.way}: ×{found.bound() / base.bound():.1f} GoAccess's parse-only by the bounds "
                f"({'meets' if met else 'misses'} ×{TARGET:.0f}), ×{found.rate() / base.rate():.1f} by wall time"
            )


if __name__ == "__main__":
    main()
