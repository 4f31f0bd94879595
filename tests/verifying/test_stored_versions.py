"""The stored list versions are read only when a moment judged needs them: one moment reads one version of
each list, the moments of a log's span only the versions in force then, however long the history."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from robotscope.history import HistoryStore
from robotscope.reports.verification import Status
from robotscope.verify import Verifier
from robotscope.verifying.updates import list_history

from .daily_lists import DAY, DAYS, LISTS, START, covered, created, daily_store, lists_read, noon

GPTBOT = "Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)"


@pytest.fixture(scope="module")
def kept(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return daily_store(tmp_path_factory.mktemp("store") / "history.sqlite3")


def test_listing_the_history_reads_no_stored_version(kept: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    read = lists_read(monkeypatch)
    with HistoryStore(kept, read_only=True) as store:
        history = list_history(store)
    assert read == {} and set(LISTS) <= set(history.names())
    assert len(history.moments()) >= DAYS  # each day, and the shipped snapshots' own moments


def test_one_moment_reads_one_version_of_each_list(kept: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    read = lists_read(monkeypatch)
    with HistoryStore(kept, read_only=True) as store:
        history = list_history(store)
    # The store is closed: the versions are read through a connection of their own.
    assert {found.name: found.creation_time for found in history.at(noon(150))}.items() >= {
        (name, created(150)) for name in LISTS
    }
    assert history.index(noon(150)).covering(covered(150))
    assert read == dict.fromkeys(LISTS, 1)
    history.index(), history.available()  # now: the newest version of each
    assert read == dict.fromkeys(LISTS, 2)


def test_a_verifier_over_a_logs_span_reads_only_the_versions_in_force_then(
    kept: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read = lists_read(monkeypatch)
    with HistoryStore(kept, read_only=True) as store:
        verifier = Verifier(list_history(store))
    for hour in range(5 * 24):  # five days of requests, from noon of day 100
        when = noon(100) + hour * 3600
        day = int((when - START) // DAY)
        assert verifier.verify(covered(day), GPTBOT, when).status is Status.VERIFIED
        assert verifier.verify(covered(day - 1), GPTBOT, when).status is Status.SPOOFED
    assert read == dict.fromkeys(LISTS, 6)  # days 100 to 105


def test_a_history_sent_to_another_process_reads_from_the_file_there(
    kept: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with HistoryStore(kept, read_only=True) as store:
        history = list_history(store)
    history.index(noon(3))
    copy = pickle.loads(pickle.dumps(history))  # as `logs` sends it to its workers
    read = lists_read(monkeypatch)
    assert copy.index(noon(7)).covering(covered(7)) and read == dict.fromkeys(LISTS, 1)


def test_a_version_the_store_can_no_longer_give_leaves_its_list_not_at_hand(tmp_path: Path) -> None:
    path = daily_store(tmp_path / "history.sqlite3", days=3)
    with HistoryStore(path, read_only=True) as store:
        history = list_history(store)
    path.rename(tmp_path / "moved.sqlite3")
    gone = {found.name: found for found in history.at(noon(1))}["openai-gptbot.json"]
    assert gone.networks == () and [p.render() for p in gone.problems] == [
        "openai-gptbot.json: the version kept in the history store could not be read: the list is not at hand"
    ]
    assert "openai-gptbot.json" not in history.available(noon(1))
    found = Verifier(history).verify(covered(1), GPTBOT, noon(1))
    assert found.status is Status.INCONCLUSIVE  # never spoofed for want of the list
