"""Fuzz target: what `robotscope ci` says of a change never raises, stays within bounds, and no text from the
files leaves its place: one workflow command a line with its properties intact, table rows of four cells,
no HTML comment opened in the pull-request comment but the marker.

With atheris installed (`pip install atheris`), from the repository root:

    python -m tests.fuzz.fuzz_ci tests/fuzz/seeds_ci -max_total_time=60

The input is the base version, a NUL byte, then the new version (no NUL: a new version and no base). Without
atheris, `check(data)` is a plain function: tests/reports/test_ci.py runs it on every file of
tests/fuzz/seeds_ci/ (Markdown and HTML in rules, workflow-command escapes, a CR and `::error::` inside a
line, thousands of flips, a long line of backticks and pipes, binary). Add each input a fuzzer finds there.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.fuzz.harness import fuzz, instrumented

with instrumented(__name__):
    from robotscope.access.robots import parse
    from robotscope.reports.ci import FAIL_ON, MARKER, MAX_ANNOTATIONS, MAX_COMMENT, Change, comment, workflow_commands
    from robotscope.reports.compare.diff import agents_named, diff, probe_urls
    from robotscope.reports.linter import lint

SEEDS = Path(__file__).parent / "seeds_ci"
MAX_FLIPS = 500  # flips the target computes (the command's own limit is larger; the rendering is what is fuzzed)
# An annotation: a level, then the file (`,` and `:` escaped), the line, the title; or the closing notice.
_COMMAND = re.compile(r"::(error|warning|notice) file=[^,:]*(,line=\d+)?,title=[^,:]*::[^\r\n]*|::notice::[^\r\n]*")
_CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)")
_CELL = re.compile(r"(?<!\\)\|")  # GitHub's tables: a `|` after a backslash is part of the cell


def check(data: bytes) -> None:
    """Say what the change in `data` does in every way `ci` says it; raise only on a bug."""
    old_data, separator, new_data = data.partition(b"\0")
    base = parse(old_data) if separator else None
    robots = parse(new_data if separator else old_data)
    path = "public/robots.txt" if data[:1] < b"\x80" else "a,b:c\n%0A.txt"  # a hostile file name too
    change = Change(path, robots, tuple(lint(robots, prove=False)))
    if base is not None:
        urls, tokens = probe_urls(base, robots)[:200], agents_named(base, robots)[:20]
        flips = diff(base, robots, urls, tokens, limit=MAX_FLIPS + 1)
        change = change._replace(
            base=base,
            flips=tuple(flips[:MAX_FLIPS]),
            more_flips=len(flips) > MAX_FLIPS,
            compared=(len(tokens), len(urls)),
        )
    for fail_on in FAIL_ON:
        commands = workflow_commands([change], fail_on)
        assert len(commands) <= MAX_ANNOTATIONS + 1
        for line in commands:
            assert _COMMAND.fullmatch(line), line
    for lang in ("en", "ko"):
        body = comment([change], "error", "0123456789ab", lang)
        assert body.startswith(MARKER + "\n") and len(body) <= MAX_COMMENT + 200
        prose = _CODE_SPAN.sub("", body.removeprefix(MARKER))
        assert not re.search(r"(?<!\\)<", prose), "raw HTML outside code spans"
        for row in body.splitlines():
            if row.startswith("| ") and not row.startswith("| ---"):
                assert len(_CELL.split(row)) == 6, row


if __name__ == "__main__":
    fuzz(check)
