"""The one bounded inflater: at most one content coding, never more decoded bytes than asked for."""

from __future__ import annotations

import gzip
import zlib

import pytest

from robotscope.syntax.inflate import Bounded, Incomplete, Inflater, Undecodable, coding


@pytest.mark.parametrize(
    ("field", "name"),
    [
        ("", ""),
        ("identity", ""),
        ("GZIP", "gzip"),
        (" x-gzip ", "x-gzip"),
        ("deflate", "deflate"),
        ("identity, gzip", "gzip"),
    ],
)
def test_one_coding_is_named(field: str, name: str) -> None:
    assert coding(field) == name


@pytest.mark.parametrize("field", ["gzip, gzip", "gzip,deflate", "br", "zstd", "gzip, br"])
def test_stacked_or_unknown_codings_are_refused(field: str) -> None:
    with pytest.raises(Undecodable):
        Inflater(field)


def test_each_call_gives_at_most_what_was_asked_for() -> None:
    inflater = Inflater("gzip")
    raw = gzip.compress(b"\0" * 10_000_000)
    sizes = []
    while raw:
        piece, raw = inflater.decode(raw, 4096)
        if not piece:
            break
        sizes.append(len(piece))
    assert max(sizes) == 4096 and sum(sizes) == 10_000_000 and inflater.ended


def test_asking_for_nothing_gives_nothing() -> None:
    # zlib reads a max_length of 0 as "no limit": the inflater must not pass it on.
    raw = gzip.compress(b"\0" * 1_000_000)
    assert Inflater("gzip").decode(raw, 0) == (b"", raw)


def test_a_bounded_body_stops_at_its_limit_and_tells_a_body_of_exactly_the_limit() -> None:
    exact = Bounded("deflate", 1000)
    assert not exact.feed(zlib.compress(b"a" * 1000)) and not exact.cut and exact.size == 1000
    exact.end()
    over = Bounded("gzip", 1000)
    assert over.feed(gzip.compress(b"a" * 1001)) and over.cut and over.bytes() == b"a" * 1000


def test_a_gzip_stream_cut_short_is_incomplete() -> None:
    body = Bounded("gzip", 1_000_000)
    packed = gzip.compress(b"x" * 10_000)
    body.feed(packed[: len(packed) // 2])
    with pytest.raises(Incomplete):
        body.end()


def _members(*parts: bytes) -> bytes:
    """Each part as a gzip member of its own, one after the other: what `cat a.gz b.gz` makes."""
    return b"".join(gzip.compress(part) for part in parts)


def _fed(body: Bounded, raw: bytes, size: int) -> Bounded:
    for start in range(0, len(raw), size):
        if body.feed(raw[start : start + size]):
            break
    return body


@pytest.mark.parametrize("size", [1, 2, 3, 17, 4096, 1 << 20])
def test_every_gzip_member_is_inflated_in_turn_however_the_reads_fall(size: int) -> None:
    # Only the first member was read: gzip -d reads them all, as a gzip body may hold several.
    parts = [b"User-agent: *\n", b"", b"Disallow: /private/\n" * 500, b"Allow: /\n"]
    body = _fed(Bounded("gzip", 1 << 20), _members(*parts), size)
    body.end()
    assert body.bytes() == b"".join(parts) and not body.cut


def test_the_members_share_one_budget() -> None:
    body = _fed(Bounded("gzip", 1500), _members(b"a" * 1000, b"b" * 1000, b"c" * 1000), 64)
    assert body.cut and body.bytes() == b"a" * 1000 + b"b" * 500


@pytest.mark.parametrize("after", [b"garbage after the end", b"\x1f", b"\0" * 8, b"\x1f\x00"])
def test_bytes_that_start_no_member_are_ignored_as_gzip_does(after: bytes) -> None:
    for size in (1, 4096):
        body = _fed(Bounded("gzip", 1 << 20), _members(b"kept\n") + after, size)
        body.end()
        assert body.bytes() == b"kept\n"


def test_a_second_member_cut_short_is_incomplete_and_a_corrupt_one_an_error() -> None:
    second = gzip.compress(b"x" * 10_000)
    cut = Bounded("gzip", 1 << 20)
    cut.feed(_members(b"first\n") + second[: len(second) // 2])
    with pytest.raises(Incomplete):
        cut.end()
    with pytest.raises(zlib.error):
        Bounded("gzip", 1 << 20).feed(_members(b"first\n") + b"\x1f\x8b\x08\x00" + b"\xff" * 20)


def test_only_gzip_has_members() -> None:
    body = _fed(Bounded("deflate", 1 << 20), zlib.compress(b"one\n") + zlib.compress(b"two\n"), 3)
    body.end()
    assert body.bytes() == b"one\n"
