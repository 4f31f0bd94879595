"""The survey: classifications, every kind of SOURCE (folder, WARC with redirects and errors, tables), every output."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from robotscope import parse
from robotscope.cli import cli
from robotscope.integrations.records import Tally
from robotscope.integrations.sources import read
from robotscope.reports.survey import SURVEY_COLUMNS, HostFile, survey_rows, verdict_rows
from tests.paths import CORPUS

FILES = {
    "blocks.example": b"User-agent: *\nDisallow: /\n",
    "partial.example": b"User-agent: CCBot\nDisallow: /private/\n\nUser-agent: *\nDisallow:\n",
    "open.example": b"User-agent: *\nAllow: /\n",
    "named-block.example": b"User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nDisallow: /tmp/\n",
}


@pytest.mark.parametrize(
    ("host", "agent", "classification", "group", "line"),
    [
        (HostFile("a", 200, FILES["blocks.example"]), "CCBot", "blocked", "*", 2),
        (HostFile("b", 200, FILES["partial.example"]), "CCBot", "partial", "named", None),
        (HostFile("b", 200, FILES["partial.example"]), "GPTBot", "open", "*", None),
        (HostFile("c", 200, FILES["open.example"]), "CCBot", "open", "*", 2),
        (
            HostFile("d", 200, FILES["named-block.example"]),
            "Googlebot-Image",
            "blocked",
            "named",
            2,
        ),  # Google's fallback
        (HostFile("d", 200, FILES["named-block.example"]), "CCBot", "partial", "*", None),
        (HostFile("e", 200, b""), "CCBot", "open", "none", None),
        (HostFile("f", 404, b"<html>"), "CCBot", "no-robots", "none", None),
        (HostFile("g", 503, b""), "CCBot", "unreachable", "none", None),
        (HostFile("h", None, b"", error="timeout"), "CCBot", "unreachable", "none", None),
        (HostFile("i", 301, b"", redirects=1), "CCBot", "no-robots", "none", None),  # a redirect not followed
    ],
)
def test_classification(host: HostFile, agent: str, classification: str, group: str, line: int | None) -> None:
    (row,) = survey_rows(host, [agent])
    assert (row["classification"], row["group"], row["line"]) == (classification, group, line)
    assert list(row) == list(SURVEY_COLUMNS)


def test_a_survey_row_says_what_check_says_of_slash() -> None:
    for name in sorted(p.name for p in CORPUS.iterdir())[::97]:
        data = (CORPUS / name).read_bytes()
        for agent in ("CCBot", "Googlebot", "Googlebot-Image"):
            (row,) = survey_rows(HostFile(name, 200, data), [agent])
            (verdict,) = verdict_rows(HostFile(name, 200, data), ["/"], [agent])
            assert (row["classification"] == "blocked") is (not verdict["allowed"]) and row["line"] == verdict["line"]
            if agent == "CCBot":  # no operator profile: exactly the library's own verdict
                assert verdict["allowed"] == parse(data).verdict(agent, "/").allowed


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["survey", *args, "--no-progress"])
    return result.exit_code, result.output


def folder(tmp_path: Path) -> Path:
    root = tmp_path / "robots"
    root.mkdir()
    for host, body in FILES.items():
        (root / host).write_bytes(body)
    return root


def rows_of(path: Path) -> list[dict[str, object]]:
    if path.suffix == ".parquet":
        return list(pq.read_table(path).to_pylist())
    if path.suffix == ".csv":
        rows = list(csv.DictReader(io.StringIO(path.read_text())))
        nullable = {"status", "line", "rule"}  # CSV writes None as ""
        return [
            {k: (None if v == "" and k in nullable else int(v) if k in ("status", "line") else v) for k, v in r.items()}
            for r in rows
        ]
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_every_output_format_holds_the_same_rows_and_the_summary_counts_them(tmp_path: Path) -> None:
    source = folder(tmp_path)
    outputs = {}
    for suffix in (".parquet", ".csv", ".jsonl"):
        out = tmp_path / f"survey{suffix}"
        code, text = run(str(source), "--agents", "CCBot,GPTBot", "--out", str(out), "--json", "--jobs", "1")
        assert code == 0, text
        outputs[suffix] = rows_of(out)
        summary = {entry["agent"]: entry for entry in json.loads(text)["crawlers"]}
    assert outputs[".parquet"] == outputs[".csv"] == outputs[".jsonl"] and len(outputs[".csv"]) == 8
    assert (summary["CCBot"]["blocked"], summary["CCBot"]["partial"], summary["CCBot"]["open"]) == (1, 2, 1)
    assert summary["GPTBot"]["partial_share"] == 0.25


@pytest.mark.slow  # the corpus, twice, with worker processes
def test_workers_give_the_rows_of_one_process(tmp_path: Path) -> None:
    out1, out2 = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert run(str(CORPUS), "--agents", "ai", "--out", str(out1), "--jobs", "1")[0] == 0
    assert run(str(CORPUS), "--agents", "ai", "--out", str(out2), "--jobs", "2")[0] == 0
    assert out1.read_text() == out2.read_text() and len(out1.read_text().splitlines()) == 4231 * 26


def warc(path: Path, records: list[tuple[str, int, dict[str, str], bytes]]) -> Path:
    with path.open("wb") as stream:
        writer = WARCWriter(stream, gzip=True)
        for uri, status, headers, body in records:
            http = StatusAndHeaders(
                f"{status} X", [("Content-Type", "text/plain"), *headers.items()], protocol="HTTP/1.1"
            )
            record = writer.create_warc_record(
                uri, "response", payload=io.BytesIO(body), length=len(body), http_headers=http
            )
            writer.write_record(record)
    return path


def test_a_warc_of_corpus_files_with_a_redirect_and_an_outage_surveys_correctly(tmp_path: Path) -> None:
    names = ["www.google.com", "github.com", "en.wikipedia.org"]
    records: list[tuple[str, int, dict[str, str], bytes]] = [
        (f"https://{n}/robots.txt", 200, {}, (CORPUS / n).read_bytes()) for n in names
    ]
    records += [
        ("https://old.example/robots.txt", 301, {"Location": "https://blocks.example/robots.txt"}, b""),
        ("https://blocks.example/robots.txt", 200, {}, FILES["blocks.example"]),
        ("https://down.example/robots.txt", 503, {}, b"<html>busy</html>"),
        ("https://gone.example/robots.txt", 301, {"Location": "https://elsewhere.example/robots.txt"}, b""),
        ("https://loop.example/robots.txt", 302, {"Location": "/robots.txt"}, b""),
    ]
    path = warc(tmp_path / "robots.warc.gz", records)
    hosts = {h.host: h for h in read(path, Tally())}
    assert hosts["old.example"].body == FILES["blocks.example"] and hosts["old.example"].redirects == 1
    out = tmp_path / "survey.jsonl"
    code, text = run(str(path), "--agents", "CCBot", "--out", str(out))
    assert code == 0, text
    got = {r["host"]: r["classification"] for r in rows_of(out)}
    expected = {
        n: survey_rows(HostFile(n, 200, (CORPUS / n).read_bytes()), ["CCBot"])[0]["classification"] for n in names
    }
    assert got == {
        **expected,
        "old.example": "blocked",
        "blocks.example": "blocked",
        "down.example": "unreachable",
        "gone.example": "no-robots",
        "loop.example": "no-robots",
    }


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_a_table_of_host_status_and_body(tmp_path: Path, suffix: str) -> None:
    table = pa.table(
        {
            "host": ["blocks.example", "down.example", "dead.example"],
            "status": [200, 503, None],
            "body": ["User-agent: *\nDisallow: /\n", "", ""],
        }
    )
    path = tmp_path / f"hosts{suffix}"
    pq.write_table(table, path) if suffix == ".parquet" else pacsv.write_csv(table, path)
    out = tmp_path / "survey.jsonl"
    assert run(str(path), "--agents", "CCBot", "--out", str(out))[0] == 0
    assert [r["classification"] for r in rows_of(out)] == ["blocked", "unreachable", "unreachable"]


def test_bad_sources_and_outputs_are_one_line_errors(tmp_path: Path) -> None:
    code, text = run(str(tmp_path / "nothing.txt"), "--out", str(tmp_path / "o.csv"))
    assert code == 2 and "not a folder, a WARC file" in text
    code, text = run(str(folder(tmp_path)), "--out", str(tmp_path / "o.xlsx"))
    assert code == 2 and "--out must end in" in text


def test_a_parquet_survey_needs_no_spark(tmp_path: Path) -> None:
    # The `survey` extra has pyarrow, not pyspark: writing Parquet must not import Spark.
    (tmp_path / "hosts").mkdir()
    (tmp_path / "hosts" / "example.com").write_text("User-agent: GPTBot\nDisallow: /\n")
    out = tmp_path / "survey.parquet"
    script = (
        "import sys; sys.modules['pyspark'] = None\n"
        "from robotscope.cli import cli\n"
        f"cli(['survey', {str(tmp_path / 'hosts')!r}, '--agents', 'GPTBot', '--out', {str(out)!r}, "
        "'--no-progress', '--jobs', '1'])\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    (row,) = pq.read_table(out).to_pylist()
    assert (row["host"], row["agent"], row["classification"]) == ("example.com", "GPTBot", "blocked")
