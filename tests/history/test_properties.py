"""A property: whatever is recorded, in whatever order of time, `at` answers as a naive replay does."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from robotscope.history import HistoryStore
from tests.clock import Clock

from .results import ORIGIN, failed, fetched

AGENTS = ("browser", "Googlebot", "GPTBot")
BODIES = (b"User-agent: *\nDisallow: /a\n", b"User-agent: *\nDisallow: /\n", b"\xff\xfe not utf-8\n", b"")
# One record: a time (few, so ties happen), an agent, and a body's index or None for a failure.
records = st.lists(
    st.tuples(st.integers(0, 20), st.sampled_from(AGENTS), st.none() | st.integers(0, len(BODIES) - 1)),
    max_size=25,
)


def replay(done: list[tuple[int, str, int | None]], when: float, agent: str | None) -> bytes | None:
    """The body of the last successful record at or before `when` (the later one of a tie)."""
    found = None
    for _, (t, by, index) in sorted(enumerate(done), key=lambda pair: (pair[1][0], pair[0])):
        if t <= when and index is not None and agent in (None, by):
            found = BODIES[index]
    return found


@settings(max_examples=60)
@given(records)
def test_at_is_a_replay_of_the_records(done: list[tuple[int, str, int | None]]) -> None:
    with tempfile.TemporaryDirectory() as directory:
        clock = Clock()
        with HistoryStore(Path(directory) / "history.sqlite3", now=clock) as store:
            for at, agent, index in done:
                clock.now = float(at)
                store.record(ORIGIN, agent, failed() if index is None else fetched(BODIES[index]))
            for when in (-1.0, *(t + d for t in range(21) for d in (0.0, 0.5))):
                for asked in (None, *AGENTS):
                    version = store.at(ORIGIN, when, asked)
                    assert (None if version is None else version.body) == replay(done, when, asked)
            seen = {BODIES[i] for _, _, i in done if i is not None}
            assert sorted(v.body for v in store.versions(ORIGIN)) == sorted(seen)
            assert len(store.fetches(ORIGIN)) == len(done) and store.warnings == []
