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
"""

from __future__ import annotations

from typing import Any

import duckdb
import pyarrow as pa

from ..access.engines.registry import PROFILED
from ..access.robots import Robots, parse
from ..syntax.model import Verdict

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
