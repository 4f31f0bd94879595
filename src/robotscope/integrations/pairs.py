"""Claims to verify, one a line: an IP address and the User-Agent it sent, read within bounds (`records`).

The first line that holds a claim tells the shape of the whole file:

- a CSV header naming an `ip` and a `user_agent` column (other columns
  ignored): a CSV row a line (a row cannot span lines);
- `{` : JSON lines, each an object with `ip` and `user_agent` strings
  (other keys ignored);
- anything else: the address, a tab (or any whitespace), and the rest of
  the line is the User-Agent, as a log holds it; a `#` line is a comment (also
  before the CSV header).

A line holding an address alone claims the default agent when one is
given. Blank lines are skipped. A line longer than `MAX_LINE` bytes, not
UTF-8, without an address and a User-Agent, or with a User-Agent holding
a line break or NUL (JSON can write them) is reported to the tally
with its number and skipped. Compressed input (gzip, told by its first
bytes, so standard input too) is read as its inflated lines; a stream cut
short or corrupt stops the reading there, and the tally says the answer
is incomplete.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import re
import zlib
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, NamedTuple, cast

from ..messages import message
from ..syntax.ipindex import parse_address
from .records import BadRecord, Tally, detail, lines, skip_reason

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

# Bytes of one line: Apache reads a request header of at most 8,190 bytes, so a User-Agent is
# shorter; twice that leaves room for JSON's escapes and other CSV columns.
MAX_LINE = 16_384
_GZIP = b"\x1f\x8b"
_PIECE = 65536  # bytes read at a time
_SHOWN = 60  # characters of a bad address shown in a message
# RFC 9110, 5.5: a field value holding CR, LF or NUL is invalid; no server passed such a User-Agent on.
_BROKEN = re.compile("[\r\n\x00]").search


class Claim(NamedTuple):
    """A line's claim: `agent` sending from `address`."""

    number: int  # the line's number, from 1
    address: str
    agent: str


class _Rejoined(io.RawIOBase):
    """The bytes read ahead to tell gzip, then the rest of the stream, as one stream."""

    def __init__(self, head: bytes, stream: IO[bytes]) -> None:
        self._head, self._stream = head, stream
        # read1 hands on what a pipe has now, where read(n) would wait for all n bytes.
        self._read = getattr(stream, "read1", stream.read)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        into = memoryview(buffer).cast("B")
        data = self._head[: len(into)] if self._head else self._read(len(into))
        self._head = self._head[len(data) :]
        into[: len(data)] = data
        return len(data)


def opened(stream: IO[bytes]) -> IO[bytes]:
    """`stream` as its lines' bytes: inflated when it is gzip."""
    head = b""
    while len(head) < len(_GZIP) and (more := stream.read(len(_GZIP) - len(head))):
        head += more
    rejoined = io.BufferedReader(_Rejoined(head, stream), _PIECE)
    return cast(IO[bytes], gzip.GzipFile(fileobj=rejoined)) if head == _GZIP else rejoined


def read_pairs(stream: IO[bytes], source: str, tally: Tally, agent: str | None = None) -> Iterator[Claim]:
    """The claims of `stream` (`opened` already), line by line; bad lines reported to `tally` as lines of `source`."""
    reader = _Reader(agent)
    number = 0
    try:
        for number, raw in enumerate(lines(stream, MAX_LINE), 1):
            try:
                found = reader.claim(number, raw)
            except BadRecord as bad:
                tally.skip(source, "line", number, bad.reason)
                continue
            if found is not None:
                yield found
    except (EOFError, gzip.BadGzipFile, zlib.error) as error:  # EOFError: the stream ends inside a member
        code = "gzip-cut" if isinstance(error, EOFError) else "gzip-bad"
        tally.stop(source, "line", number + 1, message(f"records.stop.{code}", detail=detail(error)))


class _Reader:
    """Lines to claims, in the shape the first claim's line set."""

    def __init__(self, agent: str | None) -> None:
        self.agent = agent
        self.shape: str | None = None  # csv, json or text, once a line told
        self.columns: tuple[int, int, int] = (0, 0, 0)  # CSV: the ip and user_agent columns, and how many

    def claim(self, number: int, raw: bytes | None) -> Claim | None:
        """The line's claim, None for a line that holds none (blank, a comment, the CSV header)."""
        if raw is None:
            raise BadRecord(skip_reason("too-long", limit=MAX_LINE))
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BadRecord(skip_reason("not-utf8")) from None
        text = (text.removeprefix("\ufeff") if number == 1 else text).strip()
        if not text or (text.startswith("#") and self.shape in (None, "text")):
            return None
        if self.shape is None:
            self.shape = "json" if text.startswith("{") else "csv" if self._header(text) else "text"
            if self.shape == "csv":
                return None
        if self.shape == "json":
            address, agent = _json(text)
        elif self.shape == "csv":
            address, agent = self._row(text)
        else:
            address, agent = _text(text)
        if not agent:
            if self.agent is None:
                raise BadRecord(skip_reason("no-agent"))
            agent = self.agent
        elif _BROKEN(agent):
            raise BadRecord(skip_reason("agent-control"))
        if parse_address(address) is None:
            shown = address if len(address) <= _SHOWN else address[: _SHOWN - 1] + "…"
            raise BadRecord(skip_reason("address", value=shown))
        return Claim(number, address, agent)

    def _header(self, text: str) -> bool:
        names = [name.strip().lower() for name in _csv(text)] if "," in text else []
        if "ip" not in names or "user_agent" not in names:
            return False
        self.columns = (names.index("ip"), names.index("user_agent"), len(names))
        return True

    def _row(self, text: str) -> tuple[str, str]:
        address, agent, count = self.columns
        fields = _csv(text)
        if len(fields) != count:
            raise BadRecord(skip_reason("columns", found=len(fields), expected=count))
        return fields[address].strip(), fields[agent].strip()


def _csv(text: str) -> list[str]:
    try:
        rows = list(csv.reader([text], strict=True))
    except csv.Error as error:
        raise BadRecord(skip_reason("csv", detail=detail(error))) from None
    return rows[0] if rows else []


def _json(text: str) -> tuple[str, str]:
    try:
        found = json.loads(text)
    except (ValueError, RecursionError) as error:  # ValueError: bad JSON, or a number past the digit limit
        raise BadRecord(skip_reason("json", detail=detail(error))) from None
    address = found.get("ip") if isinstance(found, dict) else None
    agent = found.get("user_agent", "") if isinstance(found, dict) else None
    if not isinstance(address, str) or not isinstance(agent, str):
        raise BadRecord(skip_reason("json-claim"))
    return address.strip(), agent.strip()


def _text(text: str) -> tuple[str, str]:
    address, *agent = text.split(maxsplit=1)  # `text` is stripped and not empty
    return address, agent[0].strip() if agent else ""


__all__ = ["MAX_LINE", "Claim", "opened", "read_pairs"]
