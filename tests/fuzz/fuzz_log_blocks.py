"""Fuzz target: any bytes as a log file, cut into blocks of any size, give the lines one split of the whole gives.

With atheris installed (`pip install atheris`), from the repository root:

    python -m tests.fuzz.fuzz_log_blocks tests/fuzz/seeds_log_blocks -max_total_time=60

The first two bytes of an input choose the block size (1 to 256 bytes) and the line cap (1 to 256
bytes); the rest is the log, read as `robotscope logs` reads it (`log_blocks`, then `block_lines` per
block) and compared with `reference`: the bytes split at every `\\n`, a line over the cap (its end
counted) reported by number, the others decoded as UTF-8 with U+FFFD, one `\\r` before the end and
the first line's byte order mark dropped. Without atheris, `check(data)` is a plain function:
tests/logs/test_blocks.py runs it on every seed. Add each input a fuzzer finds to the seeds.
"""

from __future__ import annotations

import os
import tempfile

from tests.fuzz.harness import fuzz, instrumented

with instrumented(__name__):
    from robotscope.integrations.logfiles import block_lines, log_blocks
    from robotscope.integrations.records import Tally


def reference(data: bytes, cap: int) -> tuple[list[tuple[int, str]], list[int]]:
    """The lines of `data` one split of the whole gives, and the numbers of those over `cap` bytes."""
    raw = data.split(b"\n")
    ended = raw[-1] == b""
    if ended:
        raw.pop()
    kept, long = [], []
    for number, octets in enumerate(raw, 1):
        if len(octets) + (number < len(raw) or ended) > cap:
            long.append(number)
            continue
        text = octets.decode("utf-8", "replace").removesuffix("\r")
        kept.append((number, text.removeprefix("\ufeff") if number == 1 else text))
    return kept, long


def read(path: str, size: int, cap: int) -> tuple[list[tuple[int, str]], list[int], int]:
    """The lines of the log at `path` in blocks of `size`, the numbers of those reported too long, and the
    largest block's size."""
    long: list[int] = []

    class Long(Tally):
        def skip(self, source: str, unit: str, number: int, reason: object, count: int = 1) -> None:
            long.append(number)

    tally = Long()
    kept: list[tuple[int, str]] = []
    largest = 0
    for block in log_blocks(path, tally, size, cap):
        assert block.source == path and (block.data or block.skipped)
        largest = max(largest, len(block.data))
        kept.extend(block_lines(block, tally, cap))
    return kept, long, largest


def check(data: bytes) -> None:
    """Compare the blocks' lines of `data` (after its two bytes of settings) with `reference`."""
    if len(data) < 2:
        return
    size, cap, log = data[0] + 1, data[1] + 1, data[2:]
    if log.startswith((b"\x1f\x8b", b"BZh")):
        log = b"\n" + log  # else read as compressed, and cut short: not the plain text `reference` splits
    handle, path = tempfile.mkstemp(suffix=".log")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(log)
        kept, long, largest = read(path, size, cap)
    finally:
        os.unlink(path)
    expected_kept, expected_long = reference(log, cap)
    assert kept == expected_kept
    assert long == expected_long  # each reported once, in order
    assert largest < 2 * size + cap  # bounded whatever the lines


if __name__ == "__main__":
    fuzz(check)
