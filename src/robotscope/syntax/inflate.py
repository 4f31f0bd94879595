"""Undoing at most one content coding within a byte budget: the one inflater of every download. Pure.

httpx's decoders inflate a whole network read at once (a 64 KiB read of a
gzip bomb becomes 64 MB) and undo any number of stacked codings (`gzip,
gzip` multiplies the ratios: 3 KB became 2 GiB). So the robots.txt
fetcher (`fetch.body`), the other downloads (`download`) and sitemap files
(`syntax.sitemap`, whose `.xml.gz` is gzip inside the body) read bytes raw
and inflate them here: every call gives at most the bytes asked for, the
rest of the input waits for the next call, and a response may name one
coding at most. Kept in the syntax layer so the sitemap reader can use it;
zlib does no I/O and runs under Pyodide.
"""

from __future__ import annotations

import io
import zlib
from typing import Any

# zlib's window bits for each content coding: gzip's header, or zlib's (HTTP's "deflate").
_WBITS = {"gzip": 16 + zlib.MAX_WBITS, "x-gzip": 16 + zlib.MAX_WBITS, "deflate": zlib.MAX_WBITS}
_GZIP_MAGIC = b"\x1f\x8b"  # the first bytes of every gzip member
_PIECE = 65536  # decoded bytes a bounded body inflates at a time


class Undecodable(Exception):
    """A Content-Encoding robotscope does not ask for and cannot decode, or two stacked."""


class Incomplete(Exception):
    """The body ended before its encoding did (a gzip stream cut short): incomplete data."""


def coding(field: str) -> str:
    """The one content coding a Content-Encoding field names ("" for none); `Undecodable` otherwise.

    Two codings (`gzip, gzip`, or two header lines, which httpx joins with a
    comma) are refused rather than undone in turn: each layer multiplies the
    compression ratio, and no server needs two.
    """
    names = [name for name in (part.strip().lower() for part in field.split(",")) if name not in ("", "identity")]
    if len(names) > 1:
        raise Undecodable(f"stacked Content-Encodings {field!r}: at most one is decoded")
    if names and names[0] not in _WBITS:
        raise Undecodable(f"unsupported Content-Encoding {names[0]!r}")
    return names[0] if names else ""


class Inflater:
    """One body's coding undone a bounded piece at a time (`field` is its Content-Encoding).

    A gzip body may be several members one after the other (RFC 1952, 2.2):
    each is inflated in turn, under the caller's one budget, as `gzip -d`
    reads them. Bytes after a member that start no other are ignored, as
    `gzip -d` ignores them, and never handed to zlib (which would keep them).
    """

    def __init__(self, field: str = "") -> None:
        name = coding(field)
        self._wbits = _WBITS.get(name, 0)
        self._zlib: Any = zlib.decompressobj(self._wbits) if name else None
        self._members = name in ("gzip", "x-gzip")
        self._between = b""  # after a member: bytes too few to tell whether another starts
        self._trailing = False  # after the last member: bytes that start none, ignored

    def decode(self, raw: bytes, most: int) -> tuple[bytes, bytes]:
        """At most `most` decoded bytes of `raw`, and the part of `raw` left for the next call.

        Raises `zlib.error` on data that is not what the coding says.
        """
        if most < 1:  # zlib reads a max_length of 0 as "no limit"
            return b"", raw
        if self._zlib is None:
            return raw[:most], raw[most:]
        if self._zlib.eof:
            raw = self._next_member(raw)
        while raw:
            out: bytes = self._zlib.decompress(raw, most)
            if not self._zlib.eof:
                return out, self._zlib.unconsumed_tail
            raw = self._next_member(self._zlib.unused_data)
            if out:
                return out, raw
        return b"", b""

    def _next_member(self, rest: bytes) -> bytes:
        """`rest`, after a member's end, if it starts another member (then inflated next); else b""."""
        rest, self._between = self._between + rest, b""
        if self._trailing or not self._members:
            self._trailing = True
            return b""
        if rest.startswith(_GZIP_MAGIC):
            self._zlib = zlib.decompressobj(self._wbits)
            return rest
        if _GZIP_MAGIC.startswith(rest):  # b"" or a magic number split between two reads
            self._between = rest
        else:
            self._trailing = True
        return b""

    @property
    def ended(self) -> bool:
        """Whether the coded stream reached its end marker (always, for an identity body)."""
        return self._zlib is None or bool(self._zlib.eof)


class Bounded:
    """A body's decoded bytes as they arrive, kept up to `limit`: memory stays near the limit, whatever the ratio.

    Inflated a piece at a time and counted before it is kept, into one
    buffer that `bytes()` hands over without a copy: the peak is the
    limit, not twice it (one inflation of the whole room, then a copy of
    the kept bytes, each doubled it).
    """

    def __init__(self, field: str, limit: int) -> None:
        self.inflater = Inflater(field)
        self.limit = limit
        self.cut = False
        self._kept = io.BytesIO()

    def feed(self, raw: bytes) -> bool:
        """Take one network read; True once the body went past the limit (read no further)."""
        while raw:
            room = self.limit - self.size
            # One byte past the limit tells a body of exactly `limit` bytes from a longer one.
            chunk, raw = self.inflater.decode(raw, min(_PIECE, room + 1))
            if not chunk:
                break
            if len(chunk) > room:
                self._kept.write(chunk[:room])
                self.cut = True
                return True
            self._kept.write(chunk)
        return False

    @property
    def size(self) -> int:
        """The decoded bytes kept so far."""
        return self._kept.tell()

    def bytes(self) -> bytes:
        """The bytes kept (the buffer's own: call once the body is read)."""
        return self._kept.getvalue()

    def end(self) -> None:
        """The network stream ended: raise `Incomplete` if the coded stream had not."""
        if not self.inflater.ended:
            raise Incomplete("the compressed body ended before its end marker: the data is incomplete")
