"""Fuzz target: any bytes as an expectation file load or fail with one line, and what loads checks cleanly.

With atheris installed (`pip install atheris`), from the repository root:

    python -m tests.fuzz.fuzz_expect tests/fuzz/seeds_expect -max_total_time=60

Without it, `check(data)` is a plain function: tests/reports/expect/test_fuzz.py
runs it on every file of tests/fuzz/seeds_expect/. Add each input a fuzzer finds there.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.fuzz.harness import fuzz, instrumented

with instrumented(__name__):
    from robotscope import parse
    from robotscope.reports.expect.check import check as check_file
    from robotscope.reports.expect.load import ExpectationError, load_expectations
    from robotscope.reports.watch.observation import Observation

SEEDS = Path(__file__).parent / "seeds_expect"
ROBOTS = b"User-agent: *\nDisallow: /cart/\nContent-Usage: train-ai=n\n\nUser-agent: GPTBot\nDisallow: /\n"


def check(data: bytes) -> None:
    """Load `data` as an expectation file; check what loads against a file and a fetch; raise only on a bug."""
    try:
        expectations = load_expectations(data.decode("utf-8", "replace"))
    except ExpectationError as error:
        said = error.reason.render("ko")
        assert "\n" not in str(error) or "\n" in data.decode("utf-8", "replace"), said
        return
    fetches = (Observation("x", 503, None, {}, b""), Observation("x", 200, "text/html", {}, ROBOTS))
    for subject in (parse(ROBOTS), *fetches):
        json.dumps([a.as_dict("en") for a in check_file(expectations, subject)])


if __name__ == "__main__":
    fuzz(check)
