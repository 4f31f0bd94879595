"""LOG files and standard input as numbered lines: compression by magic bytes, bounds, and what breaks."""

from __future__ import annotations

import bz2
import gzip
import io
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from robotscope.integrations.logfiles import log_lines
from robotscope.integrations.records import Tally, Unreadable
from robotscope.messages import Message, message

TEXT = b'\xef\xbb\xbf1.2.3.4 - - [x] "GET / HTTP/1.1"\r\nsecond \xff line\n\nfourth'


class Said:
    """A tally that keeps what it reports."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.tally = Tally(lambda said: self.lines.append(said.render()))


def read(path: Path | str, cap: int = 1024) -> tuple[list[tuple[int, str]], Said]:
    said = Said()
    return list(log_lines(str(path), said.tally, cap)), said


EXPECTED = [(1, '1.2.3.4 - - [x] "GET / HTTP/1.1"'), (2, "second \ufffd line"), (3, ""), (4, "fourth")]


@pytest.mark.parametrize(
    ("name", "compress"),
    [
        ("access.log", lambda data: data),
        ("access.log.gz", gzip.compress),
        ("access.log.1", gzip.compress),  # compression is told by the first bytes, not the name
        ("access.log.bz2", bz2.compress),
        ("access.gz", lambda data: data),  # ... and a name is not believed
        ("two-members.gz", lambda data: gzip.compress(data[:20]) + gzip.compress(data[20:])),  # `cat a.gz b.gz`
    ],
)
def test_plain_gzip_and_bzip2_logs_read_as_the_same_lines(
    tmp_path: Path, name: str, compress: Callable[[bytes], bytes]
) -> None:
    path = tmp_path / name
    path.write_bytes(compress(TEXT))
    found, said = read(path)
    # The BOM and the line ends are gone, bytes that are no UTF-8 are U+FFFD, blank lines keep their number.
    assert found == EXPECTED and said.tally.complete


def test_standard_input_is_read_for_a_dash(monkeypatch: pytest.MonkeyPatch) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(gzip.compress(TEXT)))
    monkeypatch.setattr(sys, "stdin", stdin)
    found, _ = read("-")
    assert found == EXPECTED
    assert not stdin.buffer.closed  # standard input is not ours to close


def test_a_line_over_the_cap_is_reported_read_past_and_the_numbering_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "long.log"
    path.write_bytes(b"a\n" + b"x" * 5000 + b"\nb\n" + b"y" * 1025)
    found, said = read(path, cap=1024)
    assert found == [(1, "a"), (3, "b")]
    assert said.lines == [
        f"{path}: line 2: longer than 1,024 bytes; skipped",
        f"{path}: line 4: longer than 1,024 bytes; skipped",
    ]
    assert said.tally.skipped == {"records.skip.too-long": 2}


def test_an_empty_file_has_no_lines(tmp_path: Path) -> None:
    (tmp_path / "empty.log").write_bytes(b"")
    assert read(tmp_path / "empty.log")[0] == []


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (gzip.compress(b"one\ntwo\n" * 2000)[:-30], "the compressed data ends before its end marker (a cut file)"),
        (gzip.compress(b"one\n") + b"\x1f\x8bnot gzip at all", "the compressed data is corrupt"),
        (b"BZh9" + b"\x00" * 100, "the compressed data is corrupt"),
    ],
)
def test_compressed_data_that_breaks_stops_the_file_after_what_came_before(
    tmp_path: Path, data: bytes, message: str
) -> None:
    path = tmp_path / "broken.log.gz"
    path.write_bytes(data)
    found, said = read(path)
    assert not said.tally.complete and said.tally.stopped == 1
    assert all(line == "one" for _, line in found if line != "two")
    assert message in said.lines[-1] and said.lines[-1].startswith(f"{path}: line {len(found) + 1}: ")
    assert said.lines[-1].endswith("; the rest of the file is not read")


def test_a_file_that_cannot_be_opened_is_unreadable(tmp_path: Path) -> None:
    with pytest.raises(Unreadable) as unreadable:
        read(tmp_path / "missing.log")
    reason: Message = unreadable.value.reason
    assert reason.render() == f"{tmp_path / 'missing.log'} cannot be read: No such file or directory"


def test_memory_stays_flat_for_a_large_compressed_log_and_a_bomb_of_one_line(tmp_path: Path) -> None:
    many = tmp_path / "many.log.gz"
    line = b'192.0.2.1 - - [19/Aug/2026:18:06:38 +0000] "GET / HTTP/1.1" 200 5 "-" "B"\n'
    many.write_bytes(gzip.compress(line * 400_000))
    bomb = tmp_path / "bomb.log.gz"
    bomb.write_bytes(gzip.compress(b"x" * 64_000_000))  # 64 MB of one line, 62 KB compressed
    tracemalloc.start()
    try:
        count = sum(1 for _ in log_lines(str(many), Tally()))
        said = Said()
        assert list(log_lines(str(bomb), said.tally, 32_768)) == []
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert count == 400_000  # 30 MB inflated
    assert said.lines == [f"{bomb}: line 1: longer than 32,768 bytes; skipped"]
    assert peak < 4_000_000


def test_a_logs_bad_lines_are_counted_by_their_kind() -> None:
    tally = Tally()
    tally.skip("a.log", "line", 3, message("logs.bad.no-request"))
    tally.skip("a.log", "line", 4, message("logs.bad.shape", format="combined"))
    tally.skip("a.log", "line", 5, message("logs.bad.shape", format="combined"))
    assert [said.render() for said in tally.summary()] == [
        "the answer is incomplete: 3 records skipped (2 not of the format, 1 no request line)"
    ]
    assert tally.as_dict("ko")["reasons"][0]["text"] == "형식에 맞지 않는 줄"
