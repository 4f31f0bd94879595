"""`RobotsCache`: robots.txt responses kept in one SQLite file, safe for several processes.

Per robots URL it keeps the latest response (status, headers, body, fetched
time, and the fetcher's own details as JSON) and the last good (2xx) copy,
plus when the current run of transient failures began. It knows nothing of
parsing or policy: the caller says whether a response is transient, and a
2xx response that is not transient becomes the good copy.

Freshness is RFC 9309, Section 2.4: a copy is reused for at most 24 hours
(`fresh`); past that, or after a transient failure, the caller fetches again.
The clock is injected (`now`) so tests can move time.

The file is opened in WAL mode, so readers and one writer in other processes
do not block each other. A corrupt file never crashes: it is deleted and
rebuilt empty, and the reason is kept in `warnings` for the caller to show.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self

MAX_AGE = 24 * 3600.0  # RFC 9309, Section 2.4: do not use a cached copy for more than 24 hours

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    robots_url TEXT NOT NULL,
    slot TEXT NOT NULL CHECK (slot IN ('latest', 'good')),
    status INTEGER,
    headers TEXT NOT NULL,
    body BLOB NOT NULL,
    fetched_at REAL NOT NULL,
    transient INTEGER NOT NULL,
    meta TEXT NOT NULL,
    PRIMARY KEY (robots_url, slot)
);
CREATE TABLE IF NOT EXISTS outages (
    robots_url TEXT PRIMARY KEY,
    failing_since REAL NOT NULL
);
"""


@dataclass(frozen=True)
class Stored:
    """One response as kept: `meta` holds whatever details the caller wants back (JSON-ready)."""

    status: int | None
    headers: Mapping[str, str]
    body: bytes
    fetched_at: float
    transient: bool = False
    meta: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Entry:
    """What the cache holds for one robots URL."""

    latest: Stored | None = None
    good: Stored | None = None
    failing_since: float | None = None  # start of the current run of transient failures, if any


def default_path() -> Path:
    """`$XDG_CACHE_HOME/robotscope/robots.sqlite3`, or under `~/.cache` when that is unset."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "robotscope" / "robots.sqlite3"


class RobotsCache:
    """robots.txt responses per robots URL in one SQLite file (`path`, or `default_path()`)."""

    def __init__(
        self, path: str | os.PathLike[str] | None = None, *, now: Callable[[], float] = time.time
    ) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.now = now
        self.warnings: list[str] = []
        # One connection shared by threads (the async client runs in one
        # thread, the CLI in one); the lock keeps its use serial.
        self._lock = threading.Lock()
        self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        try:
            return self._connect()
        except sqlite3.DatabaseError as error:
            return self._rebuild(error)

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=10.0, check_same_thread=False, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_SCHEMA)
            (check,) = db.execute("PRAGMA quick_check").fetchone()
            if check != "ok":
                raise sqlite3.DatabaseError(check)
        except BaseException:
            db.close()
            raise
        return db

    def _rebuild(self, error: Exception) -> sqlite3.Connection:
        self.warnings.append(f"cache file {self.path} was unreadable ({error}); it was rebuilt empty")
        for suffix in ("", "-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)
        return self._connect()

    @contextmanager
    def _session(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                yield self._db
            except sqlite3.DatabaseError as error:
                # Corrupted under us (another process, a disk error): start
                # again empty rather than fail the fetch.
                self._db.close()
                self._db = self._rebuild(error)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def get(self, robots_url: str) -> Entry:
        """The latest response, the last good copy and the outage start for `robots_url`."""
        with self._session() as db:
            rows = db.execute(
                "SELECT slot, status, headers, body, fetched_at, transient, meta FROM responses WHERE robots_url = ?",
                (robots_url,),
            ).fetchall()
            outage = db.execute(
                "SELECT failing_since FROM outages WHERE robots_url = ?", (robots_url,)
            ).fetchone()
            slots = {
                slot: Stored(
                    status, json.loads(headers), bytes(body), fetched_at, bool(transient), json.loads(meta)
                )
                for slot, status, headers, body, fetched_at, transient, meta in rows
            }
            return Entry(slots.get("latest"), slots.get("good"), None if outage is None else outage[0])
        return Entry()  # reached only when the file was rebuilt

    def fresh(self, robots_url: str) -> Stored | None:
        """The latest response if it may be reused: not transient, and younger than 24 hours."""
        latest = self.get(robots_url).latest
        if latest is None or latest.transient or self.now() - latest.fetched_at >= MAX_AGE:
            return None
        return latest

    def put(self, robots_url: str, response: Stored) -> Entry:
        """Keep `response` as the latest; a non-transient 2xx also becomes the good copy. Returns the new entry."""
        good = not response.transient and response.status is not None and 200 <= response.status < 300
        row = (
            response.status,
            json.dumps(dict(response.headers)),
            response.body,
            response.fetched_at,
            int(response.transient),
            json.dumps(dict(response.meta)),
        )
        with self._session() as db, db:  # `with db`: commit, or roll back on error
            db.execute("BEGIN IMMEDIATE")
            for slot in ("latest", "good") if good else ("latest",):
                db.execute(
                    "INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (robots_url, slot, *row),
                )
            if response.transient:
                # Keep the first failure time of a run: that is when the outage began.
                db.execute(
                    "INSERT OR IGNORE INTO outages VALUES (?, ?)",
                    (robots_url, response.fetched_at),
                )
            else:
                db.execute("DELETE FROM outages WHERE robots_url = ?", (robots_url,))
        return self.get(robots_url)
