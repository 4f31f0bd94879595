"""Worker processes for the web API's CPU work: a time budget that really stops the work.

A thread cannot be stopped, and one request within the size caps can need
far more time than a web answer should (full verdicts against 20,000
wildcard rules, the matrix of a 500 KiB file). Each job runs in a separate
interpreter; a worker that passes the budget is killed, which stops the work
for certain, and the request answers 422 `too-complex`. At most `size` jobs
run at once and `waiting` wait; past that, 503 `busy`. Stdlib only.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import pickle
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import IO, Any

from ..reports.analysis import LIMITS

MAX_ANALYSES = max(1, min(4, os.cpu_count() or 1))  # jobs running at once: one worker process per core
MAX_WAITING = 8  # requests that may wait for a worker; one more is answered 503 `busy` at once
TIME_BUDGET = float(LIMITS["time_budget"])  # seconds one analyse / generate / selftest job may run in its worker
MAX_RESPONSE = 32 * 1024 * 1024  # bytes of one JSON answer; a bigger one is 422 `too-complex`
WORKER_MEMORY = 2 * 1024 * 1024 * 1024  # address space of one worker process (RLIMIT_AS, POSIX only)
WORKER_START_TIMEOUT = 60.0  # seconds a new worker process may take to import robotscope
WORKER_RESTART = 5.0  # seconds a fresh worker usually needs on a busy machine (it imports the core)

logger = logging.getLogger("robotscope.web")


def describe(error: BaseException) -> str:
    """One line about an exception: its type, message and where it was raised (for the log, never the client)."""
    where = ""
    tb = error.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is not None:
        where = f" (at {os.path.basename(tb.tb_frame.f_code.co_filename)}:{tb.tb_lineno})"
    text = " ".join(f"{type(error).__name__}: {error}".split())  # one line, whatever the message holds
    if len(text) > 500:
        text = text[:500] + "..."
    return text + where


class PoolBusy(Exception):
    """Every worker is taken and the waiting room is full, or no worker became free in time."""


class TooComplex(Exception):
    """A job passed a limit of its worker; `limit` is "time", "memory" or "size"."""

    def __init__(self, limit: str, message: str) -> None:
        super().__init__(message)
        self.limit = limit


class WorkerFailed(Exception):
    """A job raised or its worker process died: a bug, answered as 500 `internal-error`."""


def _json_bytes(data: Any) -> bytes:
    # Rendered as Starlette's JSONResponse renders, so an answer reads the same from a worker.
    return json.dumps(data, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")).encode("utf-8")


def _limit_memory(limit: int) -> None:
    try:
        import resource
    except ImportError:  # not POSIX: the time budget still bounds the work
        return
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))


# A worker is a fresh interpreter, not a multiprocessing child: spawning one re-runs the
# parent's __main__ script (fatal for a script without a main guard), and forking a server
# that has threads can inherit held locks. The parent's sys.path comes as the first argument.
_WORKER_CODE = (
    "import json, sys; sys.path[:] = json.loads(sys.argv[1]); "
    "from robotscope.web.workers import _worker_main; _worker_main(int(sys.argv[2]))"
)


def _write_frame(stream: IO[bytes], data: bytes) -> None:
    stream.write(len(data).to_bytes(8, "big"))
    stream.write(data)
    stream.flush()


def _read_frame(stream: IO[bytes]) -> bytes:
    head = stream.read(8)
    size = int.from_bytes(head, "big") if len(head) == 8 else -1
    data = stream.read(size) if size >= 0 else b""
    if size < 0 or len(data) != size:
        raise EOFError("the pipe closed in the middle of a message")
    return data


def _worker_main(memory: int) -> None:
    """A worker process: jobs `(function, args)` arrive as pickled frames on stdin, answers leave on stdout.

    Each answer is a pickled `(kind, value)` frame: ("ok", size) followed by a
    frame of `size` JSON bytes, ("memory", None), or ("error", one line).
    """
    # Should Ctrl+C reach it anyway (no sessions on Windows), the server stops its workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if memory:
        _limit_memory(memory)
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything printed goes to stderr, never into an answer
    jobs = sys.stdin.buffer
    _write_frame(answers, pickle.dumps(("ready", os.getpid())))
    while True:
        try:
            function, args = pickle.loads(_read_frame(jobs))
        except EOFError:
            return  # the server closed the pipe, or went away
        body = b""
        reply: tuple[str, Any]
        try:
            body = _json_bytes(function(*args))
            reply = ("ok", len(body))
        except MemoryError:
            reply = ("memory", None)  # the job's objects are freed once this block is left
        except Exception as error:
            reply = ("error", describe(error))
        try:
            _write_frame(answers, pickle.dumps(reply))
            if reply[0] == "ok":
                _write_frame(answers, body)
        except OSError:
            return
        body = b""


class _Worker:
    """One worker process and the server's ends of its pipes.

    A timer kills the process when an exchange takes too long: the blocking read
    then ends, so no poll is needed and the same code runs on every platform.
    """

    def __init__(self, pool: WorkerPool) -> None:
        self.pool = pool
        path = json.dumps([entry for entry in sys.path if isinstance(entry, str)])
        self.process = subprocess.Popen(
            [sys.executable, "-c", _WORKER_CODE, path, str(pool.memory or 0)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            # POSIX: its own session, so a terminal's Ctrl+C goes to the server alone, which
            # then stops its workers; a worker whose server vanished ends at the closed pipe.
            start_new_session=True,
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.jobs: IO[bytes] = self.process.stdin
        self.answers: IO[bytes] = self.process.stdout
        self.expired = False
        self.healthy = False  # true between jobs, once the worker has said it is ready

    @property
    def pid(self) -> int:
        return self.process.pid

    def _expire(self) -> None:
        self.expired = True
        self.process.kill()

    def _exchange(self, timeout: float, job: bytes | None) -> tuple[Any, bytes]:
        """Send `job` (if any) and read one answer, killing the process past `timeout` seconds."""
        timer = threading.Timer(timeout, self._expire)
        timer.daemon = True
        timer.start()
        try:
            if job is not None:
                _write_frame(self.jobs, job)
            kind, value = pickle.loads(_read_frame(self.answers))
            body = b""
            if kind == "ok":
                if value > self.pool.max_response:
                    raise TooComplex(
                        "size", f"the answer would be {value:,} bytes, over the limit of {self.pool.max_response:,}"
                    )
                body = _read_frame(self.answers)
        except (EOFError, OSError, pickle.UnpicklingError) as error:
            if self.expired:
                raise TimeoutError from None
            raise WorkerFailed(f"a worker process died: {describe(error)}") from None
        finally:
            timer.cancel()
        if self.expired:  # the answer came just as the timer fired: the process is gone all the same
            raise TimeoutError
        return (kind, value), body

    def wait_ready(self) -> None:
        try:
            self._exchange(WORKER_START_TIMEOUT, None)
        except TimeoutError:
            raise WorkerFailed(f"a worker process did not start within {WORKER_START_TIMEOUT:g} seconds") from None
        self.healthy = True

    def call(self, function: Callable[..., Any], args: tuple[Any, ...]) -> bytes:
        """Run one job and return its JSON bytes; a worker left unhealthy must be killed."""
        pool = self.pool
        job = pickle.dumps((function, args), protocol=pickle.HIGHEST_PROTOCOL)
        self.healthy = False
        try:
            (kind, value), body = self._exchange(pool.budget, job)
        except TimeoutError:
            raise TooComplex(
                "time",
                f"this request needs more than {pool.budget:g} seconds of work, the time budget, and was stopped; "
                "try fewer or shorter URLs and paths, or a smaller file",
            ) from None
        if kind == "memory":
            limit = f"{pool.memory // 2**20} MiB of" if pool.memory else "the available"
            raise TooComplex("memory", f"this request needs more than {limit} memory and was stopped")
        self.healthy = True
        if kind != "ok":
            raise WorkerFailed(str(value))
        return body

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(5)
        for stream in (self.jobs, self.answers):
            with contextlib.suppress(OSError):
                stream.close()


class WorkerPool:
    """Worker processes for the CPU work of requests: at most `size` jobs at once, each within `budget` seconds.

    `run` blocks (call it in a thread): it waits for a free worker (at most
    `waiting` requests wait, else `PoolBusy` at once; each waits as long as
    the jobs ahead of it can take, see `_patience`),
    sends the job and waits for its answer. A worker that passes the budget is
    killed, which stops the work for certain where a thread could not be
    stopped, and a fresh one is started when next needed. Processes are
    fresh interpreters (see `_WORKER_CODE`). `memory` caps each worker's
    address space; `max_response` the bytes of one answer.
    """

    def __init__(
        self,
        size: int = MAX_ANALYSES,
        waiting: int = MAX_WAITING,
        budget: float = TIME_BUDGET,
        memory: int | None = WORKER_MEMORY,
        max_response: int = MAX_RESPONSE,
    ) -> None:
        if size < 1 or waiting < 0 or budget <= 0:
            raise ValueError("a worker pool needs size >= 1, waiting >= 0 and budget > 0")
        self.size = size
        self.waiting = waiting
        self.budget = budget
        self.memory = memory
        self.max_response = max_response
        self.restart = WORKER_RESTART  # seconds a fresh worker is given to start, in a waiting request's patience
        self._lock = threading.Lock()
        self._slots = threading.Semaphore(size)
        self._idle: list[_Worker] = []
        self._admitted = 0  # requests running or waiting
        self._closed = False
        self.killed: list[int] = []  # process ids of the workers killed past the budget

    def start(self) -> None:
        """Start the workers now (at the app's startup) instead of on the first requests; reopens a closed pool."""
        with self._lock:
            self._closed = False
            missing = self.size - len(self._idle)
        started = [_Worker(self) for _ in range(missing)]  # all start in parallel
        for worker in started:
            try:
                worker.wait_ready()
            except WorkerFailed as error:
                logger.warning("%s", error)
                worker.kill()
                continue
            self._give_back(worker)

    def run(self, function: Callable[..., Any], *args: Any) -> bytes:
        """`function(*args)` in a worker, as JSON bytes; raises PoolBusy, TooComplex or WorkerFailed."""
        with self._lock:
            if self._closed:
                raise PoolBusy("the server is shutting down")
            if self._admitted >= self.size + self.waiting:
                raise PoolBusy(
                    f"the server is busy: {self._admitted} requests are running or waiting; try again shortly"
                )
            patience = self._patience(self._admitted)
            self._admitted += 1
        try:
            if not self._slots.acquire(timeout=patience):
                raise PoolBusy(f"the server is busy: no worker became free within {patience:g} seconds")
            try:
                worker = self._take()
                try:
                    return worker.call(function, args)
                except TooComplex as error:
                    if error.limit == "time":
                        self.killed.append(worker.pid)
                        logger.warning("a job ran past its %g s budget; worker %d killed", self.budget, worker.pid)
                    raise
                finally:
                    if worker.healthy:
                        self._give_back(worker)
                    else:
                        worker.kill()
            finally:
                self._slots.release()
        finally:
            with self._lock:
                self._admitted -= 1

    def _patience(self, ahead: int) -> float:
        """How long a request with `ahead` requests before it may wait for a worker.

        The jobs ahead run in rounds of `size`, each round at most the budget
        plus the start of a fresh worker (one passed the budget is killed); a
        request that waited only one budget was refused although a place in
        the documented waiting room was its own.
        """
        return (ahead // self.size + 1) * (self.budget + self.restart)

    def _take(self) -> _Worker:
        with self._lock:
            while self._idle:
                worker = self._idle.pop()
                if worker.process.poll() is None:
                    return worker
                worker.kill()  # died while idle (killed from outside): reap it
        worker = _Worker(self)
        try:
            worker.wait_ready()
        except WorkerFailed:
            worker.kill()
            raise
        return worker

    def _give_back(self, worker: _Worker) -> None:
        with self._lock:
            if not self._closed:
                self._idle.append(worker)
                return
        worker.kill()

    def pids(self) -> list[int]:
        """The process ids of the idle workers (a running job's worker is not listed)."""
        with self._lock:
            return [worker.pid for worker in self._idle]

    def close(self) -> None:
        """Stop every idle worker now; busy ones stop when their job ends. Later jobs get PoolBusy."""
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.kill()
