"""`survey` on hostile SOURCEs: bad records skipped with their numbers, one-line errors, no partial output."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from click.testing import CliRunner

from robotscope.cli import cli
from tests.integrations.warcs import gzipped, http, record, robots


def survey(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["survey", *args, "--agents", "GPTBot", "--no-progress", "--jobs", "1", "--json"])
    return result.exit_code, result.stdout, result.stderr


def table(path: Path, statuses: list[object]) -> Path:
    hosts = [f"h{i}.example" for i in range(len(statuses))]
    pq.write_table(
        pa.table({"host": hosts, "status": statuses, "body": ["User-agent: *\nDisallow: /\n"] * len(hosts)}), path
    )
    return path


def test_a_bad_status_is_skipped_reported_and_the_survey_exits_1(tmp_path: Path) -> None:
    # One `abc` among 3,000 hosts once stopped the survey with "internal error", 2,752 hosts written.
    source = tmp_path / "hosts.csv"
    lines = ["host,status,body"] + [f"h{i}.example,{'abc' if i == 2800 else 200}," for i in range(3000)]
    source.write_text("\n".join(lines) + "\n")
    out = tmp_path / "survey.jsonl"
    code, stdout, err = survey(str(source), "--out", str(out))
    assert code == 1 and "internal error" not in err
    assert len(out.read_text().splitlines()) == 2999 and json.loads(stdout)["crawlers"][0]["hosts"] == 2999
    assert f"{source}: line 2,802: the status 'abc' is not an HTTP status (100 to 599); skipped" in err
    assert err.rstrip().endswith("the answer is incomplete: 1 record skipped (1 not an HTTP status)")


def test_the_json_summary_names_the_records_skipped_and_why(tmp_path: Path) -> None:
    # The JSON once held the crawlers' table alone: what was skipped was only said on stderr.
    source = tmp_path / "hosts.csv"
    lines = ["host,status,body"] + [f"h{i}.example,{'abc' if i in (3, 7) else 200}," for i in range(10)]
    source.write_text("\n".join([*lines, ",200,"]) + "\n")
    code, stdout, _ = survey(str(source), "--out", str(tmp_path / "survey.csv"))
    said = json.loads(stdout)
    assert code == 1 and said["crawlers"][0]["hosts"] == 8
    assert (said["complete"], said["skipped"], said["stopped"]) == (False, 3, 0)
    assert [(reason["code"], reason["count"]) for reason in said["reasons"]] == [
        ("records.skip.status", 2),
        ("records.skip.host", 1),
    ]
    assert [(record["unit"], record["number"], record["reason"]["code"]) for record in said["records"]] == [
        ("line", 5, "records.skip.status"),
        ("line", 9, "records.skip.status"),
        ("line", 12, "records.skip.host"),
    ]
    assert said["records"][0]["source"] == str(source) and said["records"][0]["reason"]["params"]["value"] == "'abc'"
    summary = "the answer is incomplete: 3 records skipped (2 not an HTTP status, 1 no host)"
    assert [line["text"] for line in said["incomplete"]] == [summary]


def test_a_complete_survey_says_so_in_json(tmp_path: Path) -> None:
    code, stdout, _ = survey(str(table(tmp_path / "t.parquet", [200, 404])), "--out", str(tmp_path / "s.csv"))
    said = json.loads(stdout)
    assert code == 0 and said["complete"] is True and said["crawlers"][0]["hosts"] == 2
    assert [said[key] for key in ("skipped", "stopped", "reasons", "records", "incomplete")] == [0, 0, [], [], []]


def test_float_statuses_of_a_parquet_table_are_statuses(tmp_path: Path) -> None:
    out = tmp_path / "survey.jsonl"
    code, _, err = survey(str(table(tmp_path / "t.parquet", [200.0, 503.0, None])), "--out", str(out))
    assert code == 0 and err == ""
    assert [json.loads(line)["classification"] for line in out.read_text().splitlines()] == [
        "blocked",
        "unreachable",
        "unreachable",
    ]


def test_a_table_without_status_is_refused_in_one_line(tmp_path: Path) -> None:
    # It once surveyed every host as unreachable, silently.
    source = tmp_path / "hosts.csv"
    source.write_text("host,body\na.example,\n")
    code, _, err = survey(str(source), "--out", str(tmp_path / "out.csv"))
    assert code == 2 and err.count("\n") == 1 and "has no status column" in err
    assert not list(tmp_path.glob("*out.csv*"))  # nothing written, not even a temporary file


def test_a_source_that_fails_halfway_leaves_the_earlier_output_alone(tmp_path: Path) -> None:
    out = tmp_path / "survey.jsonl"
    out.write_text("the last good survey\n")
    good = table(tmp_path / "good.parquet", [200] * 100)
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"PAR1 random bytes PAR1")
    code, _, err = survey(str(good), str(bad), "--out", str(out))
    assert code == 2 and "not a readable Parquet file" in err and err.count("\n") == 1
    assert out.read_text() == "the last good survey\n" and sorted(p.name for p in tmp_path.iterdir()) == [
        "bad.parquet",
        "good.parquet",
        "survey.jsonl",
    ]


def test_a_cut_warc_gz_exits_1_with_what_it_read(tmp_path: Path) -> None:
    # A truncated .warc.gz once gave 0 rows and exit code 0.
    whole = gzipped(*(robots(f"h{i}.example", body=b"User-agent: *\nDisallow: /\n" * 100) for i in range(4)))
    source = tmp_path / "cut.warc.gz"
    source.write_bytes(whole[: len(whole) * 7 // 10])
    out = tmp_path / "survey.csv"
    code, stdout, err = survey(str(source), "--out", str(out))
    said = json.loads(stdout)
    assert code == 1 and said["crawlers"][0]["hosts"] == 2 and len(out.read_text().splitlines()) == 3
    assert (said["stopped"], said["records"][-1]["stopped"], said["records"][-1]["unit"]) == (1, True, "record")
    assert "the compressed data ends before its end marker" in err and "1 file was not read to the end" in err


def test_random_bytes_and_a_negative_length_are_one_line_or_a_stop(tmp_path: Path) -> None:
    noise = tmp_path / "noise.warc"
    noise.write_bytes(bytes(range(256)) * 100)
    code, _, err = survey(str(noise), "--out", str(tmp_path / "a.jsonl"))
    assert code == 2 and err.count("\n") == 1 and "cannot be read" in err
    negative = tmp_path / "negative.warc"
    two = record("https://two.example/robots.txt", http("200", b"User-agent: *\nDisallow: /\n"), length="-5")
    negative.write_bytes(robots("one.example") + two)
    code, stdout, err = survey(str(negative), "--out", str(tmp_path / "b.jsonl"))
    assert code == 1 and json.loads(stdout)["crawlers"][0]["hosts"] == 1
    assert "Content-Length `-5` is not a number of bytes" in err
