"""`RobotsCache`: robots.txt responses kept in one SQLite file, safe for several processes.

Per robots URL it keeps the latest response (status, headers, body, fetched
time, and the fetcher's own details as JSON) and the last good (2xx) copy,
plus when the current run of transient failures began. It knows nothing of
parsing or policy: the caller says whether a response is transient, and a
2xx response that is not transient becomes the good copy.

Freshness is RFC 9309, Section 2.4: a copy is reused for at most 24 hours
(`fresh`); past that, or after a transient failure, the caller fetches again.
The clock is injected (`now`) so tests can move time.

The file is opened in WAL mode, so readers never wait for a writer, and a
writer waits up to `busy_timeout` seconds (default 10) for another one.
Some contention SQLite reports at once instead of waiting (switching a fresh
file to WAL while another process holds a lock on it answers "database is
locked" in no time, to avoid a deadlock): an open, read or write that SQLite
calls busy is tried again after short, growing, jittered pauses until
`busy_timeout` has passed since the first try (at most twice `busy_timeout`
in all, when a last try waits its own full timeout), so processes that open
and write one file at once lose no row. No SQLite or file-system error ever
escapes, and a file is never deleted:

- Locked (another writer held the lock past `busy_timeout`), read-only
  (file mode, immutable file, read-only file system), unable to open or
  create (missing permissions, a directory in the way), disk I/O error:
  the cache carries on without caching for the rest of this object's life.
  A failed write turns writing off and reads go on (a read-only file still
  serves the copies it holds, and `put` still returns the entry as it would
  have been); a failed read, or a file that cannot be opened at all, turns
  the cache off (`get` finds nothing, `put` keeps nothing). Either way one
  warning is added to `warnings`, however many calls fail after it.
- Not a database, or damaged (SQLite's "file is not a database", "database
  disk image is malformed", or a failed `PRAGMA quick_check`): the file and
  its `-wal` / `-shm` are renamed aside to `<name>.corrupt-<UTC time>`,
  never unlinked, the cache starts again empty at the same path, and a
  warning says where the old file went. If another process has already
  replaced the file, this one just reopens the new file.

`warnings` keeps every warning; `take_warnings()` hands each out once (the
fetcher puts them in the `FetchResult` of the fetch during which they came).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Self, TypeVar

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


_T = TypeVar("_T")
# Everything that means "this file cannot be used as it is"; never raised to the caller.
_FAILURES = (sqlite3.Error, OSError)
# Only these say the bytes themselves are bad; everything else (locked, read-only,
# cannot open, I/O error) is about access, and the file may be perfectly good.
_CORRUPT = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})
_BUSY = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})


class _Damaged(sqlite3.DatabaseError):
    """`PRAGMA quick_check` found damage."""


def _code(error: BaseException) -> int | None:
    """SQLite's primary result code of an error (extended codes carry it in the low byte)."""
    code = getattr(error, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


def _is_corrupt(error: BaseException) -> bool:
    return isinstance(error, _Damaged) or _code(error) in _CORRUPT


# Pauses between tries on a busy answer: from 1 ms, doubling up to 50 ms, each drawn between
# half and all of that, so processes that collided do not try again in step.
_FIRST_PAUSE = 0.001
_LONGEST_PAUSE = 0.05


def _busy_retried(attempt: Callable[[], _T], seconds: float) -> _T:
    """`attempt()`, tried again while SQLite answers busy, until `seconds` have passed since the first try."""
    deadline = time.monotonic() + seconds
    pause = _FIRST_PAUSE
    while True:
        try:
            return attempt()
        except sqlite3.OperationalError as error:
            if _code(error) not in _BUSY or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause * random.uniform(0.5, 1.0))  # jitter, not a secret
        pause = min(pause * 2, _LONGEST_PAUSE)


def _identity(path: Path) -> tuple[int, int] | None:
    """Which file is at `path` now (device, inode), to tell whether another process replaced it."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


class RobotsCache:
    """robots.txt responses per robots URL in one SQLite file (`path`, or `default_path()`).

    `busy_timeout`: how many seconds to wait for another process's write
    lock before carrying on without caching.
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        now: Callable[[], float] = time.time,
        busy_timeout: float = 10.0,
    ) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.now = now
        self.busy_timeout = busy_timeout
        self.warnings: list[str] = []
        self._reported = 0  # how many of `warnings` take_warnings has handed out
        self._degraded = False  # the one "carrying on without caching" warning was given
        self._db: sqlite3.Connection | None = None
        self._writable = False
        self._identity: tuple[int, int] | None = None  # the file `_db` opened
        # One connection shared by threads (the async client runs in one
        # thread, the CLI in one); the lock keeps its use serial.
        self._lock = threading.Lock()
        with self._lock:
            self._open()

    @property
    def readable(self) -> bool:
        """False once the cache is off: `get` finds nothing."""
        return self._db is not None

    @property
    def writable(self) -> bool:
        """False once writing is off (locked, read-only, off): `put` keeps nothing."""
        return self._db is not None and self._writable

    def take_warnings(self) -> list[str]:
        """The warnings added since the last call (all of them on the first); `warnings` keeps every one."""
        with self._lock:
            new = self.warnings[self._reported :]
            self._reported = len(self.warnings)
            return new

    def _open(self) -> None:
        try:
            self._db, self._writable = _busy_retried(self._connect, self.busy_timeout), True
        except _FAILURES as error:
            if _is_corrupt(error):
                self._replace_corrupt(error)
            elif _code(error) in _BUSY:
                # A read-only connection would only wait out the same lock again.
                self._degrade(self._why(error, "opened"))
            else:
                self._open_read_only(error)

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=self.busy_timeout, check_same_thread=False, isolation_level=None)
        try:
            self._identity = _identity(self.path)
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_SCHEMA)
            (check,) = db.execute("PRAGMA quick_check").fetchone()
            if check != "ok":
                raise _Damaged(check)
        except BaseException:
            db.close()
            raise
        return db

    def _open_read_only(self, error: BaseException) -> None:
        """After `error` on opening for writing: read what the file holds, if it can be read at all."""
        try:
            uri = self.path.absolute().as_uri() + "?mode=ro"
            db = sqlite3.connect(
                uri, uri=True, timeout=self.busy_timeout, check_same_thread=False, isolation_level=None
            )
            try:
                for table in ("responses", "outages"):
                    db.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchall()
            except BaseException:
                db.close()
                raise
        except _FAILURES:
            self._degrade(self._why(error, "opened"))
            return
        self._db, self._writable = db, False
        self._degrade(self._why(error, "opened for writing") + " (its cached copies are still read)")

    def _replace_corrupt(self, error: BaseException) -> bool:
        """Move a damaged file aside (unless another process already has) and start again empty."""
        self._close_db()
        seen = self._identity
        try:
            # Moved only if it is still the file found damaged: another process
            # may have replaced it with a good one in the meantime.
            if seen is not None and _identity(self.path) == seen:
                target = self._set_aside()
                if target is not None:
                    self.warnings.append(
                        f"cache file {self.path} is not a usable database ({error}); "
                        f"it was moved to {target} and the cache was rebuilt empty"
                    )
            self._db, self._writable = _busy_retried(self._connect, self.busy_timeout), True
        except _FAILURES as again:
            self._degrade(
                f"cache file {self.path} is not a usable database ({error}) and could not be "
                f"replaced ({again}); carrying on without caching"
            )
            return False
        return True

    def _set_aside(self) -> Path | None:
        """Rename the file and its -wal / -shm to a free `.corrupt-<time>` name; None if it was gone."""
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        for n in range(100):
            target = self.path.with_name(f"{self.path.name}.corrupt-{stamp}{f'.{n}' if n else ''}")
            if not any(os.path.lexists(f"{target}{suffix}") for suffix in ("", "-wal", "-shm")):
                break
        else:
            raise FileExistsError(f"no free name for {self.path}.corrupt-{stamp}")
        try:
            self.path.rename(target)
        except FileNotFoundError:
            return None  # another process moved it first
        # The -wal goes too (SQLite removes it on close when it holds nothing it can use):
        # left beside the new file, SQLite could read its frames into it.
        for suffix in ("-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                Path(f"{self.path}{suffix}").rename(f"{target}{suffix}")
        return target

    def _why(self, error: BaseException, doing: str) -> str:
        if _code(error) in _BUSY:
            what = f"is locked by another process ({error} after {self.busy_timeout:g} s)"
        else:
            what = f"cannot be {doing} ({error})"
        return f"cache {self.path} {what}; carrying on without caching"

    def _degrade(self, message: str) -> None:
        if not self._degraded:
            self._degraded = True
            self.warnings.append(message)

    def _close_db(self) -> None:
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):  # nothing is left to lose: every write commits or rolls back
                self._db.close()
            self._db = None

    def _run(self, work: Callable[[sqlite3.Connection], _T], *, write: bool) -> _T | None:
        """`work` on the connection; None when the cache is off (for a write: when writing is off)."""
        with self._lock:
            for _ in range(2):  # a second try only on the file that replaced a corrupt one
                db = self._db
                if db is None or (write and not self._writable):
                    return None
                try:
                    # A write rolls back whole on failure (`with db`), so trying it again is safe.
                    return _busy_retried(partial(work, db), self.busy_timeout)
                except _FAILURES as error:
                    if _is_corrupt(error):
                        if not self._replace_corrupt(error):
                            return None
                        continue
                    if write:
                        self._writable = False  # reads do not wait for writers in WAL mode: keep them
                    else:
                        self._close_db()
                    self._degrade(self._why(error, "written" if write else "read"))
                    return None
            return None

    def close(self) -> None:
        with self._lock:
            self._close_db()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def get(self, robots_url: str) -> Entry:
        """The latest response, the last good copy and the outage start for `robots_url`."""

        def read(db: sqlite3.Connection) -> Entry:
            rows = db.execute(
                "SELECT slot, status, headers, body, fetched_at, transient, meta FROM responses WHERE robots_url = ?",
                (robots_url,),
            ).fetchall()
            outage = db.execute("SELECT failing_since FROM outages WHERE robots_url = ?", (robots_url,)).fetchone()
            slots = {
                slot: Stored(status, json.loads(headers), bytes(body), fetched_at, bool(transient), json.loads(meta))
                for slot, status, headers, body, fetched_at, transient, meta in rows
            }
            return Entry(slots.get("latest"), slots.get("good"), None if outage is None else outage[0])

        entry = self._run(read, write=False)
        return entry if entry is not None else Entry()

    def forget(self, robots_url: str) -> None:
        """Drop everything kept for `robots_url`: the latest response, the last good copy and the outage."""

        def delete(db: sqlite3.Connection) -> bool:
            with db:
                db.execute("DELETE FROM responses WHERE robots_url = ?", (robots_url,))
                db.execute("DELETE FROM outages WHERE robots_url = ?", (robots_url,))
            return True

        self._run(delete, write=True)

    def fresh(self, robots_url: str) -> Stored | None:
        """The latest response if it may be reused: not transient, and younger than 24 hours."""
        latest = self.get(robots_url).latest
        if latest is None or latest.transient or self.now() - latest.fetched_at >= MAX_AGE:
            return None
        return latest

    def put(self, robots_url: str, response: Stored) -> Entry:
        """Keep `response` as the latest; a non-transient 2xx also becomes the good copy. Returns the new entry.

        When it cannot be kept (locked, read-only, off), the entry returned is
        the one it would have made, from what the file still holds.
        """
        good = not response.transient and response.status is not None and 200 <= response.status < 300
        row = (
            response.status,
            json.dumps(dict(response.headers)),
            response.body,
            response.fetched_at,
            int(response.transient),
            json.dumps(dict(response.meta)),
        )

        def write(db: sqlite3.Connection) -> bool:
            with db:  # commit, or roll back on error
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
            return True

        if self._run(write, write=True):
            return self.get(robots_url)
        before = self.get(robots_url)
        since = before.failing_since if before.failing_since is not None else response.fetched_at
        return Entry(response, response if good else before.good, since if response.transient else None)
