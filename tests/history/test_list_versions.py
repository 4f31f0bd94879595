"""The IP list versions a history store keeps: one row per (name, creationTime, body), fetched times moving."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from robotscope.history import HistoryStore
from robotscope.history.schema import migrate
from robotscope.history.store import _LIST_MOMENTS
from robotscope.syntax.iplists import read_list
from robotscope.syntax.listhistory import ListHistory
from tests.clock import Clock

from .results import ORIGIN
from .test_migrations import BODIES, v1_store

NAME = "openai-gptbot.json"
URL = "https://openai.com/gptbot.json"
JAN_1 = 1893456000.0  # 2030-01-01T00:00:00Z


def body(created: str, *prefixes: str) -> bytes:
    return json.dumps({"creationTime": created, "prefixes": [{"ipv4Prefix": p} for p in prefixes]}).encode()


FIRST = body("2030-01-01T00:00:00Z", "198.51.100.0/24")
SECOND = body("2030-02-01T00:00:00Z", "203.0.113.0/24")


def rows(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        (count,) = db.execute("SELECT count(*) FROM list_versions").fetchone()
        return int(count)
    finally:
        db.close()


def test_an_unchanged_list_fetched_twice_is_one_row_whose_last_fetch_moves(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    clock = Clock(100.0)
    with HistoryStore(path, now=clock) as store:
        first = store.record_list(NAME, "2030-01-01T00:00:00Z", FIRST, URL)
        clock.now = 200.0
        again = store.record_list(NAME, "2030-01-01T00:00:00Z", FIRST, URL)
        assert first.new and not again.new and first.id == again.id is not None
        assert (again.first_fetched, again.last_fetched) == (100.0, 200.0)
        (kept,) = store.list_versions(NAME)
        assert (kept.sha256, kept.url, kept.body, kept.last_fetched) == (first.sha256, URL, FIRST, 200.0)
    assert rows(path) == 1


def test_a_new_creation_time_or_body_is_a_new_version_read_back_as_a_list(tmp_path: Path) -> None:
    clock = Clock(100.0)
    with HistoryStore(tmp_path / "history.sqlite3", now=clock) as store:
        store.record_list(NAME, "2030-01-01T00:00:00Z", FIRST, URL)
        clock.now = 200.0
        assert store.record_list(NAME, "2030-02-01T00:00:00Z", SECOND, URL).new
        # The same creationTime with another body (the operator fixed it in place): kept too.
        fixed = body("2030-02-01T00:00:00Z", "203.0.113.0/25")
        assert store.record_list(NAME, "2030-02-01T00:00:00Z", fixed, URL).new
        store.record_list("openai-searchbot.json", "2030-01-01T00:00:00Z", FIRST, URL)
        times = ["2030-01-01T00:00:00Z", "2030-02-01T00:00:00Z", "2030-02-01T00:00:00Z"]
        assert [v.creation_time for v in store.list_versions(NAME)] == times
        expected = [(FIRST, NAME), (SECOND, NAME), (fixed, NAME), (FIRST, "openai-searchbot.json")]
        assert store.ip_lists() == [read_list(data, name) for data, name in expected]


def test_a_store_that_cannot_write_says_what_it_would_have_kept(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    with HistoryStore(path, now=Clock(100.0)) as store:
        store.record_list(NAME, "2030-01-01T00:00:00Z", FIRST, URL)
    with HistoryStore(path, now=Clock(300.0), read_only=True) as store:
        seen = store.record_list(NAME, "2030-01-01T00:00:00Z", FIRST, URL)
        unseen = store.record_list(NAME, "2030-02-01T00:00:00Z", SECOND, URL)
        assert (seen.id, seen.new, seen.first_fetched, seen.last_fetched) == (None, False, 100.0, 300.0)
        assert (unseen.id, unseen.new) == (None, True)
    assert rows(path) == 1


def test_a_store_of_the_previous_schema_keeps_its_rows_and_takes_list_versions(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    v1_store(path)
    db = sqlite3.connect(path, isolation_level=None)
    migrate(db, upto=2)  # the schema just before list versions
    db.close()
    with HistoryStore(path, now=Clock(1000.0)) as store:
        assert store.warnings == [] and store.writable
        assert [v.body for v in store.versions(ORIGIN)] == BODIES
        assert len(store.fetches(ORIGIN)) == 5
        assert store.ip_lists() == []
        assert store.record_list(NAME, "2030-01-01T00:00:00Z", FIRST, URL).new
    with HistoryStore(path, read_only=True) as store:
        assert store.ip_lists() == [read_list(FIRST, NAME)] and [v.body for v in store.versions(ORIGIN)] == BODIES


def test_a_store_of_the_schema_before_moments_gets_each_versions_moment_from_its_text(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    migrate(db, upto=3)  # list versions, no moments
    written: list[object] = [
        "2030-02-01T00:00:00Z",
        "2030-01-01",  # a date alone: midnight UTC
        "2030-01-15T09:00:00+09:00",
        "yesterday",  # kept as given, never placed in time
        "",  # a version kept without creationTime
        12345,  # not text at all (SQLite keeps what it is given)
        "9" * 10_000,
    ]
    for n, created in enumerate(written):
        db.execute(
            "INSERT INTO list_versions (name, creation_time, sha256, body, url, first_fetched, last_fetched)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (NAME, created, f"{n:064x}", FIRST, URL, float(n), float(n)),
        )
    db.close()
    with HistoryStore(path, now=Clock(1000.0)) as store:
        assert store.warnings == [] and store.writable
        found = store.list_moments()
        assert [(known.name, known.moment) for known in found] == [
            *((NAME, None) for _ in range(4)),  # unplaced, by first fetched
            (NAME, 1893456000.0),
            (NAME, 1893456000.0 + 14 * 86_400),
            (NAME, 1893456000.0 + 31 * 86_400),
        ]
        assert [known.key for known in found[:4]] == [4, 5, 6, 7]  # the ids, as inserted
        kept = store.list_version(1)
        assert kept is not None and kept.creation_time == "2030-02-01T00:00:00Z" and kept.body == FIRST
        assert store.list_version(99) is None
        # A version kept from now on has its moment too.
        store.record_list(NAME, "2030-03-01T00:00:00Z", SECOND, URL)
        assert store.list_moments()[-1] == (NAME, 1893456000.0 + 59 * 86_400, 8)


def test_the_versions_are_listed_by_moment_without_reading_the_table_of_bodies(tmp_path: Path) -> None:
    with HistoryStore(tmp_path / "history.sqlite3", now=Clock(100.0)) as store:
        store.record_list(NAME, "2030-02-01T00:00:00Z", SECOND, URL)
        store.record_list(NAME, "2030-01-01T00:00:00Z", FIRST, URL)
        store.record_list("bing-bingbot.json", "2030-03-01T00:00:00Z", FIRST, URL)
        assert [(k.name, k.key) for k in store.list_moments()] == [("bing-bingbot.json", 3), (NAME, 2), (NAME, 1)]
    db = sqlite3.connect(tmp_path / "history.sqlite3")
    try:
        ((*_, plan),) = db.execute(f"EXPLAIN QUERY PLAN {_LIST_MOMENTS}").fetchall()
        assert plan == "SCAN list_versions USING COVERING INDEX list_versions_by_moment"
    finally:
        db.close()


def test_a_moment_the_file_holds_as_text_or_bytes_is_one_that_cannot_be_read(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    with HistoryStore(path, now=Clock(100.0)) as store:
        for day in range(1, 5):
            store.record_list(NAME, f"2030-01-0{day}T00:00:00Z", body(f"2030-01-0{day}T00:00:00Z"), URL)
    db = sqlite3.connect(path)
    try:  # REAL affinity keeps text that is not a number as text, and bytes as bytes
        db.execute("UPDATE list_versions SET moment = 'soon' WHERE id = 2")
        db.execute("UPDATE list_versions SET moment = x'00ff' WHERE id = 3")
        db.commit()
    finally:
        db.close()
    with HistoryStore(path, read_only=True) as store:
        found = store.list_moments()
        assert {known.key: known.moment for known in found} == {1: JAN_1, 2: None, 3: None, 4: JAN_1 + 3 * 86_400}
    # A history of them is made (it sorts the moments): the damaged versions are undated ones.
    history = ListHistory(found, lambda known: read_list(FIRST, known.name))
    assert history.moments() == (JAN_1, JAN_1 + 3 * 86_400)
