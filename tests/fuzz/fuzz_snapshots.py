"""Fuzz target: a dated snapshot's file name and its host folder's name read as a time and origins, or refused.

With atheris installed (`pip install atheris`), from the repository root:

    python -m tests.fuzz.fuzz_snapshots tests/fuzz/seeds_snapshots -max_total_time=60

Without it, `check(data)` is a plain function: tests/auditing/test_snapshot_names.py runs
it on every file of tests/fuzz/seeds_snapshots/ (each file's bytes are a name: good times,
missing zones, impossible dates, ports, IDN and IPv6 hosts, bytes that are not UTF-8, ...).
Add each input a fuzzer finds there.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from pathlib import Path

from tests.fuzz.harness import fuzz, instrumented

with instrumented(__name__):
    from robotscope.auditing.sources import BadName, host_origins, snapshot_moment
    from robotscope.syntax.urls import InvalidURL, origin_of

SEEDS = Path(__file__).parent / "seeds_snapshots"


def check(data: bytes) -> None:
    """Read `data` as a snapshot's name and as a host folder's name; raise only on a bug."""
    name = data.decode("utf-8", "replace")
    try:
        moment = snapshot_moment(name)
    except BadName as error:
        assert "\n" not in error.reason.render() and "\n" not in error.reason.render("ko")
    else:
        assert math.isfinite(moment) and moment == int(moment)
        # The moment written back in the canonical form reads as itself.
        d = datetime.fromtimestamp(moment, UTC)  # strftime's %Y has no leading zeros before 1000
        written = f"{d.year:04d}-{d.month:02d}-{d.day:02d}T{d.hour:02d}:{d.minute:02d}:{d.second:02d}Z.txt"
        assert snapshot_moment(written) == moment
    try:
        http, https = host_origins(name)
    except InvalidURL as error:
        assert "\n" not in error.reason.render()
    else:
        assert http.startswith("http://") and https.startswith("https://")
        assert origin_of(http) == http and origin_of(https) == https  # already normal


if __name__ == "__main__":
    fuzz(check)
