"""Fuzz target: what a site that verifies crawlers makes of any (agent, User-Agent) pairs never raises.

With atheris installed (`pip install atheris`), from the repository root:

    python -m tests.fuzz.fuzz_own_fetches tests/fuzz/seeds_own_fetches -max_total_time=60

Without it, `check(data)` is a plain function: tests/reports/test_own_fetches.py
runs it on every file of tests/fuzz/seeds_own_fetches/. An input is UTF-8
(undecodable bytes replaced), read as lines: an agent label, then the
User-Agent string sent as it, and so on. Add each input a fuzzer finds there.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.fuzz.harness import fuzz, instrumented

with instrumented(__name__):
    from robotscope.reports.verification import WouldVerify, own_fetches

SEEDS = Path(__file__).parent / "seeds_own_fetches"


def check(data: bytes) -> None:
    """Say each pair's statement in both languages; raise only on a bug."""
    lines = data.decode("utf-8", "replace").split("\n")
    sent = list(zip(lines[::2], lines[1::2], strict=False))
    found = own_fetches(sent)
    assert [f.user_agent for f in found] == list(dict.fromkeys(ua for _, ua in sent))
    for each in found:
        assert bool(each.methods) == (each.would_verify is WouldVerify.NO)
        json.dumps([each.as_dict("en"), each.as_dict("ko")], ensure_ascii=False)


if __name__ == "__main__":
    fuzz(check)
