"""Spark in local mode: verdicts and the survey on executors equal the plain library's, on the whole corpus; the
log audit on executors gives the rows and counts of `robotscope logs`.

Needs a Java runtime (Debian: default-jre-headless) and PySpark; the tests never skip.
"""

from __future__ import annotations

import gzip
import json
import os
import sys
import time
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from robotscope.cli import cli
from robotscope.reports.audit.judge import GRACE
from robotscope.reports.audit.views import summary_view
from robotscope.reports.survey import HostFile, survey_rows
from robotscope.syntax.crawlers import select
from tests.cli.test_logs import BAD, GRACE_HITS, HITS, NEW, OLD, SITE, snapshots
from tests.corpus_files import corpus_files
from tests.paths import CORPUS
from tests.reports.audit.builders import log_text
from tests.reports.audit.test_table import FILES

pytestmark = pytest.mark.slow  # Spark in local mode

PATHS = ("/", "/search?q=1")
AGENTS = [c.token for c in select("ai")]


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    os.environ["PYSPARK_PYTHON"] = sys.executable  # the executors run this interpreter, with robotscope
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("robotscope tests")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "8")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def corpus() -> list[tuple[str, bytes]]:
    return [(name, data) for name, data, _ in corpus_files()]


def test_verdicts_on_spark_equal_the_library_on_the_whole_corpus(spark: Any) -> None:
    from robotscope.integrations.spark import verdicts

    files = corpus()
    robots = spark.createDataFrame(
        [(f"https://{host}/robots.txt", body, 200) for host, body in files], "origin string, body binary, status int"
    )
    urls = spark.createDataFrame([(f"https://{host}{path}",) for host, _ in files for path in PATHS], "url string")
    got = {
        (r["url"], r["agent"]): (r["allowed"], r["line"], r["rule"], r["reason"])
        for r in verdicts(urls, robots, AGENTS).toArrow().to_pylist()
    }
    expected = {}
    for (host, _), (_, _, parsed) in zip(files, corpus_files(), strict=False):
        for path in PATHS:
            for agent in AGENTS:
                found = parsed.answer(agent, path).verdict
                expected[(f"https://{host}{path}", agent)] = (
                    found.allowed,
                    found.line,
                    None if found.rule is None else found.rule.text,
                    found.reason.value,
                )
    assert len(got) == len(expected) == len(files) * len(PATHS) * len(AGENTS)
    assert got == expected


def test_status_policies_apply_on_spark(spark: Any) -> None:
    from robotscope.integrations.spark import verdicts

    robots = spark.createDataFrame(
        [
            ("https://a.example/robots.txt", "User-agent: *\nDisallow: /x\n", 200),
            ("https://b.example/robots.txt", "", 503),
            ("https://c.example/robots.txt", "", 404),
            ("https://d.example/robots.txt", "", None),
        ],
        "origin string, body string, status int",
    )
    urls = spark.createDataFrame([(f"https://{h}.example/x",) for h in "abcde"], "url string")
    got = {r["url"][8]: (r["allowed"], r["decision"]) for r in verdicts(urls, robots, ["CCBot"]).collect()}
    # e.example has no robots.txt row: as a fetch that failed.
    assert got == {
        "a": (False, "parse"),
        "b": (False, "disallow-all"),
        "c": (True, "allow-all"),
        "d": (False, "disallow-all"),
        "e": (False, "disallow-all"),
    }


def test_the_survey_on_spark_equals_the_local_survey_row_for_row(spark: Any, tmp_path: Path) -> None:
    local, distributed = tmp_path / "local.jsonl", tmp_path / "spark.jsonl"
    for out, where in ((local, "local"), (distributed, "spark")):
        result = CliRunner().invoke(
            cli, ["survey", str(CORPUS), "--agents", "ai", "--out", str(out), "--on", where, "--no-progress"]
        )
        assert result.exit_code == 0, result.output
    assert distributed.read_text() == local.read_text() and len(local.read_text().splitlines()) == 4231 * len(AGENTS)


def test_the_readmes_cluster_recipe_reads_and_writes_through_spark(spark: Any, tmp_path: Path) -> None:
    # The README's recipe for a cluster, in local mode: Parquet in, survey() on the executors, Parquet out.
    from robotscope.integrations.spark import survey

    sample = corpus()[:200]
    spark.createDataFrame(
        [(host, 200, body) for host, body in sample], "host string, status int, body binary"
    ).write.parquet(str(tmp_path / "hosts"))
    hosts = spark.read.parquet(str(tmp_path / "hosts"))
    survey(hosts, AGENTS).write.mode("overwrite").parquet(str(tmp_path / "survey"))
    rows = spark.read.parquet(str(tmp_path / "survey")).collect()
    assert len(rows) == len(sample) * len(AGENTS)
    expected = {
        (r["host"], r["agent"]): r["classification"]
        for h, b in sample
        for r in survey_rows(HostFile(h, 200, b), AGENTS)
    }
    assert {(r["host"], r["agent"]): r["classification"] for r in rows} == expected


# The log audit on the executors: the rows and counts of `robotscope logs` on the same generated log.


def _log(tmp_path: Path) -> tuple[Path, Path, list[str]]:
    """A log in time order (every class, a robots.txt changed at noon, bad lines), its snapshots, its lines."""
    ordered = sorted(HITS, key=lambda hit: hit.when)
    later = [hit._replace(when=hit.when + 86_400) for hit in ordered]  # the same a day later: new sessions
    text = log_text("combined", ordered + later, BAD["combined"])
    log = tmp_path / "access.log"
    log.write_text(text)
    robots_dir = snapshots(tmp_path, ("2026-11-02T00:00Z.txt", OLD), ("2026-11-02T12:00Z.txt", NEW))
    return log, robots_dir, text.splitlines()


def _versions_df(spark: Any, robots_dir: Path, since: str = "timestamp") -> Any:
    """The snapshots of `robots_dir` as a versions table, each named (`ref`) as `--robots-dir` names it; `since`
    a timestamp, or a timestamp_ntz (its wall-clock time in UTC)."""
    folder = robots_dir / "shop.example"
    zone = UTC if since == "timestamp" else None
    return spark.createDataFrame(
        [
            (
                "https://shop.example",
                datetime(2026, 11, 2, tzinfo=zone),
                OLD.encode(),
                str(folder / "2026-11-02T00:00Z.txt"),
            ),
            (
                "https://shop.example",
                datetime(2026, 11, 2, 12, tzinfo=zone),
                NEW.encode(),
                str(folder / "2026-11-02T12:00Z.txt"),
            ),
        ],
        f"origin string, since {since}, body binary, ref string",
    )


def _cli(log: Path, robots_dir: Path, *more: str) -> dict[str, Any]:
    args = ["logs", str(log), "--robots-dir", str(robots_dir), "--site", SITE, "--no-dns", "--json", *more]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.stderr
    view: dict[str, Any] = json.loads(result.stdout)
    return view


def test_the_audit_on_spark_gives_the_clis_rows_and_counts(spark: Any, tmp_path: Path) -> None:
    from robotscope.integrations.spark import audit, audit_summary

    log, robots_dir, lines = _log(tmp_path)
    view = _cli(log, robots_dir, "--parquet", str(tmp_path / "cli.parquet"))
    # Three partitions, in order: each one piece of the command's input.
    logs = spark.createDataFrame(
        spark.sparkContext.parallelize([(str(log), n, line) for n, line in enumerate(lines, 1)], 3),
        "source string, number long, line string",
    )
    assert logs.rdd.getNumPartitions() == 3
    robots = _versions_df(spark, robots_dir)
    got = audit(logs, robots, site=SITE).toArrow().to_pylist()
    assert got == pq.read_table(tmp_path / "cli.parquet").to_pylist()
    assert len(got) == view["audited"] == 28
    summary = summary_view(audit_summary(logs, robots, site=SITE))
    for key in ("requests", "audited", "unaudited", "classes", "purposes", "violators", "spoofers", "bad_lines"):
        assert summary[key] == view[key], key
    drop = ("sessions",)
    assert [{k: v for k, v in c.items() if k not in drop} for c in summary["crawlers"]] == [
        {k: v for k, v in c.items() if k not in drop} for c in view["crawlers"]
    ]
    # Sessions stitched across the partitions as the command stitches its pieces.
    assert [c["sessions"] for c in summary["crawlers"]] == [c["sessions"] for c in view["crawlers"]]
    assert summary["too_fast"] == view["too_fast"] and summary["never_read_robots"] == view["never_read_robots"]


def test_spark_read_text_and_a_detected_format_give_the_same_counts(spark: Any, tmp_path: Path) -> None:
    from robotscope.integrations.spark import audit, audit_summary

    log, robots_dir, _ = _log(tmp_path)
    view = _cli(log, robots_dir)
    logs = spark.read.text(str(log))  # one `value` column, no numbers
    robots = _versions_df(spark, robots_dir)
    summary = summary_view(audit_summary(logs, robots, site=SITE))
    assert (summary["requests"], summary["classes"]) == (view["requests"], view["classes"])
    assert audit(logs, robots, site=SITE).where("class = 'violation'").count() == view["classes"]["violation"] == 4
    # GPTBot's /blog of 10:00 repeated a day later is 22 hours after the change: within grace.
    assert audit(logs, robots, site=SITE).where("class = 'grace'").count() == view["classes"]["grace"] == 1


def test_grace_on_spark_as_on_the_command_line(spark: Any, tmp_path: Path) -> None:
    from robotscope.integrations.spark import audit, audit_summary

    log = tmp_path / "grace.log"
    log.write_text(log_text("combined", GRACE_HITS))
    robots_dir = snapshots(tmp_path, ("2026-11-02T00:00Z.txt", OLD), ("2026-11-02T12:00Z.txt", NEW))
    logs, robots = spark.read.text(str(log)), _versions_df(spark, robots_dir)
    counts: dict[float, tuple[int, int]] = {}
    for grace, given in ((GRACE, "24h"), (0.0, "0")):
        view = _cli(log, robots_dir, "--grace", given)
        summary = summary_view(audit_summary(logs, robots, site=SITE, grace=grace))
        assert summary["classes"] == view["classes"]
        counts[grace] = (summary["classes"]["violation"], summary["classes"]["grace"])
    assert counts == {GRACE: (2, 1), 0.0: (3, 0)}
    (row,) = audit(logs, robots, site=SITE).where("class = 'grace'").collect()
    assert (row["url"], row["grace_version"]) == (
        "https://shop.example/blog",
        str(robots_dir / "shop.example" / "2026-11-02T00:00Z.txt"),
    )


def test_hostile_lines_and_versions_on_spark(spark: Any, tmp_path: Path) -> None:
    from robotscope.integrations.spark import audit_summary
    from robotscope.syntax.logformats import FormatError

    logs = spark.createDataFrame(
        [(None,), ("\x00\xff" * 1000,), ('"' * 5000,), ("x" * 40_000,), ("1.2.3.4 - - [bad] GET",)], "line string"
    )
    robots = _versions_df(spark, tmp_path)
    summary = audit_summary(logs, robots, format_name="combined")
    assert (summary.requests, summary.bad_count) == (0, 4)  # the null line is a blank one
    with pytest.raises(FormatError, match="give --format"):
        audit_summary(logs, robots)  # nothing to detect a format from
    bad_origin = spark.createDataFrame([("ftp://x", None, "")], "origin string, since double, body string")
    with pytest.raises(ValueError, match="ftp"):
        audit_summary(logs, bad_origin, format_name="combined")


def test_w3c_headers_changing_mid_file_are_read_in_any_partition_as_the_cli_reads_them(
    spark: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pyspark.sql import functions as F

    from robotscope.integrations.spark import audit, audit_summary

    _, robots_dir, _ = _log(tmp_path)
    w3c: dict[str, Any] = {"site": SITE, "format_name": "w3c"}
    robots = _versions_df(spark, robots_dir)
    paths = {name: tmp_path / name for name in FILES}
    for name, lines in FILES.items():
        paths[name].write_text("\n".join(lines) + "\n")
    everything = _cli(
        paths["restarted.log"],
        robots_dir,
        "--format",
        "w3c",
        "--parquet",
        str(tmp_path / "cli.parquet"),
        str(paths["headless.log"]),
        str(paths["repeated.log"]),
    )
    view = _cli(paths["restarted.log"], robots_dir, "--format", "w3c")
    expected = pq.read_table(tmp_path / "cli.parquet").to_pylist()
    # Every line of the three files, last first, in four partitions: most begin under no header they hold.
    table = [(str(paths[name]), n, line) for name, lines in FILES.items() for n, line in enumerate(lines, 1)][::-1]
    logs = spark.createDataFrame(spark.sparkContext.parallelize(table, 4), "source string, number long, line string")
    got = audit(logs, robots, **w3c).toArrow().to_pylist()
    key = lambda row: (row["source"], row["number"])  # noqa: E731
    assert sorted(got, key=key) == sorted(expected, key=key) and len(got) == everything["audited"] == 17
    summary = summary_view(audit_summary(logs, robots, **w3c))
    for count in ("requests", "audited", "unaudited", "classes"):
        assert summary[count] == everything[count], count
    assert summary["bad_lines"]["count"] == everything["bad_lines"]["count"] == 3  # before headless.log's header
    restarted = summary_view(audit_summary(logs.where(F.col("source").endswith("restarted.log")), robots, **w3c))
    assert restarted["classes"] == view["classes"] and restarted["requests"] == view["requests"]

    # Without line numbers: a file whose one header repeats is read by it; a file whose header changes is
    # refused; gzip files (one partition each) can number their lines with monotonically_increasing_id.
    repeated = spark.read.text(str(paths["repeated.log"])).withColumn("source", F.input_file_name())
    assert audit(repeated, robots, **w3c).count() == 2
    changing = spark.read.text(str(paths["restarted.log"]))
    with pytest.raises(ValueError, match=r"2 different #Fields: headers .* add number"):
        audit_summary(changing, robots, **w3c)
    packed = tmp_path / "restarted.log.gz"
    packed.write_bytes(gzip.compress(paths["restarted.log"].read_bytes()))
    numbered = spark.read.text(str(packed)).withColumn("number", F.monotonically_increasing_id())
    assert summary_view(audit_summary(numbered, robots, **w3c))["classes"] == view["classes"]
    monkeypatch.setattr("robotscope.integrations.spark.MAX_HEADERS", 4)  # the three files hold five
    with pytest.raises(ValueError, match="more than 4 #Fields: lines"):
        audit(logs, robots, **w3c)


def test_since_in_every_form_a_versions_table_holds_it(spark: Any, tmp_path: Path) -> None:
    from robotscope.integrations.spark import _versions, audit_summary

    noon = datetime(2026, 11, 2, 12, tzinfo=UTC)
    forms: dict[str, list[object]] = {
        "timestamp": [noon, datetime(2026, 11, 2, 21, tzinfo=timezone(timedelta(hours=9))), None],
        "timestamp_ntz": [datetime(2026, 11, 2, 12), None],  # wall-clock time: read as UTC
        "date": [date(2026, 11, 2)],
        "double": [noon.timestamp(), None],
        "long": [int(noon.timestamp())],
        "string": ["2026-11-02T12:00Z", "2026-11-02T21:00+09:00", "2026-11-02 12:00", "2026-11-02", None],
    }
    expected = {
        "timestamp": [noon.timestamp(), noon.timestamp(), None],
        "timestamp_ntz": [noon.timestamp(), None],
        "date": [noon.timestamp() - 43_200],
        "double": [noon.timestamp(), None],
        "long": [noon.timestamp()],
        "string": [noon.timestamp()] * 3 + [noon.timestamp() - 43_200, None],
    }
    previous = os.environ.get("TZ")
    os.environ["TZ"] = "Asia/Seoul"  # this driver nine hours ahead of UTC: a naive time read as local is wrong
    time.tzset()
    try:
        for kind, values in forms.items():
            rows = [(f"https://{n}.example", value, "") for n, value in enumerate(values)]
            table = spark.createDataFrame(rows, f"origin string, since {kind}, body string")
            assert [found.since for found in _versions(table)] == expected[kind], kind
        # The whole audit with a TimestampNTZ timeline judges by it as by the CLI's snapshots.
        log, robots_dir, _ = _log(tmp_path)
        versions = _versions_df(spark, robots_dir, "timestamp_ntz")
        summary = summary_view(audit_summary(spark.read.text(str(log)), versions, site=SITE))
        assert summary["classes"] == _cli(log, robots_dir)["classes"]
    finally:
        if previous is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = previous
        time.tzset()
    bad = spark.createDataFrame(
        [("https://a.example", "2026-11-02T12:00Z", ""), ("https://b.example", "noon" * 10_000, "")],
        "origin string, since string, body string",
    )
    with pytest.raises(ValueError, match=r"origin https://b\.example has a since that is no time: 'noonnoon") as error:
        audit_summary(spark.read.text(str(log)), bad, site=SITE)
    assert len(str(error.value)) < 300  # the value cut short
