"""`robotscope mcp` over stdio, through raw pipes: every line is bounded, and every bad line is answered.

Each test starts `python -m robotscope mcp` as the client's stdio transport
does, writes to its stdin and reads its stdout; the process ends when its
stdin closes, or is killed by its PID when a test fails first.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import types

from robotscope.mcp import MAX_MESSAGE, TOOLS
from robotscope.mcp.stdio import Refused, read_line
from tests.fuzz.fuzz_mcp_stdio import SEEDS, check
from tests.fuzz.harness import run_briefly

pytestmark = pytest.mark.usefixtures("isolated")

COMMAND = [sys.executable, "-m", "robotscope", "mcp", "--no-dns"]
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": "init",
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}},
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
TOOLS_LIST = {"jsonrpc": "2.0", "id": "list", "method": "tools/list"}
MIB = 1024 * 1024


def line(message: dict[str, Any]) -> bytes:
    return json.dumps(message).encode() + b"\n"


def padded_ping(request_id: int, size: int) -> bytes:
    """A ping request of exactly `size` bytes (without its newline)."""
    head, tail = b'{"jsonrpc":"2.0","id":%d,"method":"ping","params":{"pad":"' % request_id, b'"}}'
    return head + b"a" * (size - len(head) - len(tail)) + tail


class Wire:
    """A server's stdin and stdout, one JSON-RPC message a line."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdin is not None and process.stdout is not None
        self.process, self.stdin, self.stdout = process, process.stdin, process.stdout

    def send(self, data: bytes) -> None:
        for start in range(0, len(data), MIB):  # the pipe takes it piece by piece
            self.stdin.write(data[start : start + MIB])
        self.stdin.flush()

    def receive(self) -> dict[str, Any]:
        said = self.stdout.readline()
        assert said.endswith(b"\n"), said[:200]
        answer: dict[str, Any] = json.loads(said)
        return answer

    def peak_rss(self) -> int:
        """The process's peak resident set size in bytes (VmHWM)."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        kilobytes = next(row.split()[1] for row in status.splitlines() if row.startswith("VmHWM:"))
        return int(kilobytes) * 1024

    def initialize(self) -> None:
        self.send(line(INITIALIZE))
        assert self.receive()["id"] == "init"
        self.send(line(INITIALIZED))

    def lists_the_tools(self) -> None:
        self.send(line(TOOLS_LIST))
        answer = self.receive()
        assert answer["id"] == "list" and {tool["name"] for tool in answer["result"]["tools"]} == set(TOOLS)


@contextlib.contextmanager
def started(stderr: Path, command: list[str] = COMMAND) -> Iterator[Wire]:
    """A server's wire; at the end its stdin is closed, and it must exit with 0 and no traceback on stderr."""
    with stderr.open("wb") as errors:
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors)
        try:
            yield Wire(process)
            assert process.stdin is not None
            process.stdin.close()
            assert process.wait(timeout=60) == 0
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            for pipe in (process.stdin, process.stdout):
                if pipe is not None:
                    pipe.close()
    assert b"Traceback" not in stderr.read_bytes()


@pytest.fixture
def wire(tmp_path: Path) -> Iterator[Wire]:
    with started(tmp_path / "stderr") as running:
        yield running


def talk(data: bytes, command: list[str] = COMMAND) -> subprocess.CompletedProcess[bytes]:
    """The server's whole conversation: `data` on stdin, then stdin closed."""
    return subprocess.run(command, input=data, capture_output=True, timeout=120, check=False)


def answers(stdout: bytes) -> list[dict[str, Any]]:
    said = stdout.splitlines()
    return [json.loads(each) for each in said]


def error_code(answer: dict[str, Any]) -> int:
    code: int = answer["error"]["code"]
    return code


def test_a_64_mib_line_is_one_parse_error_read_within_bounded_memory(wire: Wire) -> None:
    wire.initialize()
    wire.lists_the_tools()
    before = wire.peak_rss()
    wire.send(padded_ping(1, 64 * MIB) + b"\n")
    answer = wire.receive()
    assert answer["id"] is None and error_code(answer) == types.PARSE_ERROR
    assert f"{MAX_MESSAGE:,} bytes" in answer["error"]["message"]
    wire.lists_the_tools()  # and it serves on
    # The line is skipped unread: the peak grows by a few times the limit at most, never by the line.
    # (The SDK's transport, which read the line whole, grew by over 250 MiB.)
    assert wire.peak_rss() - before < 6 * MAX_MESSAGE < 64 * MIB


def test_endless_bytes_without_a_newline_are_read_past_within_bounded_memory(wire: Wire) -> None:
    wire.initialize()
    before = wire.peak_rss()
    wire.send(b"x" * 256 * MIB)
    assert wire.peak_rss() - before < 6 * MAX_MESSAGE
    wire.send(b"\n")
    assert error_code(wire.receive()) == types.PARSE_ERROR
    wire.lists_the_tools()


def test_a_message_exactly_at_the_limit_is_read_and_one_byte_more_is_not(wire: Wire) -> None:
    wire.initialize()
    wire.send(padded_ping(1, MAX_MESSAGE) + b"\n")
    assert wire.receive() == {"jsonrpc": "2.0", "id": 1, "result": {}}
    wire.send(padded_ping(2, MAX_MESSAGE) + b"\r\n")  # a CRLF's CR is the line's end, not the message
    assert wire.receive() == {"jsonrpc": "2.0", "id": 2, "result": {}}
    wire.send(padded_ping(3, MAX_MESSAGE + 1) + b"\n")
    answer = wire.receive()
    assert answer["id"] is None and error_code(answer) == types.PARSE_ERROR
    wire.lists_the_tools()


BAD_LINES: list[tuple[bytes, int, Any]] = [
    (b"not json", types.PARSE_ERROR, None),
    (b'{"jsonrpc": "2.0", "id": 1, "method": "pi', types.PARSE_ERROR, None),
    (b"\xff\xfe\x00{}", types.PARSE_ERROR, None),
    (b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"s":"\xed\xa0\x80"}}', types.PARSE_ERROR, None),
    (b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":NaN}}', types.PARSE_ERROR, None),
    (b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":1e400}}', types.PARSE_ERROR, None),
    (b"[" * 100_000, types.PARSE_ERROR, None),
    (b"[]", types.INVALID_REQUEST, None),
    (b'[{"jsonrpc":"2.0","id":1,"method":"ping"}]', types.INVALID_REQUEST, None),
    (b'"ping"', types.INVALID_REQUEST, None),
    (b'{"id": 9, "method": "ping"}', types.INVALID_REQUEST, 9),
    (b'{"jsonrpc": "1.0", "id": "x", "method": "ping"}', types.INVALID_REQUEST, "x"),
    (b'{"jsonrpc": "2.0", "id": 4, "method": 5}', types.INVALID_REQUEST, 4),
    (b'{"jsonrpc": "2.0", "id": null, "method": "ping"}', types.INVALID_REQUEST, None),
    (b'{"jsonrpc": "2.0", "id": 1.5, "method": "ping"}', types.INVALID_REQUEST, None),
    (b'{"jsonrpc": "2.0", "id": true, "method": "ping"}', types.INVALID_REQUEST, None),
]


def test_thousands_of_bad_lines_are_each_answered_and_the_server_serves_on(wire: Wire) -> None:
    rounds = 200
    data = b"".join(bad + b"\n\n  \r\n" for _ in range(rounds) for bad, _, _ in BAD_LINES)  # blank lines: no answer
    wire.initialize()
    # Written while the answers are read: neither pipe may fill up while the other waits.
    writing = threading.Thread(target=wire.send, args=(data,))
    writing.start()
    errors = [wire.receive() for _ in range(rounds * len(BAD_LINES))]
    writing.join()
    expected = [(code, request_id) for _ in range(rounds) for _, code, request_id in BAD_LINES]
    assert [(error_code(answer), answer["id"]) for answer in errors] == expected
    wire.lists_the_tools()


def test_stdin_closed_mid_line_ends_the_server_cleanly() -> None:
    done = talk(b'{"jsonrpc": "2.0", "id": 2, "method": "tools/li')
    assert done.returncode == 0 and done.stderr == b""
    (answer,) = answers(done.stdout)  # what came before the end is no message
    assert answer["id"] is None and error_code(answer) == types.PARSE_ERROR


def test_stdin_closed_mid_line_of_a_session_ends_it_cleanly(wire: Wire) -> None:
    wire.initialize()
    wire.lists_the_tools()
    wire.send(b'{"jsonrpc": "2.0", "id": 2, "method": "tools/li')  # then the fixture closes stdin, and checks the exit


def test_a_client_that_stops_reading_ends_the_server_cleanly(tmp_path: Path) -> None:
    with started(tmp_path / "stderr") as wire:
        wire.stdout.close()
        wire.stdin.write(line(INITIALIZE))
        wire.stdin.flush()
        assert wire.process.wait(timeout=60) == 0
    assert (tmp_path / "stderr").read_bytes() == b""


# A server whose tool calls print to stdout and start a child that does: none of it may reach the wire.
PRINTING_SERVER = """
import subprocess, sys
import robotscope.mcp.server as server
from robotscope.cli import main

answer = server.call

async def printing(settings, name, arguments):
    print("stray print")
    child = "import sys; print('stray child'); print(repr(sys.stdin.read()))"
    subprocess.run([sys.executable, "-c", child], check=True)
    return await answer(settings, name, arguments)

server.call = printing
print("printed before serving")
sys.argv = ["robotscope", "mcp", "--no-dns"]
main()
"""


def test_stdout_carries_only_json_rpc_whatever_prints(tmp_path: Path) -> None:
    call = {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "nope", "arguments": {}}}
    with started(tmp_path / "stderr", [sys.executable, "-c", PRINTING_SERVER]) as wire:
        # Before the server holds the wire, a print is the caller's to make.
        assert wire.stdout.readline() == b"printed before serving\n"
        wire.initialize()
        wire.send(line(call))
        answer = wire.receive()
        assert answer["id"] == 5 and answer["result"]["isError"] is True
    # The prints went to stderr, and the child read nothing of the wire (fd 0 is the null device).
    said = (tmp_path / "stderr").read_bytes()
    assert b"stray print\n" in said and b"stray child\n''\n" in said


@pytest.mark.parametrize("closed", ["<&-", ">&-"])
def test_a_closed_stdin_or_stdout_is_one_line_and_exit_code_2(closed: str) -> None:
    script = f'exec "$0" -m robotscope mcp --no-dns {closed}'
    done = subprocess.run(["sh", "-c", script, sys.executable], capture_output=True, timeout=60, check=False)
    said = done.stderr
    assert done.returncode == 2 and said.count(b"\n") == 1 and b"needs an open standard input and output" in said


def test_answers_follow_the_server_language() -> None:
    done = talk(b"not json\n", [*COMMAND, "--lang", "ko"])
    (answer,) = answers(done.stdout)
    assert answer["error"]["message"].startswith("JSON이 아닌 줄을")


def test_read_line_takes_every_message_kind_and_skips_blank_lines() -> None:
    assert isinstance(read_line(line(TOOLS_LIST)), types.JSONRPCRequest)
    assert isinstance(read_line(line(INITIALIZED)), types.JSONRPCNotification)
    assert isinstance(read_line(b'{"jsonrpc":"2.0","id":1,"result":{}}\n'), types.JSONRPCResponse)
    assert isinstance(read_line(b'{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"}}'), types.JSONRPCError)
    assert read_line(b" \t\r\n") is None
    too_long = read_line(None)
    assert isinstance(too_long, Refused) and too_long.answer.error.code == types.PARSE_ERROR


@pytest.mark.parametrize("seed", sorted(SEEDS.iterdir()), ids=lambda p: p.name)
def test_the_fuzz_target_passes_on_every_seed(seed: Path) -> None:
    check(seed.read_bytes())


def test_the_fuzz_target_runs_under_atheris(tmp_path: Path) -> None:
    run_briefly("tests.fuzz.fuzz_mcp_stdio", SEEDS, tmp_path, 1000)
