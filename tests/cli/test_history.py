"""`robotscope history`: a store's versions listed, the one in force, one shown, two compared; errors exit 2."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from robotscope.cli import cli
from robotscope.fetch import fetch_robots
from robotscope.history import HistoryStore
from tests.clock import Clock
from tests.conftest import Server
from tests.history.results import ORIGIN, failed, fetched

pytestmark = pytest.mark.usefixtures("isolated")

OPEN = b"User-agent: *\nDisallow: /private/\n"
CLOSED = b"User-agent: *\nDisallow: /\n"
# 2026-12-01T00:00:00Z, then a day and an hour later, ...
T0 = datetime(2026, 12, 1, tzinfo=UTC).timestamp()
DAY = 86400.0


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    """Two versions of example.com: OPEN (browser and Googlebot), CLOSED from Dec 2 01:00 (Googlebot), a 503."""
    path = tmp_path / "history.sqlite3"
    clock = Clock(T0)
    with HistoryStore(path, now=clock) as store:
        store.record(ORIGIN, "browser", fetched(OPEN))
        store.record(ORIGIN, "Googlebot", fetched(OPEN))
        clock.now = T0 + DAY + 3600
        store.record(ORIGIN, "Googlebot", fetched(CLOSED))
        clock.now = T0 + 2 * DAY
        store.record(ORIGIN, "Googlebot", fetched(b"down", 503))
        store.record(ORIGIN, "browser", failed("timeout"))
    return path


def history(*args: str) -> Result:
    return CliRunner().invoke(cli, ["history", *args])


def test_the_versions_are_listed_oldest_first(store_path: Path) -> None:
    result = history(ORIGIN, "--store", str(store_path))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "https://example.com: 2 versions of robots.txt"
    first = next(line for line in lines if " 1 " in line and "2026-12-01T00:00:00Z" in line)
    assert "200" in first and f"{len(OPEN)}" in first and "Googlebot, browser" in first
    second = next(line for line in lines if "2026-12-02T01:00:00Z" in line)
    assert " 2 " in second and "Googlebot" in second and "browser" not in second
    assert "2 failed fetches; the last at 2026-12-03T00:00:00Z: timeout as browser" in result.stdout


def test_json_lists_every_field(store_path: Path) -> None:
    result = history("https://example.com/any/page", "--store", str(store_path), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["origin"] == ORIGIN and data["store"] == str(store_path)
    one, two = data["versions"]
    assert (one["number"], one["agents"], one["first_seen"]) == (1, ["Googlebot", "browser"], "2026-12-01T00:00:00Z")
    assert two["first_seen"] == two["last_seen"] == "2026-12-02T01:00:00Z" and two["status"] == 200
    assert two["final_url"] == ORIGIN + "/robots.txt" and two["hops"] == [{"url": two["final_url"], "status": 200}]
    assert len(two["sha256"]) == 64 and two["headers"] == {"content-type": "text/plain"}
    assert data["failures"] == [
        {"at": "2026-12-03T00:00:00Z", "agent": "Googlebot", "failure": "5xx", "status": 503},
        {"at": "2026-12-03T00:00:00Z", "agent": "browser", "failure": "timeout", "status": None},
    ]


def test_each_version_says_what_it_changed_since_the_one_before(store_path: Path) -> None:
    # Version 2 (Googlebot's `Disallow: /`) against version 1, the one Googlebot saw before it.
    data = json.loads(history(ORIGIN, "--store", str(store_path), "--json").stdout)
    one, two = data["versions"]
    assert one["alerts"] == []
    assert two["alerts"][0]["code"] == "siteBlocked" and two["alerts"][0]["severity"] == "critical"
    assert "Googlebot" in two["alerts"][0]["text"]
    table = history(ORIGIN, "--store", str(store_path)).stdout
    assert "critical siteBlocked" in next(line for line in table.splitlines() if "2026-12-02T01:00:00Z" in line)


def test_an_agent_sees_its_own_versions_under_the_same_numbers(store_path: Path) -> None:
    data = json.loads(history(ORIGIN, "--store", str(store_path), "--agent", "browser", "--json").stdout)
    assert [v["number"] for v in data["versions"]] == [1] and [f["agent"] for f in data["failures"]] == ["browser"]
    data = json.loads(history(ORIGIN, "--store", str(store_path), "--agent", "Googlebot", "--json").stdout)
    assert [v["number"] for v in data["versions"]] == [1, 2]


@pytest.mark.parametrize(
    ("when", "number"),
    [
        ("2026-11-30T23:59:59Z", None),  # before the first fetch
        ("2026-12-01", 1),  # a date: its first moment, the very second of the first fetch
        ("2026-12-02T00:59:59", 1),  # no zone: UTC
        ("2026-12-02T01:00:00Z", 2),  # the second of the change
        ("2026-12-02T02:00:00+01:00", 2),  # 01:00 UTC
        ("2026-12-02T01:59:59+01:00", 1),  # 00:59:59 UTC
        ("2026-12-25", 2),  # the 503 after it leaves version 2 in force
    ],
)
def test_at_gives_the_version_in_force(store_path: Path, when: str, number: int | None) -> None:
    result = history(ORIGIN, "--store", str(store_path), "--at", when, "--json")
    assert result.exit_code == (1 if number is None else 0), result.output
    data = json.loads(result.stdout)
    assert (None if data["version"] is None else data["version"]["number"]) == number
    text = history(ORIGIN, "--store", str(store_path), "--at", when)
    if number is None:
        assert text.stdout.startswith("no version of https://example.com was in force at ")
    else:
        assert f"version {number} of https://example.com was in force at " in text.stdout


def test_at_for_one_agent(store_path: Path) -> None:
    result = history(ORIGIN, "--store", str(store_path), "--at", "2026-12-24", "--agent", "browser", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["version"]["number"] == 1


def test_show_prints_the_version_byte_for_byte(tmp_path: Path) -> None:
    body = b"User-agent: *\r\nDisallow: /caf\xe9\n\xff"
    path = tmp_path / "history.sqlite3"
    with HistoryStore(path, now=Clock(T0)) as store:
        store.record(ORIGIN, "browser", fetched(body))
    result = history(ORIGIN, "--store", str(path), "--show", "1")
    assert result.exit_code == 0 and result.stdout_bytes == body
    data = json.loads(history(ORIGIN, "--store", str(path), "--show", "1", "--json").stdout)
    assert data["version"]["number"] == 1 and data["version"]["text"] == body.decode("utf-8", "replace")


def test_diff_runs_diff_between_two_versions(store_path: Path) -> None:
    result = history(ORIGIN, "--store", str(store_path), "--diff", "1", "2")
    assert result.exit_code == 1, result.output  # a verdict flips
    assert "https://example.com #1" in result.stdout and "https://example.com #2" in result.stdout
    assert "(line 2)" in result.stdout
    data = json.loads(history(ORIGIN, "--store", str(store_path), "--diff", "2", "1", "--json").stdout)
    assert data["old"] == "https://example.com #2" and data["flips"]
    assert {(f["url"], f["old"]["allowed"], f["new"]["allowed"]) for f in data["flips"]} >= {("/", False, True)}
    same = history(ORIGIN, "--store", str(store_path), "--diff", "1", "1")
    assert same.exit_code == 0 and same.stdout.startswith("no change")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--at", "yesterday"], "--at takes an ISO 8601 date or date and time"),
        (["--at", "2026-13-45"], "not '2026-13-45'"),
        (["--show", "3"], "https://example.com has no version 3: its versions are numbered 1 to 2"),
        (["--show", "0"], "has no version 0"),
        (["--diff", "1", "9"], "has no version 9"),
        (["--at", "2026-12-01", "--show", "1"], "give at most one of --at, --show and --diff"),
    ],
)
def test_bad_usage_is_one_line_and_exit_2(store_path: Path, args: list[str], said: str) -> None:
    result = history(ORIGIN, "--store", str(store_path), *args)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and said in result.stderr, result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_missing_store_and_an_unknown_origin_are_errors(store_path: Path, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "history.sqlite3"
    result = history(ORIGIN, "--store", str(missing))
    assert result.exit_code == 2 and result.stderr == f"robotscope: no history store at {missing}: " + (
        "`robotscope watch` makes one, or give --store PATH\n"
    )
    assert not missing.parent.exists()  # reading never creates a store
    result = history("https://other.example/", "--store", str(store_path))
    assert result.exit_code == 2
    assert result.stderr == f"robotscope: the history store {store_path} holds nothing for https://other.example\n"
    result = history("ftp://example.com/", "--store", str(store_path))
    assert result.exit_code == 2 and result.stderr.count("\n") == 1 and "Traceback" not in result.output


def test_the_default_store_is_beside_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    result = history(ORIGIN)
    assert result.exit_code == 2 and str(tmp_path / "robotscope" / "history.sqlite3") in result.stderr


def test_korean_output(store_path: Path) -> None:
    result = history(ORIGIN, "--store", str(store_path), "--at", "2026-12-02T01:00:00Z", "--lang", "ko")
    assert result.exit_code == 0 and "버전 2가 적용되고 있었습니다" in result.stdout
    bad = history(ORIGIN, "--store", str(store_path), "--show", "7", "--lang", "ko")
    assert bad.exit_code == 2 and "버전 7이 없습니다" in bad.stderr


def test_a_real_server_changing_its_file_end_to_end(server: Server, tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    clock = Clock(T0)
    with HistoryStore(path, now=clock) as store:
        for body, hour in ((OPEN, 0), (OPEN, 1), (CLOSED, 2)):
            server.serve("/robots.txt", 200, body, {"ETag": f'"{hour}"'})
            clock.now = T0 + hour * 3600
            store.record(server.url("/"), "browser", fetch_robots(server.url("/"), cache=False))
    assert server.hits["/robots.txt"] == 3
    origin = server.url("/").rstrip("/")
    listed = json.loads(history(server.url("/"), "--store", str(path), "--json").stdout)
    assert [(v["first_seen"], v["last_seen"]) for v in listed["versions"]] == [
        ("2026-12-01T00:00:00Z", "2026-12-01T01:00:00Z"),
        ("2026-12-01T02:00:00Z", "2026-12-01T02:00:00Z"),
    ]
    assert [v["headers"]["etag"] for v in listed["versions"]] == ['"0"', '"2"']  # as first seen
    at = history(origin, "--store", str(path), "--at", "2026-12-01T01:59:59Z", "--show", "1")
    assert at.exit_code == 2  # one question at a time
    shown = history(origin, "--store", str(path), "--show", "2")
    assert shown.stdout_bytes == CLOSED
    flipped = history(origin, "--store", str(path), "--diff", "1", "2", "--json")
    assert flipped.exit_code == 1 and any(f["url"] == "/" for f in json.loads(flipped.stdout)["flips"])
