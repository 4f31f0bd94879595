"""`verify` and `logs` over a store of hundreds of list versions read only the versions they judge by."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from robotscope.cli import cli
from tests.reports.audit.builders import Hit, agent, log_text
from tests.verifying.daily_lists import DAY, DAYS, LISTS, START, covered, created, daily_store, lists_read

pytestmark = pytest.mark.usefixtures("isolated")


@pytest.fixture(scope="module")
def kept(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return daily_store(tmp_path_factory.mktemp("store") / "history.sqlite3")


def run(*args: str) -> tuple[int, Any]:
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code in (0, 1), result.stderr
    return result.exit_code, json.loads(result.stdout.splitlines()[-1] if "--file" in args else result.stdout)


def test_verify_at_a_moment_reads_one_version_of_each_list(kept: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    read = lists_read(monkeypatch)
    when = f"{created(150)[:10]}T12:00:00Z"
    code, said = run(
        "verify", covered(150), covered(149), "--agent", "GPTBot", "--no-dns", "--at", when, "--store", str(kept)
    )
    assert code == 1 and [c["status"] for c in said["claims"]] == ["verified", "spoofed"]
    assert said["lists"] == [{"list": "openai-gptbot.json", "creation_time": created(150)}]
    assert read == dict.fromkeys(LISTS, 1)


def test_verify_now_reads_the_newest_version_of_each_list(kept: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    read = lists_read(monkeypatch)
    code, said = run("verify", covered(DAYS - 1), "--agent", "GPTBot", "--no-dns", "--store", str(kept))
    assert code == 0 and said["claims"][0]["status"] == "verified"
    assert read == dict.fromkeys(LISTS, 1)


def test_verify_a_file_at_a_moment_reads_one_version_of_each_list(
    kept: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pairs = tmp_path / "claims.txt"
    pairs.write_text("".join(f"{covered(day)}\t{agent('GPTBot')}\n" for day in range(DAYS)))
    read = lists_read(monkeypatch)
    code, said = run("verify", "--file", str(pairs), "--no-dns", "--at", created(20), "--store", str(kept))
    assert code == 1 and said["counts"]["verified"] == 1 and said["counts"]["spoofed"] == DAYS - 1
    assert read == dict.fromkeys(LISTS, 1)


def test_logs_read_only_the_versions_in_force_during_the_logs_span(
    kept: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    robots = tmp_path / "robots" / "shop.example"
    robots.mkdir(parents=True)
    (robots / "2029-12-01T00:00Z.txt").write_text("User-agent: *\nDisallow: /private/\n")
    # Three days of GPTBot requests, an hour apart, each from the address of the version of its day.
    hits = [Hit(covered(60 + hour // 24), START + 60 * DAY + hour * 3600, "/", agent("GPTBot")) for hour in range(72)]
    log = tmp_path / "access.log"
    log.write_text(log_text("combined", hits))
    read = lists_read(monkeypatch)
    _, view = run(
        "logs",
        str(log),
        "--robots-dir",
        str(robots.parent),
        "--site",
        "https://shop.example",
        "--store",
        str(kept),
        "--no-dns",
        "--jobs",
        "1",
    )
    (gptbot,) = view["crawlers"]
    assert gptbot["verification"] == {"verified": 72}  # each request by the version of its own day
    assert read == dict.fromkeys(LISTS, 3)
