"""`robotscope fetch`, and `check` / `lint` given a URL, against servers on 127.0.0.1."""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from click.testing import CliRunner

from robotscope.cli import cli
from tests.conftest import Server

pytestmark = pytest.mark.usefixtures("isolated")
ROBOTS = b"User-agent: *\nDisallow: /private/\nCrawl-delay: 5\n"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_fetch_shows_chain_status_decisions_and_findings(server: Server) -> None:
    server.redirect("/robots.txt", "/real.txt")
    server.serve("/real.txt", 200, ROBOTS)
    code, out, _ = run("fetch", server.url("/"), "--no-cache", "--policy", "google")
    assert code == 0
    assert f"  1. 301 {server.url('/robots.txt')}" in out and f"  2. 200 {server.url('/real.txt')}" in out
    assert "status: 200   content type: text/plain   size: 49 bytes" in out
    rows = [
        line
        for line in out.splitlines()
        if line.strip().startswith(("* ", "rfc9309", "google", "bing", "naver", "yandex"))
    ]
    assert [row.split()[0:3] for row in rows] == [
        ["rfc9309", "parse", "RFC"],
        ["*", "google", "parse"],
        ["bing", "parse", "Bing"],
        ["naver", "parse", "Naver"],
        ["yandex", "parse", "Yandex"],
    ]
    assert "info nonStandardDirective" in out


def test_fetch_json_and_unreachable_exit_1(server: Server) -> None:
    server.serve("/robots.txt", 503, b"down")
    code, out, _ = run("fetch", server.url("/"), "--json", "--no-cache")
    data = json.loads(out)
    assert code == 1
    assert data["status"] == 503 and data["decision"] == "disallow-all"
    actions = {name: d["action"] for name, d in data["decisions"].items()}
    assert actions.pop("yandex") == "allow-all"  # Yandex: any answer but 200 OK opens the site
    assert set(actions.values()) == {"disallow-all"}
    assert data["decisions"]["naver"]["explanation"].startswith("Naver (")


def test_fetch_uses_the_cache_file(server: Server, tmp_path: Path) -> None:
    server.serve("/robots.txt", 200, ROBOTS)
    cache = str(tmp_path / "c.sqlite3")
    run("fetch", server.url("/"), "--cache", cache)
    code, out, _ = run("fetch", server.url("/"), "--cache", cache)
    assert code == 0 and "(from cache)" in out and server.hits["/robots.txt"] == 1


def test_check_a_url_checks_its_own_path(server: Server) -> None:
    server.serve("/robots.txt", 200, ROBOTS)
    code, out, _ = run("check", server.url("/private/x"), "Googlebot", "--no-cache")
    assert code == 1
    assert f"DISALLOWED {server.url('/private/x')}" in out
    assert "RFC 9309 (https://www.rfc-editor.org/rfc/rfc9309.html): HTTP 200" in out
    code, out, _ = run("check", server.url("/"), "Googlebot", "/public", "/private/y", "--json", "--no-cache")
    data = json.loads(out)
    assert code == 1 and [v["allowed"] for v in data] == [True, False]
    assert data[0]["robots_txt"]["action"] == "parse"


def test_check_unreachable_site_is_a_decision_not_a_crash(server: Server) -> None:
    server.serve("/robots.txt", 500, b"oops")
    code, out, err = run("check", server.url("/a"), "bot", "--no-cache", "--policy", "bing")
    assert code == 1 and "Traceback" not in err
    assert "disallow-all" in out and "Bing (" in out and "robots.txt is unreachable" in out


def test_lint_a_url(server: Server) -> None:
    server.serve("/robots.txt", 200, ROBOTS)
    code, out, _ = run("lint", server.url("/"), "--no-cache", "--fail-on", "info")
    assert code == 1 and "nonStandardDirective" in out and server.url("/robots.txt") in out
    server.serve("/robots.txt", 404, b"")
    code, out, _ = run("lint", server.url("/"), "--no-cache")
    assert code == 0 and "allow-all: nothing to lint" in out


def test_bad_urls_and_missing_urls_are_usage_errors(tmp_path: Path) -> None:
    code, _, err = run("fetch", "ftp://example.com/")
    assert code == 2 and err.strip() == "robotscope: `ftp://example.com/` is not an http or https URL"
    file = tmp_path / "robots.txt"
    file.write_text("User-agent: *\n")
    code, _, err = run("check", str(file), "bot")
    assert code == 2 and "Missing argument" in err


def test_bulk_fetch_reads_each_origin_once(server: Server, other_server: Server, tmp_path: Path) -> None:
    server.serve("/robots.txt", 200, b"User-agent: *\nDisallow: /private/\n")
    other_server.serve("/robots.txt", 503, b"down")
    urls = tmp_path / "urls.txt"
    urls.write_text(
        "\n".join(
            [server.url("/private/1"), server.url("/public"), other_server.url("/page"), server.url("/private/2")]
        )
        + "\n"
    )
    code, out, _ = run("bulk", "--fetch", "--urls", str(urls), "--agent", "bot", "--format", "jsonl", "--no-cache")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1  # rows are disallowed
    assert [(r["allowed"], r["reason"], r["line"]) for r in rows] == [
        (False, "rule", 2),
        (True, "no-matching-rule", None),
        (False, "robots-txt-unreachable", None),
        (False, "rule", 2),
    ]
    assert rows[0]["robots_url"] == server.url("/robots.txt") and rows[2]["robots_url"] == other_server.url(
        "/robots.txt"
    )
    assert server.hits["/robots.txt"] == 1


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_bulk_notes_what_check_would_say(server: Server, tmp_path: Path, jobs: str) -> None:
    # Another origin than the fetched robots.txt, a profile that changed the RFC 9309 answer, and
    # the operator's engine reading a URL otherwise: each a code in the `note` column.
    server.serve("/robots.txt", 200, b"User-agent: *\nDisallow /oops\nDisallow: /private/\n")
    urls = tmp_path / "urls.txt"
    urls.write_text("/oops\n/private/x\nhttps://elsewhere.example/ok\n" * 2000)  # a few chunks: the workers start
    notes = {}
    for agent, exit_code in (("Googlebot", 1), ("AdsBot-Google", 0)):
        code, out, _ = run(
            "bulk",
            server.url("/"),
            "--urls",
            str(urls),
            "--agent",
            agent,
            "--format",
            "jsonl",
            "--no-cache",
            "--jobs",
            jobs,
        )
        rows = [json.loads(line) for line in out.splitlines()]
        assert code == exit_code and len(rows) == 6000  # 1: /private/x is disallowed
        notes[agent] = [r["note"] for r in rows[:3]]
    assert notes["Googlebot"] == ["read-otherwise:google", "", "other-origin"]
    assert notes["AdsBot-Google"] == ["", "profile", "other-origin"]  # it ignores `*`: RFC 9309 alone blocks /private/x
    code, out, _ = run(
        "bulk", server.url("/"), "--urls", str(urls), "--agent", "Googlebot", "--no-cache", "--jobs", "1"
    )
    assert out.splitlines()[0] == "url,agent_token,allowed,reason,line,rule,engine,note,robots_url"
    assert out.splitlines()[1] == "/oops,googlebot,True,no-matching-rule,,,rfc9309+profiles,read-otherwise:google,"


def test_fetch_reports_the_true_size_and_line_count_of_an_oversized_file(server: Server) -> None:
    body = b"User-agent: *\nDisallow: /a\n" + b"Disallow: /some/long/enough/path/to/fill/the/file\n" * 24_000
    server.serve("/robots.txt", 200, body)
    code, out, _ = run("fetch", server.url("/"), "--no-cache")
    lines = body.count(b"\n")
    assert code == 0 and f"size: {len(body):,} bytes, {lines:,} lines (only the first" in out
    assert f"the file is {len(body):,} bytes" in out  # the lint finding knows the true size too


# ---------- how the file was served, and the file as a whole (issue 22) ----------


@pytest.mark.parametrize(
    ("content_type", "severity", "says"),
    [
        ("text/html; charset=utf-8", "warning", "the type of a web page"),
        ("application/json", "warning", "not `text/plain` as RFC 9309 requires"),
        (None, "info", "the response has no Content-Type"),
    ],
)
def test_a_robots_txt_not_served_as_text_plain_is_a_finding_in_fetch_and_check(
    server: Server, content_type: str | None, severity: str, says: str
) -> None:
    def answer(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        if content_type is not None:
            handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(ROBOTS)))
        handler.end_headers()
        handler.wfile.write(ROBOTS)

    server.routes["/robots.txt"] = answer
    _, fetched, _ = run("fetch", server.url("/"), "--no-cache")
    code, checked, _ = run("check", server.url("/private/x"), "Googlebot", "--no-cache")
    for out in (fetched, checked):
        assert f"{server.url('/robots.txt')}: {severity} contentType" in out and says in out
    # The rules still apply: crawlers parse the body whatever its label.
    assert code == 1 and "DISALLOWED" in checked
    data = json.loads(run("fetch", server.url("/"), "--no-cache", "--json")[1])
    assert [f["code"] for f in data["served"]] == ["contentType"]
    assert data["findings"][0]["code"] == "contentType"
    (item,) = json.loads(run("check", server.url("/private/x"), "Googlebot", "--no-cache", "--json")[1])
    assert item["findings"][0]["code"] == "contentType"


def test_text_plain_in_another_charset_than_utf8_is_noted_in_fetch_check_and_lint(server: Server) -> None:
    server.serve("/robots.txt", 200, ROBOTS, {"Content-Type": "text/plain; charset=ISO-8859-1"})
    where = server.url("/robots.txt")
    for command in (("fetch", server.url("/")), ("check", server.url("/x"), "bot"), ("lint", server.url("/"))):
        out = run(*command, "--no-cache")[1]
        assert f"{where}: info contentType" in out and "charset iso-8859-1, but RFC 9309 requires UTF-8" in out
    data = json.loads(run("fetch", server.url("/"), "--no-cache", "--json", "--lang", "ko")[1])
    (served,) = data["served"]
    assert served["message"]["code"] == "lint.contentType.charset" and "UTF-8을 요구합니다" in served["message"]["text"]


def test_text_plain_with_a_charset_is_no_finding(server: Server) -> None:
    server.serve("/robots.txt", 200, ROBOTS, {"Content-Type": "Text/Plain; charset=UTF-8"})
    data = json.loads(run("fetch", server.url("/"), "--no-cache", "--json")[1])
    assert data["served"] == [] and "contentType" not in [f["code"] for f in data["findings"]]


def test_check_a_url_says_the_file_was_cut_at_the_limit(server: Server) -> None:
    body = ROBOTS + b"#" * 600_000 + b"\nUser-agent: *\nDisallow: /late/\n"
    server.serve("/robots.txt", 200, body)
    code, out, _ = run("check", server.url("/late/x"), "Googlebot", "--no-cache")
    assert code == 0
    said = out.split("ALLOWED")[0]  # before the verdicts
    assert "error oversize" in said and f"the file is {len(body):,} bytes" in said
    assert "from line 4 on are ignored and what they say is not known here" in said


def test_check_a_utf16_file_says_its_encoding(tmp_path: Path) -> None:
    path = tmp_path / "robots.txt"
    path.write_bytes("User-agent: *\nDisallow: /private/\n".encode("utf-16"))
    code, out, _ = run("check", str(path), "Googlebot", "/private/x")
    assert code == 0  # what crawlers do: no rule is read, so everything is allowed
    head = out.split("ALLOWED")[0]
    assert "error encodingNotUtf8" in head and "saved as UTF-16, not UTF-8 as RFC 9309 requires" in head
    _, ko, _ = run("check", str(path), "Googlebot", "/private/x", "--lang", "ko")
    assert "UTF-16으로 저장되어" in ko


def test_bulk_says_the_file_was_cut_and_which_rows_a_rule_past_it_would_decide(tmp_path: Path) -> None:
    robots = tmp_path / "robots.txt"
    robots.write_bytes(ROBOTS + b"#" * 600_000 + b"\nUser-agent: *\nDisallow: /late/\n")
    urls = tmp_path / "urls.txt"
    urls.write_text("/late/x\n/private/x\n/other\n")
    _, out, err = run("bulk", str(robots), "--urls", str(urls), "--agent", "Googlebot", "--jobs", "1")
    rows = {line.split(",")[0]: line.split(",")[7] for line in out.splitlines()[1:]}
    assert rows == {"/late/x": "past-limit:6", "/private/x": "", "/other": ""}
    assert "error oversize" in err and "line 5 (User-agent: *), line 6 (Disallow: /late/)" in err


def serve_labelled(server: Server, body: bytes, content_type: str) -> None:
    """`/robots.txt` answers 200 with `body` labelled `content_type`."""
    server.serve("/robots.txt", 200, body, {"Content-Type": content_type})


@pytest.mark.parametrize(("content_type", "says"), [("text/html", "the type of a web page"), ("application/json", "")])
def test_lint_a_url_says_how_the_file_was_served_in_text_json_and_sarif(
    server: Server, content_type: str, says: str
) -> None:
    serve_labelled(server, ROBOTS, content_type)
    where = server.url("/robots.txt")
    code, out, _ = run("lint", server.url("/"), "--no-cache", "--fail-on", "warning")
    # The same finding, in the same words, as fetch says it (access.served is its one home).
    (fetched,) = json.loads(run("fetch", server.url("/"), "--no-cache", "--json")[1])["served"]
    assert code == 1 and f"{where}: warning contentType" in out and fetched["message"]["text"] in out and says in out
    findings = json.loads(run("lint", server.url("/"), "--no-cache", "--json")[1])
    assert findings[0] == fetched | {"file": where}
    code, out, _ = run("lint", server.url("/"), "--no-cache", "--format", "sarif", "--fail-on", "warning")
    driver, results = json.loads(out)["runs"][0]["tool"]["driver"], json.loads(out)["runs"][0]["results"]
    assert code == 1 and results[0]["ruleId"] == "contentType" and results[0]["level"] == "warning"
    rule = driver["rules"][results[0]["ruleIndex"]]
    assert rule["id"] == "contentType" and rule["defaultConfiguration"] == {"level": "warning"}
    assert rule["shortDescription"]["text"].startswith("a robots.txt served")
    ko = json.loads(run("lint", server.url("/"), "--no-cache", "--format", "sarif", "--lang", "ko")[1])
    assert "text/plain" in ko["runs"][0]["tool"]["driver"]["rules"][results[0]["ruleIndex"]]["shortDescription"]["text"]


def test_lint_a_url_served_as_text_plain_has_no_content_type_finding(server: Server) -> None:
    serve_labelled(server, ROBOTS, "text/plain; charset=utf-8")
    assert "contentType" not in run("lint", server.url("/"), "--no-cache", "--fail-on", "info")[1]


def test_lint_fix_of_a_url_still_counts_how_it_was_served(server: Server) -> None:
    # The fixed file cannot change the server's label: the finding is left, and says so in the exit code.
    serve_labelled(server, ROBOTS, "text/html")
    code, out, err = run("lint", server.url("/"), "--no-cache", "--fix", "--fail-on", "warning")
    assert code == 1 and out == ROBOTS.decode() and "2 findings remain" in err  # Crawl-delay's, and the label's


@pytest.mark.parametrize(
    ("body", "code", "says"),
    [
        ("User-agent: *\nDisallow: /private/\n".encode("utf-16"), "encodingNotUtf8", "saved as UTF-16"),
        (ROBOTS + b"#" * 600_000 + b"\nUser-agent: *\nDisallow: /late/\n", "oversize", "only the first 512,000"),
    ],
)
def test_lint_a_url_says_the_file_cannot_be_read_or_was_cut(server: Server, body: bytes, code: str, says: str) -> None:
    serve_labelled(server, body, "text/plain")
    exit_code, out, _ = run("lint", server.url("/"), "--no-cache")
    assert exit_code == 1 and f"{server.url('/robots.txt')}: error {code}" in out and says in out
    log = json.loads(run("lint", server.url("/"), "--no-cache", "--format", "sarif")[1])["runs"][0]
    assert [r["ruleId"] for r in log["results"]][:1] == [code]


def test_fetch_a_page_url_ends_with_each_main_crawlers_verdict(server: Server) -> None:
    server.serve("/robots.txt", 200, b"User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nAllow: /\n")
    code, out, _ = run("fetch", server.url("/private/report?x=1"), "--no-cache")
    assert code == 0
    verdicts = out.split(f"verdicts for {server.url('/private/report?x=1')}:\n")[1].splitlines()
    by_crawler = {line.split()[0]: line.split(None, 2)[1:] for line in verdicts}
    assert set(by_crawler) >= {"Googlebot", "bingbot", "Yeti", "YandexBot"}
    assert by_crawler["Googlebot"][0] == "ALLOWED" and by_crawler["Googlebot"][1].startswith("Line 5 (Allow: /)")
    assert by_crawler["bingbot"][0] == "DISALLOWED" and by_crawler["bingbot"][1].startswith(
        "Line 2 (Disallow: /private/)"
    )
    data = json.loads(run("fetch", server.url("/private/report"), "--no-cache", "--json", "--agents", "GPTBot")[1])
    assert [(v["crawler"], v["allowed"], v["line"]) for v in data["verdicts"]] == [("GPTBot", False, 2)]
    # The site's root, or robots.txt itself, names no page: no verdicts.
    for root in ("/", "/robots.txt"):
        _, out, _ = run("fetch", server.url(root), "--no-cache")
        assert "verdicts for" not in out
