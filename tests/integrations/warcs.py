"""WARC records built byte by byte, so a test can make them as hostile as it likes (warcio writes only valid ones)."""

from __future__ import annotations

import gzip
import zlib


def http(status: str, body: bytes, headers: dict[str, str] | None = None) -> bytes:
    """An HTTP response as a WARC response record's block holds it."""
    head = f"HTTP/1.1 {status} X\r\nContent-Type: text/plain\r\n"
    head += "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
    return head.encode() + b"\r\n" + body


def record(uri: str, block: bytes, length: str | None = None, kind: str = "response") -> bytes:
    """One WARC record; `length` overrides its Content-Length (a lie, a negative number, a word)."""
    size = len(block) if length is None else length
    head = (
        f"WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {uri}\r\n"
        f"Content-Type: application/http; msgtype=response\r\nContent-Length: {size}\r\n\r\n"
    )
    return head.encode() + block + b"\r\n\r\n"


def robots(host: str, status: str = "200", body: bytes = b"User-agent: *\nDisallow: /\n", **headers: str) -> bytes:
    """The record of `https://HOST/robots.txt` answering `status` with `body`."""
    named = {name.replace("_", "-"): value for name, value in headers.items()}
    return record(f"https://{host}/robots.txt", http(status, body, named))


def gzipped(*records: bytes) -> bytes:
    """A .warc.gz: one gzip member per record, as Common Crawl writes them."""
    return b"".join(gzip.compress(r, 1) for r in records)


def zeros_gzip(size: int) -> bytes:
    """`size` NUL bytes, gzip-compressed (about a thousandth of the size)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = bytes(1 << 20)
    parts = [packer.compress(block) for _ in range(size >> 20)]
    return b"".join([*parts, packer.flush()])
