"""Survey sources under attack: WARC bombs, broken framing, bad rows, cut files; read one record at a time, bounded.

Each bad record is skipped with its number and the reading goes on; a file
that breaks part-way is stopped (what came before counts); a file that
cannot be read at all is `Unreadable`. Memory is bounded by tracemalloc.
"""

from __future__ import annotations

import gzip
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from robotscope.fetch.body import KEEP
from robotscope.integrations.records import REPORTED, Tally, Unreadable, status_of
from robotscope.integrations.sources import read
from robotscope.integrations.tables import ROW_LIMIT
from robotscope.integrations.warc import MEMBER_BUDGET
from robotscope.reports.survey import HostFile
from tests.integrations.warcs import gzipped, http, record, robots, zeros_gzip

BLOCK = b"User-agent: *\nDisallow: /\n"


class Said:
    """A tally that keeps what it reports."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.tally = Tally(lambda said: self.lines.append(said.render()))


def hosts_of(path: Path) -> tuple[dict[str, HostFile], Said]:
    said = Said()
    return {h.host: h for h in read(path, said.tally)}, said


def peak(run: Iterator[object]) -> int:
    """Peak traced memory while the iterator is drained."""
    tracemalloc.start()
    try:
        for _ in run:
            pass
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_warc_of_gzip_bombs_is_cut_like_the_fetcher_and_no_body_is_held(tmp_path: Path) -> None:
    # Each record's body: 48 MB of NULs, gzip-encoded (~50 KB), in a gzip member (~100 bytes).
    # They were inflated whole and all held before the first host came out (252 s, 6.36 GB).
    bomb = zeros_gzip(48 << 20)
    path = tmp_path / "bombs.warc.gz"
    path.write_bytes(gzipped(*(robots(f"h{i}.example", body=bomb, Content_Encoding="gzip") for i in range(4))))
    assert path.stat().st_size < 8_000
    hosts, said = hosts_of(path)
    assert sorted(hosts) == [f"h{i}.example" for i in range(4)] and said.tally.complete
    assert all(
        h.status == 200 and 500_000 < len(h.body) <= KEEP and h.body == bytes(len(h.body)) for h in hosts.values()
    )
    assert peak(read(path, Tally())) < 8 * KEEP  # a body or two, never 48 MB


def test_a_member_that_inflates_past_its_budget_stops_the_file(tmp_path: Path) -> None:
    # A gzip member is found only by inflating the one before: past the budget, the rest is not read.
    huge = zeros_gzip(MEMBER_BUDGET + (1 << 20))
    block_head = f"WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: {MEMBER_BUDGET + (2 << 20)}\r\n\r\n".encode()
    path = tmp_path / "big.warc.gz"
    path.write_bytes(gzipped(robots("first.example")) + gzip.compress(block_head, 1) + huge)
    hosts, said = hosts_of(path)
    assert list(hosts) == ["first.example"] and said.tally.stopped == 1
    assert "record 2: a compressed member inflates past" in said.lines[0]


def test_a_bad_status_is_skipped_with_its_number_and_the_reading_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "mixed.warc"
    records = [
        robots("one.example"),
        robots("abc.example", status="abc"),
        robots("float.example", status="200.0"),
        record("https://nohttp.example/robots.txt", b"garbage\r\n\r\n"),
        robots("long.example", X_Long="x" * 20_000),
        robots("bad-gzip.example", Content_Encoding="gzip"),  # a body that is no gzip: the fetcher's `decode`
        robots("two.example", status="404", body=b"<html>"),
    ]
    path.write_bytes(b"".join(records))
    hosts, said = hosts_of(path)
    assert sorted(hosts) == ["bad-gzip.example", "one.example", "two.example"]
    assert hosts["bad-gzip.example"].error == "decode" and hosts["two.example"].status == 404
    assert [line.split(": ")[1] for line in said.lines] == ["record 2", "record 3", "record 4", "record 5"]
    assert said.tally.skipped == {
        "records.skip.status": 2,
        "records.skip.status-line": 1,
        "records.skip.head": 1,
    }


@pytest.mark.parametrize("length", ["-5", "12abc", "", "99999999999999999999999"])
def test_a_record_whose_framing_breaks_stops_the_file_after_what_came_before(tmp_path: Path, length: str) -> None:
    path = tmp_path / "framing.warc"
    path.write_bytes(robots("one.example") + record("https://two.example/robots.txt", http("200", BLOCK), length))
    hosts, said = hosts_of(path)
    assert list(hosts) == ["one.example"] and said.tally.stopped == 1 and not said.tally.complete
    assert said.lines[0].startswith(f"{path}: record 2: ")


@pytest.mark.parametrize("cut_at", [0.45, 0.9])  # inside a member (at a boundary the file is whole)
def test_a_cut_warc_gz_is_stopped_not_silently_empty(tmp_path: Path, cut_at: float) -> None:
    whole = gzipped(*(robots(f"h{i}.example", body=BLOCK * 200) for i in range(6)))
    path = tmp_path / "cut.warc.gz"
    path.write_bytes(whole[: int(len(whole) * cut_at)])
    hosts, said = hosts_of(path)
    assert 1 <= len(hosts) < 6 and said.tally.stopped == 1


def test_a_file_that_is_no_warc_is_unreadable(tmp_path: Path) -> None:
    for name, data in (("random.warc", bytes(range(256)) * 40), ("random.warc.gz", b"\x1f\x8b" + bytes(5000))):
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(Unreadable, match="cannot be read"):
            hosts_of(path)


def test_redirects_are_followed_without_holding_bodies(tmp_path: Path) -> None:
    path = tmp_path / "redirects.warc"
    path.write_bytes(
        robots("a.example", status="301", body=b"", Location="https://b.example/robots.txt")
        + robots("b.example", status="302", body=b"", Location="https://c.example/robots.txt")
        + robots("c.example", body=BLOCK)
        + robots("late.example", status="301", body=b"", Location="https://c.example/robots.txt")
        + robots("bad.example", status="301", body=b"", Location="http://[oops]/robots.txt")
    )
    hosts, said = hosts_of(path)
    assert said.tally.complete
    assert (hosts["a.example"].body, hosts["a.example"].redirects) == (BLOCK, 2)
    assert (hosts["late.example"].body, hosts["late.example"].redirects) == (BLOCK, 1)
    assert (hosts["bad.example"].status, hosts["bad.example"].body) == (301, b"")  # not followed, not a crash


@pytest.mark.parametrize(
    ("value", "expected"),
    [(200, 200), (200.0, 200), ("200.0", 200), (" 404 ", 404), ("", None), (None, None), (float("nan"), None)],
)
def test_a_status_cell_is_an_http_status_or_nothing(value: object, expected: int | None) -> None:
    assert status_of(value) == expected


@pytest.mark.parametrize("value", ["abc", "200.5", 200.5, True, 0, 600, "2e2", "-200", [200]])
def test_anything_else_is_a_bad_record(value: object) -> None:
    with pytest.raises(Exception, match="is not an HTTP status"):
        status_of(value)


def test_a_csv_skips_bad_rows_by_line_and_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "hosts.csv"
    rows = [
        b"host,status,body\n",
        b'a.example,200,"User-agent: *\nDisallow: /\n"\n',  # lines 2-4
        b"b.example,abc,\n",  # line 5
        b"c.example,200.0,\n",
        b"\xff\xfe.example,200,\n",  # line 7: a host that is not UTF-8
        b'd.example,200,"\xffUser-agent: *\nDisallow: /d\n"\n',  # a body keeps its bytes
        b"short\n",  # line 12
        b"e.example,200," + b"x" * (ROW_LIMIT + 10) + b"\n",  # line 12
        b"f.example,503,\n",
    ]
    path.write_bytes(b"".join(rows))
    hosts, said = hosts_of(path)
    assert list(hosts) == ["a.example", "c.example", "d.example", "f.example"]
    assert hosts["c.example"].status == 200 and hosts["d.example"].body == b"\xffUser-agent: *\nDisallow: /d\n"
    assert [line.split(": ")[1] for line in said.lines] == ["line 5", "line 7", "line 11", "line 12"]
    assert said.tally.skipped["records.skip.too-long"] == 1


@pytest.mark.parametrize("columns", [["host", "body"], ["status", "body"], ["host", "status"]])
@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_a_table_without_a_required_column_is_refused(tmp_path: Path, columns: list[str], suffix: str) -> None:
    # Without `status`, every host once read as a fetch with no response: all "unreachable", silently.
    table = pa.table({name: ["a.example" if name == "host" else "200"] for name in columns})
    path = tmp_path / f"hosts{suffix}"
    if suffix == ".parquet":
        pq.write_table(table, path)
    else:
        path.write_text(",".join(columns) + "\n" + ",".join(str(table[c][0]) for c in columns) + "\n")
    missing = {"host", "status", "body"} - set(columns)
    with pytest.raises(Unreadable, match=f"has no {missing.pop()} column"):
        hosts_of(path)


def test_a_parquet_with_float_statuses_and_bad_rows(tmp_path: Path) -> None:
    table = pa.table(
        {
            "host": ["a.example", "b.example", None, "c.example"],
            "status": [200.0, None, 200.0, 200.5],
            "body": [BLOCK, None, BLOCK, BLOCK],
        }
    )
    path = tmp_path / "hosts.parquet"
    pq.write_table(table, path)
    hosts, said = hosts_of(path)
    got = [(h.host, h.status, h.error) for h in hosts.values()]
    assert got == [("a.example", 200, None), ("b.example", None, "network")]
    assert [line.split(": ")[1] for line in said.lines] == ["row 3", "row 4"]


@pytest.mark.parametrize("data", [b"PAR1" + bytes(100) + b"PAR1", b"not parquet at all", b""])
def test_a_corrupt_parquet_is_unreadable(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "hosts.parquet"
    path.write_bytes(data)
    with pytest.raises(Unreadable, match="not a readable Parquet file"):
        hosts_of(path)


def test_a_folder_file_is_cut_at_the_limit(tmp_path: Path) -> None:
    (tmp_path / "big.example").write_bytes(b"Disallow: /x\n" * 200_000)
    hosts, _ = hosts_of(tmp_path)
    assert 512_000 <= len(hosts["big.example"].body) <= KEEP


def test_a_file_of_bad_records_reports_the_first_ones_and_counts_them_all(tmp_path: Path) -> None:
    path = tmp_path / "noise.csv"
    path.write_text("host,status,body\n" + "a.example,abc,\n" * 10_000)
    hosts, said = hosts_of(path)
    assert not hosts and said.tally.skipped == {"records.skip.status": 10_000}
    assert len(said.lines) == REPORTED + 1 and said.lines[-1].startswith(f"more than {REPORTED} records skipped")
    assert said.tally.summary()[0].render() == (
        "the answer is incomplete: 10,000 records skipped (10,000 not an HTTP status)"
    )
