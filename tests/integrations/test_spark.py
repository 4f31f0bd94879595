"""Spark in local mode: verdicts and the survey on executors equal the plain library's, on the whole corpus.

Needs a Java runtime (Debian: default-jre-headless) and PySpark; the tests never skip.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from robotscope.cli import cli
from robotscope.reports.survey import HostFile, survey_rows
from robotscope.syntax.crawlers import select
from tests.corpus_files import corpus_files
from tests.paths import CORPUS

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
