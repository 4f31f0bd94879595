"""The history store keeps the cache's guarantees: locked, read-only and corrupt files lose nothing.

The techniques are the cache's (tests/test_cache.py): another connection
holding the write lock, a file made read-only for an unprivileged user, a
file that is not a database.
"""

from __future__ import annotations

import random
import sqlite3
import sys
from pathlib import Path

from robotscope.history import HistoryStore
from tests.clock import Clock
from tests.test_cache import as_unprivileged, shared_dir
from tests.together import run_together

from .results import ORIGIN, failed, fetched

__all__ = ["shared_dir"]  # the fixture, used by name
NEW = b"User-agent: *\nDisallow: /\n"


def count(path: Path, table: str) -> int:
    db = sqlite3.connect(path)
    try:
        (n,) = db.execute(f"SELECT count(*) FROM {table}").fetchone()
        return int(n)
    finally:
        db.close()


def test_a_store_locked_by_another_writer_carries_on_reading(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    clock = Clock()
    with HistoryStore(path, now=clock) as store:
        kept = store.record(ORIGIN, "browser", fetched()).version
    locker = sqlite3.connect(path, isolation_level=None)
    locker.execute("BEGIN IMMEDIATE")
    try:
        clock.now += 60
        with HistoryStore(path, now=clock, busy_timeout=0.2) as store:
            changed = store.record(ORIGIN, "browser", fetched(NEW))
            # Not kept, but what it would have been: a new version, and the one before it.
            assert changed.fetch.id is None and changed.version is not None and changed.version.id is None
            assert changed.new and changed.previous == kept
            assert store.record(ORIGIN, "browser", failed()).fetch.id is None
            assert len(store.warnings) == 1 and "locked" in store.warnings[0], store.warnings
            assert "carrying on without keeping history" in store.warnings[0]
            assert store.versions(ORIGIN) == [kept] and store.readable and not store.writable
            assert store.take_warnings() == store.warnings and store.take_warnings() == []
    finally:
        locker.rollback()
        locker.close()
    assert count(path, "fetches") == 1 and not list(tmp_path.glob("*.corrupt-*"))


def test_a_read_only_store_is_read_and_kept(shared_dir: Path) -> None:
    path = shared_dir / "history.sqlite3"
    with HistoryStore(path, now=Clock()) as store:
        store.record(ORIGIN, "browser", fetched())
    path.chmod(0o444)

    def use() -> tuple[list[str], int, bool, bool]:
        with HistoryStore(path, now=Clock(2_000_000.0)) as store:
            recorded = store.record(ORIGIN, "browser", fetched(NEW))
            return store.warnings, len(store.versions(ORIGIN)), recorded.previous is not None, store.writable

    warned, versions, had_previous, writable = as_unprivileged(use)
    assert versions == 1 and had_previous and not writable
    assert len(warned) == 1 and "readonly" in warned[0] and "carrying on without keeping history" in warned[0]
    assert path.stat().st_mode & 0o777 == 0o444 and count(path, "versions") == 1
    assert not list(shared_dir.glob("*.corrupt-*"))


def test_a_store_that_is_not_a_database_is_moved_aside_not_deleted(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    junk = random.Random(24).randbytes(8192)
    path.write_bytes(junk)
    with HistoryStore(path, now=Clock()) as store:
        (aside,) = tmp_path.glob("history.sqlite3.corrupt-*")
        assert aside.read_bytes() == junk
        assert len(store.warnings) == 1 and str(aside) in store.warnings[0] and "history store" in store.warnings[0]
        assert store.record(ORIGIN, "browser", fetched()).fetch.id is not None
    with HistoryStore(path) as again:  # the rebuilt file opens cleanly
        assert again.warnings == [] and len(again.versions(ORIGIN)) == 1


def test_a_store_that_cannot_be_created_carries_on_without_keeping_history(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory\n")
    with HistoryStore(blocker / "robotscope" / "history.sqlite3") as store:
        assert not store.readable and store.versions(ORIGIN) == [] and store.origins() == []
        recorded = store.record(ORIGIN, "browser", fetched())
        assert recorded.fetch.id is None and recorded.new and recorded.previous is None
        assert len(store.warnings) == 1 and "carrying on without keeping history" in store.warnings[0]


WRITER = """
import sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[4])
from robotscope.history import HistoryStore
from tests.clock import Clock
from tests.together import run_together
from tests.history.results import fetched
path, name, go = sys.argv[1], sys.argv[2], Path(sys.argv[3])
print("ready", flush=True)
for _ in range(3000):  # at most 30 s
    if go.exists():
        break
    time.sleep(0.01)
with HistoryStore(path) as store:
    for n in range(20):
        store.record(f"https://{name}-{n % 4}.example", name, fetched(b"Disallow: /%d" % (n % 3)))
    print(len(store.warnings))
"""


def test_processes_creating_and_writing_one_store_at_once_keep_every_row(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"  # not there yet: the writers race to create and migrate it
    go = tmp_path / "go"
    root = str(Path(__file__).parents[2])
    commands = [[sys.executable, "-c", WRITER, str(path), f"w{i}", str(go), root] for i in range(4)]
    codes, outputs = run_together(commands, go)
    assert codes == [0] * 4 and [out for out, _ in outputs] == ["0\n"] * 4, outputs
    assert count(path, "fetches") == 80 and count(path, "versions") == 4 * 4 * 3  # 4 writers x 4 origins x 3 bodies
    with HistoryStore(path) as store:
        assert len(store.origins()) == 16 and store.warnings == []
