"""The per-line view is bounded by what is parsed: lines past the 500 KiB limit are counted, not built."""

from __future__ import annotations

import tracemalloc

import pytest

from robotscope import lint, parse
from robotscope.reports.render import quote_lines
from robotscope.syntax.model import LineKind
from robotscope.syntax.parsed import MAX_OVERFLOW_LINES
from robotscope.syntax.parser import MAX_BYTES
from tests.hostile import HANG, finishes, on_cpu


@pytest.mark.slow  # megabytes of input
@pytest.mark.parametrize("end", [b"\n", b"\r", b"\r\n"], ids=["LF", "CR", "CRLF"])
def test_megabytes_of_line_ends_lint_in_bounded_time_and_memory(end: bytes) -> None:
    data = end * (4_000_000 // len(end))
    tracemalloc.start()
    try:
        # The time bound is CPU time, which a busy machine does not stretch (about 20 s each under
        # tracemalloc on a 2-core VM); the wall-clock guard only turns a hang into a failure.
        (robots, findings), cpu = finishes(lambda: on_cpu(lambda: (robots := parse(data), lint(robots))), within=HANG)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    total = 4_000_000 // len(end)
    assert len(robots.lines) == MAX_BYTES // len(end)
    assert len(robots.overflow) == MAX_OVERFLOW_LINES
    assert robots.overflow_line_count == total - len(robots.lines)
    assert [f.code for f in findings] == ["oversize"]
    assert cpu < 120
    # About 170 bytes per input byte before the view was bounded; now the parsed part dominates.
    assert peak < 40 * len(data)


def test_lines_past_the_kept_overflow_are_still_readable_by_number() -> None:
    head = b"User-agent: *\nDisallow: /a\n" + b"#" * (MAX_BYTES - 30) + b"\n"
    tail = b"\n" * 5_000 + b"Disallow: /late\n"
    robots = parse(head + tail)
    last = len(robots.lines) + robots.overflow_line_count
    line = robots.line(last)
    assert (line.number, line.kind, line.value) == (last, LineKind.DISALLOW, "/late")
    assert robots.line(last - 1).kind is LineKind.BLANK
    assert quote_lines(robots, last)[-1].endswith("| Disallow: /late")
    with pytest.raises(IndexError):
        robots.line(last + 1)
    with pytest.raises(IndexError):
        robots.line(0)
