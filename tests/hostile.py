"""A hostile HTTP peer on 127.0.0.1 and a guard that a call finishes: shared by the reliability tests.

`SlowServer` answers every connection with a script of byte strings, each
written after a pause (one byte per write when trickling), so a test can
send a status line and headers at one byte a second, or a body that never
ends. Its loops are bounded in count and stop when the test ends.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")

# How long any hostile peer goes on at most, whatever the client does.
MAX_WRITES = 2_000


class SlowServer:
    """A TCP server on 127.0.0.1 that writes `script(n)` for the n-th connection, pausing between writes."""

    def __init__(self, script: Callable[[int], Iterable[bytes]], pause: float = 0.05) -> None:
        self.script = script
        self.pause = pause
        self.stopping = threading.Event()
        self.connections = 0
        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(64)
        self._sock.settimeout(0.05)
        self.port = self._sock.getsockname()[1]
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def _accept(self) -> None:
        while not self.stopping.is_set():
            try:
                conn, _ = self._sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.connections += 1
            threading.Thread(target=self._serve, args=(conn, self.connections), daemon=True).start()

    def _serve(self, conn: socket.socket, number: int) -> None:
        with conn:
            conn.settimeout(1.0)
            try:
                conn.recv(65536)  # the request; its content does not matter
                for count, data in enumerate(self.script(number)):
                    if count >= MAX_WRITES or self.stopping.wait(self.pause if count else 0):
                        return
                    conn.sendall(data)
            except OSError:
                return  # the client gave up: that is what the tests want

    def close(self) -> None:
        self.stopping.set()
        self._sock.close()
        self._thread.join(5)


def trickle(data: bytes) -> Iterator[bytes]:
    """`data` one byte per write."""
    for i in range(len(data)):
        yield data[i : i + 1]


def endless_headers() -> Iterator[bytes]:
    """A status line and then a header that never ends, one byte per write."""
    yield from trickle(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Pad: ")
    while True:
        yield b"a"


# How long a call that should take seconds may run before a test calls it hung: long enough
# that a 2-core machine busy with other jobs never reaches it (CPU time is bounded separately).
HANG = 600.0


def on_cpu(call: Callable[[], T]) -> tuple[T, float]:
    """`call()` and the CPU seconds its thread spent on it: a cost that other processes' load does not change."""
    start = time.thread_time()
    return call(), time.thread_time() - start


def finishes(call: Callable[[], T], within: float = 30.0) -> T:
    """Run `call` in a thread and return its result; fail if it has not finished `within` seconds.

    A generous guard, not a timing assertion: it turns a hang into a failure.
    """
    outcome: list[T] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            outcome.append(call())
        except BaseException as error:  # re-raised in the test's thread
            errors.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(within)
    if thread.is_alive():
        raise AssertionError(f"did not finish within {within:g} s")
    if errors:
        raise errors[0]
    return outcome[0]
