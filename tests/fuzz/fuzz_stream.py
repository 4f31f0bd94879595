"""Fuzz target: any bytes as a log fed to the web page's audit in slices of any sizes; the answer must not
depend on where the slices fall.

With atheris installed (`pip install atheris`), from the repository root:

    python -m tests.fuzz.fuzz_stream tests/fuzz/seeds_stream -max_total_time=60

The first byte of an input sets the slices' size (1 to 256 bytes), the rest is the log. Without atheris,
`check(data)` is a plain function: tests/reports/audit/test_stream_fuzz.py runs it on every file of
tests/fuzz/seeds_stream/ (logs cut mid-line, CRLF, no final newline, bytes that are not UTF-8, a line
longer than the page holds, gzip). Add each input a fuzzer finds there.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.fuzz.harness import fuzz, instrumented

with instrumented(__name__):
    from robotscope.reports.audit.stream import LogAudit

SEEDS = Path(__file__).parent / "seeds_stream"
ROBOTS = "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\nCrawl-delay: 5\n"
_AUDIT = LogAudit()  # one per worker, as the page keeps it: each start begins anew


def _fed(log: bytes, size: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Each answer to `log` fed in slices of `size`, and the last (the finish's, or the first refusal)."""
    _AUDIT.start(json.dumps({"robots": ROBOTS, "site": "https://shop.example", "name": "fuzz.log"}))
    answers = [json.loads(_AUDIT.feed(log[at : at + size])) for at in range(0, len(log), size)]
    refused = [found for found in answers if found["status"] != 200]
    return answers, refused[0] if refused else json.loads(_AUDIT.finish())


def check(data: bytes) -> None:
    """Feed `data[1:]` in slices of `data[0] + 1` bytes and in one piece; raise only on a bug."""
    if not data:
        return
    size, log = data[0] + 1, data[1:]
    answers, last = _fed(log, size)
    assert all(found["status"] in (200, 422) for found in answers)
    lines = [found["body"]["lines"] for found in answers if found["status"] == 200]
    assert lines == sorted(lines)
    _, whole = _fed(log, max(len(log), 1))
    if last["status"] == 200:
        view = last["body"]["view"]
        assert view["requests"] + view["bad_lines"]["count"] <= log.count(b"\n") + 1
        assert whole["status"] == 200 and whole["body"]["view"] == view
    else:
        assert last["body"]["error"]["code"] in ("undetected", "compressed", "bad-format")  # as the CLI refuses


if __name__ == "__main__":
    fuzz(check)
