"""The SQLite cache, alone and under `fetch_robots`, with an injected clock."""

from __future__ import annotations

import json
import os
import pickle
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest
from click.testing import CliRunner

from robotscope.cache import RobotsCache, Stored, default_path
from robotscope.cli import cli
from robotscope.fetch import fetch_robots
from tests.clock import Clock
from tests.conftest import Server
from tests.together import run_together

from .cache_worker import robots_url

_T = TypeVar("_T")

pytestmark = pytest.mark.usefixtures("isolated")
ROBOTS = b"User-agent: *\nDisallow: /private/\n"
HOUR = 3600.0


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def cache(tmp_path: Path, clock: Clock) -> Iterator[RobotsCache]:
    c = RobotsCache(tmp_path / "robots.sqlite3", now=clock)
    yield c
    c.close()


def test_default_path_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_path() == tmp_path / "robotscope" / "robots.sqlite3"


def test_wal_mode_and_good_copy_kept_through_failures(cache: RobotsCache) -> None:
    assert cache._db is not None
    (mode,) = cache._db.execute("PRAGMA journal_mode").fetchone()
    assert mode == "wal"
    cache.put("u", Stored(200, {}, b"good", 1.0))
    entry = cache.put("u", Stored(503, {}, b"down", 2.0, transient=True))
    assert entry.latest is not None and entry.latest.status == 503
    assert entry.good is not None and entry.good.body == b"good" and entry.failing_since == 2.0
    assert cache.put("u", Stored(None, {}, b"", 3.0, transient=True)).failing_since == 2.0
    assert cache.put("u", Stored(404, {}, b"", 4.0)).failing_since is None


def test_fresh_hit_does_not_refetch(server: Server, cache: RobotsCache) -> None:
    server.serve("/robots.txt", 200, ROBOTS)
    first = fetch_robots(server.url("/"), cache=cache)
    second = fetch_robots(server.url("/a"), cache=cache, policy="google")
    assert server.hits["/robots.txt"] == 1
    assert not first.from_cache and second.from_cache
    assert second.decision == "parse" and second.explanation.startswith("Google (")
    assert second.robots is not None and not second.robots.can_fetch("bot", "/private/")
    assert second.hops == first.hops


def test_stale_copy_is_refetched_after_24_hours(server: Server, cache: RobotsCache, clock: Clock) -> None:
    server.serve("/robots.txt", 200, ROBOTS)
    fetch_robots(server.url("/"), cache=cache)
    clock.now += 23 * HOUR
    assert fetch_robots(server.url("/"), cache=cache).from_cache
    clock.now += 2 * HOUR
    result = fetch_robots(server.url("/"), cache=cache)
    assert not result.from_cache and server.hits["/robots.txt"] == 2
    assert result.decision == "parse" and result.explanation.startswith("RFC 9309 (")


def test_5xx_falls_back_to_the_last_good_copy_per_policy(server: Server, cache: RobotsCache, clock: Clock) -> None:
    server.serve("/robots.txt", 200, ROBOTS)
    fetch_robots(server.url("/"), cache=cache)
    server.serve("/robots.txt", 503, b"down")
    clock.now += 25 * HOUR
    result = fetch_robots(server.url("/"), cache=cache, policy="naver")
    assert {n: d.action for n, d in result.decisions.items()} == {
        "rfc9309": "disallow-all",
        "google": "disallow-all",
        "bing": "disallow-all",
        "naver": "cached-copy",
        "yandex": "allow-all",  # any answer but 200 OK opens the site: no copy needed
    }
    assert result.decision == "cached-copy" and result.explanation.startswith("Naver (")
    assert result.robots is not None and not result.robots.can_fetch("bot", "/private/x")
    # A failure is never reused as fresh: the next call fetches again.
    clock.now += 13 * HOUR
    later = fetch_robots(server.url("/"), cache=cache, policy="google")
    assert server.hits["/robots.txt"] == 3 and not later.from_cache
    assert later.decision == "cached-copy" and "unreachable for 13 h" in later.explanation
    assert later.explanation.startswith("Google (")


def test_a_failure_never_becomes_the_good_copy(server: Server, cache: RobotsCache) -> None:
    server.serve("/robots.txt", 500, b"User-agent: *\nAllow: /\n")
    result = fetch_robots(server.url("/"), cache=cache)
    assert result.decision == "disallow-all" and result.explanation.startswith("RFC 9309 (")
    assert cache.get(server.url("/robots.txt")).good is None


def test_corrupt_cache_file_is_reported_and_rebuilt(server: Server, tmp_path: Path, clock: Clock) -> None:
    path = tmp_path / "robots.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    server.serve("/robots.txt", 200, ROBOTS)
    with RobotsCache(path, now=clock) as cache:
        result = fetch_robots(server.url("/"), cache=cache)
        assert result.decision == "parse" and result.explanation.startswith("RFC 9309 (")
        assert len(result.warnings) == 1 and "rebuilt" in result.warnings[0]
        assert fetch_robots(server.url("/"), cache=cache).from_cache


# --- Several processes, locks, read-only and corrupt files -------------------------------------------
#
# A cache that cannot be written or read is carried on without (one warning); only a file
# that is not a database is set aside, renamed, never deleted. Other processes are real
# processes (tests/cache_worker.py), so their locks are SQLite's file locks.

WORKER = str(Path(__file__).parent / "cache_worker.py")
NOBODY = 65534


def rows(path: Path) -> set[tuple[str, str]]:
    """(robots URL, slot) of every row in the file, read without RobotsCache."""
    db = sqlite3.connect(path)
    try:
        return set(db.execute("SELECT robots_url, slot FROM responses"))
    finally:
        db.close()


def held_rows() -> set[tuple[str, str]]:
    early = {(robots_url("held-early", n), slot) for n in range(3) for slot in ("latest", "good")}
    return early | {(robots_url("held-late", 0), "latest")}


def set_aside(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if ".corrupt-" in p.name)


def test_concurrent_writer_processes_keep_every_row(tmp_path: Path) -> None:
    path = tmp_path / "robots.sqlite3"  # not there yet: the workers race to create it too
    go = tmp_path / "go"
    commands = [[sys.executable, WORKER, "put", str(path), f"w{i}", "50", str(go)] for i in range(4)]
    codes, outputs = run_together(commands, go)
    assert codes == [0] * 4, outputs
    assert [json.loads(out) for out, _ in outputs] == [[]] * 4, outputs  # no warning in any process
    expected = {(robots_url(f"w{i}", n), slot) for i in range(4) for n in range(50) for slot in ("latest", "good")}
    assert rows(path) == expected
    assert set_aside(tmp_path) == []


def test_opening_a_fresh_file_another_process_holds_waits_instead_of_giving_up(tmp_path: Path) -> None:
    # The cause of the concurrent-writers test's rare failures under load: switching a fresh file to
    # WAL while another connection holds a lock on it is "database is locked" at once, whatever the
    # busy timeout. The cache tries again within its busy timeout, so the holder's release is seen.
    path = tmp_path / "robots.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")  # a fresh file, in rollback-journal mode, write-locked
    release = threading.Timer(0.5, holder.execute, ("COMMIT",))
    release.start()
    try:
        with RobotsCache(path, busy_timeout=30) as cache:
            entry = cache.put(robots_url("after-the-lock", 0), Stored(200, {}, b"User-agent: *\n", 1.0))
            assert cache.warnings == [] and cache.writable
            assert entry.good is not None and cache.get(robots_url("after-the-lock", 0)).good == entry.good
    finally:
        release.join()
        holder.close()
    assert rows(path) == {(robots_url("after-the-lock", 0), slot) for slot in ("latest", "good")}


def test_a_writer_holding_the_lock_past_the_busy_timeout(tmp_path: Path, clock: Clock) -> None:
    path = tmp_path / "robots.sqlite3"
    mine = "https://mine.example/robots.txt"
    with subprocess.Popen(
        [sys.executable, WORKER, "hold", str(path), "60"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as holder:
        assert holder.stdin is not None and holder.stdout is not None
        assert holder.stdout.readline().strip() == "locked"
        wal = Path(f"{path}-wal")
        wal_inode = wal.stat().st_ino
        with RobotsCache(path, now=clock, busy_timeout=0.5) as cache:
            # Readers do not wait for a writer in WAL mode.
            assert cache.get(robots_url("held-early", 0)).good is not None
            entry = cache.put(mine, Stored(200, {}, ROBOTS, clock.now))
            # Not kept, but the caller still gets the entry it would have made.
            assert entry.latest is not None and entry.latest.body == ROBOTS and entry.good == entry.latest
            # Writing is off: the second put asks nothing of the database, so it cannot wait for the lock.
            statements: list[str] = []
            assert cache._db is not None
            cache._db.set_trace_callback(statements.append)
            cache.put(mine, Stored(503, {}, b"down", clock.now, transient=True))
            assert not [s for s in statements if not s.lstrip().upper().startswith("SELECT")], statements
            assert len(cache.warnings) == 1, cache.warnings
            assert "locked" in cache.warnings[0] and "carrying on without caching" in cache.warnings[0]
            assert cache.get(robots_url("held-early", 1)).good is not None and cache.get(mine).latest is None
            assert cache.readable and not cache.writable
        # The other process's file, -wal and lock are untouched.
        assert path.exists() and wal.stat().st_ino == wal_inode
        holder.stdin.close()  # let it commit
        holder.wait(timeout=30)
    assert holder.returncode == 0
    assert rows(path) == held_rows()  # its early rows and the one it wrote under the lock
    assert set_aside(tmp_path) == []


def as_unprivileged(work: Callable[[], _T]) -> _T:
    """Run `work` as a user who cannot write what root made read-only (in a forked child when root).

    chmod does not stop root, so as root the child drops to `nobody` first;
    otherwise the file mode alone makes the file read-only.
    """
    if os.geteuid() != 0:
        return work()
    read_end, write_end = os.pipe()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads: the child only runs `work`
        pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            try:
                os.close(read_end)
                os.setgroups([])
                os.setgid(NOBODY)
                os.setuid(NOBODY)
                outcome: tuple[bool, object] = (True, work())
            except BaseException as error:
                outcome = (False, repr(error))
            with os.fdopen(write_end, "wb") as pipe:
                pickle.dump(outcome, pipe)
        finally:
            os._exit(0)  # never return into pytest from the child
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    ok, value = pickle.loads(data)
    assert ok, value
    return value  # type: ignore[no-any-return]


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A directory anyone may write in, outside pytest's private tmp tree (which `nobody` cannot enter)."""
    directory = Path(tempfile.mkdtemp(prefix="robotscope-cache-"))
    directory.chmod(0o777)
    yield directory
    shutil.rmtree(directory)


def test_a_read_only_file_is_read_and_kept(shared_dir: Path, clock: Clock) -> None:
    path = shared_dir / "robots.sqlite3"
    with RobotsCache(path, now=clock) as cache:
        cache.put("u", Stored(200, {}, b"good", 1.0))
    path.chmod(0o444)

    def use() -> tuple[list[str], bytes | None, bytes | None, bool]:
        with RobotsCache(path, now=clock) as cache:
            kept = cache.get("u").good
            entry = cache.put("u", Stored(503, {}, b"down", 2.0, transient=True))
            cache.put("v", Stored(200, {}, b"other", 3.0))
            return (
                cache.warnings,
                None if kept is None else kept.body,
                None if entry.good is None else entry.good.body,
                cache.writable,
            )

    warned, kept, good_after_put, writable = as_unprivileged(use)
    assert kept == b"good" and good_after_put == b"good" and not writable
    assert len(warned) == 1 and "readonly" in warned[0] and "carrying on without caching" in warned[0]
    assert path.exists() and path.stat().st_mode & 0o777 == 0o444
    assert rows(path) == {("u", "latest"), ("u", "good")}
    assert set_aside(shared_dir) == []


def test_an_immutable_file_is_read_and_kept(tmp_path: Path, clock: Clock) -> None:
    if os.geteuid() != 0 or shutil.which("chattr") is None:
        pytest.skip("chattr +i needs root and the chattr tool")
    path = tmp_path / "robots.sqlite3"
    with RobotsCache(path, now=clock) as cache:
        cache.put("u", Stored(200, {}, b"good", 1.0))
    if subprocess.run(["chattr", "+i", str(path)], check=False, capture_output=True).returncode != 0:
        pytest.skip("this file system has no immutable attribute")
    try:
        with RobotsCache(path, now=clock) as cache:
            assert cache.get("u").good is not None
            cache.put("u", Stored(200, {}, b"new", 2.0))
            assert len(cache.warnings) == 1 and "carrying on without caching" in cache.warnings[0]
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)
    assert rows(path) == {("u", "latest"), ("u", "good")}
    assert set_aside(tmp_path) == []


def test_a_file_that_is_not_a_database_is_moved_aside_not_deleted(tmp_path: Path, clock: Clock) -> None:
    path = tmp_path / "robots.sqlite3"
    junk = random.Random(9309).randbytes(8192)
    path.write_bytes(junk)
    with RobotsCache(path, now=clock) as cache:
        (moved,) = set_aside(tmp_path)
        aside = tmp_path / moved
        assert aside.read_bytes() == junk
        assert len(cache.warnings) == 1 and str(aside) in cache.warnings[0], cache.warnings
        assert cache.put("u", Stored(200, {}, b"good", 1.0)).good is not None
    assert rows(path) == {("u", "latest"), ("u", "good")}
    with RobotsCache(path, now=clock) as again:  # the rebuilt file opens cleanly
        assert again.warnings == [] and again.get("u").good is not None


def test_fetch_through_a_locked_cache_parses_and_warns(server: Server, tmp_path: Path, clock: Clock) -> None:
    server.serve("/robots.txt", 200, ROBOTS)
    path = tmp_path / "robots.sqlite3"
    with RobotsCache(path, now=clock, busy_timeout=0.1) as cache:
        assert fetch_robots(server.url("/"), cache=cache).warnings == ()
        locker = sqlite3.connect(path, isolation_level=None)  # another writer, holding the lock
        locker.execute("BEGIN IMMEDIATE")
        try:
            clock.now += 25 * HOUR
            result = fetch_robots(server.url("/"), cache=cache)
            assert result.decision == "parse" and not result.from_cache
            assert result.robots is not None and not result.robots.can_fetch("bot", "/private/x")
            assert len(result.warnings) == 1 and "locked" in result.warnings[0]
            # The good copy is still read, so a 5xx falls back to it; the warning is not repeated.
            server.serve("/robots.txt", 503, b"down")
            later = fetch_robots(server.url("/"), cache=cache, policy="naver")
            assert later.decision == "cached-copy" and later.warnings == ()
            assert later.robots is not None and not later.robots.can_fetch("bot", "/private/x")
        finally:
            locker.rollback()
            locker.close()
    assert rows(path) == {(server.url("/robots.txt"), "latest"), (server.url("/robots.txt"), "good")}


def unusable_cache(tmp_path: Path, where: str) -> Path:
    if where == "a-directory":
        return tmp_path
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory\n")
    return blocker / "robotscope" / "robots.sqlite3"  # its directory cannot be created, even by root


@pytest.mark.parametrize("where", ["under-a-file", "a-directory"])
def test_check_with_an_unusable_cache_carries_on(server: Server, tmp_path: Path, where: str) -> None:
    server.serve("/robots.txt", 200, ROBOTS)
    cache = unusable_cache(tmp_path, where)
    for urls, code in ((["/x"], 0), (["/x", "/private/y"], 1)):
        result = CliRunner().invoke(cli, ["check", "--cache", str(cache), server.url("/"), "bot", *urls])
        assert result.exit_code == code, result.stderr
        assert "ALLOWED    /x" in result.stdout
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("robotscope: warning: "), lines
        assert str(cache) in lines[0] and "carrying on without caching" in lines[0]


def test_bulk_fetch_with_an_unusable_cache_warns_once(server: Server, other_server: Server, tmp_path: Path) -> None:
    server.serve("/robots.txt", 200, ROBOTS)
    other_server.serve("/robots.txt", 200, ROBOTS)
    urls = tmp_path / "urls.txt"
    urls.write_text(f"{server.url('/a')}\n{other_server.url('/private/b')}\n")
    cache = unusable_cache(tmp_path, "under-a-file")
    args = ["bulk", "--fetch", "--urls", str(urls), "--format", "jsonl", "--cache", str(cache)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1, result.stderr  # one row is disallowed
    assert [json.loads(line)["allowed"] for line in result.stdout.splitlines()] == [True, False]
    lines = result.stderr.splitlines()  # one warning, not one per origin
    assert len(lines) == 1 and lines[0].startswith("robotscope: warning: ") and str(cache) in lines[0], lines
