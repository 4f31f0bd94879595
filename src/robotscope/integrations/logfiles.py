"""Server logs read from files, a numbered line at a time, within bounds: the input of the log audit.

`log_lines(source, tally)` opens a LOG argument (a path, or `-` for standard input), inflates it when
its first bytes say gzip (`1f 8b`) or bzip2 (`BZh`), whatever its name, and yields each line's
number (from 1, per file) and text, its line end removed (`\\n` or `\\r\\n`), decoded as UTF-8 (bytes
that are not become U+FFFD: a log's User-Agents are whatever clients sent, and one bad byte must not
lose the request). Bounds, as every bulk reader here keeps them (`records`):

- at most `cap` bytes of a line are held: a longer line is reported to the tally with its number
  (`records.skip.too-long`) and read past in bounded pieces; the numbering goes on;
- compressed input is inflated as a stream, never whole: memory stays flat for a file of any size;
- a file whose compressed data breaks part-way (cut, corrupt) is stopped (`Tally.stop`): the lines
  before count, and the answer is incomplete;
- a file that cannot be opened raises `Unreadable` when the first line is asked for.

The lines go to a reader of `robotscope.syntax.logformats` (a new one per file: `#Fields:` headers
are per file), which makes each a request or a numbered bad line.
"""

from __future__ import annotations

import bz2
import gzip
import io
import sys
import zlib
from collections.abc import Iterator
from typing import IO, cast

from ..messages import message
from ..syntax.logformats import MAX_LINE
from .records import Tally, Unreadable, detail, lines, skip_reason

_GZIP = b"\x1f\x8b"
_BZIP2 = b"BZh"


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


def _inflated(stream: IO[bytes]) -> IO[bytes]:
    """`stream`'s bytes, inflated when its first bytes are gzip's or bzip2's magic."""
    head = stream.read(3)
    whole = io.BufferedReader(_Rejoined(head, stream))
    if head.startswith(_GZIP):
        return cast(IO[bytes], gzip.GzipFile(fileobj=whole, mode="rb"))
    if head.startswith(_BZIP2):
        return cast(IO[bytes], bz2.BZ2File(whole))
    return whole


def log_lines(source: str, tally: Tally, cap: int = MAX_LINE) -> Iterator[tuple[int, str]]:
    """(number, text) for each line of LOG `source` (`-`: standard input) of at most `cap` bytes."""
    try:
        stream = sys.stdin.buffer if source == "-" else open(source, "rb")  # noqa: SIM115 (closed below)
    except OSError as error:
        raise Unreadable(
            message("records.unreadable", source=source, reason=error.strerror or detail(error))
        ) from error
    number = 0
    try:
        for raw in lines(_inflated(stream), cap):
            number += 1
            if raw is None:
                tally.skip(source, "line", number, skip_reason("too-long", limit=cap))
                continue
            text = raw.decode("utf-8", "replace").removesuffix("\n").removesuffix("\r")
            yield number, text.removeprefix("\ufeff") if number == 1 else text
    except EOFError:
        tally.stop(source, "line", number + 1, message("records.stop.gzip-cut"))
    except (OSError, zlib.error) as error:
        tally.stop(source, "line", number + 1, message("records.stop.gzip-bad", detail=detail(error)))
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


__all__ = ["log_lines"]
