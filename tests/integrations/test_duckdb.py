"""DuckDB's SQL functions give the plain library's verdicts, on the whole corpus and the same sample as Spark's."""

from __future__ import annotations

import duckdb
import pyarrow as pa
import pytest

from robotscope import Robots, parse
from robotscope.integrations.duckdb import register
from robotscope.syntax.crawlers import select
from tests.paths import CORPUS

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
