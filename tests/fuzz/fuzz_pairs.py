"""Fuzz target: the claims of `verify --file` (TSV, CSV, JSON lines, gzip) never raise and are always usable.

With atheris installed (`pip install atheris`), from the repository root:

    python -m tests.fuzz.fuzz_pairs tests/fuzz/seeds_pairs -max_total_time=60

Without it, `check(data)` is a plain function: tests/integrations/test_pairs.py
runs it on every file of tests/fuzz/seeds_pairs/ (each shape, bad UTF-8,
a BOM, NUL, long lines, deep JSON, gzip whole, cut, trailing garbage, two
members, a bomb, ...) under a memory bound. Add each input a fuzzer finds there.
"""

from __future__ import annotations

import io
from pathlib import Path

from tests.fuzz.harness import fuzz, instrumented

with instrumented(__name__):
    from robotscope.integrations.pairs import MAX_LINE, opened, read_pairs
    from robotscope.integrations.records import Tally
    from robotscope.messages import Message
    from robotscope.syntax.ipindex import parse_address
    from robotscope.verifying.verifier import Verifier

SEEDS = Path(__file__).parent / "seeds_pairs"
_VERIFIER = Verifier(verdicts=64)  # the shipped lists, no DNS


def _one_line(said: Message) -> None:
    assert "\n" not in said.render() and "\n" not in said.render("ko")


def check(data: bytes) -> None:
    """Read `data` as a file of claims and judge each; raise only on a bug."""
    tally = Tally(_one_line)
    numbers = []
    # A default agent for lines of addresses alone when the input's first byte is odd: both ways fuzzed.
    default = "GPTBot" if data[:1] and data[0] % 2 else None
    for claim in read_pairs(opened(io.BytesIO(data)), "fuzz.txt", tally, default):
        numbers.append(claim.number)
        assert parse_address(claim.address) is not None and claim.address == claim.address.strip()
        assert claim.agent and len(claim.agent.encode()) <= MAX_LINE
        assert not any(c in claim.agent for c in "\r\n\x00")
        if len(numbers) <= 3:  # whatever the reader lets through, the verifier judges without raising
            assert _VERIFIER.verify(claim.address, claim.agent).address == claim.address
    assert numbers == sorted(set(numbers))
    for entry in tally.reported:
        assert entry.number >= 1


if __name__ == "__main__":
    fuzz(check)
