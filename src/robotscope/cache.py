"""`RobotsCache`: robots.txt responses kept in one SQLite file, safe for several processes.

Per robots URL it keeps the latest response (status, headers, body, fetched
time, and the fetcher's own details as JSON) and the last good (2xx) copy,
plus when the current run of transient failures began. It knows nothing of
parsing or policy: the caller says whether a response is transient, and a
2xx response that is not transient becomes the good copy.

Freshness is RFC 9309, Section 2.4: a copy is reused for at most 24 hours
(`fresh`); past that, or after a transient failure, the caller fetches again.
The clock is injected (`now`) so tests can move time.

The file is an `sqlite_file.SqliteFile`: WAL mode, busy answers tried again
within `busy_timeout` seconds (default 10), and no SQLite or file-system
error ever escapes, and a file is never deleted:

- Locked, read-only, unable to open or create, disk I/O error: the cache
  carries on without caching for the rest of this object's life. A failed
  write turns writing off and reads go on (a read-only file still serves
  the copies it holds, and `put` still returns the entry as it would have
  been); a failed read, or a file that cannot be opened at all, turns the
  cache off (`get` finds nothing, `put` keeps nothing). Either way one
  warning is added to `warnings`, however many calls fail after it.
- Not a database, or damaged: the file and its `-wal` / `-shm` are renamed
  aside to `<name>.corrupt-<UTC time>`, never unlinked, the cache starts
  again empty at the same path, and a warning says where the old file went.

`warnings` keeps every warning; `take_warnings()` hands each out once (the
fetcher puts them in the `FetchResult` of the fetch during which they came).
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .sqlite_file import SqliteFile

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


class RobotsCache(SqliteFile):
    """robots.txt responses per robots URL in one SQLite file (`path`, or `default_path()`).

    `busy_timeout`: how many seconds to wait for another process's write
    lock before carrying on without caching.
    """

    _noun = "cache"
    _without = "caching"

    def _default_path(self) -> Path:
        return default_path()

    def _prepare(self, db: sqlite3.Connection) -> None:
        db.executescript(_SCHEMA)

    def _check_readable(self, db: sqlite3.Connection) -> None:
        for table in ("responses", "outages"):
            db.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchall()

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
