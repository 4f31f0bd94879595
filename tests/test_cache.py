"""The SQLite cache, alone and under `fetch_robots`, with an injected clock."""

from __future__ import annotations

from pathlib import Path

import pytest

from robotscope.cache import RobotsCache, Stored, default_path
from robotscope.fetcher import fetch_robots

from .conftest import Server

pytestmark = pytest.mark.usefixtures("isolated")
ROBOTS = b"User-agent: *\nDisallow: /private/\n"
HOUR = 3600.0


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def cache(tmp_path: Path, clock: Clock) -> RobotsCache:
    c = RobotsCache(tmp_path / "robots.sqlite3", now=clock)
    yield c  # type: ignore[misc]
    c.close()


def test_default_path_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_path() == tmp_path / "robotscope" / "robots.sqlite3"


def test_wal_mode_and_good_copy_kept_through_failures(cache: RobotsCache) -> None:
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


def test_5xx_falls_back_to_the_last_good_copy_per_policy(
    server: Server, cache: RobotsCache, clock: Clock
) -> None:
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
