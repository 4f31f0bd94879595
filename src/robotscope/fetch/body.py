"""The body of a robots.txt response as it arrives: decoded with a bounded inflater, cut after the limit.

Limits: at most 500 KiB of body (plus the rest of the line the limit falls
in, at most 2 KiB more) is decoded, and decoding stops there too. The body
is read raw and inflated by the bounded inflater every download shares
(`syntax.inflate`: one content coding at most, never more bytes than there
is room for); a compressed body that ends before its end marker is
incomplete data, a transient failure. Past the cut, the rest is
only counted, so a report can say how large the whole file was. No I/O:
the HTTP shell (`fetch.http`) hands each network read in.
"""

from __future__ import annotations

import re

from ..syntax.inflate import Incomplete, Inflater
from ..syntax.parser import MAX_BYTES

LINE_SLACK = 2048  # how far past MAX_BYTES the line the limit falls in may run
LIMIT = MAX_BYTES + LINE_SLACK
_EOL = re.compile(rb"[\r\n]")


# Kept at most: the limit, the rest of the line it falls in, a CRLF pair that may end
# that line on its last byte, and one byte more, which tells that the body goes on.
KEEP = LIMIT + 2


# Past the cut, the rest of a body is read only to count its bytes and lines (for
# "the file is 1,200,151 bytes, 34,408 lines"), and only this far and this long.
COUNT_BYTES = 16 * 1024 * 1024
COUNT_SECONDS = 2.0
_COUNT_CHUNK = 65536


class Body:
    """The body as it arrives: decoded with a bounded inflater, cut after the line the limit falls in.

    The inflater never produces more than the room left, so memory stays
    under `KEEP` bytes whatever the compression ratio. Once the cut is
    known, the rest is only counted (`size`, `line_ends`), up to
    `COUNT_BYTES`; `counted_all` tells whether the count reached the end.
    """

    def __init__(self, encoding: str) -> None:
        self._inflater = Inflater(encoding)  # raises Undecodable
        self._data = bytearray()
        self.truncated = False
        self.size = 0  # decoded bytes seen, kept or only counted
        self.line_ends = 0
        self.counted_all = False
        self._after_cr = False
        self._ends_line = False

    def feed(self, raw: bytes) -> bool:
        """Take one network read; True once enough is kept (the rest goes to `count`)."""
        while raw:
            room = KEEP - len(self._data)  # never 0 here: a full buffer always decides the cut
            chunk, raw = self._inflater.decode(raw, room)
            self._tally(chunk)
            self._data += chunk
            if self._cut():
                self.count(raw)
                return True
            if not chunk:
                break
        return False

    def count(self, raw: bytes) -> bool:
        """Count one network read past the cut without keeping it; True once counting should stop."""
        while raw and self.size < COUNT_BYTES:
            chunk, raw = self._inflater.decode(raw, _COUNT_CHUNK)
            if not chunk:
                break
            self._tally(chunk)
        return self.size >= COUNT_BYTES

    def _tally(self, chunk: bytes | bytearray) -> None:
        # LF, CR and CRLF each end one line, also when a CRLF is split between reads.
        if not chunk:
            return
        self.size += len(chunk)
        self.line_ends += chunk.count(b"\n") + chunk.count(b"\r") - chunk.count(b"\r\n")
        if self._after_cr and chunk[:1] == b"\n":
            self.line_ends -= 1
        self._after_cr = chunk[-1] == 0x0D
        self._ends_line = chunk[-1] in b"\r\n"

    @property
    def lines(self) -> int:
        """Lines in the body as far as it was counted (a last line without its end counts too)."""
        return self.line_ends + (1 if self.size and not self._ends_line else 0)

    def end(self) -> None:
        """The network stream ended: raise `Incomplete` if the encoded stream had not."""
        self.counted_all = True
        if not self._inflater.ended:
            raise Incomplete("the compressed body ended before its end marker: the data is incomplete")

    def _cut(self) -> bool:
        """Cut after the line the limit falls in, once that line's end is known; True if cut."""
        data = self._data
        size = len(data)
        if size <= MAX_BYTES:
            return False
        if data[MAX_BYTES - 1] in b"\r\n":
            end = MAX_BYTES  # the limit falls on a line end
        else:
            eol = _EOL.search(data, MAX_BYTES, LIMIT)
            if eol is None:
                if size <= LIMIT:
                    return False  # the line may still end within the slack
                end = LIMIT  # a line longer than the slack: cut inside it (the parser drops it)
            else:
                end = eol.end()
        if data[end - 1] == 0x0D:  # a CR: an LF right after it belongs to the same line end
            if size == end:
                return False  # not known yet
            if data[end] == 0x0A:
                end += 1
        if size <= end:
            return False  # the body may end here: one more byte tells
        del data[end:]
        self.truncated = True
        return True

    def bytes(self) -> bytes:
        return bytes(self._data)
