"""Sessions: five minutes without a request end one; robots.txt first; gaps against the Crawl-delay; pieces stitched."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from robotscope.reports.audit import sessions
from robotscope.reports.audit.sessions import GAP, Tracks

Event = tuple[str, str | None, float, bool, float | None]


def totals(events: list[Event]) -> dict[str, dict[str, object]]:
    tracks = Tracks()
    for event in events:
        tracks.add(*event)
    return {token: found.as_dict() for token, found in tracks.by_token().items()}


def test_a_session_ends_after_five_minutes_and_gaps_count_against_the_delay() -> None:
    events: list[Event] = [
        ("bingbot", "https://a", 0.0, True, 15.0),
        ("bingbot", "https://a", 10.0, False, 15.0),  # 10 s < 15 s: too soon
        ("bingbot", "https://a", 40.0, False, 15.0),  # 30 s: kept the delay
        ("bingbot", "https://a", 50.0, False, 15.0),  # 10 s: too soon
        ("bingbot", "https://a", 50.0 + GAP + 1, False, 15.0),  # a new session, without robots.txt
        ("bingbot", "https://b", 60.0, False, None),  # another origin: its own session, no delay
    ]
    found = totals(events)["bingbot"]
    assert found == {
        "sessions": 3,
        "robots_first": 1,
        "gaps": 3,
        "delayed": 3,
        "short": 2,
        "shortest": 10.0,
        "delay": 15.0,
        "too_fast": True,
    }


def test_a_request_logged_after_a_later_one_is_a_gap_of_nothing() -> None:
    found = totals([("x", None, 100.0, False, 5.0), ("x", None, 98.0, False, 5.0), ("x", None, 103.0, False, 5.0)])
    # 98 is 2 s before 100: sent while 100 was served (gap 0); 103 comes 3 s after 100.
    assert (found["x"]["sessions"], found["x"]["gaps"], found["x"]["short"], found["x"]["shortest"]) == (1, 2, 2, 0.0)
    far = totals([("x", None, 10_000.0, False, None), ("x", None, 100.0, False, None), ("x", None, 110.0, False, None)])
    assert (far["x"]["sessions"], far["x"]["gaps"]) == (2, 1)  # far back: a new session, read from there


def test_a_request_logged_after_a_later_one_at_a_seam_leaves_the_later_one_the_latest() -> None:
    events: list[Event] = [("x", None, when, False, 5.0) for when in (100.0, 98.0, 103.0)]
    merged = Tracks()
    for event in events:  # a piece each, as `--jobs` cuts a log of long lines
        piece = Tracks()
        piece.add(*event)
        merged.then(piece)
    assert {token: found.as_dict() for token, found in merged.by_token().items()} == totals(events)


def test_no_gap_under_no_delay_says_nothing_of_speed() -> None:
    found = totals([("x", None, 0.0, False, None), ("x", None, 1.0, False, None)])
    assert (found["x"]["gaps"], found["x"]["delayed"], found["x"]["too_fast"]) == (1, 0, None)


_events = st.lists(
    st.tuples(
        st.sampled_from(["a", "b"]),
        st.sampled_from([None, "https://x", "https://y"]),
        st.floats(min_value=0, max_value=2 * GAP),  # the gap since the event before
        st.booleans(),
        st.sampled_from([None, 0.0, 5.0, 30.0]),
    ),
    max_size=40,
)


@given(_events, st.lists(st.integers(min_value=0, max_value=40), max_size=4))
def test_pieces_stitched_in_order_give_what_one_pass_gives(raw: list[Event], cuts: list[int]) -> None:
    events: list[Event] = []
    now = 0.0
    for token, origin, gap, robots, delay in raw:
        now += gap
        events.append((token, origin, now, robots, delay))
    whole = totals(events)
    pieces: list[Tracks] = []
    for start, end in zip([0, *sorted(cuts)], [*sorted(cuts), len(events)], strict=True):
        piece = Tracks()
        for event in events[start:end]:
            piece.add(*event)
        pieces.append(piece)
    merged = pieces[0]
    for piece in pieces[1:]:
        merged.then(piece)
    assert {token: found.as_dict() for token, found in merged.by_token().items()} == whole
    assert merged.cut == 0


_unordered = st.lists(
    st.tuples(
        st.sampled_from(["a", "b"]),
        st.sampled_from([None, "https://x"]),
        st.floats(min_value=0, max_value=2 * GAP),  # any time, in any order: within and past `GAP` of another
        st.booleans(),
        st.sampled_from([None, 5.0, 30.0]),
    ),
    max_size=40,
)


def _stitched(events: list[Event], cuts: list[int]) -> Tracks:
    """`events` cut at `cuts` into pieces, each read alone, stitched in order."""
    merged = Tracks()
    for start, end in zip([0, *sorted(cuts)], [*sorted(cuts), len(events)], strict=True):
        piece = Tracks()
        for event in events[start:end]:
            piece.add(*event)
        merged.then(piece)
    return merged


@given(_unordered, st.lists(st.integers(min_value=0, max_value=40), max_size=6))
def test_pieces_of_input_in_any_order_give_what_one_pass_gives(events: list[Event], cuts: list[int]) -> None:
    merged = _stitched(events, [min(cut, len(events)) for cut in cuts])
    assert {token: found.as_dict() for token, found in merged.by_token().items()} == totals(events)
    assert merged.cut == 0


def test_a_piece_read_against_where_the_piece_before_left_its_track() -> None:
    # The piece before left x at 400; 150 and 390 were sent while 400 was served (gaps of 0), 420 is 20 s on.
    # Alone, the second piece would read 390 as 240 s after 150.
    events: list[Event] = [("x", None, when, False, 30.0) for when in (400.0, 150.0, 390.0, 420.0)]
    merged = _stitched(events, [1])
    found = merged.by_token()["x"].as_dict()
    assert found == totals(events)["x"]
    assert (found["sessions"], found["gaps"], found["short"], found["shortest"]) == (1, 3, 3, 0.0)


def test_heads_stay_within_their_bound_and_what_outgrows_it_is_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sessions, "HEADS", 5)
    piece = Tracks()
    for n in range(20):  # every request within `GAP` of the first: none closes the head
        piece.add("x", None, float(n), False, None)
        assert piece.heads <= 5
    merged = _stitched([("x", None, 0.0, False, None)], [])
    merged.then(piece)
    found = merged.by_token()["x"]
    assert (found.sessions, found.gaps, merged.cut) == (2, 19, 1)  # the piece's session is not stitched, and says so


def test_tracks_stay_within_their_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sessions, "MAX_TRACKS", 20)
    tracks = Tracks()
    for n in range(200):
        tracks.add("x", f"https://{n}.example", float(n), n % 2 == 0, None)
        assert len(tracks.tracks) <= 20
    found = tracks.by_token()["x"]
    assert (found.sessions, found.robots_first) == (200, 100)  # every session still counted
    assert tracks.cut == 200 - len(tracks.tracks)


def test_tracks_merged_from_pieces_stay_within_their_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each `--jobs` chunk keeps its own tracks within the bound; the merged ones must stay within it too.
    monkeypatch.setattr(sessions, "MAX_TRACKS", 20)
    merged = Tracks()
    for piece_number in range(10):
        piece = Tracks()
        for n in range(10):
            piece.add("x", f"https://{piece_number}-{n}.example", piece_number * 1000.0 + n, n == 0, None)
        merged.then(piece)
        assert len(merged.tracks) <= 20
    found = merged.by_token()["x"]
    assert (found.sessions, found.robots_first) == (100, 10)  # every session still counted
    assert merged.cut == 100 - len(merged.tracks)
