"""`history.changes`: each version compared along its agent's line, and what it changed."""

from __future__ import annotations

from pathlib import Path

from robotscope.history import HistoryStore
from robotscope.history.changes import alerts_of, predecessors
from tests.clock import Clock
from tests.history.results import ORIGIN, fetched

OPEN = b"User-agent: *\nDisallow: /private/\n"
CLOSED = b"User-agent: *\nDisallow: /\n"
GPT_ONLY = b"User-agent: *\nDisallow: /private/\nUser-agent: GPTBot\nDisallow: /\n"


def test_a_version_is_compared_with_the_last_one_its_agent_saw(tmp_path: Path) -> None:
    clock = Clock()
    with HistoryStore(tmp_path / "h.sqlite3", now=clock) as store:
        store.record(ORIGIN, "browser", fetched(OPEN))
        clock.now += 60
        store.record(ORIGIN, "GPTBot", fetched(GPT_ONLY))  # GPTBot's first: compared with the one before
        clock.now += 60
        store.record(ORIGIN, "browser", fetched(CLOSED))  # the browser's line: OPEN, not GPTBot's file
        versions = store.versions(ORIGIN)
    assert [v.body for v in versions] == [OPEN, GPT_ONLY, CLOSED]
    before = predecessors(versions)
    assert before[0] is None and before[1] is versions[0] and before[2] is versions[0]
    changed = alerts_of(versions)
    assert changed[0] == [] and changed[2][0].code == "siteBlocked"
    assert "aiBlocked" in [a.code for a in changed[1]]
    assert alerts_of(versions, 2) == changed[2:]
