"""WARC files (`.warc`, `.warc.gz`) read record by record, within bounds: the robots.txt fetches of a crawl.

Every `response` record for a `/robots.txt` URL is one fetch (the first
record of a URL counts). Bounds: a gzip member may inflate to at most
`MEMBER_BUDGET` bytes (past it the rest of the file is not read, since its
next member is only found by inflating this one); a header line holds at most
`LINE_CAP` bytes and a header block `MAX_HEADERS` lines; a body is decoded
(one Content-Encoding at most, the fetcher's bounded inflater) and cut as the
fetcher cuts it; a record's other bytes are read past in pieces, never held.

Redirects are followed within the data (at most five hops, loops detected),
without holding bodies: the first pass yields every fetch that is no redirect
and notes each URL's status and Location; the redirects are then resolved on
those notes, and only if one leads to a fetch in the data does a second pass
read the targets' bodies again. Memory is one record plus a short note per
robots.txt URL.

A record whose HTTP part cannot be read (a status `abc`, a header line past
the cap, a broken chunk) is a bad record: skipped. A body that cannot be
decoded is a fetch that failed, as in the fetcher (`decode`, `incomplete`).
A record whose WARC framing breaks (no `WARC/` line, a Content-Length that
is no number of bytes, a gzip member cut short or inflating past its budget)
stops the file: nothing after it can be trusted to start a record.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO, NamedTuple
from urllib.parse import urlsplit

from ..access.policy import MAX_REDIRECTS
from ..fetch.machine import redirect_target
from ..messages import Message, message
from ..reports.survey import HostFile
from .records import BadRecord, Incomplete, Tally, Undecodable, Unreadable, cut, skip_reason

MEMBER_BUDGET = 64 * 1024 * 1024  # decoded bytes of one gzip member (Common Crawl's records are far smaller)
LINE_CAP = 16 * 1024  # a header line (a WARC-Target-URI or a Location: long URLs fit)
MAX_HEADERS = 256  # lines of one header block
_CHUNK = 65536
_GZIP = b"\x1f\x8b"
_HEAD = {"limit": LINE_CAP, "lines": MAX_HEADERS}


class _Stopped(Exception):
    """The file cannot be read past here."""

    def __init__(self, reason: Message) -> None:
        super().__init__(reason.code)
        self.reason = reason
        self.number = 0  # the record it broke in, when the reader of records knows it


def _stop(code: str, **params: object) -> _Stopped:
    return _Stopped(message(f"records.stop.{code}", **params))


def _raw(stream: BinaryIO) -> Callable[[], bytes]:
    return lambda: stream.read(_CHUNK)


def _inflated(stream: BinaryIO) -> Callable[[], bytes]:
    """The decoded bytes of concatenated gzip members, a piece at a time, each member within its budget."""
    pending = b""
    inflater: zlib._Decompress | None = None
    member = 0

    def piece() -> bytes:
        nonlocal pending, inflater, member
        while True:
            if not pending:
                pending = stream.read(_CHUNK)
                if not pending:
                    if inflater is not None:
                        raise _stop("gzip-cut")
                    return b""  # the end, between members
            if inflater is None:
                inflater, member = zlib.decompressobj(16 + zlib.MAX_WBITS), 0
            try:
                out = inflater.decompress(pending, _CHUNK)
            except zlib.error as error:
                raise _stop("gzip-bad", detail=str(error)) from error
            pending = inflater.unconsumed_tail
            if inflater.eof:
                pending, inflater = inflater.unused_data, None
            member += len(out)
            if member > MEMBER_BUDGET:
                raise _stop("too-large", limit=MEMBER_BUDGET)
            if out:
                return out

    return piece


class _Buffer:
    """Decoded bytes with lines, reads and skips, holding at most a line's cap or a piece beyond what is asked."""

    def __init__(self, source: Callable[[], bytes]) -> None:
        self._source = source
        self._data = bytearray()
        self._at_end = False

    def _more(self) -> bool:
        if self._at_end:
            return False
        piece = self._source()
        self._at_end = not piece
        self._data += piece
        return bool(piece)

    def readline(self, cap: int, limit: int) -> bytes:
        """A line with its end, of at most `cap` bytes and within `limit` bytes; longer, its first cap + 1 bytes."""
        cap = min(cap + 1, limit)
        while (end := self._data.find(b"\n", 0, cap)) < 0 and len(self._data) < cap and self._more():
            pass
        size = cap if end < 0 else end + 1
        line = bytes(self._data[:size])
        del self._data[:size]
        return line

    def read(self, size: int) -> bytes:
        """At most `size` bytes, and at most one piece of the source; b"" at the end."""
        if not self._data:
            self._more()
        data = bytes(self._data[:size])
        del self._data[:size]
        return data

    def peek(self) -> bytes:
        if not self._data:
            self._more()
        return bytes(self._data[:1])


class _Block:
    """The Content-Length bytes of one record: read, lines, and the rest skipped."""

    def __init__(self, buffer: _Buffer, length: int) -> None:
        self._buffer, self.left = buffer, length

    def readline(self, cap: int) -> bytes:
        line = self._buffer.readline(cap, self.left)
        self.left -= len(line)
        if self.left and not line.endswith(b"\n") and len(line) <= cap:
            raise _stop("record-cut")  # the file ended inside the record
        return line

    def read(self, size: int = _CHUNK) -> bytes:
        data = self._buffer.read(min(size, self.left))
        self.left -= len(data)
        if self.left and not data:
            raise _stop("record-cut")
        return data

    def finish(self) -> None:
        """Read past the rest of the record."""
        while self.left:
            self.read()


def _headers(read: Callable[[int], bytes], bad: Callable[[], Exception]) -> dict[str, str]:
    """A header block up to its empty line: names lowercased, the first of each name kept."""
    headers: dict[str, str] = {}
    for _ in range(MAX_HEADERS):
        line = read(LINE_CAP)
        if len(line) > LINE_CAP or not line.endswith(b"\n"):
            raise bad()
        text = line.decode("utf-8", "replace").strip()
        if not text:
            return headers
        name, colon, value = text.partition(":")
        if colon:
            headers.setdefault(name.strip().lower(), value.strip())
    raise bad()


class _Response(NamedTuple):
    uri: str
    status: int
    location: str | None
    encoding: str
    chunked: bool


def _records(path: Path) -> Iterator[tuple[int, dict[str, str], _Block]]:
    """(number, WARC headers, block) per record; raises `_Stopped`, with its record's number, where framing breaks."""
    with path.open("rb") as stream:
        gzipped = stream.read(2) == _GZIP
        stream.seek(0)
        buffer = _Buffer(_inflated(stream) if gzipped else _raw(stream))
        number = 0
        try:
            while _next_record(buffer):
                number += 1
                if not buffer.readline(LINE_CAP, LINE_CAP).startswith(b"WARC/"):
                    raise _stop("not-warc")
                headers = _headers(lambda cap: buffer.readline(cap, cap + 1), lambda: _stop("head", **_HEAD))
                length = headers.get("content-length", "")
                if not length.isascii() or not length.isdigit():
                    raise _stop("length", value=length[:40])
                block = _Block(buffer, int(length))
                yield number, headers, block
                block.finish()
        except _Stopped as stopped:
            stopped.number = number
            raise


def _next_record(buffer: _Buffer) -> bool:
    """Read past the blank lines that end the previous record; False at the end of the file."""
    for _ in range(MAX_HEADERS):
        if buffer.peek() not in (b"\r", b"\n"):
            break
        buffer.readline(2, 2)
    return bool(buffer.peek())


def _response(headers: dict[str, str], block: _Block) -> _Response | None:
    """The fetch a response record for /robots.txt holds, its HTTP head read; None for any other record."""
    uri = headers.get("warc-target-uri", "").strip("<> ")
    if headers.get("warc-type", "").lower() != "response":
        return None
    try:
        if urlsplit(uri).path != "/robots.txt":
            return None
    except ValueError:
        return None  # not a URL anyone fetched robots.txt from
    status_line = block.readline(LINE_CAP).decode("utf-8", "replace").split()
    if len(status_line) < 2 or not status_line[0].startswith("HTTP/"):
        raise BadRecord(skip_reason("status-line", line=" ".join(status_line)[:60]))
    code = status_line[1]
    if not (code.isascii() and code.isdigit() and len(code) == 3 and 100 <= int(code) <= 599):
        raise BadRecord(skip_reason("status", value=repr(code[:40])))
    http = _headers(block.readline, lambda: BadRecord(skip_reason("head", **_HEAD)))
    chunked = "chunked" in http.get("transfer-encoding", "").lower()
    return _Response(uri, int(code), http.get("location"), http.get("content-encoding", ""), chunked)


def _dechunked(block: _Block) -> Iterator[bytes]:
    while True:
        size_line = block.readline(LINE_CAP).split(b";")[0].strip()
        try:
            size = int(size_line, 16)
        except ValueError:
            raise BadRecord(skip_reason("chunk")) from None
        if size == 0:
            return
        while size > 0 and (data := block.read(min(size, _CHUNK))):
            size -= len(data)
            yield data
        block.readline(2)


def _body(response: _Response, block: _Block) -> tuple[bytes, str | None]:
    """The body as the fetcher would keep it, or the transport error it would report."""
    try:
        pieces = _dechunked(block) if response.chunked else iter(block.read, b"")
        return cut(pieces, response.encoding), None
    except Incomplete:
        return b"", "incomplete"
    except Undecodable:
        return b"", "decode"


def _host(uri: str) -> str:
    return urlsplit(uri).netloc.lower()


def _is_redirect(status: int, location: str | None) -> bool:
    return 300 <= status < 400 and bool(location)


def _fetches(
    path: Path, tally: Tally | None, wanted: Callable[[_Response], bool]
) -> Iterator[tuple[_Response, bytes, str | None]]:
    """Each URL's first fetch, with its body read when `wanted`; bad records reported to `tally` (if any)."""
    source, seen, number = str(path), set[str](), 0
    try:
        for number, headers, block in _records(path):
            try:
                response = _response(headers, block)
                if response is None or response.uri in seen:
                    continue
                seen.add(response.uri)
                body, error = _body(response, block) if wanted(response) else (b"", None)
                yield response, body, error
            except BadRecord as bad:
                if tally is not None:
                    tally.skip(source, "record", number, bad.reason)
    except _Stopped as stopped:
        if number == 0:  # not even one record's head: not a WARC file, or not one that can be read
            raise Unreadable(message("records.unreadable", source=source, reason=stopped.reason)) from None
        if tally is not None:
            tally.stop(source, "record", stopped.number or number, stopped.reason)


def read_warc(path: Path, tally: Tally) -> Iterator[HostFile]:
    """One HostFile per /robots.txt URL with a response record, redirects followed within the data."""
    notes: dict[str, tuple[int, str | None]] = {}
    redirects: list[str] = []
    for response, body, error in _fetches(path, tally, lambda r: not _is_redirect(r.status, r.location)):
        notes[response.uri] = (response.status, response.location)
        if _is_redirect(response.status, response.location):
            redirects.append(response.uri)
        else:
            yield _host_file(response.uri, response.status, body, error)
    targets: dict[str, list[tuple[str, int]]] = {}
    for uri in redirects:
        ended = _followed(uri, notes)
        if isinstance(ended, HostFile):
            yield ended
        else:
            targets.setdefault(ended[0], []).append((uri, ended[1]))
    if targets:
        for response, body, error in _fetches(path, None, lambda r: r.uri in targets):
            for uri, hops in targets.get(response.uri, []):
                yield _host_file(uri, response.status, body, error, hops)


def _host_file(uri: str, status: int, body: bytes, error: str | None, redirects: int = 0) -> HostFile:
    if error is not None:
        return HostFile(_host(uri), None, b"", error=error, redirects=redirects)
    return HostFile(_host(uri), status, body, redirects=redirects)


def _followed(uri: str, notes: dict[str, tuple[int, str | None]]) -> tuple[str, int] | HostFile:
    """Where a redirect chain ends: a fetch in the data (its URL and hops), or a HostFile that says why not."""
    host, seen, hops = _host(uri), {uri}, 0
    status, location = notes[uri]
    while _is_redirect(status, location):
        target, _ = redirect_target(uri, location)
        if target is not None and target in seen:
            return HostFile(host, status, b"", redirects=hops + 1, loop=True)
        if target is None or hops >= MAX_REDIRECTS or target not in notes:
            return HostFile(host, status, b"", redirects=hops + 1)  # not followed: the policy says what then
        seen.add(target)
        uri, hops = target, hops + 1
        status, location = notes[uri]
    return uri, hops
