"""Fuzz target: reading a captured request head never raises, stays within bounds, and reads what it keeps.

With atheris installed (`pip install atheris`), from the repository root:

    python -m tests.fuzz.fuzz_request_head tests/fuzz/seeds_request_head -max_total_time=60

An input is the file `robotscope verify --request FILE` reads. Without atheris,
`check(data)` is a plain function: tests/access/signatures/test_head.py runs it
on every seed (one of them a request validly signed by KEY, so the fuzzer
starts from a head that verifies). Add each input a fuzzer finds there.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.fuzz.harness import fuzz, instrumented
from tests.fuzz.signing import NOW, signing_key

with instrumented(__name__):
    from robotscope.access.signatures.head import MAX_FIELDS, MAX_HEAD, read_head
    from robotscope.webbotauth import verify_request

SEEDS = Path(__file__).parent / "seeds_request_head"
KEY, PUBLIC, DIRECTORY = signing_key("fuzz_request_head")


def check(data: bytes) -> None:
    """Read `data` as a request head and verify what it gives against KEY's directory; raise only on a bug."""
    head = read_head(data)
    assert (head.request is None) is (head.fatal is not None)
    assert len(head.problems) <= MAX_FIELDS + 1
    for said in (*head.problems, *([head.fatal] if head.fatal else [])):
        for lang in ("en", "ko"):
            json.dumps(said.as_dict(lang))
    if head.request is None:
        return
    assert len(data) <= MAX_HEAD and len(head.request.headers) <= MAX_FIELDS
    assert head.request.target_uri.lower().startswith(("http://", "https://"))
    for name, value in head.request.headers:
        assert name and ":" not in name and "\n" not in value and "\r" not in value
    verdict = verify_request(head.request, DIRECTORY, NOW)
    assert verdict.verified is (verdict.reason is None)


if __name__ == "__main__":
    fuzz(check)
