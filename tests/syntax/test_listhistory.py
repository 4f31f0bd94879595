"""The lists in force at a moment: each list's latest version created by then, never a later one."""

from __future__ import annotations

import json

from robotscope.syntax.iplists import IpList, creation_timestamp, read_list
from robotscope.syntax.listhistory import ListHistory
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
