"""Bulk throughput and memory: `robotscope bulk` on 100,000 and 1,000,000 URLs, with 1 and 2 workers.

Runs the installed command in a fresh process for each size and number of
worker processes (`--jobs`) and reports URLs per second (each row with its
deciding line and rule) and the peak resident memory of the main process and
of the largest worker, which must stay flat as the input grows (rows are
streamed, never collected; at most two chunks per worker are in flight).

    python benchmarks/bench_bulk.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROBOTS = HERE.parent / "examples" / "robots.txt"
# Runs the CLI, then prints the peak RSS (KiB on Linux) of itself and of its largest worker on stderr's last line.
CHILD = (
    "import resource, sys\n"
    "from robotscope.cli import main\n"
    "try:\n    main()\n"
    "finally:\n    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,"
    " resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
)
JOBS = (1, 2)


def run(urls: Path, jobs: int) -> tuple[float, int, int]:
    args = [
        sys.executable,
        "-c",
        CHILD,
        "bulk",
        str(ROBOTS),
        "--urls",
        str(urls),
        "--agent",
        "Googlebot",
        "--no-progress",
        "--jobs",
        str(jobs),
    ]
    started = time.perf_counter()
    done = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True)
    main_kib, worker_kib = map(int, done.stderr.strip().splitlines()[-1].split())
    return time.perf_counter() - started, main_kib, worker_kib


def main() -> None:
    print(f"{os.cpu_count()} logical CPUs\n")
    print(
        "| URLs | workers | seconds | URLs/s | vs 1 worker | peak RSS, main | peak RSS, a worker |\n"
        "|---|---|---|---|---|---|---|"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for count in (100_000, 1_000_000):
            path = Path(tmp) / f"urls-{count}.txt"
            subprocess.run([sys.executable, str(HERE / "make_urls.py"), str(path), str(count)], check=True)
            single = None
            for jobs in JOBS:
                seconds, main_kib, worker_kib = run(path, jobs)
                single = single or seconds
                worker = f"{worker_kib / 1024:.1f} MiB" if jobs > 1 else "-"
                print(
                    f"| {count:,} | {jobs} | {seconds:.1f} | {count / seconds:,.0f} | ×{single / seconds:.2f} | "
                    f"{main_kib / 1024:.1f} MiB | {worker} |"
                )
            os.remove(path)


if __name__ == "__main__":
    main()
