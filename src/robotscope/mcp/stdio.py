"""MCP over stdio: one JSON-RPC message a line, each read within `MAX_MESSAGE` bytes.

The SDK's own stdio transport reads a line of any length into memory and
drops a line it cannot read without a word. This one reads each line through
`integrations.records.lines` (at most `MAX_MESSAGE` bytes held, a longer line
read past in bounded pieces) and answers every line that is no message with
a JSON-RPC error, then reads on (`read_line`):

- longer than `MAX_MESSAGE` bytes, not UTF-8, or not JSON: -32700 (parse
  error), id null;
- JSON but no JSON-RPC message: -32600 (invalid request), with the line's
  id when it has one.

Blank lines are skipped. While it serves, the wire is held on private
descriptors: fd 0 reads the null device and fd 1 writes to stderr, so a
stray print, of this process or of a child it starts, can neither corrupt
the answers nor eat the requests.
"""

from __future__ import annotations

import json
import math
import os
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import CancelledError
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import Any, BinaryIO, NoReturn

import anyio
import anyio.from_thread
import anyio.lowlevel
import anyio.to_thread
from anyio.lowlevel import EventLoopToken
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp import types
from mcp.shared.message import SessionMessage

from ..integrations.records import lines
from ..messages import DEFAULT_LANG, Message, message
from .schemas import MAX_MESSAGE

if sys.platform != "win32":
    import fcntl

Receiving = MemoryObjectReceiveStream[SessionMessage]
Sending = MemoryObjectSendStream[SessionMessage]


@dataclass(frozen=True)
class Refused:
    """A line that is no message, and the JSON-RPC error that answers it."""

    answer: types.JSONRPCError


class UnusableWire(Exception):
    """Standard input or output is not open: there is nothing to serve on."""

    def __init__(self) -> None:
        self.reason = message("mcp.stdio.unusable")
        super().__init__(self.reason.render())


def _refused(code: int, said: Message, lang: str, request_id: types.RequestId | None = None) -> Refused:
    error = types.ErrorData(code=code, message=said.render(lang))
    return Refused(types.JSONRPCError(jsonrpc="2.0", id=request_id, error=error))


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")  # json.loads would take NaN and Infinity


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):  # 1e400: an answer quoting it back would write Infinity, which is not JSON
        raise ValueError(f"{text} is out of range")
    return number


def _id_of(value: Any) -> types.RequestId | None:
    """The id of a message that is not quite one, to answer it by; None when it has no usable id."""
    found = value.get("id") if isinstance(value, dict) else None
    return found if isinstance(found, str | int) and not isinstance(found, bool) else None


def read_line(line: bytes | None, lang: str = DEFAULT_LANG) -> types.JSONRPCMessage | Refused | None:
    """The message on `line` (None for a line of more than `MAX_MESSAGE` bytes read past), the error that
    answers a line that is none, or None for a blank line."""
    body = line.removesuffix(b"\n").removesuffix(b"\r") if line is not None else None
    if body is None or len(body) > MAX_MESSAGE:  # the longer one is a last line that ended without its newline
        return _refused(types.PARSE_ERROR, message("mcp.stdio.too-long", limit=MAX_MESSAGE), lang)
    if not body.strip():
        return None
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        return _refused(types.PARSE_ERROR, message("mcp.stdio.not-utf8", position=error.start), lang)
    try:
        value = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except json.JSONDecodeError as error:
        return _refused(types.PARSE_ERROR, message("mcp.stdio.not-json", position=error.pos), lang)
    except (ValueError, RecursionError):  # a constant, a float out of range, or nesting too deep to parse
        return _refused(types.PARSE_ERROR, message("mcp.stdio.not-plain-json"), lang)
    try:
        read = types.jsonrpc_message_adapter.validate_python(value, by_name=False)
    except ValueError:  # pydantic's ValidationError
        return _refused(types.INVALID_REQUEST, message("mcp.stdio.not-jsonrpc"), lang, _id_of(value))
    if isinstance(read, types.JSONRPCNotification) and "id" in value:
        # A request whose id is no id (null, 1.5, a list) would pass as a notification, never answered.
        return _refused(types.INVALID_REQUEST, message("mcp.stdio.bad-id"), lang)
    return read


def encoded(sent: types.JSONRPCMessage) -> bytes:
    """`sent` as one line of JSON.

    Through the standard library's encoder: a lone surrogate (a request may
    carry one as an escape, and an answer quote it back) is written as its
    escape, where pydantic's encoder raises.
    """
    text = json.dumps(sent.model_dump(mode="json", by_alias=True, exclude_unset=True), separators=(",", ":"))
    return text.encode("ascii") + b"\n"


def _private(fd: int) -> int:
    """A close-on-exec duplicate of `fd` above the standard three (os.dup would reuse a closed 0, 1 or 2)."""
    if sys.platform == "win32":
        return os.dup(fd)
    return fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)


def _point(fd: int, path: str, flags: int) -> None:
    opened = os.open(path, flags)
    try:
        os.dup2(opened, fd)
    finally:
        os.close(opened)


@contextmanager
def claimed_wire() -> Iterator[tuple[BinaryIO, BinaryIO]]:
    """This process's stdin and stdout, held on private descriptors; meanwhile fd 0 reads the null device and
    fd 1 writes to stderr (or the null device when stderr is closed). Both are put back at the end.

    Raises `UnusableWire` when stdin or stdout is not open.
    """
    if sys.stdin is None or sys.stdout is None:  # closed when Python started: fd 0 or 1 may be another file now
        raise UnusableWire
    sys.stdout.flush()
    try:
        wire_in = _private(0)
        wire_out = _private(1)
    except OSError as error:
        raise UnusableWire from error
    _point(0, os.devnull, os.O_RDONLY)
    if sys.stderr is None:  # closed when Python started: fd 2 may be another file now (the cache's)
        _point(1, os.devnull, os.O_WRONLY)
    else:
        os.dup2(2, 1)
    try:
        # closefd=False, and the private descriptors stay open: the reading thread may still be blocked
        # on its one, and must not find it reused. A process serves stdio once.
        yield os.fdopen(wire_in, "rb", closefd=False), os.fdopen(wire_out, "wb", buffering=0, closefd=False)
    finally:
        sys.stdout.flush()
        os.dup2(wire_in, 0)
        os.dup2(wire_out, 1)


def _pump(wire: BinaryIO, into: MemoryObjectSendStream[bytes | None], loop: EventLoopToken) -> None:
    """Send each line of `wire` (None for one too long, read past) into the event loop `loop` until the wire ends.

    In a daemon thread of its own: a read blocked on a client that keeps stdin
    open must not keep the process alive once the serving has ended (an anyio
    worker thread would).
    """
    try:
        try:
            for line in lines(wire, MAX_MESSAGE + 2):  # the line's end (\n or \r\n) is not part of the message
                anyio.from_thread.run(into.send, line, token=loop)
        except OSError:  # a broken wire ends as a closed one does
            pass
        anyio.from_thread.run_sync(into.close, token=loop)
    except (anyio.BrokenResourceError, RuntimeError, CancelledError):
        pass  # the serving ended first: no one reads on


async def _read(wire: BinaryIO, to_server: Sending, replies: Sending, lang: str, reading: anyio.CancelScope) -> None:
    """Hand each message on `wire` to the server, and answer each line that is none, until the wire ends."""
    into, read_lines = anyio.create_memory_object_stream[bytes | None](0)
    loop = anyio.lowlevel.current_token()
    threading.Thread(target=_pump, args=(wire, into, loop), name="robotscope mcp stdin", daemon=True).start()
    with reading:
        async with to_server, replies, read_lines:
            async for line in read_lines:
                read = read_line(line, lang)
                if isinstance(read, Refused):
                    await replies.send(SessionMessage(read.answer))
                elif read is not None:
                    await to_server.send(SessionMessage(read))


def _put(wire: BinaryIO, data: bytes) -> None:
    """All of `data`, unbuffered: a buffered writer left holding bytes for a closed pipe complains at exit."""
    view = memoryview(data)
    while view:
        view = view[wire.write(view) :]


async def _write(wire: BinaryIO, from_server: Receiving, serving: anyio.CancelScope) -> None:
    """Write each message the server sends, one a line; a client that stops reading ends the serving."""
    async with from_server:
        async for sent in from_server:
            try:
                await anyio.to_thread.run_sync(_put, wire, encoded(sent.message))
            except OSError:  # no one hears the answers
                serving.cancel()
                return


@asynccontextmanager
async def wire_streams(wire_in: BinaryIO, wire_out: BinaryIO, lang: str) -> AsyncIterator[tuple[Receiving, Sending]]:
    """The server's read and write streams (what `Server.run` takes) over the binary streams `wire_in` and
    `wire_out` (unbuffered). Messages are read as `read_line` reads them; its errors are in `lang`."""
    to_server, from_client = anyio.create_memory_object_stream[SessionMessage](0)
    to_client, from_server = anyio.create_memory_object_stream[SessionMessage](0)
    reading = anyio.CancelScope()
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(_read, wire_in, to_server, to_client.clone(), lang, reading)
        tasks.start_soon(_write, wire_out, from_server, tasks.cancel_scope)
        try:
            yield from_client, to_client
        finally:
            # The server is done: stop reading, and let the writer finish what it was sent.
            reading.cancel()
            to_client.close()


@asynccontextmanager
async def stdio_streams(lang: str = DEFAULT_LANG) -> AsyncIterator[tuple[Receiving, Sending]]:
    """`wire_streams` over this process's stdin and stdout (`claimed_wire`)."""
    with claimed_wire() as (wire_in, wire_out):
        async with wire_streams(wire_in, wire_out, lang) as streams:
            yield streams
