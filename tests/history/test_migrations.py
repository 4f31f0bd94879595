"""The schema's migrations: a store made by the first schema opens with the current one, nothing lost."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from robotscope.history import HistoryStore
from robotscope.history.schema import LATEST, MIGRATIONS, migrate
from tests.clock import Clock

from .results import ORIGIN, fetched

BODIES = [b"User-agent: *\nDisallow: /v%d/\n" % n for n in range(3)]


def v1_store(path: Path) -> None:
    """A file as the first schema made it: three versions, five fetches (one failed)."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        migrate(db, upto=1)
        assert db.execute("PRAGMA user_version").fetchone() == (1,)
        url = ORIGIN + "/robots.txt"
        for n, body in enumerate(BODIES):
            db.execute(
                "INSERT INTO versions (origin, sha256, status, content_type, final_url, hops, body, truncated,"
                " first_seen, last_seen) VALUES (?, ?, 200, 'text/plain', ?, ?, ?, 0, ?, ?)",
                (ORIGIN, f"{n:064x}", url, json.dumps([[url, 200]]), body, 100.0 * n, 100.0 * n + 50),
            )
        fetches = [
            (0.0, "browser", 1, None, 200),
            (50.0, "Googlebot", 1, None, 200),
            (100.0, "browser", 2, None, 200),
            (150.0, "browser", None, "5xx", 503),
            (250.0, "GPTBot", 3, None, 200),
        ]
        for at, agent, vid, failure, status in fetches:
            db.execute(
                "INSERT INTO fetches (at, origin, agent, version_id, failure, status, truncated, size)"
                " VALUES (?, ?, ?, ?, ?, ?, 0, 30)",
                (at, ORIGIN, agent, vid, failure, status),
            )
    finally:
        db.close()


def test_a_store_made_by_the_first_schema_opens_with_nothing_lost(tmp_path: Path) -> None:
    assert LATEST >= 2 and len(MIGRATIONS) == LATEST
    path = tmp_path / "history.sqlite3"
    v1_store(path)
    with HistoryStore(path, now=Clock(1000.0)) as store:
        assert store.warnings == [] and store.writable
        versions = store.versions(ORIGIN)
        assert [v.body for v in versions] == BODIES
        assert [v.agents for v in versions] == [("Googlebot", "browser"), ("browser",), ("GPTBot",)]
        assert [dict(v.headers) for v in versions] == [{}, {}, {}]  # v2's column, empty for older rows
        assert [(f.at, f.failure) for f in store.fetches(ORIGIN)] == [
            (0.0, None),
            (50.0, None),
            (100.0, None),
            (150.0, "5xx"),
            (250.0, None),
        ]
        assert store.at(ORIGIN, 200.0) == versions[1]  # the 503 left version 2 in force
        # The migrated file takes new records, and knows the old versions when they come back.
        again = store.record(ORIGIN, "browser", fetched(BODIES[2]))
        assert again.previous == versions[1] and again.version is not None and again.version.headers
    db = sqlite3.connect(path)
    try:
        assert db.execute("PRAGMA user_version").fetchone() == (LATEST,)
        assert db.execute("SELECT count(*) FROM fetches").fetchone() == (6,)
        indexes = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
        assert "fetches_by_version" in indexes
    finally:
        db.close()


def test_a_store_from_a_newer_robotscope_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    with HistoryStore(path, now=Clock(10.0)) as store:
        store.record(ORIGIN, "browser", fetched())
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {LATEST + 1}")
    db.close()
    with HistoryStore(path, now=Clock(20.0)) as newer:
        assert not newer.readable and not newer.writable
        assert len(newer.warnings) == 1 and "newer than this robotscope" in newer.warnings[0]
        assert "carrying on without keeping history" in newer.warnings[0]
        assert newer.record(ORIGIN, "browser", fetched()).fetch.id is None
    assert not list(tmp_path.glob("*.corrupt-*"))
    db = sqlite3.connect(path)
    try:
        assert db.execute("SELECT count(*) FROM fetches").fetchone() == (1,)
    finally:
        db.close()


@pytest.mark.parametrize("start", range(LATEST + 1))
def test_every_migration_runs_once_from_any_start(tmp_path: Path, start: int) -> None:
    db = sqlite3.connect(tmp_path / "h.sqlite3", isolation_level=None)
    try:
        migrate(db, upto=start)
        migrate(db)
        migrate(db)  # nothing left to run: no error, no change
        assert db.execute("PRAGMA user_version").fetchone() == (LATEST,)
    finally:
        db.close()
