"""A store opened `read_only` (what `robotscope serve --store` does) is read and never touched."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

from robotscope.history import HistoryStore
from robotscope.history.schema import migrate
from tests.clock import Clock

from .results import ORIGIN, fetched


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_read_only_store_reads_what_the_file_holds(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    with HistoryStore(path, now=Clock()) as store:
        kept = store.record(ORIGIN, "browser", fetched()).version
    before = digest(path)
    with HistoryStore(path, read_only=True) as store:
        assert store.versions(ORIGIN) == [kept] and store.origins() == [ORIGIN]
        assert store.readable and not store.writable and store.warnings == []
        assert store.record(ORIGIN, "browser", fetched(b"User-agent: *\nDisallow: /\n")).fetch.id is None
    assert digest(path) == before


def test_a_missing_file_is_not_created(tmp_path: Path) -> None:
    path = tmp_path / "nothing" / "history.sqlite3"
    with HistoryStore(path, read_only=True) as store:
        assert not store.readable and store.versions(ORIGIN) == []
        assert len(store.warnings) == 1 and str(path) in store.warnings[0]
    assert not path.parent.exists()


def test_a_damaged_file_is_left_where_it_is(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    path.write_bytes(b"not a database at all" * 100)
    with HistoryStore(path, read_only=True) as store:
        assert not store.readable and store.origins() == []
        assert len(store.warnings) == 1
    assert path.read_bytes() == b"not a database at all" * 100
    assert [p.name for p in tmp_path.iterdir()] == ["history.sqlite3"]


def test_an_older_schema_is_not_migrated(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    migrate(db, upto=1)
    db.close()
    with HistoryStore(path, read_only=True) as store:
        assert not store.readable and "schema version 1" in store.warnings[0]
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone() == (1,)
    db.close()
