"""Bulk throughput and memory: `robotscope bulk` on 100,000 and 1,000,000 URLs, with 1 and 2 workers.

Runs the installed command in a fresh process for each size and number of
worker processes (`--jobs`) and reports URLs per second (each row with its
deciding line and rule) and the peak resident memory of the main process and
of the largest worker, which must stay flat as the input grows (rows are
streamed, never collected; at most two chunks per worker are in flight).

A second table sets the example file against a file of 25,000 wildcard rules
sharing their first two characters (`/aa*abcN`, the shape that defeats an
index of rules by their start), on one worker, with make_urls.py's URLs and
with URLs that all start with `/aa`: URLs/s, and URLs/s past the start-up (a
run of one URL: interpreter, parse, index; counted in CPU time, which a busy
shared machine disturbs least). Each case runs 1,000 URLs first
and all 100,000 only if that would take at most a minute.

    python benchmarks/bench_bulk.py
    python benchmarks/bench_bulk.py --only shared-prefix
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from shapes import LIMIT, words

HERE = Path(__file__).resolve().parent
ROBOTS = HERE.parent / "examples" / "robots.txt"
# Runs the CLI, then prints on stderr's last line the peak RSS (KiB on Linux) of itself and of its largest worker,
# and the CPU seconds of all (what a busy shared machine disturbs least).
CHILD = (
    "import resource, sys\n"
    "from robotscope.cli import main\n"
    "try:\n    main()\n"
    "finally:\n    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "    cpu = me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime\n"
    "    print(me.ru_maxrss, kids.ru_maxrss, cpu, file=sys.stderr)\n"
)
JOBS = (1, 2)
# The shared-prefix file: 25,000 rules `/aa*` + one of 1,000 three-letter words + a number; under the parse limit.
PREFIX_RULES = 25_000
PREFIX_WORDS = words(1_000, 3, 23)
PREFIX_URLS = 100_000
# Each case of the second table runs PROBE_URLS first, then all PREFIX_URLS if that takes at most PREFIX_SECONDS.
PROBE_URLS = 1_000
PREFIX_SECONDS = 60.0


def run(urls: Path, jobs: int, robots: Path = ROBOTS) -> tuple[float, int, int, float]:
    """Seconds (wall clock), peak RSS of the main process and of a worker (KiB), CPU seconds."""
    args = [
        sys.executable,
        "-c",
        CHILD,
        "bulk",
        str(robots),
        "--urls",
        str(urls),
        "--agent",
        "Googlebot",
        "--no-progress",
        "--jobs",
        str(jobs),
    ]
    started = time.perf_counter()
    done = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    if done.returncode > 1:  # 1 only says that some URL is disallowed
        raise SystemExit(f"bulk failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    main_kib, worker_kib, cpu = done.stderr.strip().splitlines()[-1].split()
    return time.perf_counter() - started, int(main_kib), int(worker_kib), float(cpu)


def shared_prefix_robots() -> str:
    lines = [f"Disallow: /aa*{PREFIX_WORDS[i % 1_000]}{i // 1_000}" for i in range(PREFIX_RULES)]
    text = "User-agent: *\n" + "\n".join(lines) + "\n"
    assert len(text.encode()) <= LIMIT, "every rule must be under the parse limit"
    return text


def shared_prefix_urls(count: int) -> list[str]:
    """URLs all under /aa: a third name a rule's word and number, a third a word alone, a third neither."""
    rng = random.Random(25)
    out = []
    for n in range(count):
        word = rng.choice(PREFIX_WORDS)
        middle = (f"{word}{rng.randrange(25)}", word, f"item-{n}")[n % 3]
        out.append(
            f"https://www.example.com/aa{rng.choice(('', '/', '/x/', '-b/'))}{middle}{rng.choice(('', '/', '?q=1'))}"
        )
    return out


def write(path: Path, urls: list[str]) -> Path:
    path.write_text("".join(u + "\n" for u in urls), encoding="utf-8")
    return path


def sizes(tmp: str) -> None:
    print(
        "| URLs | workers | seconds | URLs/s | vs 1 worker | peak RSS, main | peak RSS, a worker |\n"
        "|---|---|---|---|---|---|---|"
    )
    for count in (100_000, 1_000_000):
        path = Path(tmp) / f"urls-{count}.txt"
        subprocess.run([sys.executable, str(HERE / "make_urls.py"), str(path), str(count)], check=True)
        single = None
        for jobs in JOBS:
            seconds, main_kib, worker_kib, _ = run(path, jobs)
            single = single or seconds
            worker = f"{worker_kib / 1024:.1f} MiB" if jobs > 1 else "-"
            print(
                f"| {count:,} | {jobs} | {seconds:.1f} | {count / seconds:,.0f} | ×{single / seconds:.2f} | "
                f"{main_kib / 1024:.1f} MiB | {worker} |"
            )
        os.remove(path)


def shared_prefix(tmp: str) -> None:
    print(
        "| robots.txt | URLs | URLs checked | seconds | URLs/s | CPU s | start-up (1 URL), CPU s "
        "| URLs/s past start-up, CPU time |\n|---|---|---|---|---|---|---|---|"
    )
    prefixed = Path(tmp) / "shared-prefix.txt"
    prefixed.write_text(shared_prefix_robots(), encoding="utf-8")
    generic = Path(tmp) / "urls-example.txt"
    subprocess.run([sys.executable, str(HERE / "make_urls.py"), str(generic), str(PREFIX_URLS)], check=True)
    under_aa = write(Path(tmp) / "urls-aa.txt", shared_prefix_urls(PREFIX_URLS))
    big = f"{PREFIX_RULES:,} rules `/aa*abcN` ({prefixed.stat().st_size / 1024:,.0f} KiB)"
    cases = (
        ("examples/robots.txt", "make_urls.py's", ROBOTS, generic),
        (big, "make_urls.py's", prefixed, generic),
        (big, "under /aa", prefixed, under_aa),
    )
    for label, kind, robots, urls in cases:
        lines = urls.read_text(encoding="utf-8").splitlines()
        start_up = run(write(Path(tmp) / "one.txt", lines[:1]), 1, robots)[3]
        # A probe first: a slow case stops there rather than running for many minutes.
        count, (seconds, _, _, cpu) = PROBE_URLS, run(write(Path(tmp) / "probe.txt", lines[:PROBE_URLS]), 1, robots)
        if cpu <= start_up or (cpu - start_up) * len(lines) / count <= PREFIX_SECONDS:
            count, (seconds, _, _, cpu) = len(lines), run(urls, 1, robots)
        past = f"{count / (cpu - start_up):,.0f}" if cpu > start_up else "-"
        print(
            f"| {label} | {kind} | {count:,} | {seconds:.1f} | {count / seconds:,.0f} | {cpu:.1f} | {start_up:.2f} "
            f"| {past} |"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", choices=("sizes", "shared-prefix"), help="one table only")
    args = ap.parse_args()
    print(f"{os.cpu_count()} logical CPUs, one worker in the second table\n")
    with tempfile.TemporaryDirectory() as tmp:
        if args.only != "shared-prefix":
            sizes(tmp)
            print()
        if args.only != "sizes":
            shared_prefix(tmp)


if __name__ == "__main__":
    main()
