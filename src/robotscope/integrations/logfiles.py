"""Server logs read from files, in blocks of whole lines or a numbered line at a time, within bounds: the input
of the log audit.

`log_blocks(source, tally)` opens a LOG argument (a path, or `-` for standard input), inflates it when
its first bytes say gzip (`1f 8b`) or bzip2 (`BZh`), whatever its name, and gives its bytes in
`Block`s of whole lines, about `BLOCK` bytes each, with the number of the first (lines are numbered
from 1, per file). `block_lines(block, tally)` gives a block's lines as (number, text): the line end
removed (`\\n` or `\\r\\n`), decoded as UTF-8 (bytes that are not become U+FFFD: a log's User-Agents
are whatever clients sent, and one bad byte must not lose the request), the first line's byte order
mark dropped. `log_lines(source, tally)` is the two together. Blocks are what `--jobs` hands its
workers: the process reading a log only cuts its bytes at line ends and counts them, and each worker
decodes and splits its own (a copy of bytes costs far less than lines sent one by one).

Bounds, as every bulk reader here keeps them (`records`):

- at most `cap` bytes of a line are held past a block: a longer line is dropped, read past in bounded
  pieces, and named by number in the next block's `skipped` (a block of no bytes when none follows);
  `block_lines` reports it (`records.skip.too-long`) before that block's lines, so the reports come in
  line order whatever the blocks' size; the numbering goes on. A block holds less than twice `size` bytes;
- compressed input is inflated as a stream, never whole: memory stays flat for a file of any size;
- a file whose compressed data breaks part-way (cut, corrupt) is stopped (`Tally.stop`): the lines
  before count, and the answer is incomplete;
- a file that cannot be opened raises `Unreadable` when the first block is asked for.

The lines go to a reader of `robotscope.syntax.logformats` (a new one per file: `#Fields:` headers
are per file), which makes each a request or a numbered bad line.
"""

from __future__ import annotations

import bz2
import gzip
import io
import sys
import zlib
from collections.abc import Iterable, Iterator
from itertools import count
from typing import IO, NamedTuple

from ..messages import message
from ..syntax.logformats import MAX_LINE
from .records import Tally, Unreadable, detail, skip_reason

BLOCK = 4 * 1024 * 1024  # bytes of log per block: about 20,000 lines of a combined log
_LINES_BLOCK = 256 * 1024  # per block of `log_lines`, which gives a line at a time: its memory stays small
_GZIP = b"\x1f\x8b"
_BZIP2 = b"BZh"


class Block(NamedTuple):
    """Whole lines of one log, as read: where from, the number of the first line (from 1), their bytes (each
    line with its end; the log's last line perhaps without), and the numbers of the lines just before them
    too long to hold (dropped, to be reported first)."""

    source: str
    first: int
    data: bytes
    skipped: tuple[int, ...] = ()


class _Rejoined(io.RawIOBase):
    """A stream whose first bytes were read to tell its compression, given back before the rest."""

    def __init__(self, head: bytes, rest: IO[bytes]) -> None:
        self._head = head
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if self._head:
            size = min(len(buffer), len(self._head))
            buffer[:size] = self._head[:size]
            self._head = self._head[size:]
            return size
        data = self._rest.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def _inflated(stream: IO[bytes]) -> io.BufferedIOBase:
    """`stream`'s bytes, inflated when its first bytes are gzip's or bzip2's magic."""
    head = stream.read(3)
    whole = io.BufferedReader(_Rejoined(head, stream))
    if head.startswith(_GZIP):
        return gzip.GzipFile(fileobj=whole, mode="rb")
    if head.startswith(_BZIP2):
        return bz2.BZ2File(whole)
    return whole


class _Cutter:
    """Bytes as they are read, cut at line ends into blocks of at least `size` bytes (the last one less).

    A line still without its end after more than `cap` bytes is dropped (its number is kept in `too_long`,
    to be reported after the block before it) and what follows is skipped up to its end, so a log of one
    endless line holds `size` bytes at most.
    """

    def __init__(self, size: int, cap: int) -> None:
        self.number = 1  # of the first line not given yet
        self.too_long: list[int] = []
        self._size, self._cap = size, cap
        self._parts: list[bytes] = []
        self._held = 0
        self._skipping = False

    def feed(self, chunk: bytes) -> tuple[int, bytes] | None:
        """The next block (the number of its first line, its bytes), once enough is held."""
        if self._skipping:
            end = chunk.find(b"\n")
            if end < 0:
                return None
            chunk = chunk[end + 1 :]
            self._skipping = False
            self.number += 1
        self._parts.append(chunk)
        self._held += len(chunk)
        return self.whole() if self._held >= self._size else None

    def whole(self) -> tuple[int, bytes] | None:
        """The whole lines held, as a block; the line they end in is kept (or dropped when too long)."""
        data = b"".join(self._parts)
        end = data.rfind(b"\n") + 1
        found = None
        if end:
            found = (self.number, data if end == len(data) else data[:end])
            self.number += data.count(b"\n", 0, end)
        rest = data[end:]
        if len(rest) > self._cap:
            self.too_long.append(self.number)
            rest, self._skipping = b"", True
        self._parts = [rest] if rest else []
        self._held = len(rest)
        return found

    def end(self) -> tuple[int, bytes] | None:
        """The whole lines still held, and the last line without its end (none after a read that broke)."""
        found = self.whole()
        rest = b"".join(self._parts)
        self._parts, self._held = [], 0
        if not rest:
            return found
        if found is None:
            return (self.number, rest)
        return (found[0], found[1] + rest)


def log_blocks(source: str, tally: Tally, size: int = BLOCK, cap: int = MAX_LINE) -> Iterator[Block]:
    """The blocks of LOG `source` (`-`: standard input), in order: whole lines, about `size` bytes each."""
    try:
        stream = sys.stdin.buffer if source == "-" else open(source, "rb")  # noqa: SIM115 (closed below)
    except OSError as error:
        raise Unreadable(
            message("records.unreadable", source=source, reason=error.strerror or detail(error))
        ) from error
    cutter = _Cutter(size, cap)
    skipped: list[int] = []  # the lines too long since the last block: they go with the next one

    def given(found: tuple[int, bytes] | None) -> Iterator[Block]:
        """The block cut, if any, with the lines too long before it (those after it wait for the next)."""
        if found is not None:
            yield Block(source, *found, tuple(skipped))
            skipped.clear()
        skipped.extend(cutter.too_long)  # each cut after `found`'s lines
        cutter.too_long.clear()

    broken = None
    try:
        inflated = _inflated(stream)
        while chunk := inflated.read1(size):
            yield from given(cutter.feed(chunk))
    except EOFError:
        broken = message("records.stop.gzip-cut")
    except (OSError, zlib.error) as error:
        broken = message("records.stop.gzip-bad", detail=detail(error))
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    yield from given(cutter.end() if broken is None else cutter.whole())  # a line a break cut does not count
    if skipped:
        yield Block(source, cutter.number, b"", tuple(skipped))
    if broken is not None:
        tally.stop(source, "line", cutter.number, broken)


def block_lines(block: Block, tally: Tally, cap: int = MAX_LINE) -> Iterable[tuple[int, str]]:
    """(number, text) for each line of `block`; one of more than `cap` bytes, its end counted, is reported to
    `tally` instead, when the lines are read up to it (so in order with what their reader reports); the block's
    `skipped` lines are reported now."""
    for number in block.skipped:
        tally.skip(block.source, "line", number, skip_reason("too-long", limit=cap))
    text = block.data.decode("utf-8", "replace")  # lines split at `\n`, a byte no other character holds
    found = text.split("\n")
    if found[-1] == "":
        found.pop()  # the block's last line ended
    if "\r" in text:
        found = [line[:-1] if line[-1:] == "\r" else line for line in found]
    # A UTF-8 character is at most 4 bytes (a U+FFFD stands for 1 to 3): only then are bytes counted. Measured
    # before a byte order mark goes: its bytes count toward the line's.
    fits = 4 * max(map(len, found), default=0) + 2 <= cap
    if block.first == 1 and found and found[0].startswith("\ufeff"):
        found[0] = found[0][1:]
    if fits:
        return zip(count(block.first), found)
    return _bounded(block, found, tally, cap)


def _bounded(block: Block, found: list[str], tally: Tally, cap: int) -> Iterator[tuple[int, str]]:
    """`block_lines` where a line may be too long: its bytes counted."""
    octets = block.data.split(b"\n")
    for index, (line, raw) in enumerate(zip(found, octets, strict=False)):
        number = block.first + index
        if len(raw) + (index < len(octets) - 1) > cap:
            tally.skip(block.source, "line", number, skip_reason("too-long", limit=cap))
        else:
            yield number, line


def log_lines(source: str, tally: Tally, cap: int = MAX_LINE) -> Iterator[tuple[int, str]]:
    """(number, text) for each line of LOG `source` (`-`: standard input) of at most `cap` bytes."""
    for block in log_blocks(source, tally, _LINES_BLOCK, cap):
        yield from block_lines(block, tally, cap)


__all__ = ["BLOCK", "Block", "block_lines", "log_blocks", "log_lines"]
