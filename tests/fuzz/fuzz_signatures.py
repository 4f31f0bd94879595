"""Fuzz target: Web Bot Auth verification of any request never raises, and verifies only a valid signature.

With atheris installed (`pip install atheris`), from the repository root:

    python -m tests.fuzz.fuzz_signatures tests/fuzz/seeds_signatures -max_total_time=60

An input is a request as text: its first line the target URI, each further
line a header field `Name: value`. Without atheris, `check(data)` is a plain
function: tests/access/signatures/test_fuzz.py runs it on every seed (one of
them validly signed by KEY, so the fuzzer starts from a signature that
verifies and mutates it). Add each input a fuzzer finds there.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.fuzz.harness import fuzz, instrumented
from tests.fuzz.signing import NOW, signing_key

with instrumented(__name__):
    from robotscope.access.signatures.keys import thumbprint
    from robotscope.access.signatures.model import SignedRequest
    from robotscope.webbotauth import verify_request

SEEDS = Path(__file__).parent / "seeds_signatures"
KEY, PUBLIC, DIRECTORY = signing_key("fuzz_signatures")


def request(data: bytes) -> SignedRequest:
    lines = data.decode("utf-8", "surrogateescape").split("\n")
    headers = [(name, value.lstrip(" ")) for name, _, value in (line.partition(":") for line in lines[1:])]
    return SignedRequest("GET", lines[0], headers)


def check(data: bytes) -> None:
    """Verify the request `data` holds against KEY's directory at NOW; raise only on a bug."""
    verdict = verify_request(request(data), DIRECTORY, NOW)
    assert verdict.verified is (verdict.reason is None)
    if verdict.verified:
        assert verdict.keyid == thumbprint(PUBLIC)
    for lang in ("en", "ko"):
        json.dumps(verdict.message().as_dict(lang))


if __name__ == "__main__":
    fuzz(check)
