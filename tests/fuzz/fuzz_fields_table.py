"""Fuzz target: any text as W3C or CloudFront logs held as a table's rows, in any order and cut anywhere (as
Spark's partitions hold them), reads line for line as one pass over each file reads it.

With atheris installed (`pip install atheris`), from the repository root:

    python -m tests.fuzz.fuzz_fields_table tests/fuzz/seeds_fields_table -max_total_time=60

Byte 0 chooses the format (even: w3c, odd: cloudfront), byte 1 the order of the rows, byte 2 how many cuts
(0 to 7); the rest is the logs' text, its lines split at `\\n`, a line `\\x01` starting the next file. Each
file is audited in order by one reader (what `robotscope logs` does) and the table by `audit_table` with
`FieldsInForce`: the rows, by file and line, and the count of bad lines must be the same. Without atheris,
`check(data)` is a plain function: tests/reports/audit/test_table.py runs it on every seed. Add each input
a fuzzer finds to the seeds.
"""

from __future__ import annotations

import random
from itertools import pairwise

from tests.fuzz.harness import fuzz, instrumented

with instrumented(__name__):
    from robotscope.messages import message
    from robotscope.reports.audit.judge import Judge, Row
    from robotscope.reports.audit.run import audit, audit_table
    from robotscope.reports.audit.summary import Summary
    from robotscope.reports.audit.timeline import RobotsTimeline, file_version
    from robotscope.reports.listclaims import ListVerifier
    from robotscope.syntax.logformats import reader
    from robotscope.syntax.logformats.fielded import FieldsInForce

SITE = "https://shop.example"
ROBOTS = b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n"


def _judge() -> Judge:
    timeline = RobotsTimeline([file_version(SITE, None, message("audit.source.file", path="r"), "r", ROBOTS)])
    return Judge(timeline.in_force, ListVerifier(None).verify, SITE)


def files_of(text: str) -> dict[str, list[str]]:
    files: dict[str, list[str]] = {"f0": []}
    for line in text.split("\n"):
        if line == "\x01":
            files[f"f{len(files)}"] = []
        else:
            files[f"f{len(files) - 1}"].append(line)
    return files


def one_pass(files: dict[str, list[str]], kind: str, judge: Judge) -> tuple[list[Row], int]:
    """What the command gives: each file read in order by one reader; its rows and the count of bad lines."""
    summary = Summary()
    rows = [
        row for name, lines in files.items() for row in audit(enumerate(lines, 1), reader(kind), judge, summary, name)
    ]
    return rows, summary.bad_count


def tabled(table: list[tuple[str, int, str]], cuts: list[int], kind: str, judge: Judge) -> tuple[list[Row], int]:
    """`table` cut at `cuts` into pieces, each audited on its own as Spark's partitions are; the rows and the
    count of bad lines."""
    index, bad = FieldsInForce(table), 0
    rows: list[Row] = []
    for start, end in pairwise([0, *cuts, len(table)]):
        summary = Summary()
        rows += audit_table(table[start:end], lambda: reader(kind), index, judge, summary)
        bad += summary.bad_count
    return rows, bad


def by_line(rows: list[Row]) -> list[Row]:
    return sorted(rows, key=lambda row: (row.source, row.number))


def check(data: bytes) -> None:
    if len(data) < 3:
        return
    kind = "w3c" if data[0] % 2 == 0 else "cloudfront"
    files = files_of(data[3:].decode("utf-8", "replace"))
    table = [(name, number, text) for name, lines in files.items() for number, text in enumerate(lines, 1)]
    chance = random.Random(data[1])
    chance.shuffle(table)
    cuts = sorted(chance.randrange(len(table) + 1) for _ in range(data[2] % 8))
    judge = _judge()
    rows, bad = one_pass(files, kind, judge)
    found, found_bad = tabled(table, cuts, kind, judge)
    assert by_line(found) == by_line(rows)
    assert found_bad == bad


if __name__ == "__main__":
    fuzz(check)
