"""robots.txt verdicts, the research survey and the server-log audit on Apache Spark (PySpark, the `spark` extra).

    from robotscope.integrations.spark import verdicts, survey, audit, audit_summary
    rows = verdicts(urls_df, robots_df, agents=["GPTBot", "Googlebot"])   # a DataFrame
    table = survey(hosts_df, agents=["GPTBot", "CCBot"])
    requests = audit(logs_df, versions_df, site="https://example.com")   # a row per request of a crawler
    summary = audit_summary(logs_df, versions_df)                       # the counts, merged on the driver

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

The log audit (`audit`, `audit_summary`) runs `robotscope logs`'s code on the
executors, each partition of the log's lines read, judged and counted as one
piece of the command's input:

- `logs_df`: the raw lines, `line` (or `value`, as `spark.read.text` names
  it), and optionally `source` (the file, e.g. `input_file_name()`) and
  `number` (the line's number in it; 0 in the rows when absent). One format
  for every line: the one given, else the one detected from the first lines.
  W3C and CloudFront logs name their columns in `#Fields:` lines, which may
  change mid-file: those lines are collected on the driver (at most
  `MAX_HEADERS`) and each line is read by the last one of its source at or
  before its number, wherever its partition is. Without `number`, a source
  with one header (repeated or not) has it at every line, and a source with
  two different ones is refused (`ValueError`): which lines are under which
  cannot be known.
- `versions_df`: the robots.txt versions, `origin` (`https://example.com`;
  null for every origin without versions of its own), `since` (null: in force
  always; see `reports.audit.timeline.since_of`: a timestamp, a TimestampNTZ
  read as UTC, a date, POSIX seconds, or an ISO 8601 text; anything else is
  refused, naming the row's origin), `body` (string or binary) and
  optionally `status` (the fetch's HTTP status, null for a fetch that failed;
  200 when absent) and `ref` (how rows name the version). It is collected to
  the driver and sent to every executor: a timeline of some thousands of
  files, not millions.

`audit` gives a row per request of a known crawler (`AUDIT_SCHEMA`, the
columns of `robotscope logs --parquet`). `audit_summary` gives the audit's
`Summary`: each partition's, made on its executor, merged on the driver in
order of their first request (`reports.audit.views.summary_view` and
`crawler_rows` make the per-crawler table of it); sessions are exact within a
partition and stitched across partitions in time order. The IP lists are the
snapshots shipped with robotscope (or `lists`), without DNS; `grace` is
`robotscope logs --grace` in seconds (24 hours; 0: none).
"""

from __future__ import annotations

import pickle
from collections.abc import Iterator, Sequence
from functools import partial
from typing import Any, NamedTuple

import pyarrow as pa
from pyspark.sql import DataFrame
from pyspark.sql import functions as F
from pyspark.sql.types import (
    BooleanType,
    DoubleType,
    IntegerType,
    LongType,
    StringType,
    StructField,
    StructType,
    TimestampType,
)

from ..access.engines.registry import PROFILED
from ..auditing.pieces import FIELDED, Setup, Spec, new_judge, spec_for
from ..messages import message
from ..reports.audit.judge import COLUMNS, GRACE, Row
from ..reports.audit.run import audit_table
from ..reports.audit.summary import Summary
from ..reports.audit.timeline import RobotsVersion, since_of, version
from ..reports.survey import SURVEY_COLUMNS, VERDICT_COLUMNS, HostFile, survey_rows, verdict_rows
from ..reports.views import iso
from ..reports.watch.observation import Observation
from ..syntax.listhistory import ListHistory
from ..syntax.logformats import DETECT_LINES, reader
from ..syntax.logformats.fielded import FieldsInForce, sets_columns
from ..syntax.urls import InvalidURL, origin_of, robots_url
from .arrow import arrow_schema, audit_batch

MAX_HEADERS = 100_000  # `#Fields:` lines collected on the driver: a year of hourly files from ten servers
_SHOWN = 80  # characters of a bad value an error shows

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


_AUDIT_TYPES = {
    "time": TimestampType(),
    "number": LongType(),
    "allowed": BooleanType(),
    "line": IntegerType(),
    "status": IntegerType(),
    "crawl_delay": DoubleType(),
}
AUDIT_SCHEMA = StructType([StructField(name, _AUDIT_TYPES.get(name, StringType())) for name in COLUMNS])
# One row per partition of `audit_summary`: its index, its first request's time, its Summary pickled.
_PIECES = pa.schema([("partition", pa.int32()), ("first", pa.float64()), ("summary", pa.binary())])


class _Plan(NamedTuple):
    """What every executor needs to audit its partitions (sent with the function)."""

    versions: tuple[RobotsVersion, ...]
    site: str | None
    lists: ListHistory | None
    spec: Spec
    headers: FieldsInForce | None  # the `#Fields:` lines of a format read by them
    line: str  # the column of the lines
    source: bool  # whether a `source` column names each line's file
    number: bool  # whether a `number` column gives each line's number
    grace: float  # `robotscope logs --grace`, in seconds


def _versions(robots: DataFrame) -> tuple[RobotsVersion, ...]:
    """`versions_df`'s rows as versions (collected here, on the driver, through Arrow: a TimestampNTZ keeps its
    wall-clock time, read as UTC); a bad origin or `since` raises `ValueError`."""
    found = []
    for data in robots.toArrow().to_pylist():
        origin = data.get("origin")
        try:
            moment = since_of(data.get("since"))
        except ValueError:
            shown = repr(data.get("since"))
            shown = shown if len(shown) <= _SHOWN else shown[: _SHOWN - 1] + "…"
            raise ValueError(message("spark.error.since", origin=origin or "*", value=shown).render()) from None
        body = data.get("body") or b""
        status = data.get("status", 200)
        ref = data.get("ref") or f"{origin or '*'}@{'always' if moment is None else iso(moment)}"
        label = message("audit.source.table", ref=ref)
        seen = Observation(
            agent="",
            status=status,
            body=body.encode() if isinstance(body, str) else bytes(body),
            failure="network" if status is None else None,
        )
        try:
            found.append(version(origin, moment, label, ref, seen))
        except InvalidURL as error:
            raise ValueError(error.reason.render()) from error
    return tuple(found)


def _headers(logs: DataFrame, line: str, source: bool, number: bool) -> FieldsInForce:
    """The `#Fields:` lines of `logs` (collected here: a few per file; more than `MAX_HEADERS` raises
    `ValueError`), by source. Without a `number` column, a source's one header (repeated or not) is in force
    at every line of it; a source with two different ones raises `ValueError`: which lines are under which
    cannot be known."""
    columns = [
        F.coalesce(F.col("source"), F.lit("")) if source else F.lit(""),
        F.coalesce(F.col("number"), F.lit(0)) if number else F.lit(0),
        F.col(line),
    ]
    # Java's (?i) folds ASCII letters only, as `is_fields` does; `sets_columns` has the last word.
    rows = logs.select(*columns).where(F.col(line).rlike("^(?i)#fields:")).limit(MAX_HEADERS + 1).collect()
    if len(rows) > MAX_HEADERS:
        raise ValueError(message("spark.error.headers", count=MAX_HEADERS).render())
    found = [(row[0], row[1], row[2]) for row in rows if sets_columns(row[2])]
    if not number:
        texts: dict[str, set[str]] = {}
        for name, _, text in found:
            texts.setdefault(name, set()).add(text)
        for name, distinct in sorted(texts.items()):
            if len(distinct) > 1:
                raise ValueError(message("spark.error.unnumbered", source=name or "*", count=len(distinct)).render())
        found = [(name, 0, distinct.pop()) for name, distinct in texts.items()]
    return FieldsInForce(found)


def _plan(
    logs: DataFrame,
    robots: DataFrame,
    site: str | None,
    lists: ListHistory | None,
    format_name: str,
    log_format: str | None,
    mapping: str | None,
    grace: float,
) -> _Plan:
    """The versions, the format (detected from the first lines here when `format_name` is auto) and the
    columns; raises `FormatError` for a format that cannot be read."""
    line = "line" if "line" in logs.columns else "value"
    head = [row[0] or "" for row in logs.select(line).limit(DETECT_LINES * 4).collect()]
    spec, _ = spec_for(format_name, log_format, mapping, "logs_df", head)
    source, number = "source" in logs.columns, "number" in logs.columns
    headers = _headers(logs, line, source, number) if spec.name in FIELDED else None
    home = None if site is None else origin_of(site)
    return _Plan(_versions(robots), home, lists, spec, headers, line, source, number, grace)


def _audited(plan: _Plan, batches: Iterator[pa.RecordBatch], summary: Summary) -> Iterator[list[Row]]:
    """Each batch's rows, the lines read, judged and counted into `summary` (a piece of the command's input)."""
    judge = new_judge(Setup(plan.versions, plan.site, plan.lists, dns=False, grace=plan.grace))
    new_reader = partial(reader, *plan.spec)
    for batch in batches:
        texts = [text or "" for text in batch.column(plan.line).to_pylist()]
        numbers = [n or 0 for n in batch.column("number").to_pylist()] if plan.number else [0] * len(texts)
        sources = [s or "" for s in batch.column("source").to_pylist()] if plan.source else [""] * len(texts)
        lines = zip(sources, numbers, texts, strict=True)
        yield list(audit_table(lines, new_reader, plan.headers, judge, summary))


def _columns(plan: _Plan) -> list[str]:
    """The columns of `logs_df` the audit reads: the lines, and each line's file and number where given."""
    return [plan.line, *(["source"] if plan.source else []), *(["number"] if plan.number else [])]


def audit(
    logs: DataFrame,
    robots: DataFrame,
    *,
    site: str | None = None,
    lists: ListHistory | None = None,
    format_name: str = "auto",
    log_format: str | None = None,
    mapping: str | None = None,
    grace: float = GRACE,
) -> DataFrame:
    """A row per request of a known crawler among `logs`' lines (AUDIT_SCHEMA), judged on the executors against
    `robots`' versions (see the module's docstring for both DataFrames)."""
    plan = _plan(logs, robots, site, lists, format_name, log_format, mapping, grace)
    columns = _columns(plan)

    def rows(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for found in _audited(plan, batches, Summary()):
            yield audit_batch(found)

    return logs.select(*columns).mapInArrow(rows, AUDIT_SCHEMA)


def audit_summary(
    logs: DataFrame,
    robots: DataFrame,
    *,
    site: str | None = None,
    lists: ListHistory | None = None,
    format_name: str = "auto",
    log_format: str | None = None,
    mapping: str | None = None,
    grace: float = GRACE,
) -> Summary:
    """The audit's summary: each partition's counted on its executor, all merged here in order of their first
    request (see the module's docstring)."""
    plan = _plan(logs, robots, site, lists, format_name, log_format, mapping, grace)
    columns = _columns(plan)

    def counted(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        from pyspark import TaskContext

        summary = Summary()
        for _ in _audited(plan, batches, summary):
            pass
        context = TaskContext.get()
        yield pa.RecordBatch.from_pylist(
            [
                {
                    "partition": 0 if context is None else context.partitionId(),
                    "first": summary.first,
                    "summary": pickle.dumps(summary),
                }
            ],
            schema=_PIECES,
        )

    pieces = logs.select(*columns).mapInArrow(counted, "partition int, first double, summary binary").collect()
    # In time order as far as the pieces tell it (Spark orders a job's files by size, not name); a piece without
    # a timed request anywhere, by partition.
    ordered = sorted(pieces, key=lambda row: (row["first"] is None, row["first"] or 0.0, row["partition"]))
    total = Summary()
    for row in ordered:
        total.then(pickle.loads(row["summary"]))  # made by this job's own executors
    return total
