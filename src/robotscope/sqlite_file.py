"""`SqliteFile`: one SQLite file shared by several processes, that never loses data and never raises.

The machinery the cache (`cache.RobotsCache`) and the history store
(`history.HistoryStore`) share; a subclass says what its file holds
(`_prepare`: the schema, `_check_readable`: what a read-only copy must
have) and how its warnings name it (`_noun`, `_without`).

The file is opened in WAL mode, so readers never wait for a writer, and a
writer waits up to `busy_timeout` seconds for another one. Some contention
SQLite reports at once instead of waiting (switching a fresh file to WAL
while another process holds a lock on it answers "database is locked" in no
time, to avoid a deadlock): an open, read or write that SQLite calls busy
is tried again after short, growing, jittered pauses until `busy_timeout`
has passed since the first try (at most twice `busy_timeout` in all, when
a last try waits its own full timeout). No SQLite or file-system error ever
escapes, and a file is never deleted:

- Locked past `busy_timeout`, read-only (file mode, immutable file,
  read-only file system), unable to open or create, disk I/O error: the
  object carries on without its file for the rest of its life. A failed
  write turns writing off and reads go on; a failed read, or a file that
  cannot be opened at all, turns the file off. One warning is added to
  `warnings`, however many calls fail after it.
- Not a database, or damaged ("file is not a database", "database disk
  image is malformed", or a failed `PRAGMA quick_check`): the file and its
  `-wal` / `-shm` are renamed aside to `<name>.corrupt-<UTC time>`, never
  unlinked, a new empty file is started at the same path, and a warning
  says where the old one went. If another process has already replaced the
  file, this one just reopens the new file.

`warnings` keeps every warning; `take_warnings()` hands each out once.

Opened `read_only`, the file is only ever read: never created, migrated,
written or set aside (a damaged one turns the file off, with a warning).
"""

from __future__ import annotations

import contextlib
import os
import random
import sqlite3
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Self, TypeVar

_T = TypeVar("_T")
# Everything that means "this file cannot be used as it is"; never raised to the caller.
FAILURES = (sqlite3.Error, OSError)
# Only these say the bytes themselves are bad; everything else (locked, read-only,
# cannot open, I/O error) is about access, and the file may be perfectly good.
_CORRUPT = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})
_BUSY = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})


class _Damaged(sqlite3.DatabaseError):
    """`PRAGMA quick_check` found damage."""


class Unusable(sqlite3.DatabaseError):
    """The file is a sound database this code must not write (a newer schema, say): read-only at most."""


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


def busy_retried(attempt: Callable[[], _T], seconds: float) -> _T:
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


class SqliteFile:
    """One SQLite file (`path`) used through `_run`, with the guarantees of the module's docstring.

    `busy_timeout`: how many seconds to wait for another process's write
    lock before carrying on without the file.
    """

    _noun = "database"  # how warnings name the file: "cache", "history store"
    _without = "it"  # "carrying on without caching"

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        now: Callable[[], float] = time.time,
        busy_timeout: float = 10.0,
        read_only: bool = False,
    ) -> None:
        self.now = now  # the clock, injected so that tests can move time
        self.path = Path(path) if path is not None else self._default_path()
        self.busy_timeout = busy_timeout
        self.read_only = read_only
        self.warnings: list[str] = []
        self._reported = 0  # how many of `warnings` take_warnings has handed out
        self._degraded = False  # the one "carrying on without" warning was given
        self._db: sqlite3.Connection | None = None
        self._writable = False
        self._identity: tuple[int, int] | None = None  # the file `_db` opened
        # One connection shared by threads (the async client runs in one
        # thread, the CLI in one); the lock keeps its use serial.
        self._lock = threading.Lock()
        with self._lock:
            self._open()

    def _default_path(self) -> Path:
        """Where the file is when no path is given."""
        raise NotImplementedError

    def _prepare(self, db: sqlite3.Connection) -> None:
        """Make a writable connection's file hold this store's schema (create or migrate it)."""
        raise NotImplementedError

    def _check_readable(self, db: sqlite3.Connection) -> None:
        """Raise unless a read-only connection's file holds what reads need."""
        raise NotImplementedError

    @property
    def readable(self) -> bool:
        """False once the file is off: reads find nothing."""
        return self._db is not None

    @property
    def writable(self) -> bool:
        """False once writing is off (locked, read-only, off): writes keep nothing."""
        return self._db is not None and self._writable

    def take_warnings(self) -> list[str]:
        """The warnings added since the last call (all of them on the first); `warnings` keeps every one."""
        with self._lock:
            new = self.warnings[self._reported :]
            self._reported = len(self.warnings)
            return new

    def _open(self) -> None:
        if self.read_only:
            self._open_read_only(None)
            return
        try:
            self._db, self._writable = busy_retried(self._connect, self.busy_timeout), True
        except FAILURES as error:
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
            self._prepare(db)
            (check,) = db.execute("PRAGMA quick_check").fetchone()
            if check != "ok":
                raise _Damaged(check)
        except BaseException:
            db.close()
            raise
        return db

    def _open_read_only(self, error: BaseException | None) -> None:
        """Read what the file holds, if it can be read at all: after `error` on opening for writing, or
        (None) for a `read_only` object."""
        try:
            uri = self.path.absolute().as_uri() + "?mode=ro"
            db = sqlite3.connect(
                uri, uri=True, timeout=self.busy_timeout, check_same_thread=False, isolation_level=None
            )
            try:
                self._check_readable(db)
            except BaseException:
                db.close()
                raise
        except FAILURES as failure:
            self._degrade(self._why(error or failure, "opened"))
            return
        self._db, self._writable = db, False
        if error is not None:
            self._degrade(self._why(error, "opened for writing") + " (what it holds is still read)")

    def _replace_corrupt(self, error: BaseException) -> bool:
        """Move a damaged file aside (unless another process already has) and start again empty."""
        self._close_db()
        if self.read_only:  # never touched: only read
            self._degrade(f"{self._noun} file {self.path} is not a usable database ({error}); nothing of it is read")
            return False
        seen = self._identity
        try:
            # Moved only if it is still the file found damaged: another process
            # may have replaced it with a good one in the meantime.
            if seen is not None and _identity(self.path) == seen:
                target = self._set_aside()
                if target is not None:
                    self.warnings.append(
                        f"{self._noun} file {self.path} is not a usable database ({error}); "
                        f"it was moved to {target} and the {self._noun} was rebuilt empty"
                    )
            self._db, self._writable = busy_retried(self._connect, self.busy_timeout), True
        except FAILURES as again:
            self._degrade(
                f"{self._noun} file {self.path} is not a usable database ({error}) and could not be "
                f"replaced ({again}); carrying on without {self._without}"
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
        return f"{self._noun} {self.path} {what}; carrying on without {self._without}"

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
        """`work` on the connection; None when the file is off (for a write: when writing is off)."""
        with self._lock:
            for _ in range(2):  # a second try only on the file that replaced a corrupt one
                db = self._db
                if db is None or (write and not self._writable):
                    return None
                try:
                    # A write rolls back whole on failure (`with db`), so trying it again is safe.
                    return busy_retried(partial(work, db), self.busy_timeout)
                except FAILURES as error:
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
