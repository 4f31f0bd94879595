"""A watch of a failing site says what each engine does after as long as the store has seen it fail."""

from __future__ import annotations

import asyncio
from pathlib import Path

from robotscope.history import HistoryStore
from robotscope.watching.run import OriginWatch, watch_once
from tests.clock import Clock
from tests.conftest import Server

GOOD = b"User-agent: *\nDisallow: /private/\n"
HOUR = 3600.0


def once(server: Server, store: HistoryStore) -> OriginWatch:
    return asyncio.run(watch_once([server.url("/")], store, agents=["browser"]))[0]


def failed_text(found: OriginWatch) -> str:
    alert = next(a for a in found.alerts if a.code == "fetchFailed")
    return alert.text("en")


def test_the_outage_is_timed_from_the_first_failure_not_from_each_fetch(server: Server, tmp_path: Path) -> None:
    clock = Clock()
    server.serve("/robots.txt", body=GOOD)
    with HistoryStore(tmp_path / "h.sqlite3", now=clock) as store:
        once(server, store)
        clock.now += HOUR
        server.serve("/robots.txt", status=503, body=b"down")
        first = failed_text(once(server, store))
        # Google: within its first 12 hours, everything is disallowed.
        assert "unreachable for 0 min, within the first 12 h" in first
        clock.now += 2 * 24 * HOUR
        later = failed_text(once(server, store))
    # Two days into the outage (counted from its first failed fetch), Google uses the last good copy.
    assert "unreachable for 2 days" in later or "unreachable for 48 h" in later, later
    google = later.split("| Google")[1].split("|")[0]
    assert "last good copy" in google and "within the first 12 h" not in google
