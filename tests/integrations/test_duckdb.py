"""DuckDB's SQL functions give the plain library's verdicts, on the whole corpus and the same sample as Spark's;
the log audit's view gives the rows and counts of `robotscope logs`."""

from __future__ import annotations

import gzip
import io
import json
import sys
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pytest
from click.testing import CliRunner

from robotscope import Robots, parse
from robotscope.auditing import pieces as pieces_module
from robotscope.auditing.sources import from_dir
from robotscope.cli import cli
from robotscope.integrations.duckdb import audit, register
from robotscope.integrations.records import Unreadable
from robotscope.reports.audit.judge import GRACE
from robotscope.reports.audit.timeline import RobotsVersion
from robotscope.reports.audit.views import summary_view
from robotscope.syntax.crawlers import select
from robotscope.syntax.logformats import MAX_LINE, FormatError
from tests.cli.test_logs import BAD, GRACE_HITS, HITS, NEW, OLD, SITE, snapshots
from tests.paths import CORPUS
from tests.reports.audit.builders import log_text

PATHS = ("/", "/search?q=1")
AGENTS = [c.token for c in select("ai")]


@pytest.mark.slow  # the whole corpus
def test_robots_verdict_equals_the_library_on_the_whole_corpus() -> None:
    files = [
        (p.name, p.read_bytes().decode("utf-8", "surrogateescape"))
        for p in sorted(CORPUS.iterdir())
        if p.name != "README.md"
    ]
    rows = [(body, agent, f"https://{host}{path}") for host, body in files for path in PATHS for agent in AGENTS]
    table = pa.table(
        {
            "body": [r[0].encode("utf-8", "surrogateescape").decode("utf-8", "replace") for r in rows],
            "agent": [r[1] for r in rows],
            "url": [r[2] for r in rows],
        }
    )
    con = duckdb.connect()
    register(con)
    con.register("checks", table)
    got = con.sql(
        "SELECT robots_allowed(body, agent, url) AS allowed, robots_verdict(body, agent, url) AS v FROM checks"
    ).fetchall()
    assert len(got) == len(rows)
    parsed: dict[str, Robots] = {}
    for (allowed, verdict), body, agent, url in zip(
        got, table["body"].to_pylist(), table["agent"].to_pylist(), table["url"].to_pylist(), strict=False
    ):
        robots = parsed.get(body) or parsed.setdefault(body, parse(body))
        found = robots.answer(agent, url).verdict
        assert allowed is found.allowed
        assert verdict == {
            "allowed": found.allowed,
            "reason": found.reason.value,
            "line": found.line,
            "rule": None if found.rule is None else found.rule.text,
            "token": found.agent_token,
        }


def test_nulls_give_null_and_another_engine_reads_by_its_own_rules() -> None:
    con = duckdb.connect()
    register(con)
    got = con.sql(
        "SELECT robots_allowed(NULL, 'a', '/'), "
        "robots_verdict('User-agent: *\nDisallow /oops\n', 'Googlebot', '/oops').allowed,"
        " robots_verdict_by('google', 'User-agent: *\nDisallow /oops\n', 'Googlebot', '/oops').line"
    ).fetchall()
    assert got == [(None, True, 2)]  # RFC 9309 ignores the line without a colon; Google reads it as a rule


# The log audit's view: the rows and summary `robotscope logs` gives, read by DuckDB as it scans the logs.


def cli_audit(log: Path, robots_dir: Path, out: Path) -> dict[str, Any]:
    """The CLI's JSON view of `log`, its rows written to `out` (Parquet)."""
    args = ["logs", str(log), "--robots-dir", str(robots_dir), "--site", SITE, "--no-dns", "--json"]
    result = CliRunner().invoke(cli, [*args, "--parquet", str(out)])
    assert result.exit_code == 0, result.stderr
    view: dict[str, Any] = json.loads(result.stdout)
    return view


@pytest.fixture
def generated(tmp_path: Path) -> tuple[Path, list[RobotsVersion]]:
    """The CLI tests' log (every class, a robots.txt changed mid-log, bad lines), gzip'd, and its versions."""
    robots_dir = snapshots(tmp_path, ("2026-11-02T00:00Z.txt", OLD), ("2026-11-02T12:00Z.txt", NEW))
    log = tmp_path / "access.log.gz"
    log.write_bytes(gzip.compress(log_text("combined", HITS * 3, BAD["combined"]).encode()))
    return log, list(from_dir(str(robots_dir)).versions)


def test_the_audit_view_holds_the_clis_rows_and_its_summary_the_clis_counts(
    tmp_path: Path, generated: tuple[Path, list[RobotsVersion]]
) -> None:
    log, versions = generated
    view = cli_audit(log, tmp_path / "robots", tmp_path / "cli.parquet")
    con = duckdb.connect()
    summary = audit(con, [str(log)], versions, site=SITE)
    assert summary.requests == 0  # nothing is read before DuckDB scans the view
    con.sql("CREATE TABLE rows AS SELECT * FROM audit")
    assert con.sql("SELECT * FROM rows").fetchall() == con.sql(f"SELECT * FROM '{tmp_path / 'cli.parquet'}'").fetchall()
    by_class = dict(con.sql("SELECT class, count(*) FROM rows GROUP BY class").fetchall())
    assert by_class == {kind: count for kind, count in view["classes"].items() if count}
    assert by_class == {"allowed": 18, "violation": 6, "exempt": 6, "spoofed": 9, "unverified": 3}
    assert summary_view(summary, "en", versions) == view  # the bad lines and the sessions too
    with pytest.raises(duckdb.InvalidInputException, match="consumed"):
        con.sql("SELECT count(*) FROM audit").fetchall()  # a view of the scan, read once


def test_the_audit_view_takes_the_grace_of_the_command_line(tmp_path: Path) -> None:
    robots_dir = snapshots(tmp_path, ("2026-11-02T00:00Z.txt", OLD), ("2026-11-02T12:00Z.txt", NEW))
    log = tmp_path / "grace.log"
    log.write_text(log_text("combined", GRACE_HITS))
    versions = list(from_dir(str(robots_dir)).versions)
    con = duckdb.connect()
    counts = {}
    for name, grace in (("day", GRACE), ("none", 0.0), ("short", 1800.0)):
        summary = audit(con, [str(log)], versions, site=SITE, name=name, grace=grace)
        rows = con.sql(f"SELECT class, grace_version IS NOT NULL FROM {name} ORDER BY number").fetchall()
        counts[name] = (rows, summary_view(summary)["classes"]["grace"])
    assert counts == {
        "day": ([("grace", True), ("violation", False), ("violation", False)], 1),
        "none": ([("violation", False)] * 3, 0),
        "short": ([("violation", False)] * 3, 0),  # the request is an hour after the change
    }


def test_the_audit_in_pieces_on_two_workers_gives_the_same_rows(
    tmp_path: Path, generated: tuple[Path, list[RobotsVersion]], monkeypatch: pytest.MonkeyPatch
) -> None:
    log, versions = generated
    con = duckdb.connect()
    audit(con, [str(log)], versions, site=SITE, name="whole")
    rows = con.sql("SELECT * FROM whole").fetchall()
    monkeypatch.setattr(pieces_module, "BLOCK", 200)  # a piece of one or two lines
    here = audit(con, [str(log)], versions, site=SITE, name="here")
    assert con.sql("SELECT * FROM here").fetchall() == rows
    workers = audit(con, [str(log)], versions, site=SITE, name="workers", jobs=2)
    assert con.sql("SELECT * FROM workers").fetchall() == rows
    # The same pieces give the same summary wherever they are audited. (This log repeats its requests three
    # times, out of time order: its sessions depend on where it is cut, as docs/logs.md says.)
    assert summary_view(workers) == summary_view(here)


def test_logs_that_cannot_be_read_are_refused_before_any_row(
    tmp_path: Path, generated: tuple[Path, list[RobotsVersion]]
) -> None:
    log, versions = generated
    con = duckdb.connect()
    with pytest.raises(Unreadable, match=r"missing\.log"):
        audit(con, [str(log), str(tmp_path / "missing.log")], versions)
    odd = tmp_path / "odd.log"
    odd.write_text("hello world\nthis is no log\n")
    with pytest.raises(FormatError, match=r"odd\.log"):
        audit(con, [str(odd)], versions)
    with pytest.raises(FormatError):
        audit(con, [str(log)], versions, format_name="jsonl")  # a mapping is needed
    assert con.sql("SELECT count(*) FROM duckdb_views() WHERE view_name = 'audit'").fetchall() == [(0,)]


def test_standard_input_is_read_once_whole(
    tmp_path: Path, generated: tuple[Path, list[RobotsVersion]], monkeypatch: pytest.MonkeyPatch
) -> None:
    log, versions = generated
    con = duckdb.connect()
    audit(con, [str(log)], versions, site=SITE, name="file")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(log.read_bytes())))
    summary = audit(con, ["-"], versions, site=SITE)
    rows = "SELECT * EXCLUDE (source) FROM"  # a file's name, or `-`
    assert con.sql(f"{rows} audit").fetchall() == con.sql(f"{rows} file").fetchall()
    assert summary.requests == 19 * 3


def test_hostile_logs_are_counted_not_fatal(tmp_path: Path, generated: tuple[Path, list[RobotsVersion]]) -> None:
    _, versions = generated
    hostile = tmp_path / "hostile.log"
    hostile.write_bytes(b"\x00\xff" * 40_000 + b"\n" + b'"' * 5000 + b"\n" + b"x" * (MAX_LINE + 1) + b"\n")
    con = duckdb.connect()
    summary = audit(con, [str(hostile)], versions, format_name="combined")
    assert con.sql("SELECT count(*) FROM audit").fetchall() == [(0,)]
    assert (summary.requests, summary.bad_count) == (0, 3) and summary.incomplete
