"""What a server log says of one request, whatever its format, and a line that could not be read. Pure."""

from __future__ import annotations

from typing import NamedTuple, Protocol

from ...messages import Message


class Request(NamedTuple):
    """One logged request, as the log wrote it (times as POSIX seconds, UTC)."""

    number: int  # the line's number in its file, from 1
    time: float | None  # None only where the format logs no time
    ip: str  # the client address as logged (not checked here)
    method: str
    target: str  # path and query as requested; for an absolute URL in the request line, its path and query
    host: str | None  # the host the request named (Host header, virtual host, absolute URL), when logged
    scheme: str | None  # "http" or "https", when logged or implied
    status: int | None
    user_agent: str  # "" when the log has the field empty ("-")
    referer: str | None = None
    size: int | None = None  # response bytes, when logged


class BadLine(NamedTuple):
    """A line that is not a request of the format: its number and why (counted, never fatal)."""

    number: int
    reason: Message


class LineReader(Protocol):
    """Reads one format line by line; stateful where the format is (a `#Fields:` header names the columns)."""

    name: str

    def read(self, number: int, line: str) -> Request | BadLine | None:
        """The request on `line` (without its line end), why it is not one, or None for a header or comment."""
        ...


__all__ = ["BadLine", "LineReader", "Request"]
