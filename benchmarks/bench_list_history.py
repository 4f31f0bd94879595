"""What `robotscope verify` costs when the history store holds many IP list versions: CPU and peak memory.

    python benchmarks/bench_list_history.py                            # 10 and 3,650 versions: about 1 minute
    python benchmarks/bench_list_history.py --before /tmp/old/src      # and another tree's, side by side

A year of daily `verify --update` runs, simulated: each shipped list (10 of them) stored once a
day for `--days` days (365: 3,650 versions), each day's version the snapshot with its
`creationTime` moved to that day and one prefix of its own added, so that every body differs.
The store is made by the robotscope measured (`HistoryStore.record_list`), in its own schema.
Beside it, a store of one day (10 versions): what the command costs when the history is short.

Each command is a fresh `python -m robotscope` process, start-up included; its CPU seconds (user
and system) and peak resident memory come from the kernel (`os.wait4`), the best of `--runs`:

- `verify ADDRESS --agent Googlebot --no-dns`: the newest version of each list;
- the same `--at` a moment in the middle of the year: the versions in force then.

With `--before SRC`, the same store sizes are made and measured under the robotscope at
`SRC` (a `src` folder: `git archive layers | tar -x -C /tmp/old`), and the ratio before / after
is given (×N > 1: N times less now).
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve()
SRC = HERE.parent.parent / "src"
START = datetime(2030, 1, 1, tzinfo=UTC)
ADDRESS = "66.249.66.1"  # Googlebot's in every version: verified whichever version is in force
Figures = tuple[float, float]  # CPU seconds, peak MB


def make_store(path: Path, days: int) -> None:
    """A store holding each shipped list once a day for `days` days (run under the robotscope measured)."""
    from importlib.resources import files

    from robotscope.history import HistoryStore
    from robotscope.syntax.iplists import shipped
    from robotscope.syntax.verification import list_sources

    urls = {source.name: source.url for source in list_sources()}
    package = files("robotscope.syntax").joinpath("iplists")
    originals = {name: json.loads(package.joinpath(name).read_bytes()) for name in shipped()}
    clock = [START.timestamp()]
    with HistoryStore(path, now=lambda: clock[0]) as store:
        for day in range(days):
            moment = START + timedelta(days=day)
            clock[0] = moment.timestamp() + 3600
            for name, document in originals.items():
                own = {"ipv4Prefix": f"198.{18 + day // 256 % 2}.{day % 256}.0/24"}  # a body of its own each day
                body = {**document, "creationTime": moment.isoformat(), "prefixes": [*document["prefixes"], own]}
                kept = store.record_list(name, moment.isoformat(), json.dumps(body).encode(), urls[name])
                assert kept.new, "the store did not keep a version"


def measured(src: Path, arguments: list[str], runs: int) -> Figures:
    """The best CPU seconds and the best peak MB of `runs` runs of `python -m robotscope ARGUMENTS`."""
    environment = {**os.environ, "PYTHONPATH": str(src)}
    cpu, peak = float("inf"), float("inf")
    for _ in range(runs):
        process = subprocess.Popen(
            [sys.executable, "-m", "robotscope", *arguments],
            env=environment,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        _, status, usage = os.wait4(process.pid, 0)
        errors = process.stderr.read() if process.stderr is not None else b""
        if os.waitstatus_to_exitcode(status) not in (0, 1):
            raise SystemExit(f"robotscope {' '.join(arguments)} failed: {errors.decode(errors='replace')}")
        cpu = min(cpu, usage.ru_utime + usage.ru_stime)
        peak = min(peak, usage.ru_maxrss / 1024)  # KiB on Linux
    return cpu, peak


def stored(path: Path) -> int:
    """How many list versions the store at `path` holds."""
    db = sqlite3.connect(path)
    try:
        (count,) = db.execute("SELECT count(*) FROM list_versions").fetchone()
        return int(count)
    finally:
        db.close()


def tree(src: Path, folder: Path, days: tuple[int, ...], runs: int) -> dict[tuple[str, int], Figures]:
    """Each command's figures under the robotscope at `src`, by the versions in the store (one per `days`)."""
    middle = (START + timedelta(days=max(days) // 2, hours=12)).isoformat()
    folder.mkdir()
    found = {}
    for count in days:
        store = folder / f"history-{count}.sqlite3"
        subprocess.run(
            [sys.executable, str(HERE), "--make-store", str(store), "--days", str(count)],
            env={**os.environ, "PYTHONPATH": str(src)},
            check=True,
        )
        versions = stored(store)
        base = ["verify", ADDRESS, "--agent", "Googlebot", "--no-dns", "--store", str(store)]
        found["now", versions] = measured(src, base, runs)
        found["--at", versions] = measured(src, [*base, "--at", middle], runs)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=365, help="days of daily versions of each list (365)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--before", type=Path, metavar="SRC", help="another tree's src folder, measured too")
    parser.add_argument("--make-store", type=Path, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.make_store is not None:
        make_store(options.make_store, options.days)
        return
    days = tuple(sorted({1, options.days}))  # a short history beside the long one
    with tempfile.TemporaryDirectory() as folder:
        after = tree(SRC, Path(folder) / "after", days, options.runs)
        before = {} if options.before is None else tree(options.before, Path(folder) / "before", days, options.runs)
    print(f"`verify {ADDRESS} --agent Googlebot --no-dns`, best of {options.runs}, start-up included\n")
    if before:
        print("| command | versions | CPU s before | CPU s after | × CPU | peak MB before | peak MB after | × memory |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
    else:
        print("| command | versions | CPU s | peak MB |")
        print("|---|---:|---:|---:|")
    for (command, count), (cpu, peak) in after.items():
        versions = f"{count:,}"
        if before:
            old_cpu, old_peak = before[command, count]
            print(
                f"| {command} | {versions} | {old_cpu:.2f} | {cpu:.2f} | ×{old_cpu / cpu:.1f}"
                f" | {old_peak:.0f} | {peak:.0f} | ×{old_peak / peak:.1f} |"
            )
        else:
            print(f"| {command} | {versions} | {cpu:.2f} | {peak:.0f} |")


if __name__ == "__main__":
    main()
