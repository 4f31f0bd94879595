"""`HistoryStore`: versions and fetches, kept once each, and the version in force at a moment."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

from robotscope.fetch import FetchResult, TransportFailure, fetch_robots
from robotscope.fetch.body import KEEP
from robotscope.history import HistoryStore, origin_of
from robotscope.syntax.urls import InvalidURL
from tests.clock import Clock
from tests.conftest import Server

from .results import ORIGIN, failed, fetched

pytestmark = pytest.mark.usefixtures("isolated")
OLD = b"User-agent: *\nDisallow: /private/\n"
NEW = b"User-agent: *\nDisallow: /\n"


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(tmp_path: Path, clock: Clock) -> Iterator[HistoryStore]:
    s = HistoryStore(tmp_path / "history.sqlite3", now=clock)
    yield s
    s.close()


def test_the_same_body_twice_is_one_version_and_two_fetches(store: HistoryStore, clock: Clock) -> None:
    first = store.record(ORIGIN, "browser", fetched(OLD))
    clock.now += 3600
    second = store.record(ORIGIN, "browser", fetched(OLD))
    assert first.new and not second.new
    assert first.version is not None and second.version is not None
    assert first.version.id == second.version.id and second.previous == dataclasses.replace(
        first.version, agents=("browser",)
    )
    (version,) = store.versions(ORIGIN)
    assert version.first_seen == 1_000_000.0 and version.last_seen == 1_003_600.0
    assert version.body == OLD and version.agents == ("browser",) and version.size == len(OLD)
    fetches = store.fetches(ORIGIN)
    assert [(f.at, f.version_id, f.failure) for f in fetches] == [
        (1_000_000.0, version.id, None),
        (1_003_600.0, version.id, None),
    ]
    assert [f.id for f in fetches] == [first.fetch.id, second.fetch.id]


def test_a_changed_body_is_a_new_version_with_the_old_one_as_previous(store: HistoryStore, clock: Clock) -> None:
    old = store.record(ORIGIN, "Googlebot", fetched(OLD)).version
    clock.now += 60
    changed = store.record(ORIGIN, "Googlebot", fetched(NEW))
    assert changed.new and changed.version is not None and changed.previous is not None
    assert old is not None and changed.previous.id == old.id and changed.version.id != old.id
    assert [v.body for v in store.versions(ORIGIN)] == [OLD, NEW]
    # The first body again is the first version again, not a third one.
    clock.now += 60
    back = store.record(ORIGIN, "Googlebot", fetched(OLD))
    assert not back.new and back.version is not None and back.version.id == old.id
    assert back.previous is not None and back.previous.id == changed.version.id
    assert len(store.versions(ORIGIN)) == 2 and store.at(ORIGIN, clock.now) == back.version


@pytest.mark.parametrize(
    ("result", "failure", "status"),
    [
        (fetched(b"down", 503), "5xx", 503),
        (fetched(b"slow down", 429), "429", 429),
        (fetched(b"gone", 404), "4xx", 404),
        (fetched(b"", 301), "redirect", 301),
        (failed("dns"), "dns", None),
        # A 200 whose body broke off is a failure of the transport, not a version.
        (fetched(OLD, 200, error=TransportFailure("incomplete", "peer closed")), "incomplete", 200),
    ],
)
def test_a_failure_is_a_fetch_not_a_version(
    store: HistoryStore, clock: Clock, result: FetchResult, failure: str, status: int | None
) -> None:
    good = store.record(ORIGIN, "browser", fetched(OLD)).version
    clock.now += 60
    recorded = store.record(ORIGIN, "browser", result)
    assert recorded.version is None and not recorded.new and recorded.previous == good
    assert (recorded.fetch.failure, recorded.fetch.status, recorded.fetch.version_id) == (failure, status, None)
    assert store.versions(ORIGIN) == [good] and store.at(ORIGIN, clock.now) == good
    assert [f.failure for f in store.fetches(ORIGIN)] == [None, failure]


def test_one_body_seen_by_two_agents_is_one_version_seen_by_both(store: HistoryStore, clock: Clock) -> None:
    store.record(ORIGIN, "browser", fetched(OLD))
    store.record(ORIGIN, "GPTBot", fetched(NEW))  # served otherwise to an AI crawler
    clock.now += 10
    store.record(ORIGIN, "Googlebot", fetched(OLD))
    shared, gpt = store.versions(ORIGIN)
    assert shared.agents == ("Googlebot", "browser") and gpt.agents == ("GPTBot",)
    assert store.versions(ORIGIN, "GPTBot") == [gpt] and store.versions(ORIGIN, "browser") == [shared]
    assert store.at(ORIGIN, clock.now, "GPTBot") == gpt and store.at(ORIGIN, clock.now, "browser") == shared
    assert store.at(ORIGIN, clock.now) == shared  # the last fetch of any agent


def test_at_its_boundaries(store: HistoryStore, clock: Clock) -> None:
    t0 = clock.now
    store.record(ORIGIN, "browser", fetched(OLD))
    clock.now = t0 + 100
    store.record(ORIGIN, "browser", fetched(NEW))
    old, new = store.versions(ORIGIN)
    assert store.at(ORIGIN, t0 - 0.001) is None  # before the first fetch
    assert store.at(ORIGIN, t0) == old  # at the fetch itself
    assert store.at(ORIGIN, t0 + 99.999) == old
    assert store.at(ORIGIN, t0 + 100) == new
    assert store.at(ORIGIN, t0 + 10**9) == new
    assert store.at(ORIGIN, t0 + 100, "Googlebot") is None  # an agent that never fetched
    assert store.at("https://other.example", t0 + 100) is None


def test_origins_are_normalised_and_listed(store: HistoryStore) -> None:
    store.record("https://Example.COM/some/page?q=1", "browser", fetched(OLD))
    store.record("http://other.example:8080/", "browser", fetched(OLD, origin="http://other.example:8080"))
    assert store.origins() == ["http://other.example:8080", "https://example.com"]
    assert len(store.versions("https://example.com/robots.txt")) == 1
    assert origin_of("https://example.com:443/x") == "https://example.com"
    with pytest.raises(InvalidURL):
        store.versions("ftp://example.com/")


def test_a_result_from_the_cache_is_not_a_fetch(store: HistoryStore) -> None:
    with pytest.raises(ValueError, match="cache"):
        store.record(ORIGIN, "browser", dataclasses.replace(fetched(OLD), from_cache=True))
    assert store.fetches(ORIGIN) == []


def test_headers_and_the_redirect_chain_are_kept(store: HistoryStore) -> None:
    hops = (("https://example.com/robots.txt", 301), ("https://www.example.com/robots.txt", 200))
    result = fetched(OLD, hops=hops, headers={"etag": '"abc"', "cf-ray": "1-AMS"})
    version = store.record(ORIGIN, "browser", result).version
    assert version is not None and version == store.version(version.id or 0)
    assert version.hops == hops and version.final_url == "https://www.example.com/robots.txt"
    assert dict(version.headers) == {"content-type": "text/plain", "etag": '"abc"', "cf-ray": "1-AMS"}
    # The same body from another final URL, or with another content type, is another version.
    store.record(ORIGIN, "browser", fetched(OLD))
    store.record(ORIGIN, "browser", fetched(OLD, content_type="text/html"))
    assert [(v.final_url, v.content_type) for v in store.versions(ORIGIN)] == [
        ("https://www.example.com/robots.txt", "text/plain"),
        ("https://example.com/robots.txt", "text/plain"),
        ("https://example.com/robots.txt", "text/html"),
    ]
    assert store.version(10**6) is None


# --- Hostile bodies ---------------------------------------------------------------------------------


def test_a_huge_body_is_kept_at_most_at_the_fetchers_cap(store: HistoryStore, server: Server, tmp_path: Path) -> None:
    huge = b"User-agent: *\n" + b"Disallow: /a-long-path-segment\n" * 200_000  # about 6 MB
    server.serve("/robots.txt", 200, huge)
    result = fetch_robots(server.url("/"), cache=False)
    recorded = store.record(server.url("/"), "browser", result)
    assert recorded.version is not None and recorded.version.truncated and recorded.fetch.truncated
    assert recorded.version.size <= KEEP and recorded.fetch.size >= len(huge) // 2
    # A caller that hands in more than the fetcher keeps is cut there too.
    handed = store.record(ORIGIN, "browser", fetched(huge))
    assert handed.version is not None and handed.version.body == huge[:KEEP]
    assert (tmp_path / "history.sqlite3").stat().st_size < 4 * KEEP


def test_a_body_that_is_not_utf8_round_trips_exactly(store: HistoryStore, server: Server) -> None:
    body = b"User-agent: *\nDisallow: /caf\xe9\n\xff\xfe\x00 Disallow: /\x80\n"
    server.serve("/robots.txt", 200, body, {"Content-Type": "text/plain; charset=latin-1"})
    recorded = store.record(server.url("/"), "browser", fetch_robots(server.url("/"), cache=False))
    assert recorded.version is not None
    (kept,) = store.versions(server.url("/"))
    assert kept.body == body and kept.sha256 == recorded.version.sha256
    assert kept.content_type == "text/plain; charset=latin-1" and "\ufffd" in kept.text
