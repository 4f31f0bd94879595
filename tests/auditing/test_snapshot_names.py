"""Dated snapshot names (`DIR/HOST[_PORT]/TIME.txt`): the times and hosts they are read as, and the fuzz target."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from robotscope.auditing.sources import BadName, host_origins, snapshot_moment
from robotscope.syntax.urls import InvalidURL
from tests.fuzz.fuzz_snapshots import SEEDS, check
from tests.fuzz.harness import run_briefly


@pytest.mark.parametrize(
    ("name", "written"),
    [
        ("2026-11-03.txt", "2026-11-03T00:00:00"),
        ("2026-11-03T12Z.txt", "2026-11-03T12:00:00"),
        ("2026-11-03T12:05Z.txt", "2026-11-03T12:05:00"),
        ("2026-11-03T12:05:30Z.txt", "2026-11-03T12:05:30"),
        ("2026-11-03T12-05-30Z.txt", "2026-11-03T12:05:30"),
        ("2026-11-03T120530Z.txt", "2026-11-03T12:05:30"),
        ("2026-11-03t1205z.TXT", "2026-11-03T12:05:00"),
    ],
)
def test_the_times_a_name_may_spell(name: str, written: str) -> None:
    assert snapshot_moment(name) == datetime.fromisoformat(written).replace(tzinfo=UTC).timestamp()


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("2026-11-03", "a snapshot's name ends in .txt"),
        ("2026-11-03.md", "a snapshot's name ends in .txt"),
        ("robots.txt", "a snapshot is named by its UTC time"),
        ("2026-11-03 12:00Z.txt", "a snapshot is named by its UTC time"),
        ("2026-11-03T12:00-30Z.txt", "a snapshot is named by its UTC time"),  # two separators
        ("2026-11-03T12:00+02:00.txt", "a snapshot is named by its UTC time"),
        ("\uff12\uff10\uff12\uff16-11-03.txt", "a snapshot is named by its UTC time"),  # full-width digits
        ("2026-11-03T12:00.txt", "the time must end with Z (UTC)"),
        ("2026-02-29.txt", "there is no such date or time"),
        ("2026-11-03T24:00Z.txt", "there is no such date or time"),
        ("0000-01-01.txt", "there is no such date or time"),
    ],
)
def test_names_that_are_not_times_say_why(name: str, reason: str) -> None:
    with pytest.raises(BadName) as refused:
        snapshot_moment(name)
    assert refused.value.reason.render().startswith(reason)


@given(st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31)))
def test_every_second_written_in_each_form_reads_back(moment: datetime) -> None:
    expected = moment.replace(microsecond=0, tzinfo=UTC).timestamp()
    date = f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}"
    for sep in (":", "-", ""):
        time = sep.join(f"{part:02d}" for part in (moment.hour, moment.minute, moment.second))
        assert snapshot_moment(f"{date}T{time}Z.txt") == expected


@pytest.mark.parametrize(
    ("folder", "origins"),
    [
        ("example.com", ("http://example.com", "https://example.com")),
        ("Example.COM_8080", ("http://example.com:8080", "https://example.com:8080")),
        ("example.com:8080", ("http://example.com:8080", "https://example.com:8080")),
        ("example.com_443", ("http://example.com:443", "https://example.com")),  # a default port is dropped
        ("bücher.example", ("http://xn--bcher-kva.example", "https://xn--bcher-kva.example")),
        ("[::1]_8080", ("http://[::1]:8080", "https://[::1]:8080")),
    ],
)
def test_host_folders(folder: str, origins: tuple[str, str]) -> None:
    assert host_origins(folder) == origins


@pytest.mark.parametrize("folder", ["bad host!", "a/b", "user@example.com", "example.com_99999", "", "x?y", "x#y"])
def test_folders_that_are_not_hosts(folder: str) -> None:
    with pytest.raises(InvalidURL):
        host_origins(folder)


@pytest.mark.parametrize("seed", sorted(SEEDS.iterdir()), ids=lambda p: p.name)
def test_the_fuzz_target_passes_on_every_seed(seed: Path) -> None:
    check(seed.read_bytes())


def test_the_fuzz_target_runs_under_atheris(tmp_path: Path) -> None:
    run_briefly("tests.fuzz.fuzz_snapshots", SEEDS, tmp_path, 3000)
