"""The log audit's cost per line, part by part, on generated NCSA combined logs (no DNS), in one run.

    python benchmarks/bench_logs.py                  # 400,000 lines, about a minute
    python benchmarks/bench_logs.py --lines 1000000

The log comes from `make_logs.py` (55 % browsers, the rest crawlers, one Googlebot in six spoofed),
judged against its `ROBOTS`. Each part is timed on the same lines, CPU time of this process, the
garbage collector off, best of three, once every cache is warm (a long log's steady state):

- `read`: the combined reader alone (`syntax.logformats.reader("combined")`), lines already in memory;
- `judge`: `Judge.judge` on the requests read (crawler, claim, file in force, verdict, class), with the
  `Verifier` of the shipped snapshots and no DNS;
- `verify`: the `Verifier.verify` calls the judge makes, alone (its share of `judge`);
- `summary`: `Summary.add` / `unaudited` on the rows (counts, sessions, hours);
- `audit`: `reports.audit.run.audit`, reading, judging and counting together, as `robotscope logs` runs it.

Lines per second are of all lines (browsers included); the judge's requests per second too.
"""

from __future__ import annotations

import argparse
import gc
import time
from collections.abc import Callable

from make_logs import ROBOTS, SITE, combined

from robotscope.messages import message
from robotscope.reports.audit.judge import Judge
from robotscope.reports.audit.run import audit
from robotscope.reports.audit.summary import Summary
from robotscope.reports.audit.timeline import RobotsTimeline, file_version
from robotscope.syntax.logformats import Request, reader
from robotscope.verifying.verifier import Verifier

TARGET = 150_000  # lines per second per core the issue asks of the full audit


def best(work: Callable[[], object], repeat: int = 3) -> float:
    """The shortest CPU time of `repeat` runs of `work`, the garbage collector off."""
    times = []
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
        gc.enable()
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=400_000)
    count = parser.parse_args().lines
    lines = [(number, text.rstrip("\n")) for number, text in enumerate(combined(count), 1)]
    robots = file_version(None, None, message("audit.source.file", path="robots.txt"), "robots.txt", ROBOTS.encode())
    timeline = RobotsTimeline([robots])
    verifier = Verifier()
    judge = Judge(timeline.in_force, verifier.verify, SITE)
    read = reader("combined")
    requests = [found for found in (read.read(n, text) for n, text in lines) if isinstance(found, Request)]
    rows = [judge.judge(found) for found in requests]  # every cache warmed
    claims = [(q.ip, q.user_agent, q.time) for q, row in zip(requests, rows, strict=True) if row is not None]

    def summed() -> None:
        summary = Summary()
        for found, row in zip(requests, rows, strict=True):
            if row is None:
                summary.unaudited(found.time)
            else:
                summary.add(row)

    def audited() -> None:
        for _ in audit(lines, reader("combined"), judge, Summary()):
            pass

    parts = {
        "read": best(lambda: [reader("combined").read(n, text) for n, text in lines]),
        "judge": best(lambda: [judge.judge(found) for found in requests]),
        "verify": best(lambda: [verifier.verify(*claim) for claim in claims]),
        "summary": best(summed),
        "audit": best(audited),
    }
    print(f"{count:,} lines, {len(claims):,} of them from crawlers (audited); CPU seconds, best of 3")
    print("| part | lines/s | µs per line |")
    print("|---|---|---|")
    for name, seconds in parts.items():
        print(f"| {name} | {count / seconds:,.0f} | {seconds / count * 1e6:.2f} |")
    print(f"| verify, per claim | {len(claims) / parts['verify']:,.0f} claims/s | |")
    print(f"full audit: {count / parts['audit'] / TARGET:.2f}x the {TARGET:,} lines/s per core asked")


if __name__ == "__main__":
    main()
