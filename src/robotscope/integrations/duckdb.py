"""SQL functions for DuckDB: robots.txt verdicts over tables of bodies, agents and URLs, on one machine.

    import duckdb
    from robotscope.integrations.duckdb import register
    con = duckdb.connect()
    register(con)
    con.sql("SELECT url, robots_allowed(body, 'GPTBot', url) FROM 'pages.parquet' JOIN 'robots.parquet' USING (host)")

`robots_allowed(body, agent, url) -> BOOLEAN` and `robots_verdict(body,
agent, url) -> STRUCT(allowed, reason, line, rule, token)` are vectorised
(Arrow) functions: DuckDB hands them a batch of rows at a time, and each
distinct body of a batch is parsed once. The verdict is the one every front
end gives (RFC 9309 with the operator's documented profile, the default
reading; `robots_verdict_by(engine, body, agent, url)` reads by another
engine). A NULL body, agent or URL gives NULL.

Server logs: `audit(connection, logs, versions)` registers a view of the
log audit's rows, one per request of a known crawler, as `robotscope logs
--parquet` writes them (`reports.audit.judge.COLUMNS`), read from the log
files as DuckDB scans the view (once; `CREATE TABLE ... AS` to keep them),
by the same code as the command (`auditing.pieces`):

    from robotscope.logs import from_dir
    summary = audit(con, ["access.log", "access.log.1.gz"], from_dir("snapshots/").versions)
    con.sql("SELECT token, class, count(*) FROM audit GROUP BY ALL ORDER BY 3 DESC")

It returns the audit's `Summary`, which the scan fills: complete once the
view has been read to its end (`reports.audit.views.summary_view` then
gives what `robotscope logs --json` prints).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import chain, islice
from typing import Any

import duckdb
import pyarrow as pa

from ..access.engines.registry import PROFILED
from ..access.robots import Robots, parse
from ..auditing.pieces import Counted, Setup, pieces, results
from ..reports.audit.judge import GRACE
from ..reports.audit.summary import Summary
from ..reports.audit.timeline import RobotsVersion
from ..syntax.listhistory import ListHistory
from ..syntax.model import Verdict
from ..syntax.urls import origin_of
from .arrow import AUDIT_SCHEMA
from .records import Tally

VERDICT_FIELDS = {"allowed": "BOOLEAN", "reason": "VARCHAR", "line": "INTEGER", "rule": "VARCHAR", "token": "VARCHAR"}
_ARROW_FIELDS = pa.struct(
    [
        ("allowed", pa.bool_()),
        ("reason", pa.string()),
        ("line", pa.int32()),
        ("rule", pa.string()),
        ("token", pa.string()),
    ]
)


def _verdicts(engines: Any, bodies: Any, agents: Any, urls: Any) -> list[Verdict | None]:
    """Each row's verdict (None where a value is NULL), every distinct body of the batch parsed once."""
    parsed: dict[str, Robots] = {}
    found: list[Verdict | None] = []
    for engine, body, agent, url in zip(engines, bodies.to_pylist(), agents.to_pylist(), urls.to_pylist(), strict=True):
        if body is None or agent is None or url is None or engine is None:
            found.append(None)
            continue
        robots = parsed.get(body)
        if robots is None:
            robots = parsed[body] = parse(body)
        found.append(robots.answer(agent, url, engine).verdict)
    return found


def _allowed(bodies: Any, agents: Any, urls: Any) -> pa.Array:
    return pa.array(
        [None if v is None else v.allowed for v in _verdicts([PROFILED] * len(bodies), bodies, agents, urls)],
        pa.bool_(),
    )


def _as_struct(verdicts: list[Verdict | None]) -> pa.Array:
    rows = [
        None
        if v is None
        else {
            "allowed": v.allowed,
            "reason": v.reason.value,
            "line": v.line,
            "rule": None if v.rule is None else v.rule.text,
            "token": v.agent_token,
        }
        for v in verdicts
    ]
    return pa.array(rows, _ARROW_FIELDS)


def _verdict(bodies: Any, agents: Any, urls: Any) -> pa.Array:
    return _as_struct(_verdicts([PROFILED] * len(bodies), bodies, agents, urls))


def _verdict_by(engines: Any, bodies: Any, agents: Any, urls: Any) -> pa.Array:
    return _as_struct(_verdicts(engines.to_pylist(), bodies, agents, urls))


def register(connection: duckdb.DuckDBPyConnection) -> None:
    """Add robots_allowed, robots_verdict and robots_verdict_by to `connection`."""
    text: list[Any] = ["VARCHAR", "VARCHAR", "VARCHAR"]
    verdict_type = duckdb.struct_type(VERDICT_FIELDS)
    options: dict[str, Any] = {"type": "arrow", "null_handling": "special", "side_effects": False}
    connection.create_function("robots_allowed", _allowed, text, "BOOLEAN", **options)
    connection.create_function("robots_verdict", _verdict, text, verdict_type, **options)
    connection.create_function("robots_verdict_by", _verdict_by, ["VARCHAR", *text], verdict_type, **options)


def audit(
    connection: duckdb.DuckDBPyConnection,
    logs: Sequence[str],
    versions: Sequence[RobotsVersion],
    *,
    name: str = "audit",
    site: str | None = None,
    lists: ListHistory | None = None,
    dns: bool = False,
    format_name: str = "auto",
    log_format: str | None = None,
    mapping: str | None = None,
    jobs: int = 1,
    grace: float = GRACE,
) -> Summary:
    """Register view `name` of the audit of `logs` (paths) against the robots.txt `versions`; the arguments are
    `robotscope logs`'s (`lists` None: the snapshots shipped; `dns` off: no reverse DNS; `grace` its `--grace`, in
    seconds). The logs' formats are checked here, each log's first block read (standard input's only when it is
    the first log: it is read once): `FormatError` and `integrations.records.Unreadable` are raised before any
    row. Returns the summary the scan fills. With `jobs` over 1 the pieces are audited in worker processes
    (`multiprocessing`'s spawn: a script must guard its own code with `if __name__ == "__main__"`)."""
    setup = Setup(tuple(versions), None if site is None else origin_of(site), lists, dns, "arrow", grace)
    for log in logs[1:]:
        if log != "-":  # standard input is read once, when the scan comes to it
            next(pieces([log], Tally(), format_name, log_format, mapping), None)
    summary, reading = Summary(), Summary()
    given = pieces(logs, Counted(reading), format_name, log_format, mapping)
    opening = list(islice(given, 1))  # the first log checked, its first piece kept for the scan

    def batches() -> Iterator[pa.RecordBatch]:
        for found, batch in results(setup, chain(opening, given), jobs):
            summary.then(found)
            yield batch
        summary.then(reading)  # the lines no block held, and the logs cut short

    connection.register(name, pa.RecordBatchReader.from_batches(AUDIT_SCHEMA, batches()))
    return summary
