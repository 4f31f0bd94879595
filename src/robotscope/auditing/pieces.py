"""Log files audited in pieces of whole lines, in one process or in many: what `robotscope logs --jobs` and
`integrations.duckdb.audit` run.

`pieces(logs, tally, format_name, ...)` reads each log as `integrations.logfiles.log_blocks` gives it
(blocks of whole lines, about `BLOCK` bytes: one big file is many pieces), tells or checks its format
before its first piece, and gives the pieces in input order. `results(setup, pieces, jobs)` audits
them, each with a fresh reader and a `Summary` of its own, and gives each piece's summary and its rows
(rendered as `Setup.rows` asks) in input order: in this process when `jobs` is 1 or there are fewer than
`WORTH_WORKERS` pieces (starting a worker costs about what auditing a few pieces does), else in `jobs`
worker processes. The reading process only cuts bytes at line ends and counts them;
each worker decodes, splits, reads, judges and counts its pieces with its own judge and `Verifier`
(their caches warm up once per process). At most two pieces per worker wait (and, at the start, the
`WORTH_WORKERS` read to choose), so memory stays flat whatever the size of the logs.

Stopping is the reading process's to decide: workers start with SIGINT blocked (Ctrl-C reaches the whole
process group), and whatever stops the reading process's iteration (an exception, a signal's handler
raising, the generator closed) kills them at once, not after the pieces they hold. A worker whose reading
process is gone some other way (SIGKILL) ends itself.

The summaries merged in order (`Summary.then`) give what one pass gives, sessions included, for logs in
time order; for any log, the same pieces give the same answer in any number of workers. A format whose
columns a `#Fields:` header names (W3C, CloudFront) gets, with each piece, the last such header before it.
"""

from __future__ import annotations

import csv
import gc
import io
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from functools import lru_cache
from itertools import chain, islice
from typing import Any, Literal, NamedTuple

from ..integrations.logfiles import BLOCK, Block, block_lines, log_blocks
from ..integrations.records import Tally
from ..messages import Message, message
from ..reports.audit.judge import COLUMNS, GRACE, Judge, Row
from ..reports.audit.run import audit
from ..reports.audit.summary import Summary
from ..reports.audit.timeline import RobotsTimeline, RobotsVersion
from ..reports.views import iso
from ..syntax.listhistory import ListHistory
from ..syntax.logformats import DETECT_LINES, FORMATS, BadLine, FormatError, detect, directive_kind, is_fields, reader

FIELDED = frozenset({"w3c", "cloudfront"})  # the formats whose `#Fields:` header names the columns below it
WORTH_WORKERS = 8  # pieces (32 MiB of log) before worker processes are started: below, this process is quicker
Rendering = Literal["csv", "arrow"] | None  # rows as CSV text (no header), as an Arrow record batch, or none


class Spec(NamedTuple):
    """How to read one log: the format's name, its directive (`--log-format`), its mapping (`--map`)."""

    name: str
    log_format: str | None = None
    mapping: str | None = None


class Setup(NamedTuple):
    """What each process auditing pieces needs, sent once to a worker process (picklable)."""

    versions: tuple[RobotsVersion, ...]
    site: str | None
    lists: ListHistory | None  # the IP lists' versions (None: the snapshots shipped)
    dns: bool
    rows: Rendering = None
    grace: float = GRACE  # seconds after a file came into force in which the one before may still be cached


class Piece(NamedTuple):
    """Whole lines of one log, how to read them, and the header before them that the reader must see first."""

    block: Block
    spec: Spec
    headers: tuple[tuple[int, str], ...]


class Counted(Tally):
    """A tally whose lines skipped and logs stopped are counted in `summary`, as the audit's bad lines."""

    def __init__(self, summary: Summary) -> None:
        super().__init__()
        self.into = summary

    def skip(self, source: str, unit: str, number: int, reason: Message, count: int = 1) -> None:
        self.into.bad(source, BadLine(number, reason))

    def stop(self, source: str, unit: str, number: int, reason: Message) -> None:
        self.into.stop(source, number, reason)


def new_judge(setup: Setup) -> Judge:
    """A judge of `setup`'s robots.txt time line (with its grace) and IP lists (and reverse DNS when `dns`)."""
    from ..verifying.resolvers import resolver
    from ..verifying.verifier import Verifier

    verifier = Verifier(setup.lists, resolver(None) if setup.dns else None)
    timeline = RobotsTimeline(setup.versions)
    return Judge(
        timeline.in_force,
        verifier.verify,
        setup.site,
        spans=verifier.span,
        in_grace=timeline.in_grace,
        grace=setup.grace,
    )


class Auditor:
    """Audits pieces: one judge (and its caches) per process."""

    def __init__(self, setup: Setup) -> None:
        self.judge = new_judge(setup)
        self.rows = setup.rows

    def piece(self, piece: Piece) -> tuple[Summary, Any]:
        """The piece's summary, and its rows rendered as `Setup.rows` asks (None when it asks none)."""
        read = reader(*piece.spec)
        for number, line in piece.headers:
            read.read(number, line)
        summary = Summary()
        source = piece.block.source
        rows = audit(block_lines(piece.block, Counted(summary)), read, self.judge, summary, source)
        if self.rows is None:
            for _ in rows:
                pass
            return summary, None
        if self.rows == "arrow":
            from ..integrations.arrow import audit_batch

            return summary, audit_batch(list(rows))
        return summary, _csv(rows)


@lru_cache(maxsize=1)
def _iso_second(second: int) -> str:
    return iso(second)  # one string per second of the log: consecutive rows share it


_TIME = COLUMNS.index("time")


def _cells(row: Row) -> list[Any]:
    """A row as CSV cells: its time in ISO 8601."""
    cells = list(row)
    when = row.time
    cells[_TIME] = "" if when is None else _iso_second(int(when))
    return cells


def _csv(rows: Iterable[Row]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(_cells(row) for row in rows)
    return out.getvalue()


def spec_for(
    format_name: str, log_format: str | None, mapping: str | None, source: str, head: list[str]
) -> tuple[Spec, bool]:
    """The format to read log `source` in: the one given, else the directive's server, else the one detected from
    its first lines `head` (then True). Raises `FormatError` when none can be had, or it cannot be read."""
    if format_name != "auto":
        found, told = Spec(format_name, log_format, mapping), False
    elif log_format is not None:
        kind = directive_kind(log_format)
        if kind is None:
            raise FormatError(message("logs.error.directive"))
        found, told = Spec(kind, log_format, None), False
    elif mapping is not None:
        found, told = Spec("jsonl", None, mapping), False
    else:
        name = detect(head)
        if name is None:
            raise FormatError(message("logs.error.undetected", source=source, formats=list(FORMATS)))
        found, told = Spec(name), True
    reader(*found)  # refused here, once, before any line is read
    return found, told


def pieces(
    logs: Iterable[str],
    tally: Tally,
    format_name: str = "auto",
    log_format: str | None = None,
    mapping: str | None = None,
    told: Callable[[str, str], None] = lambda source, name: None,
    size: int | None = None,
) -> Iterator[Piece]:
    """Each log's pieces of about `size` bytes (default `BLOCK`), in order. A log's format is checked (or
    detected, and `told` with the log's name) before its first piece; `Unreadable` and `FormatError` are
    raised from here."""
    for source in logs:
        blocks = log_blocks(source, tally, BLOCK if size is None else size)
        # The first lines, from as many blocks as hold them: what is detected does not depend on `size`.
        opening: list[Block] = []
        head: list[str] = []
        for block in blocks:
            opening.append(block)
            head += [text for _, text in islice(block_lines(block, Tally()), DETECT_LINES * 4 - len(head))]
            if len(head) >= DETECT_LINES * 4:
                break
        spec, detected = spec_for(format_name, log_format, mapping, source, head)
        if detected:
            told(source, spec.name)
        headers: tuple[tuple[int, str], ...] = ()
        for block in chain(opening, blocks):
            yield Piece(block, spec, headers)
            if spec.name in FIELDED and b"#" in block.data:
                found = [line for line in block_lines(block, Tally()) if is_fields(line[1])]
                headers = tuple(found[-1:]) or headers


def results(setup: Setup, given: Iterable[Piece], jobs: int) -> Generator[tuple[Summary, Any], None, None]:
    """Each piece's summary and rendered rows, in input order: in `jobs` worker processes when there are at least
    `WORTH_WORKERS` pieces, else here. A worker that dies raises `BrokenProcessPool`; closing the generator
    before its end kills the workers."""
    given = iter(given)
    opening = list(islice(given, WORTH_WORKERS)) if jobs > 1 else []
    if jobs > 1 and len(opening) >= WORTH_WORKERS:
        yield from _parallel(setup, chain(opening, given), jobs)
        return
    auditor = Auditor(setup)
    for piece in chain(opening, given):
        yield auditor.piece(piece)


# The worker side: each worker process audits with its own judge.
_worker: Auditor | None = None


def _start_worker(setup: Setup) -> None:
    global _worker  # one per worker process, set once by the pool's initializer
    _end_with_parent()
    if hasattr(signal, "pthread_sigmask"):  # born with both blocked (`_held`): the pool's terminate() must work
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    _worker = Auditor(setup)
    settle()


def _end_with_parent() -> None:
    """End this worker when the process that started it is gone: it would otherwise wait for work forever."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(1)  # nothing to clean up: a worker holds no file, its results go nowhere now

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


_HELD = {signal.SIGINT, signal.SIGTERM}


@contextmanager
def _held() -> Iterator[None]:
    """SIGINT and SIGTERM held back (delivered on the way out) while a worker may be started: a worker is never
    cut off half-sent its start (a traceback of its own), and, copying this thread's mask, starts with them
    blocked, so Ctrl-C, which reaches it too, is left to this process."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no masks, and no process groups to signal
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def settle() -> None:
    """Leave what a process holds so far (its imports, the judge, the lists' index) out of the collector's
    walks: it lives to the end, and full collections walked it again and again (a fifth of a worker's time)."""
    gc.freeze()


def _audit_piece(piece: Piece) -> tuple[Summary, Any]:
    assert _worker is not None  # set by _start_worker
    return _worker.piece(piece)


def _parallel(setup: Setup, given: Iterator[Piece], jobs: int) -> Iterator[tuple[Summary, Any]]:
    """Each piece's result, in input order, from `jobs` worker processes; at most two pieces per worker wait."""
    context = multiprocessing.get_context("spawn")  # a fresh interpreter per worker, never a fork
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=_start_worker, initargs=(setup,)) as pool:
        pending: deque[Future[tuple[Summary, Any]]] = deque()
        try:
            for piece in given:
                with _held():  # the first `jobs` submits start the workers
                    pending.append(pool.submit(_audit_piece, piece))
                if len(pending) >= 2 * jobs:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        except BaseException:  # a signal, an unreadable log, a dead worker, the results no longer wanted
            _kill_workers(pool)
            raise


def _kill_workers(pool: ProcessPoolExecutor) -> None:
    """End `pool`'s workers now, not once they have audited what they hold (Python 3.14's `kill_workers`), and
    never wait for what can no longer come."""
    for process in list(pool._processes.values()):
        process.kill()
    # A worker ended while it sent its result leaves the pool's thread reading the rest forever: only the
    # pipe's end stops it, and this process holds a writing end too (for workers yet to start: none now).
    pool._result_queue._writer.close()  # type: ignore[attr-defined]
    pool.shutdown(cancel_futures=True)


__all__ = [
    "FIELDED",
    "WORTH_WORKERS",
    "Auditor",
    "Counted",
    "Piece",
    "Rendering",
    "Setup",
    "Spec",
    "new_judge",
    "pieces",
    "results",
    "settle",
    "spec_for",
]
