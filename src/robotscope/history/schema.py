"""The history store's schema, as numbered migrations (`PRAGMA user_version` says how many ran).

A migration is only ever added, never edited: a file made by an older
robotscope runs the ones it lacks, each in its own transaction, and keeps
every row. A file from a newer robotscope (a higher `user_version`) is not
written (`sqlite_file.Unusable`).
"""

from __future__ import annotations

import sqlite3
from typing import Any

from ..sqlite_file import Unusable
from ..syntax.iplists import creation_timestamp

MIGRATIONS: tuple[str, ...] = (
    # 1: versions (one row per distinct file of an origin) and fetches (one row per fetch).
    """
    CREATE TABLE versions (
        id INTEGER PRIMARY KEY,
        origin TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        status INTEGER NOT NULL,
        content_type TEXT NOT NULL,  -- '' when the response had none
        final_url TEXT NOT NULL,
        hops TEXT NOT NULL,  -- JSON [[url, status], ...]
        body BLOB NOT NULL,
        truncated INTEGER NOT NULL,
        first_seen REAL NOT NULL,
        last_seen REAL NOT NULL,
        UNIQUE (origin, sha256, status, content_type, final_url)
    );
    CREATE TABLE fetches (
        id INTEGER PRIMARY KEY,
        at REAL NOT NULL,
        origin TEXT NOT NULL,
        agent TEXT NOT NULL,
        version_id INTEGER REFERENCES versions (id),
        failure TEXT,
        status INTEGER,
        truncated INTEGER NOT NULL,
        size INTEGER NOT NULL,
        detail TEXT,
        CHECK ((version_id IS NULL) <> (failure IS NULL))
    );
    CREATE INDEX fetches_by_origin ON fetches (origin, at);
    """,
    # 2: the response headers that matter, per version (JSON; '{}' for versions kept before),
    # and the fetches of a version found without a scan (the agents that saw it).
    """
    ALTER TABLE versions ADD COLUMN headers TEXT NOT NULL DEFAULT '{}';
    CREATE INDEX fetches_by_version ON fetches (version_id, agent);
    """,
    # 3: the operators' IP lists (`robotscope verify --update`): one row per distinct version of a
    # list, by registry name, `creationTime` as written and body; when it was first and last fetched.
    """
    CREATE TABLE list_versions (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        creation_time TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        body BLOB NOT NULL,
        url TEXT NOT NULL,  -- where it was first fetched
        first_fetched REAL NOT NULL,
        last_fetched REAL NOT NULL,
        UNIQUE (name, creation_time, sha256)
    );
    """,
    # 4: each list version's `creationTime` as a POSIX time (NULL when it cannot be read), filled for the
    # rows kept before, so that the versions of a list are known by moment without reading their bodies.
    # The index holds all that `HistoryStore.list_moments` reads: the table's rows, bodies inline, are not read.
    """
    ALTER TABLE list_versions ADD COLUMN moment REAL;
    UPDATE list_versions SET moment = creation_timestamp(creation_time);
    CREATE INDEX list_versions_by_moment ON list_versions (name, moment, first_fetched);
    """,
)
LATEST = len(MIGRATIONS)


def version_of(db: sqlite3.Connection) -> int:
    (version,) = db.execute("PRAGMA user_version").fetchone()
    return int(version)


def _timestamp(text: Any) -> float | None:
    """SQL `creation_timestamp(text)`: `syntax.iplists.creation_timestamp`, NULL for what is not text."""
    return creation_timestamp(text) if isinstance(text, str) else None


def migrate(db: sqlite3.Connection, upto: int = LATEST) -> None:
    """Run the migrations the file lacks, up to `upto`, each with its version bump in one transaction."""
    if version_of(db) > LATEST:
        raise Unusable(f"its schema version {version_of(db)} is newer than this robotscope's ({LATEST})")
    # SQLite's own date functions read fewer ISO 8601 forms than the lists are read with.
    db.create_function("creation_timestamp", 1, _timestamp, deterministic=True)
    for number in range(version_of(db) + 1, upto + 1):
        with db:
            db.execute("BEGIN IMMEDIATE")
            if version_of(db) >= number:  # another process ran it while this one waited
                continue
            for statement in MIGRATIONS[number - 1].split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA user_version = {number}")
