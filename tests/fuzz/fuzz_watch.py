"""Fuzz target: `changes` and `variants` on any pair of bodies and statuses never raise, and rank what they say.

With atheris installed (`pip install atheris`), from the repository root:

    python -m tests.fuzz.fuzz_watch tests/fuzz/seeds_watch -max_total_time=60

Without it, `check(data)` is a plain function: tests/reports/watch/test_fuzz.py
runs it on every file of tests/fuzz/seeds_watch/. An input is two bodies
split at the first `\\x00\\x00` line; its first byte picks the statuses.
Add each input a fuzzer finds there.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.fuzz.harness import fuzz, instrumented

with instrumented(__name__):
    from robotscope.reports.watch.alerts import CODES
    from robotscope.reports.watch.changes import changes, variants
    from robotscope.reports.watch.observation import Observation
    from robotscope.reports.watch.payload import slack_payload

SEEDS = Path(__file__).parent / "seeds_watch"
STATUSES = (200, 200, 200, 404, 503, 429, 301, None)
SPLIT = b"\n\x00\x00\n"


def check(data: bytes) -> None:
    """Compare the two bodies of `data` both ways and as variants; raise only on a bug."""
    pick = data[0] if data else 0
    old, _, new = data[1:].partition(SPLIT)
    before = Observation("browser", STATUSES[pick % 8], "text/plain", {"cf-ray": "x"} if pick & 64 else {}, old)
    after = Observation("GPTBot", STATUSES[(pick >> 3) % 8], None, {}, new, truncated=bool(pick & 128))
    for alerts in (changes(before, after), changes(after, before), changes(None, after), variants([before, after])):
        ranks = [a.severity.rank for a in alerts]
        assert ranks == sorted(ranks), ranks
        assert all(a.code in CODES for a in alerts)
        json.dumps([a.as_dict("ko") for a in alerts], ensure_ascii=False)
        json.dumps(slack_payload(alerts, "https://example.com"))
    assert not {a.code for a in changes(before, before)} - {"noEffect"}


if __name__ == "__main__":
    fuzz(check)
