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
    assert not exact.feed(zlib.compress(b"a" * 1000)) and not exact.cut and len(exact.data) == 1000
    exact.end()
    over = Bounded("gzip", 1000)
    assert over.feed(gzip.compress(b"a" * 1001)) and over.cut and bytes(over.data) == b"a" * 1000


def test_a_gzip_stream_cut_short_is_incomplete() -> None:
    body = Bounded("gzip", 1_000_000)
    packed = gzip.compress(b"x" * 10_000)
    body.feed(packed[: len(packed) // 2])
    with pytest.raises(Incomplete):
        body.end()
