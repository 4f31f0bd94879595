"""The lists in force at a moment: each list's latest version created by then, never a later one; and a
history given its versions unread reads only those its moments select."""

from __future__ import annotations

import json
import pickle
from collections import Counter
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotscope.syntax.iplists import IpList, creation_timestamp, read_list
from robotscope.syntax.listhistory import VERSIONS_KEPT, Known, ListHistory
from tests.clock import moment as at


def version(name: str, created: str | None, *prefixes: str) -> IpList:
    document: dict[str, object] = {"prefixes": [{"ipv4Prefix": p} for p in prefixes]}
    if created is not None:
        document["creationTime"] = created
    return read_list(json.dumps(document).encode(), name)


GOOGLE = "google-common-crawlers.json"
OLD = version(GOOGLE, "2026-10-01T00:00:00", "66.249.64.0/27")
NEW = version(GOOGLE, "2026-11-01T00:00:00Z", "66.249.66.0/27")
BING = version("bing-bingbot.json", None, "157.55.39.0/24")
HISTORY = ListHistory([NEW, BING, OLD])
MOVED = "66.249.66.1"  # in the new version only


def test_creation_time_without_a_zone_is_utc() -> None:
    assert creation_timestamp("2026-10-01T00:00:00") == creation_timestamp("2026-10-01T00:00:00Z")
    assert creation_timestamp("2026-10-01") == creation_timestamp("2026-10-01T00:00:00+00:00")
    assert creation_timestamp("yesterday") is None


def test_versions_are_kept_oldest_first_whatever_the_order_given() -> None:
    assert HISTORY.versions("google-common-crawlers.json") == (OLD, NEW)
    assert HISTORY.names() == ("bing-bingbot.json", "google-common-crawlers.json")


def test_the_version_in_force_is_the_latest_created_by_then() -> None:
    assert HISTORY.at(at("2026-10-15")) == (OLD,)
    assert HISTORY.at(at("2026-11-01T00:00:00Z")) == (NEW,)  # in force from its creation time on
    assert HISTORY.at(at("2026-10-31T23:59:59Z")) == (OLD,)
    assert HISTORY.index(at("2026-10-15")).covering(MOVED) == ()
    assert [c.name for c in HISTORY.index(at("2026-11-15")).covering(MOVED) or ()] == ["google-common-crawlers.json"]


def test_before_the_first_version_a_list_is_not_at_hand() -> None:
    assert HISTORY.at(at("2026-09-01")) == ()
    assert HISTORY.available(at("2026-09-01")) == frozenset()


def test_an_undated_version_counts_only_for_now() -> None:
    assert HISTORY.at() == (BING, NEW)
    assert HISTORY.available() == {"bing-bingbot.json", "google-common-crawlers.json"}
    assert "bing-bingbot.json" not in HISTORY.available(at("2026-11-15"))


def test_an_index_is_built_once_per_selection() -> None:
    history = ListHistory([OLD, NEW])
    assert history.index(at("2026-10-02")) is history.index(at("2026-10-20"))
    assert history.index(at("2026-10-02")) is not history.index(at("2026-11-02"))


# Laziness: versions given unread (`Known`) are read by the loader only when a moment selects them.

DAY = 86_400.0
START = at("2030-01-01")
LISTS = ("google-common-crawlers.json", "openai-gptbot.json", "bing-bingbot.json")


def daily(name: str, day: int) -> IpList:
    """`name`'s version of day `day`: it alone covers 10.<day / 256>.<day % 256>.0/24."""
    created = datetime.fromtimestamp(START + day * DAY, UTC).isoformat()
    return version(name, created, f"10.{day // 256}.{day % 256}.0/24")


class Loader:
    """Reads a `Known` version back from `kept` by its key, and counts what it read."""

    def __init__(self, kept: dict[int, IpList]) -> None:
        self.kept = kept
        self.read: Counter[int] = Counter()

    def __call__(self, known: Known) -> IpList:
        assert isinstance(known.key, int)
        self.read[known.key] += 1
        return self.kept[known.key]


def lazy(versions: list[IpList]) -> tuple[ListHistory, Loader]:
    """A history given `versions` unread, in the order given, and the loader it reads them with."""
    loader = Loader(dict(enumerate(versions)))
    known = []
    for key, found in enumerate(versions):
        moment = None if found.creation_time is None else creation_timestamp(found.creation_time)
        known.append(Known(found.name, moment, key))
    return ListHistory(known, loader), loader


DAYS = 200
YEAR = [daily(name, day) for day in range(DAYS) for name in LISTS]  # 600 versions, oldest first


def test_a_lazy_history_reads_nothing_to_learn_its_lists_and_moments() -> None:
    history, loader = lazy(YEAR)
    assert history.names() == tuple(sorted(LISTS))
    assert history.moments() == tuple(START + day * DAY for day in range(DAYS))
    assert sum(loader.read.values()) == 0


def test_one_moment_reads_one_version_of_each_list_once() -> None:
    history, loader = lazy(YEAR)
    when = START + 150.5 * DAY
    assert [found.creation_time for found in history.at(when)] == [daily(LISTS[0], 150).creation_time] * 3
    history.index(when), history.available(when), history.at(when)
    assert sorted(loader.read) == [150 * len(LISTS) + n for n in range(len(LISTS))]
    assert set(loader.read.values()) == {1}  # each read once, then kept
    # The same selection at another moment of the day reads nothing more.
    assert history.index(when + 3600) is history.index(when) and sum(loader.read.values()) == len(LISTS)


def test_now_reads_the_newest_version_of_each_list_only() -> None:
    history, loader = lazy(YEAR)
    assert history.available() == set(LISTS) and history.index().covering("10.0.199.1")
    assert sorted(loader.read) == [(DAYS - 1) * len(LISTS) + n for n in range(len(LISTS))]


def test_the_moments_of_a_span_read_only_the_versions_in_force_during_it() -> None:
    history, loader = lazy(YEAR)
    for hour in range(10 * 24):  # ten days of a log, a request an hour, from the middle of day 100
        history.index(START + 100.5 * DAY + hour * 3600)
    read_days = {key // len(LISTS) for key in loader.read}
    assert read_days == set(range(100, 111)) and set(loader.read.values()) == {1}


def test_versions_read_are_kept_within_a_bound_the_least_recently_used_dropped() -> None:
    history, loader = lazy(YEAR)
    days = VERSIONS_KEPT // len(LISTS) + 1  # more versions than are kept
    for day in range(days):
        history.at(START + day * DAY)
    history.at(START + (days - 1) * DAY)  # the latest: still kept
    assert set(loader.read.values()) == {1}
    history.at(START)  # the first: dropped since, read again
    assert loader.read[0] == 2


def test_a_version_to_read_later_needs_a_loader() -> None:
    with pytest.raises(ValueError, match="no loader"):
        ListHistory([Known(GOOGLE, 0.0, 1)])


versions_drawn = st.lists(
    st.tuples(st.sampled_from(LISTS), st.one_of(st.none(), st.integers(0, 20)), st.integers(0, 255)), max_size=30
)


@settings(max_examples=200, deadline=None)
@given(drawn=versions_drawn, moments=st.lists(st.one_of(st.none(), st.integers(-1, 22)), max_size=10))
def test_a_lazy_history_answers_as_the_same_history_given_read(
    drawn: list[tuple[str, int | None, int]], moments: list[int | None]
) -> None:
    versions = [
        version(name, None if day is None else daily(name, day).creation_time, f"10.9.{octet}.0/24")
        for name, day, octet in drawn
    ]
    read, (unread, _) = ListHistory(versions), lazy(versions)
    assert unread.names() == read.names()
    assert unread.moments() == tuple(sorted({START + day * DAY for _, day, _ in drawn if day is not None}))
    for name in LISTS:
        assert unread.versions(name) == read.versions(name)
    for day in moments:
        when = None if day is None else START + day * DAY
        assert unread.at(when) == read.at(when) and unread.available(when) == read.available(when)
        for _, _, octet in drawn:
            assert unread.index(when).covering(f"10.9.{octet}.1") == read.index(when).covering(f"10.9.{octet}.1")


def test_a_pickled_history_answers_as_it_did() -> None:
    # `logs --jobs` sends the lists to every worker: the compiled build pickles through the constructor.
    history, _ = lazy(YEAR)
    when = START + 150.5 * DAY
    before = history.at(when)
    copy = pickle.loads(pickle.dumps(history))
    assert copy.names() == history.names() and copy.moments() == history.moments()
    assert copy.at(when) == before and copy.at() == history.at()
    assert pickle.loads(pickle.dumps(HISTORY)).index(at("2026-11-15")).covering(MOVED)
