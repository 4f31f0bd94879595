"""A history store of two lists updated daily for months, and a count of the lists read from any of them.

Day d's version of each list alone covers `covered(d)`: the verdict on that address tells which
version was in force.
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest

from robotscope.history import HistoryStore
from robotscope.syntax import iplists
from robotscope.syntax.iplists import shipped, snapshot
from tests.clock import Clock
from tests.clock import moment as at

DAY = 86_400.0
START = at("2030-01-01")  # after every shipped snapshot: from day 0 the stored versions are in force
LISTS = ("google-common-crawlers.json", "openai-gptbot.json")
DAYS = 200  # 400 versions


def created(day: int) -> str:
    return datetime.fromtimestamp(START + day * DAY, UTC).isoformat()


def noon(day: int) -> float:
    return START + (day + 0.5) * DAY


def covered(day: int) -> str:
    """An address in day `day`'s version of each list, and in no other version of them."""
    return f"10.{day // 256}.{day % 256}.1"


def daily_store(path: Path, days: int = DAYS) -> Path:
    """A store at `path` holding each of `LISTS` once a day for `days` days from `START`."""
    with HistoryStore(path, now=Clock(START)) as store:
        for day in range(days):
            prefix = {"ipv4Prefix": f"10.{day // 256}.{day % 256}.0/24"}
            for name in LISTS:
                body = json.dumps({"creationTime": created(day), "prefixes": [prefix]}).encode()
                assert store.record_list(name, created(day), body, f"https://lists.example/{name}").new
    return path


def lists_read(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How many times each list is read from now on (every `read_list`, whoever calls it), by name.

    The shipped snapshots are read beforehand (they are read once per process, and kept).
    """
    for name in shipped():
        snapshot(name)
    read: Counter[str] = Counter()

    class Counting(iplists._Reader):
        def __init__(self, name: str) -> None:
            super().__init__(name)
            read[name] += 1

    monkeypatch.setattr(iplists, "_Reader", Counting)
    return read
