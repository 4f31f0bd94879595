"""Bulk throughput and memory: `robotscope bulk` on 100,000 and 1,000,000 URLs.

Runs the installed command in a fresh process for each size and reports URLs
per second and the peak resident memory, which must stay flat as the input
grows (rows are streamed, never collected).

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
# Runs the CLI, then prints the peak RSS (KiB on Linux) on stderr's last line.
CHILD = (
    "import resource, sys\n"
    "from robotscope.cli import main\n"
    "try:\n    main()\n"
    "finally:\n    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
)


def run(urls: Path) -> tuple[float, int]:
    args = [sys.executable, "-c", CHILD, "bulk", str(ROBOTS), "--urls", str(urls), "--agent", "Googlebot", "--no-progress"]
    started = time.perf_counter()
    done = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True)
    return time.perf_counter() - started, int(done.stderr.strip().splitlines()[-1])


def main() -> None:
    print("| URLs | seconds | URLs/s | peak RSS |\n|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for count in (100_000, 1_000_000):
            path = Path(tmp) / f"urls-{count}.txt"
            subprocess.run([sys.executable, str(HERE / "make_urls.py"), str(path), str(count)], check=True)
            seconds, rss_kib = run(path)
            print(f"| {count:,} | {seconds:.1f} | {count / seconds:,.0f} | {rss_kib / 1024:.1f} MiB |")
            os.remove(path)


if __name__ == "__main__":
    main()
