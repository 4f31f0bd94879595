"""Parquet survey tables read row group by row group within bounds: a bad or oversized group is skipped, not fatal."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from robotscope.fetch.body import KEEP
from robotscope.integrations import pages, tables
from robotscope.integrations.pages import BadPages, largest_page, row_groups
from robotscope.integrations.records import Unreadable
from tests.fuzz.fuzz_sources import SEEDS as FUZZ_SEEDS
from tests.integrations.test_sources import BLOCK, hosts_of

SEEDS = FUZZ_SEEDS["parquet"]
BOMB = 200 * 1024 * 1024  # decoded bytes of one body: a page Arrow would allocate whole


def groups(path: Path, *hosts: list[tuple[str, object, bytes]], compression: str = "zstd") -> Path:
    """A table with one row group per list of (host, status, body) rows."""
    schema = pa.schema([("host", pa.string()), ("status", pa.int64()), ("body", pa.binary())])
    with pq.ParquetWriter(path, schema, compression=compression) as writer:
        for rows in hosts:
            writer.write_table(pa.table([list(column) for column in zip(*rows, strict=True)], schema=schema))
    return path


def good(*names: str) -> list[tuple[str, object, bytes]]:
    return [(name, 200, BLOCK) for name in names]


def arrow_peak(path: Path) -> dict[str, int]:
    """Hosts read and the peak of Arrow's memory pool (which tracemalloc does not see), in a process of its own."""
    script = (
        "import json, sys, pyarrow as pa\n"
        "from pathlib import Path\n"
        "from robotscope.integrations.records import Tally\n"
        "from robotscope.integrations.tables import read_parquet\n"
        "hosts = sum(1 for _ in read_parquet(Path(sys.argv[1]), Tally()))\n"
        "print(json.dumps({'hosts': hosts, 'peak': pa.default_memory_pool().max_memory()}))\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, check=True)
    found: dict[str, int] = json.loads(done.stdout)
    return found


def bomb_table(path: Path, size: int) -> Path:
    """Three row groups; the second's bodies in one dictionary page of 4 + `size` + 4 + 26 bytes."""
    bomb: list[tuple[str, object, bytes]] = [("bomb.example", 200, bytes(size)), ("c.example", 200, BLOCK)]
    return groups(path, good("a.example", "b.example"), bomb, good("d.example"))


def test_a_row_group_whose_page_would_decode_past_the_bound_is_skipped_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tables, "MAX_PAGE", 1024 * 1024)
    path = bomb_table(tmp_path / "bomb.parquet", 2 * 1024 * 1024)
    hosts, said = hosts_of(path)
    assert list(hosts) == ["a.example", "b.example", "d.example"]
    assert said.lines == [
        f"{path}: rows 3 to 4: a page of row group 2 declares {2 * 1024 * 1024 + 8 + len(BLOCK):,} bytes once "
        "decoded, more than 1,048,576; skipped"
    ]
    assert said.tally.skipped == {"records.skip.group-page": 2}
    assert said.tally.summary()[0].render() == (
        "the answer is incomplete: 2 records skipped (2 in a row group with a page too large)"
    )


@pytest.mark.slow
def test_a_page_bomb_is_refused_before_arrow_allocates_it(tmp_path: Path) -> None:
    # A 9 KB table whose one page declares 200 MB took 53 s of CPU and 1.74 GB; Arrow's pool peaked at
    # 839 MB (the page, then its array). Now the pool holds what the small groups need.
    path = bomb_table(tmp_path / "bomb.parquet", BOMB)
    assert path.stat().st_size < 64 * 1024
    read = arrow_peak(path)
    assert read["hosts"] == 3 and read["peak"] < 4 * 1024 * 1024, read


def test_a_corrupt_row_group_is_skipped_and_the_next_one_is_read(tmp_path: Path) -> None:
    # A part that could not be read stopped the file: every later row group was lost.
    path = groups(tmp_path / "t.parquet", good("a.example"), good("b.example", "c.example"), good("d.example"))
    chunk = pq.ParquetFile(path).metadata.row_group(1).column(2)  # the second group's bodies
    data = bytearray(path.read_bytes())
    end = (chunk.dictionary_page_offset or chunk.data_page_offset) + chunk.total_compressed_size
    data[end - 8 : end] = b"\xff" * 8  # inside the compressed page, after its header
    path.write_bytes(bytes(data))
    hosts, said = hosts_of(path)
    assert list(hosts) == ["a.example", "d.example"]
    assert len(said.lines) == 1 and said.lines[0].startswith(f"{path}: rows 2 to 3: row group 2 cannot be read (")
    assert said.tally.skipped == {"records.skip.group-bad": 2} and not said.tally.stopped


def test_a_row_group_of_too_many_rows_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables, "MAX_GROUP_ROWS", 3)
    path = groups(tmp_path / "t.parquet", good("a", "b", "c"), good("d", "e", "f", "g"), good("h"))
    hosts, said = hosts_of(path)
    assert list(hosts) == ["a", "b", "c", "h"]
    assert said.lines == [f"{path}: rows 4 to 7: row group 2 holds more than 3 rows; skipped"]
    assert said.tally.skipped == {"records.skip.group-rows": 4}


def test_a_large_cell_is_cut_without_a_copy_of_it() -> None:
    # `cut([body])` sliced the rest of the body at each 64 KiB it counted past the limit: copies
    # of the whole cell, 256 of them (a 64 MB cell took 4 s), each held while the next was made.
    body = bytes(64 * 1024 * 1024)
    tracemalloc.start()
    try:
        kept = tables.host_file("a.example", 200, body)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(kept.body) <= KEEP and peak < 4 * 1024 * 1024, peak


def test_bad_rows_keep_their_numbers_across_row_groups(tmp_path: Path) -> None:
    path = groups(tmp_path / "t.parquet", good("a", "b"), [("c", 200, BLOCK), ("d", 999, BLOCK)], good("e"))
    hosts, said = hosts_of(path)
    assert list(hosts) == ["a", "b", "c", "e"]
    assert said.lines == [f"{path}: row 4: the status 999 is not an HTTP status (100 to 599); skipped"]


@pytest.mark.parametrize("compression", ["none", "snappy", "zstd"])
def test_the_footer_and_the_largest_page_declared_are_read(tmp_path: Path, compression: str) -> None:
    body = b"x" * 300_000
    rows: list[tuple[str, object, bytes]] = [("a.example", 200, body), ("b.example", 200, BLOCK)]
    path = groups(tmp_path / "t.parquet", rows, good("c.example"), compression=compression)
    size = path.stat().st_size
    with path.open("rb") as stream:
        found = row_groups(stream, size, ("host", "body"))
        assert [group.rows for group in found] == [2, 1] and all(len(g.chunks or ()) == 2 for g in found)
        chunks = found[0].chunks or ()
        sizes = [largest_page(stream, start, end, size) for start, end in chunks]
    assert sizes[0] < 100 and len(body) < sizes[1] < len(body) + 100


@pytest.mark.parametrize("cut", [1, 5, 20])
def test_a_page_header_cut_or_out_of_the_file_is_bad_pages(tmp_path: Path, cut: int) -> None:
    path = groups(tmp_path / "t.parquet", good("a.example"), compression="none")
    with path.open("rb") as stream:
        start, end = (row_groups(stream, path.stat().st_size, ("body",))[0].chunks or ())[0]
        with pytest.raises(BadPages):
            largest_page(stream, start, end, start + cut)  # as if the file ended inside the header or page


def test_a_footer_pyarrow_aborts_on_is_a_row_group_skipped(tmp_path: Path) -> None:
    # Found by the fuzzer: pyarrow's RowGroupMetaData.column() let a C++ exception out on a bad size
    # statistic and the process aborted; the footer is read without it, and Arrow's reader says why.
    path = tmp_path / "t.parquet"
    path.write_bytes((SEEDS / "found-abort.parquet").read_bytes())
    script = (
        "import sys\nfrom pathlib import Path\nfrom robotscope.integrations.records import Tally\n"
        "from robotscope.integrations.tables import read_parquet\n"
        "said = []\nprint(sum(1 for _ in read_parquet(Path(sys.argv[1]), Tally(said.append))), len(said))\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout) == (0, "1 2\n"), done.stderr


@pytest.mark.parametrize(
    ("seed", "said"),
    [
        # Arrow's "Couldn't deserialize thrift: ...\n" made the one-line error two lines.
        ("found-thrift-error.parquet", "deserialize thrift"),
        # A column name that is not UTF-8: pyarrow raised UnicodeDecodeError opening the file.
        ("found-column-not-utf8.parquet", "can't decode byte 0xff"),
    ],
)
def test_a_file_the_fuzzer_found_is_one_line_unreadable(tmp_path: Path, seed: str, said: str) -> None:
    path = tmp_path / "t.parquet"
    path.write_bytes((SEEDS / seed).read_bytes())
    with pytest.raises(Unreadable) as raised:
        hosts_of(path)
    assert said in str(raised.value) and "\n" not in str(raised.value)


def test_a_text_cell_that_is_not_utf8_is_one_bad_row(tmp_path: Path) -> None:
    # Found by the fuzzer: Arrow raised UnicodeDecodeError making a batch's strings, out of the reader.
    def text(*cells: bytes) -> pa.Array:
        return pa.array(cells, pa.binary()).view(pa.string())  # as a writer that does not check leaves it

    table = pa.table(
        {
            "host": text(b"a.example", b"b\xff.example", b"c.example"),
            "status": text(b"200", b"200", b"2\xff0"),
            "body": text(b"User-agent: *\nDisallow: /\xff\n", b"", b""),
        }
    )
    path = tmp_path / "t.parquet"
    pq.write_table(table, path)
    hosts, said = hosts_of(path)
    assert list(hosts) == ["a.example"] and hosts["a.example"].body == b"User-agent: *\nDisallow: /\xff\n"
    assert said.lines == [
        f"{path}: row 2: not valid UTF-8; skipped",
        f"{path}: row 3: the status '2\\udcff0' is not an HTTP status (100 to 599); skipped",
    ]


class _CountedReads(io.BytesIO):
    reads = 0

    def read(self, size: int | None = -1, /) -> bytes:
        self.reads += 1
        return super().read(size)


def test_a_chunk_of_countless_empty_pages_is_refused_after_a_bounded_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    # 5-byte headers of empty pages (sizes 0): without a bound, a 100 MB chunk is 20 million headers.
    monkeypatch.setattr(pages, "_PAGES", 100)
    header = b"\x25\x00\x15\x00\x00"  # PageHeader: uncompressed 0, compressed 0, stop
    data = header * 10_000
    stream = _CountedReads(data)
    with pytest.raises(pages.BadPages, match="more than 100 pages"):
        pages.largest_page(stream, 0, len(data), len(data))
    assert stream.reads <= 101 * len(header)  # one read a byte, for the pages walked only
    assert pages.largest_page(io.BytesIO(header * 100), 0, 500, 500) == 0  # at the bound: read whole
