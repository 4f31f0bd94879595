"""robots.txt verdicts and the research survey on Apache Spark (PySpark, the `spark` extra).

    from robotscope.integrations.spark import verdicts, survey
    rows = verdicts(urls_df, robots_df, agents=["GPTBot", "Googlebot"])   # a DataFrame
    table = survey(hosts_df, agents=["GPTBot", "CCBot"])

`urls_df` has a `url` column (and `origin`, the robots.txt URL of its origin,
or it is derived); `robots_df` has `origin` and `body` (string or binary)
and, optionally, `status` (the final HTTP status; null for a transport
error): the per-engine status policies apply (5xx disallow all, 4xx allow
all). URLs and robots.txt rows meet by origin in a cogrouped Arrow function,
so each robots.txt is parsed once per group, on the executors; nothing is
collected to the driver. An origin with no robots.txt row is read as a
fetch that failed (disallow all). The rows are those of
`robotscope.reports.survey.verdict_rows` and `survey_rows`, the same as the local
job's. Works on any cluster whose executors have robotscope installed.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pyarrow as pa
from pyspark.sql import DataFrame
from pyspark.sql.types import BooleanType, IntegerType, StringType, StructField, StructType

from ..access.engines.registry import PROFILED
from ..reports.survey import SURVEY_COLUMNS, VERDICT_COLUMNS, HostFile, survey_rows, verdict_rows
from ..syntax.urls import InvalidURL, robots_url
from .arrow import arrow_schema

_TYPES = {"allowed": BooleanType(), "line": IntegerType(), "status": IntegerType()}
VERDICT_SCHEMA = StructType([StructField(name, _TYPES.get(name, StringType())) for name in VERDICT_COLUMNS])
SURVEY_SCHEMA = StructType([StructField(name, _TYPES.get(name, StringType())) for name in SURVEY_COLUMNS])


def _table(rows: list[dict[str, Any]], columns: Sequence[str]) -> pa.Table:
    return pa.Table.from_pylist(rows, schema=arrow_schema(columns))


def _origin(url: str) -> str:
    try:
        return robots_url(url)
    except InvalidURL:
        return ""  # no origin: its verdict says the robots.txt could not be had


def _host_file(origin: str, robots: pa.Table) -> HostFile:
    """The origin's robots.txt row as a HostFile; none at all reads as a fetch that failed."""
    if robots.num_rows == 0:
        return HostFile(origin, None, b"", error="network")
    row = robots.slice(0, 1).to_pylist()[0]
    status = row.get("status", 200)
    return HostFile(origin, status, row.get("body") or b"", error="network" if status is None else None)


def verdicts(
    urls: DataFrame, robots: DataFrame, agents: Sequence[str], engine: str = PROFILED, policy: str = "rfc9309"
) -> DataFrame:
    """One row per URL and agent (VERDICT_SCHEMA): the verdict against the URL's own origin's robots.txt."""
    agents = list(agents)
    if "origin" not in urls.columns:
        urls = urls.select("url").mapInArrow(_with_origin, "url string, origin string")

    def decide(left: pa.Table, right: pa.Table) -> pa.Table:
        origin = (left.column("origin")[0].as_py() if left.num_rows else right.column("origin")[0].as_py()) or ""
        host = _host_file(origin, right)
        return _table(verdict_rows(host, left.column("url").to_pylist(), agents, engine, policy), VERDICT_COLUMNS)

    return urls.groupBy("origin").cogroup(robots.groupBy("origin")).applyInArrow(decide, VERDICT_SCHEMA)


def _with_origin(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    for batch in batches:
        urls = batch.column("url").to_pylist()
        yield pa.RecordBatch.from_arrays(
            [pa.array(urls, pa.string()), pa.array([_origin(u or "") for u in urls], pa.string())], ["url", "origin"]
        )


def survey(hosts: DataFrame, agents: Sequence[str], engine: str = PROFILED, policy: str = "rfc9309") -> DataFrame:
    """The survey (SURVEY_SCHEMA): one row per host and agent, from `host`, `body` and optional `status` columns."""
    agents = list(agents)
    has_status = "status" in hosts.columns
    columns = ["host", "body", *(["status"] if has_status else [])]

    def rows(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            found: list[dict[str, Any]] = []
            for row in batch.to_pylist():
                status = row["status"] if has_status else 200
                host = HostFile(row["host"], status, row["body"] or b"", error="network" if status is None else None)
                found += survey_rows(host, agents, engine, policy)
            yield from _table(found, SURVEY_COLUMNS).to_batches()

    return hosts.select(*columns).mapInArrow(rows, SURVEY_SCHEMA)
