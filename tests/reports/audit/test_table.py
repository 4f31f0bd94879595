"""Logs held as a table's rows (Spark's partitions), in any order: each line read by the `#Fields:` header in
force at it in its own file, as one pass over each file reads it."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotscope.reports.audit.judge import Row
from robotscope.syntax.logformats import MAX_LINE
from robotscope.syntax.logformats.fielded import CLOUDFRONT_HEADER, FieldsInForce
from tests.cli.test_logs import HITS, NEW, SITE
from tests.fuzz import fuzz_fields_table as fuzzed
from tests.fuzz.fuzz_fields_table import by_line, check
from tests.fuzz.harness import run_briefly
from tests.reports.audit.builders import (
    BROWSER,
    W3C_HEADER,
    cloudfront_line,
    judge_of,
    versions,
    w3c_line,
    w3c_restarted,
)

ORDERED = sorted(HITS, key=lambda hit: hit.when)
HEADER = W3C_HEADER.split("\n")
CRAWLING = [hit for hit in ORDERED if hit.user_agent != BROWSER]
# Three files: a header change mid-file; requests before any header, then a header; one header, repeated.
FILES = {
    "restarted.log": w3c_restarted(ORDERED, 7),
    "headless.log": [w3c_line(hit) for hit in CRAWLING[:3]] + [*HEADER, w3c_line(CRAWLING[3])],
    "repeated.log": [*HEADER, w3c_line(CRAWLING[4]), *HEADER, w3c_line(CRAWLING[5])],
}
JUDGE = judge_of(*versions(SITE, (None, NEW)), site=SITE)
TABLE = [(source, number, text) for source, lines in FILES.items() for number, text in enumerate(lines, 1)]


def one_pass(files: dict[str, list[str]], kind: str = "w3c") -> tuple[list[Row], int]:
    return fuzzed.one_pass(files, kind, JUDGE)


def tabled(table: list[tuple[str, int, str]], cuts: list[int], kind: str = "w3c") -> tuple[list[Row], int]:
    return fuzzed.tabled(table, cuts, kind, JUDGE)


def test_the_header_in_force_is_the_last_of_its_source_at_or_before_the_line() -> None:
    index = FieldsInForce([("a", 10, "#Fields: x"), ("a", 3, "#Fields: y"), ("b", 5, "#Fields: z")])
    assert [index.at("a", n) for n in (1, 3, 9, 10, 99)] == [None, (3, "#Fields: y"), (3, "#Fields: y")] + [
        (10, "#Fields: x")
    ] * 2
    assert (index.at("b", 4), index.at("b", 5), index.at("c", 5)) == (None, (5, "#Fields: z"), None)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from("abc"), st.integers(0, 30), st.sampled_from(["#Fields: x", "#Fields: y"]))),
    st.sampled_from("abcd"),
    st.integers(-1, 31),
)
def test_the_header_in_force_is_what_a_scan_finds(headers: list[tuple[str, int, str]], source: str, n: int) -> None:
    found = [(number, text) for name, number, text in headers if name == source and number <= n]
    assert FieldsInForce(headers).at(source, n) == max(found, default=None)


def test_a_table_in_file_order_in_one_piece_reads_as_the_command_does() -> None:
    rows, bad = one_pass(FILES)
    # Every crawler's request of the restarted file, read by either header; the headless file's three
    # requests before its header are bad lines.
    assert [(row.source, row.number, row.ip) for row in rows if row.source != "headless.log"] == [
        *(("restarted.log", n, hit.ip) for n, hit in enumerate(ORDERED[:7], 5) if hit.user_agent != BROWSER),
        *(("restarted.log", n, hit.ip) for n, hit in enumerate(ORDERED[7:], 14)),
        ("repeated.log", 5, CRAWLING[4].ip),
        ("repeated.log", 10, CRAWLING[5].ip),
    ]
    assert [row.number for row in rows if row.source == "headless.log"] == [8] and bad == 3
    assert tabled(TABLE, []) == (rows, bad)


@settings(max_examples=60, deadline=None)
@given(st.permutations(range(len(TABLE))), st.lists(st.integers(0, len(TABLE)), max_size=5))
def test_any_order_and_any_cuts_read_each_line_as_one_pass_does(order: list[int], cuts: list[int]) -> None:
    rows, bad = one_pass(FILES)
    found, found_bad = tabled([TABLE[at] for at in order], sorted(cuts))
    assert (by_line(found), found_bad) == (by_line(rows), bad)


def test_cloudfront_lines_before_any_header_are_read_by_the_documented_columns() -> None:
    hits = CRAWLING[:4]
    later = "#Fields: date time c-ip cs-method cs-uri-stem sc-status cs(User-Agent)"
    lines = [cloudfront_line(hit, "shop.example") for hit in hits[:2]] + [
        CLOUDFRONT_HEADER,
        cloudfront_line(hits[2], "shop.example"),
        later,
        "\t".join(
            ["2026-11-02", "10:00:20", hits[3].ip, "GET", "/blog", "200", hits[3].user_agent.replace(" ", "%20")]
        ),
    ]
    table = [("cf.log", number, text) for number, text in enumerate(lines, 1)]
    rows, bad = one_pass({"cf.log": lines}, "cloudfront")
    assert (len(rows), bad) == (4, 0)
    for cuts in ([1], [2], [3], [4], [5]):
        found, found_bad = tabled(table[::-1], cuts, "cloudfront")
        assert (by_line(found), found_bad) == (rows, 0)


def test_a_header_too_long_to_read_is_a_bad_line_and_no_header() -> None:
    lines = [HEADER[-1], w3c_line(CRAWLING[0]), "#Fields: date time " + "x " * MAX_LINE, w3c_line(CRAWLING[1])]
    table = [("long.log", number, text) for number, text in enumerate(lines, 1)]
    assert FieldsInForce(table).at("long.log", 4) == (1, HEADER[-1])
    rows, bad = one_pass({"long.log": lines})
    assert (len(rows), bad) == (2, 1)
    found, found_bad = tabled(table[::-1], [2])
    assert (by_line(found), found_bad) == (rows, bad)


SEEDS = Path(__file__).parents[2] / "fuzz" / "seeds_fields_table"


@pytest.mark.parametrize("seed", sorted(SEEDS.iterdir()), ids=lambda path: path.name)
def test_the_fuzz_target_passes_on_every_seed(seed: Path) -> None:
    check(seed.read_bytes())


@settings(max_examples=300, deadline=None)
@given(
    st.binary(max_size=3),
    st.lists(st.sampled_from([*FILES["restarted.log"][:12], "\x01", "", "#Fields: c-ip", "x y"]), max_size=30),
)
def test_any_lines_in_any_order_read_as_one_pass(settings_bytes: bytes, lines: list[str]) -> None:
    check(settings_bytes.ljust(3, b"\0") + "\n".join(lines).encode())


def test_the_fuzz_target_runs_under_atheris(tmp_path: Path) -> None:
    run_briefly("tests.fuzz.fuzz_fields_table", SEEDS, tmp_path, 2000)
