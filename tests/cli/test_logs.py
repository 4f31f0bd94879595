"""`robotscope logs`: generated logs with every count known, judged against a robots.txt that changed mid-log."""

from __future__ import annotations

import bz2
import gzip
import json
import math
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from robotscope.auditing import pieces as pieces_module
from robotscope.cli import cli
from robotscope.cli.options import seconds_of
from robotscope.history import HistoryStore
from robotscope.syntax.logformats import MAX_LINE
from tests.clock import Clock
from tests.conftest import Server
from tests.history.results import fetched
from tests.logs.cases import APACHE_CUSTOM, JSONL_MAP, NGINX_CUSTOM
from tests.reports.audit.builders import (
    ANYWHERE,
    BROWSER,
    CHATGPT_USER,
    GOOGLE,
    KINDS,
    OPENAI_GPTBOT,
    Hit,
    agent,
    caddy_line,
    log_text,
)

SITE = "https://shop.example"
BING = "157.55.39.5"  # bing-bingbot.json
CCBOT_ANYWHERE = "198.51.100.7"  # Common Crawl publishes no list: unverifiable
OLD = "User-agent: *\nDisallow: /private/\nCrawl-delay: 10\n"
NEW = "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\nCrawl-delay: 10\n"


def at(hour: int, minute: int = 0, second: int = 0, day: int = 2) -> float:
    return datetime(2026, 11, day, hour, minute, second, tzinfo=UTC).timestamp()


# Every request, with the class it must get. The file changes at 12:00 (OLD, then NEW).
HITS = [
    Hit(OPENAI_GPTBOT, at(10), "/robots.txt", agent("GPTBot")),  # exempt: robots.txt itself
    Hit(OPENAI_GPTBOT, at(10, 0, 20), "/blog", agent("GPTBot")),  # allowed by OLD
    Hit(OPENAI_GPTBOT, at(13, day=3), "/blog", agent("GPTBot")),  # violation: NEW's line 2, a day after (past grace)
    Hit(ANYWHERE, at(10, 1, 0), "/private/a", agent("Googlebot")),  # spoofed
    Hit(ANYWHERE, at(10, 1, 1), "/", agent("Googlebot")),  # spoofed
    Hit("203.0.113.10", at(10, 1, 2), "/robots.txt", agent("Googlebot")),  # spoofed, not exempt
    Hit(GOOGLE, at(11), "/private/b", agent("Googlebot")),  # violation: OLD's line 2
    Hit(GOOGLE, at(11, 0, 30), "/", agent("Googlebot")),  # allowed
    Hit(CHATGPT_USER, at(13, 5), "/private/c", agent("ChatGPT-User")),  # exempt: user-triggered
    Hit(BING, at(14), "/a", agent("bingbot")),  # allowed, four requests 2 s apart under Crawl-delay 10
    Hit(BING, at(14, 0, 2), "/b", agent("bingbot")),
    Hit(BING, at(14, 0, 4), "/c", agent("bingbot"), 403),  # allowed, answered 403
    Hit(BING, at(14, 0, 6), "/d", agent("bingbot")),
    Hit(CCBOT_ANYWHERE, at(15), "/private/d", agent("CCBot")),  # unverified
    *(Hit(f"192.0.2.{n}", at(9, 0, n), f"/page/{n}", BROWSER) for n in range(5)),  # no crawler: counted
]
BAD = {kind: ["garbage"] for kind in KINDS}
BAD["combined"] = ["garbage", '1.2.3.4 - - [02/Nov/2026:10:00:00 +0000] "-" 400 0 "-" "-"']
BAD["caddy"] = ["{not json", "[]"]
# What each format is read with besides --format: its directive, or its mapping.
READ_AS = {
    "nginx": ("--log-format", NGINX_CUSTOM),
    "apache": ("--log-format", APACHE_CUSTOM),
    "jsonl": ("--map", JSONL_MAP),
}


def snapshots(root: Path, *files: tuple[str, str]) -> Path:
    folder = root / "robots" / "shop.example"
    folder.mkdir(parents=True)
    for name, text in files:
        (folder / name).write_text(text)
    return root / "robots"


@pytest.fixture
def robots_dir(tmp_path: Path) -> Path:
    return snapshots(tmp_path, ("2026-11-02T00:00Z.txt", OLD), ("2026-11-02T12:00Z.txt", NEW))


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["logs", *args, "--no-dns", "--lang", "en"])
    return result.exit_code, result.stdout, result.stderr


def audited(log: Path, robots_dir: Path, *more: str, kind: str | None = "combined") -> tuple[int, dict[str, Any], str]:
    """The audit's JSON view of `log` in format `kind` (None: told from its first lines)."""
    told = () if kind is None else ("--format", kind, *READ_AS.get(kind, ()))
    code, out, err = run(str(log), "--robots-dir", str(robots_dir), "--site", SITE, "--json", *told, *more)
    assert code in (0, 1), err
    view: dict[str, Any] = json.loads(out)
    return code, view, err


def write(path: Path, kind: str, hits: list[Hit] = HITS, bad: list[str] | None = None) -> Path:
    path.write_text(log_text(kind, hits, BAD[kind] if bad is None else bad))
    return path


def crawler(view: dict[str, Any], token: str) -> dict[str, Any]:
    found: dict[str, Any] = next(c for c in view["crawlers"] if c["token"] == token)
    return found


@pytest.mark.parametrize("kind", KINDS)
def test_every_count_of_a_generated_log(tmp_path: Path, robots_dir: Path, kind: str) -> None:
    code, view, err = audited(write(tmp_path / "access.log", kind), robots_dir, kind=kind)
    assert code == 0, err
    assert (view["requests"], view["audited"], view["unaudited"]) == (19, 14, 5)
    assert view["classes"] == {
        "allowed": 6,
        "violation": 2,
        "exempt": 2,
        "spoofed": 3,
        "unverified": 1,
        "unjudged": 0,
        "grace": 0,
    }
    assert view["bad_lines"]["count"] == len(BAD[kind]) and not view["incomplete"]
    old, new = (v for v in sorted(view["versions"], key=lambda v: v["ref"]))
    assert old["ref"].endswith("2026-11-02T00:00Z.txt") and new["ref"].endswith("2026-11-02T12:00Z.txt")
    assert (old["requests"], new["requests"]) == (7, 7) and old["label"].startswith("the snapshot ")
    # A request before the change is judged by the old file, one after it by the new one.
    gptbot, googlebot = crawler(view, "GPTBot"), crawler(view, "Googlebot")
    assert gptbot["classes"] == {"allowed": 1, "exempt": 1, "violation": 1}
    (violator,) = [v for v in view["violators"] if v["token"] == "GPTBot"]
    assert [(line["robots_version"], line["line"], line["rule"]) for line in violator["lines"]] == [
        (new["ref"], 2, "Disallow: /")
    ]
    (google_line,) = next(v for v in view["violators"] if v["token"] == "Googlebot")["lines"]
    assert (google_line["robots_version"], google_line["line"]) == (old["ref"], 2)
    # Spoofed Googlebot lines from outside Google's lists: by claimed crawler, with their addresses.
    (spoofers,) = view["spoofers"]
    assert (spoofers["token"], spoofers["requests"], spoofers["addresses"]) == ("Googlebot", 3, 2)
    assert spoofers["top"][0] == {"address": ANYWHERE, "requests": 2}
    assert googlebot["verification"] == {"spoofed": 3, "verified": 2} and googlebot["robots_fetches"] == 0
    # The user-triggered fetcher is exempt; the unverifiable CCBot breaking the file is unverified.
    assert crawler(view, "ChatGPT-User")["classes"] == {"exempt": 1}
    assert crawler(view, "CCBot")["classes"] == {"unverified": 1}
    # GPTBot read robots.txt first in one session of two; bingbot kept no Crawl-delay.
    assert (gptbot["sessions"]["sessions"], gptbot["sessions"]["robots_first"], gptbot["robots_fetches"]) == (2, 1, 1)
    bing = crawler(view, "bingbot")
    assert {key: bing["sessions"][key] for key in ("sessions", "gaps", "delayed", "short", "delay", "too_fast")} == {
        "sessions": 1,
        "gaps": 3,
        "delayed": 3,
        "short": 3,
        "delay": 10,
        "too_fast": True,
    }
    assert [c["token"] for c in view["too_fast"]] == ["bingbot"]
    assert view["blocked"] == [{"token": "bingbot", "requests": 1}]  # declared allow, enforced block
    assert bing["statuses"] == {"200": 3, "403": 1}
    assert view["never_read_robots"] == [
        {"token": "Googlebot", "requests": 2},
        {"token": "bingbot", "requests": 4},
        {"token": "CCBot", "requests": 1},
    ]
    purposes = {p["purpose"]: p["requests"] for p in view["purposes"]}
    assert purposes == {"search": 9, "ai-training": 3, "user-triggered": 1, "dataset": 1}
    assert view["ai"]["requests"] == 4 and view["ai"]["share"] == round(4 / 19, 4)


def test_the_terminal_summary_names_violators_spoofers_and_what_was_never_read(
    tmp_path: Path, robots_dir: Path
) -> None:
    log = write(tmp_path / "access.log", "combined")
    code, out, err = run(str(log), "--robots-dir", str(robots_dir), "--site", SITE, "--format", "combined")
    assert code == 0, err
    assert "allowed 6 · violation 2 · within grace 0 · exempt 2 · spoofed 3 · unverified 1 · unjudged 0" in out
    assert "Disallow: / (×1)" in out and "Disallow: /private/ (×1)" in out
    assert "203.0.113.9 (×2)" in out
    assert "Never fetched robots.txt: Googlebot, bingbot, CCBot" in out
    assert "403 answered to requests the file allowed): bingbot (1)" in out
    assert "access.log: line 20: " in err and "2 lines were not read as requests" in err
    korean = CliRunner().invoke(
        cli, ["logs", str(log), "--robots-dir", str(robots_dir), "--site", SITE, "--format", "combined", "--lang", "ko"]
    )
    assert "허용 6 · 위반 2 · 유예 기간 내 0 · 예외 2 · 위장 3 · 미확인 1 · 판정 불가 0" in korean.stdout


def test_fail_on_exit_codes(tmp_path: Path, robots_dir: Path) -> None:
    both = write(tmp_path / "both.log", "combined", bad=[])
    violation_only = write(tmp_path / "violation.log", "combined", [h for h in HITS if h.ip != ANYWHERE], bad=[])
    clean = write(tmp_path / "clean.log", "combined", [HITS[1], HITS[7]], bad=[])
    args = ("--robots-dir", str(robots_dir), "--site", SITE, "--format", "combined")
    assert [run(str(both), *args, "--fail-on", level)[0] for level in ("violation", "spoofed")] == [1, 1]
    # Two spoofs remain (203.0.113.10's aside): only the ANYWHERE ones were taken out.
    assert [run(str(violation_only), *args, "--fail-on", level)[0] for level in ("violation", "spoofed")] == [1, 1]
    no_spoof = write(tmp_path / "nospoof.log", "combined", [h for h in HITS if h.user_agent != agent("Googlebot")])
    assert [run(str(no_spoof), *args, "--fail-on", level)[0] for level in ("violation", "spoofed")] == [1, 0]
    assert [run(str(clean), *args, "--fail-on", level)[0] for level in ("violation", "spoofed")] == [0, 0]
    assert run(str(both), *args)[0] == 0  # without --fail-on, findings alone do not fail


# The file changes at 12:00 on day 2: NEW disallows GPTBot everything, OLD only /private/.
GRACE_HITS = [
    Hit(OPENAI_GPTBOT, at(13), "/blog", agent("GPTBot")),  # an hour after: within grace (OLD allowed it)
    Hit(OPENAI_GPTBOT, at(13, day=3), "/blog", agent("GPTBot")),  # 25 hours after: a violation
    Hit(OPENAI_GPTBOT, at(13, 5), "/private/x", agent("GPTBot")),  # OLD disallowed it too: a violation
]


def test_grace_sets_apart_a_request_made_just_after_a_disallow_was_added(tmp_path: Path, robots_dir: Path) -> None:
    log = write(tmp_path / "grace.log", "combined", GRACE_HITS, bad=[])
    counts = {}
    for grace in (None, "24h", "90m", "1d", "0", "30m"):
        code, view, err = audited(log, robots_dir, *(() if grace is None else ("--grace", grace)))
        assert code == 0, err  # findings alone, without --fail-on
        counts[grace] = (view["classes"]["violation"], view["classes"]["grace"], view["grace"])
    day = {"seconds": 86_400.0, "requests": 1}
    assert counts == {
        None: (2, 1, day),  # the default: 24 hours
        "24h": (2, 1, day),
        "90m": (2, 1, {"seconds": 5_400.0, "requests": 1}),
        "1d": (2, 1, day),
        "0": (3, 0, {"seconds": 0.0, "requests": 0}),
        "30m": (3, 0, {"seconds": 1_800.0, "requests": 0}),  # 13:00 is an hour after the change
    }
    _, view, _ = audited(log, robots_dir)
    (violator,) = view["violators"]
    assert violator["requests"] == 2 and crawler(view, "GPTBot")["classes"] == {"grace": 1, "violation": 2}
    # The terminal says how many were set apart and why, in each language.
    args = (str(log), "--robots-dir", str(robots_dir), "--site", SITE, "--format", "combined")
    _, out, _ = run(*args)
    assert "allowed 0 · violation 2 · within grace 1 ·" in out
    assert "1 request is within grace, not counted as a violation: made less than 24h after" in out.replace("\n", " ")
    korean = CliRunner().invoke(cli, ["logs", *args, "--grace", "90m", "--no-dns", "--lang", "ko"])
    assert "요청 1건은 유예 기간 내로" in korean.stdout and "90m 안에" in korean.stdout.replace("\n", " ")
    assert "within grace" not in run(*args, "--grace", "0")[1].split("\n", 2)[2]  # nothing set apart to say


def test_requests_within_grace_never_fail_the_audit(tmp_path: Path, robots_dir: Path) -> None:
    only_grace = write(tmp_path / "grace.log", "combined", GRACE_HITS[:1], bad=[])
    args = (str(only_grace), "--robots-dir", str(robots_dir), "--site", SITE, "--format", "combined")
    assert run(*args, "--fail-on", "violation")[0] == 0
    assert run(*args, "--fail-on", "violation", "--grace", "0")[0] == 1
    everything = write(tmp_path / "all.log", "combined", GRACE_HITS, bad=[])
    args = (str(everything), *args[1:])
    assert [run(*args, "--fail-on", "violation", *more)[0] for more in ((), ("--grace", "0"))] == [1, 1]
    assert run(*args, "--fail-on", "spoofed")[0] == 0


def test_rows_within_grace_name_the_earlier_file(tmp_path: Path, robots_dir: Path) -> None:
    import csv

    log = write(tmp_path / "grace.log", "combined", GRACE_HITS, bad=[])
    audited(log, robots_dir, "--csv", str(tmp_path / "audit.csv"))
    with (tmp_path / "audit.csv").open() as stream:
        rows = list(csv.DictReader(stream))
    assert [(row["class"], Path(row["grace_version"]).name) for row in rows] == [
        ("grace", "2026-11-02T00:00Z.txt"),
        ("violation", ""),
        ("violation", ""),
    ]
    assert Path(rows[0]["robots_version"]).name == "2026-11-02T12:00Z.txt" and rows[0]["rule"] == "Disallow: /"
    with (tmp_path / "audit.crawlers.csv").open() as stream:
        (gptbot,) = csv.DictReader(stream)
    assert (gptbot["class_grace"], gptbot["class_violation"]) == ("1", "2")


@pytest.mark.parametrize("value", ["abc", "-1h", "1w", "", "24 hours", "1e3", "9" * 400, "nan", "½h"])
def test_a_bad_grace_is_one_line_and_exit_2(tmp_path: Path, robots_dir: Path, value: str) -> None:
    log = write(tmp_path / "grace.log", "combined", GRACE_HITS, bad=[])
    code, out, err = run(str(log), "--robots-dir", str(robots_dir), "--site", SITE, "--grace", value)
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.splitlines() == [
        f"robotscope: --grace {value}: not a duration (seconds, or a number with s, m, h or d: "
        "90m, 24h; 0 turns the grace off)"
    ]


@given(st.text(max_size=40))
def test_a_duration_is_a_finite_number_of_seconds_or_none(text: str) -> None:
    found = seconds_of(text)
    assert found is None or (math.isfinite(found) and found >= 0)


def test_a_request_before_any_known_file_is_unjudged_and_the_answer_incomplete(
    tmp_path: Path, robots_dir: Path
) -> None:
    early = Hit(OPENAI_GPTBOT, at(23, day=1), "/blog", agent("GPTBot"))
    code, view, _ = audited(write(tmp_path / "early.log", "combined", [early, HITS[1]], bad=[]), robots_dir)
    assert code == 1 and view["incomplete"]
    assert view["classes"]["unjudged"] == 1 and view["unjudged"] == [{"origin": SITE, "requests": 1}]


def test_a_log_without_hosts_and_no_site_says_to_give_one(tmp_path: Path, robots_dir: Path) -> None:
    log = write(tmp_path / "access.log", "combined", HITS[:2], bad=[])
    code, out, err = run(str(log), "--robots-dir", str(robots_dir), "--format", "combined")
    assert code == 1 and "1 request was not judged" in out, err  # the other fetched robots.txt: exempt
    assert "Requests logged without a host (-) have no origin: give --site URL" in out


@pytest.mark.parametrize("kind", ["combined", "w3c", "cloudfront"])
def test_jobs_2_gives_what_jobs_1_gives(
    tmp_path: Path, robots_dir: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    log = write(tmp_path / "access.log", kind)
    _, whole, _ = audited(log, robots_dir, "--jobs", "1", kind=kind)
    # Many pieces of a few lines (some shorter than a line): the sessions are stitched across them, and
    # W3C's `#Fields:` header is given to each.
    monkeypatch.setattr(pieces_module, "BLOCK", 100)
    _, one, _ = audited(log, robots_dir, "--jobs", "1", "--csv", str(tmp_path / "one.csv"), kind=kind)
    _, two, _ = audited(log, robots_dir, "--jobs", "2", "--csv", str(tmp_path / "two.csv"), kind=kind)
    assert one == two == whole
    assert (tmp_path / "one.csv").read_text() == (tmp_path / "two.csv").read_text()
    assert (tmp_path / "one.crawlers.csv").read_text() == (tmp_path / "two.crawlers.csv").read_text()


def test_csv_rows_and_crawler_summaries(tmp_path: Path, robots_dir: Path) -> None:
    import csv

    audited(write(tmp_path / "access.log", "combined"), robots_dir, "--csv", str(tmp_path / "audit.csv"))
    with (tmp_path / "audit.csv").open() as stream:
        rows = list(csv.DictReader(stream))
    assert len(rows) == 14
    first = rows[0]
    assert {key: first[key] for key in ("number", "time", "ip", "url", "token", "class", "exempt")} == {
        "number": "1",
        "time": "2026-11-02T10:00:00Z",
        "ip": OPENAI_GPTBOT,
        "url": "https://shop.example/robots.txt",
        "token": "GPTBot",
        "class": "exempt",
        "exempt": "robots-txt",
    }
    violation = rows[2]
    assert (violation["class"], violation["line"], violation["rule"], violation["allowed"]) == (
        "violation",
        "2",
        "Disallow: /",
        "False",
    )
    with (tmp_path / "audit.crawlers.csv").open() as stream:
        crawlers = {row["token"]: row for row in csv.DictReader(stream)}
    assert set(crawlers) == {"Googlebot", "bingbot", "GPTBot", "ChatGPT-User", "CCBot"}
    assert (crawlers["bingbot"]["blocked"], crawlers["bingbot"]["too_fast"]) == ("1", "True")


def test_parquet_rows_with_types(tmp_path: Path, robots_dir: Path) -> None:
    import pyarrow.parquet as pq

    audited(write(tmp_path / "access.log", "combined"), robots_dir, "--parquet", str(tmp_path / "audit.parquet"))
    table = pq.read_table(tmp_path / "audit.parquet")
    assert table.num_rows == 14
    assert str(table.schema.field("time").type) == "timestamp[us, tz=UTC]"
    assert table.column("class").to_pylist().count("spoofed") == 3
    assert table.column("line").to_pylist()[2] == 2
    crawlers = pq.read_table(tmp_path / "audit.crawlers.parquet").to_pylist()
    assert {row["token"]: row["class_spoofed"] for row in crawlers}["Googlebot"] == 3


def test_parquet_rows_with_a_crawl_delay_past_int64(tmp_path: Path) -> None:
    # `Crawl-delay: 1e30` reads as the integer 10**30, which no Arrow column took: the audit stopped.
    robots = snapshots(tmp_path, ("2026-11-02T00:00Z.txt", OLD.replace("Crawl-delay: 10", "Crawl-delay: 1e30")))
    log = write(tmp_path / "access.log", "combined", HITS[9:13], bad=[])
    out = tmp_path / "audit.parquet"
    code, _, err = run(str(log), "--robots-dir", str(robots), "--site", SITE, "--parquet", str(out), "--json")
    assert code == 0, err
    import pyarrow.parquet as pq

    assert pq.read_table(out).column("crawl_delay").to_pylist() == [1e30] * 4
    (bing,) = pq.read_table(tmp_path / "audit.crawlers.parquet").to_pylist()
    assert (bing["crawl_delay"], bing["short_gaps"]) == (1e30, 3)


def test_parquet_without_pyarrow_is_one_clear_line(
    tmp_path: Path, robots_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow raises ImportError
    log = write(tmp_path / "access.log", "combined")
    code, _, err = run(str(log), "--robots-dir", str(robots_dir), "--parquet", str(tmp_path / "a.parquet"))
    assert code == 2 and "--parquet needs pyarrow" in err and "Traceback" not in err
    assert not list(tmp_path.glob("*.parquet*")) and not list(tmp_path.glob(".a.parquet*"))


def test_compressed_logs_and_standard_input(tmp_path: Path, robots_dir: Path) -> None:
    text = log_text("combined", HITS)
    (tmp_path / "a.log.gz").write_bytes(gzip.compress(text.encode()))
    (tmp_path / "b.log.bz2").write_bytes(bz2.compress(text.encode()))
    _, view, _ = audited(tmp_path / "a.log.gz", robots_dir, str(tmp_path / "b.log.bz2"))
    assert (view["requests"], view["classes"]["spoofed"]) == (38, 6)
    result = CliRunner().invoke(
        cli, ["logs", "-", "--robots-dir", str(robots_dir), "--site", SITE, "--no-dns", "--json"], input=text
    )
    assert json.loads(result.stdout)["requests"] == 19


def test_a_cut_compressed_log_counts_what_came_before_and_is_incomplete(tmp_path: Path, robots_dir: Path) -> None:
    data = gzip.compress(log_text("combined", HITS * 50).encode())
    (tmp_path / "cut.log.gz").write_bytes(data[: len(data) // 2])
    code, view, err = audited(tmp_path / "cut.log.gz", robots_dir)
    assert code == 1 and view["incomplete"] and len(view["stopped"]) == 1
    assert 0 < view["requests"] < 19 * 50 and "not read past line" in err


def test_malformed_and_huge_lines_are_counted_never_fatal(tmp_path: Path, robots_dir: Path) -> None:
    bad = ["\x00\x01\x02", "x" * (MAX_LINE + 10), '"' * 5000, '1.2.3.4 - - [bad] "GET / HTTP/1.1" 200 1 "-" "-"']
    # A blank line is no record at all: neither a request nor a bad line.
    code, view, err = audited(write(tmp_path / "access.log", "combined", bad=["", *bad]), robots_dir)
    assert code == 0 and view["bad_lines"]["count"] == len(bad) and view["requests"] == 19
    assert "\x00" not in err  # control characters of a log are never printed raw
    only_bad = tmp_path / "bad.log"
    only_bad.write_text(log_text("combined", HITS[:1]) + "\n".join(["junk"] * 30) + "\n")
    assert audited(only_bad, robots_dir)[0] == 0
    all_bad = tmp_path / "allbad.log"
    all_bad.write_text(log_text("combined", HITS[:1]).replace("GET", "\x16\x03") + "garbage\n")
    code, view, _ = audited(all_bad, robots_dir)
    assert code == 1 and view["requests"] == 0 and view["incomplete"]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ((), "give one source of robots.txt"),
        (("--robots", "x.txt", "--history"), "give one source of robots.txt"),
        (("--robots", "nowhere.txt"), "nothing to judge the requests by"),
        (("--robots-dir", "DIR", "--site", "ftp://x"), "--site ftp://x"),
        (("--robots-dir", "DIR", "--csv", "a.csv", "--parquet", "a.parquet"), "exclude each other"),
        (("--robots-dir", "DIR", "-", "-"), "standard input (-) can be given once"),
    ],
)
def test_bad_usage_is_one_line_and_exit_2(tmp_path: Path, robots_dir: Path, args: tuple[str, ...], said: str) -> None:
    log = write(tmp_path / "access.log", "combined")
    code, _, err = run(str(log), *(str(robots_dir) if arg == "DIR" else arg for arg in args))
    assert code == 2 and said in err and "Traceback" not in err


def test_a_log_of_no_known_format_is_refused(tmp_path: Path, robots_dir: Path) -> None:
    log = tmp_path / "odd.log"
    log.write_text("hello world\nthis is no log\n")
    code, _, err = run(str(log), "--robots-dir", str(robots_dir))
    assert code == 2 and "give --format" in err
    code, _, err = run(str(tmp_path / "missing.log"), "--robots-dir", str(robots_dir))
    assert code == 2 and "missing.log" in err


def test_html_report_beside_the_summary_in_each_language(tmp_path: Path, robots_dir: Path) -> None:
    log = write(tmp_path / "access.log", "combined")
    for lang in ("en", "ko"):
        out = tmp_path / f"report-{lang}.html"
        args = [str(log), "--robots-dir", str(robots_dir), "--site", SITE, "--format", "combined", "--html", str(out)]
        result = CliRunner().invoke(cli, ["logs", *args, "--no-dns", "--lang", lang])
        assert result.exit_code == 0, result.stderr
        html = out.read_text(encoding="utf-8")
        assert html.startswith("<!doctype html>") and f'<html lang="{lang}"' in html
        assert html.count('class="marker"') == 2  # both snapshots: one in force at the start, one from noon
        assert html.count('class="line-bar"') == 2  # the two deciding lines broken
        assert ("Server-log audit" if lang == "en" else "서버 로그 감사") in html
        assert "allowed 6" in result.stdout or "허용 6" in result.stdout  # the terminal summary as well
        assert out.stat().st_mode & 0o777 == 0o666 & ~_umask()  # not the temporary file's 0600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["access.log", "report-en.html", "report-ko.html", "robots"]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_html_report_that_cannot_be_written_or_finished(tmp_path: Path, robots_dir: Path) -> None:
    log = write(tmp_path / "access.log", "combined")
    code, _, err = run(str(log), "--robots-dir", str(robots_dir), "--html", str(tmp_path / "no" / "such" / "r.html"))
    assert code == 2 and err.count("\n") == 1 and "cannot write" in err and "r.html" in err
    # A log whose format cannot be told stops the audit: no report, no temporary file left behind.
    (tmp_path / "odd.log").write_text("neither\nformat\n")
    code, _, err = run(str(tmp_path / "odd.log"), "--robots-dir", str(robots_dir), "--html", str(tmp_path / "r.html"))
    assert code == 2 and "none of the formats" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["access.log", "odd.log", "robots"]


@pytest.mark.usefixtures("isolated")
def test_robots_url_names_the_site_of_a_log_without_hosts(tmp_path: Path, server: Server) -> None:
    # NCSA combined logs no host: the origin of `--robots URL` is the site its requests were made to.
    server.serve("/robots.txt", body=NEW.encode())
    log = write(tmp_path / "access.log", "combined", [HITS[1]], bad=[])
    code, out, err = run(str(log), "--robots", server.url("/robots.txt"), "--format", "combined", "--json")
    view = json.loads(out)
    assert code == 0 and view["classes"]["violation"] == 1 and not view["unjudged"], err


def test_history_judges_every_origin_of_a_log_with_hosts_site_or_not(tmp_path: Path) -> None:
    # --site names the origin of requests logged without a host; it does not narrow the store to one origin.
    store_path, clock = tmp_path / "history.sqlite3", Clock(at(0))
    with HistoryStore(store_path, now=clock) as store:
        for origin in ("https://a.example", "https://b.example"):
            store.record(origin, "browser", fetched(NEW.encode(), origin=origin))
    log = tmp_path / "caddy.log"
    hits = [(Hit(OPENAI_GPTBOT, at(10), "/blog", agent("GPTBot")), host) for host in ("a.example", "b.example")]
    log.write_text("".join(caddy_line(hit, host) + "\n" for hit, host in hits))
    for site in ((), ("--site", "https://a.example")):
        code, out, err = run(str(log), "--history", "--store", str(store_path), "--format", "caddy", "--json", *site)
        view = json.loads(out)
        assert code == 0 and view["classes"]["violation"] == 2 and not view["unjudged"], (site, err)
