"""`robotscope.download` against hostile servers on 127.0.0.1: compressed bombs, stacked and unknown codings."""

from __future__ import annotations

import gzip
import tracemalloc
import zlib
from http.server import BaseHTTPRequestHandler

import pytest

from robotscope.download import Download, get
from tests.conftest import Server, respond

LIMIT = 1024 * 1024
BOMB = 256 * 1024 * 1024  # decoded size of each bomb: 256 times the limit


def _gzip_zeros(size: int) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = bytes(1024 * 1024)
    return b"".join(packer.compress(block) for _ in range(size // len(block))) + packer.flush()


@pytest.fixture(scope="module")
def bomb() -> bytes:
    return _gzip_zeros(BOMB)  # about 256 KB


def _traced_get(url: str, limit: int = LIMIT) -> tuple[Download, int]:
    tracemalloc.start()
    try:
        got = get(url, user_agent="test", timeout=30, limit=limit)
        return got, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_gzip_bomb_is_inflated_only_to_the_limit(server: Server, bomb: bytes) -> None:
    # httpx inflated each network read whole: one 64 KiB read of this bomb is 64 MiB.
    server.serve("/bomb", 200, bomb, {"Content-Encoding": "gzip"})
    got, peak = _traced_get(server.url("/bomb"))
    assert got.status == 200 and got.error is None and got.cut and got.body == bytes(LIMIT)
    assert peak < 8 * LIMIT, peak


def test_a_gzip_bomb_peaks_near_the_limit_not_twice_it(server: Server, bomb: bytes) -> None:
    # The first read inflated the whole room in one piece, then kept a copy of it, and the body was
    # copied once more: a 32 MiB limit peaked at 64.3 MiB (2.01 times), now at 36.5 MiB (1.14).
    limit = 32 * LIMIT
    server.serve("/bomb", 200, bomb, {"Content-Encoding": "gzip"})
    got, peak = _traced_get(server.url("/bomb"), limit)
    assert got.cut and len(got.body) == limit and not got.body.strip(b"\0")
    assert peak < limit * 5 // 4 + 4 * LIMIT, peak  # the buffer's growth margin (1/8), and the client's own


def test_stacked_codings_are_a_decode_error_not_a_squared_ratio(server: Server, bomb: bytes) -> None:
    stacked = gzip.compress(bomb)  # a few hundred bytes, 256 MiB after two inflations
    assert len(stacked) < 4096
    server.serve("/stacked", 200, stacked, {"Content-Encoding": "gzip, gzip"})
    got, peak = _traced_get(server.url("/stacked"))
    assert (got.status, got.error, got.body, got.ok) == (200, "decode", b"", False)
    assert peak < 8 * LIMIT, peak


@pytest.mark.parametrize(
    ("encoding", "body", "error"),
    [
        ("br", b"\x0b\x02\x80hello\x03", "decode"),  # never asked for
        ("gzip", b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xff\xff\xff\xff" + b"x" * 64, "decode"),  # corrupt
        ("gzip", gzip.compress(b"<urlset>" * 1000)[:-100], "incomplete"),  # cut short
    ],
)
def test_bodies_that_cannot_be_decoded_are_errors_as_data(
    server: Server, encoding: str, body: bytes, error: str
) -> None:
    server.serve("/x", 200, body, {"Content-Encoding": encoding})
    got = get(server.url("/x"), user_agent="test", timeout=10, limit=LIMIT)
    assert got.status == 200 and got.error == error and not got.ok


def test_only_the_codings_the_inflater_undoes_are_offered(server: Server) -> None:
    seen: list[str | None] = []

    def handler(h: BaseHTTPRequestHandler) -> None:
        seen.append(h.headers.get("Accept-Encoding"))
        respond(h, 200, b"ok")

    server.routes["/"] = handler
    got = get(server.url("/"), user_agent="test", timeout=10, limit=LIMIT)
    assert got.ok and got.body == b"ok" and seen == ["gzip, deflate"]
