"""Logs cut into blocks of whole lines (what `--jobs` hands its workers): the same lines as one split of the
whole, for any block size, compressed or not, and every block bounded."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotscope.auditing.pieces import pieces
from robotscope.integrations.logfiles import block_lines
from robotscope.integrations.records import Tally
from tests.fuzz.fuzz_log_blocks import check, read, reference
from tests.fuzz.harness import run_briefly

SEEDS = Path(__file__).parents[1] / "fuzz" / "seeds_log_blocks"
# Bytes a log is made of, the awkward ones often: line ends, a lone \r, a byte order mark, bytes that are no UTF-8.
PIECES = st.sampled_from([b"\n", b"\r\n", b"\r", b"\xef\xbb\xbf", b"\xff", b"\xe2\x82", b"\xf0\x9f\x98\x80", b"GET /"])
LOGS = st.lists(st.one_of(PIECES, st.binary(max_size=40)), max_size=30).map(b"".join)


@pytest.mark.parametrize("seed", sorted(SEEDS.iterdir()), ids=lambda path: path.name)
def test_the_fuzz_target_passes_on_every_seed(seed: Path) -> None:
    check(seed.read_bytes())


def test_the_fuzz_target_runs_under_atheris(tmp_path: Path) -> None:
    run_briefly("tests.fuzz.fuzz_log_blocks", SEEDS, tmp_path, 2000)


@settings(max_examples=400)
@given(LOGS, st.integers(1, 64), st.integers(1, 64))
def test_blocks_of_any_size_give_the_lines_of_one_split(data: bytes, size: int, cap: int) -> None:
    check(bytes([size - 1, cap - 1]) + data)


@settings(max_examples=100)
@given(LOGS, st.integers(1, 64))
def test_a_compressed_log_gives_the_blocks_lines_of_the_plain_one(
    tmp_path_factory: pytest.TempPathFactory, data: bytes, size: int
) -> None:
    folder = tmp_path_factory.mktemp("gz")
    (folder / "a.log.gz").write_bytes(gzip.compress(data))
    kept, long, largest = read(str(folder / "a.log.gz"), size, 32)
    assert (kept, long) == reference(data, 32)
    assert largest < 2 * size + 32


def test_one_endless_line_is_reported_once_and_never_held_whole(tmp_path: Path) -> None:
    path = tmp_path / "endless.log"
    path.write_bytes(b"first\n" + b"x" * 5_000_000 + b"\nlast\n")
    kept, long, largest = read(str(path), 4096, 1024)
    assert kept == [(1, "first"), (3, "last")] and long == [2]
    assert largest < 2 * 4096 + 1024


def test_a_big_log_is_many_pieces_each_with_the_fields_header_before_it(tmp_path: Path) -> None:
    header = "#Fields: date time c-ip cs-method cs-uri-stem sc-status cs(User-Agent)"
    lines = [header] + [f"2026-11-02 10:00:{n % 60:02d} 192.0.2.1 GET /{n} 200 Googlebot" for n in range(200)]
    path = tmp_path / "u_ex.log"
    path.write_text("\n".join(lines) + "\n")
    found = list(pieces([str(path)], Tally(), "w3c", size=500))
    assert len(found) > 10
    assert found[0].headers == () and all(piece.headers == ((1, header),) for piece in found[1:])
    numbers = [number for piece in found for number, _ in block_lines(piece.block, Tally())]
    assert numbers == list(range(1, 202))  # every line once, in order, numbered as in the file
    assert all(piece.spec.name == "w3c" for piece in found)
