"""`robotscope page` against pages served on 127.0.0.1: every finding from a real HTTP exchange, and hostile pages."""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest
from click.testing import CliRunner

from robotscope.cli import cli
from robotscope.reports.indexing import page_facts
from tests.conftest import Server, respond

pytestmark = pytest.mark.usefixtures("isolated")
HTML = {"Content-Type": "text/html"}


def run(*args: str) -> tuple[int, dict[str, Any]]:
    result = CliRunner().invoke(cli, ["page", *args, "--json", "--no-cache", "--timeout", "5"])
    assert result.exit_code in (0, 1), result.stderr
    return result.exit_code, json.loads(result.stdout)


def codes(data: dict[str, Any], agent: str = "Googlebot") -> list[str]:
    (found,) = [c for c in data["crawlers"] if c["agent"] == agent]
    return [f["code"] for f in found["findings"]]


def test_a_blocked_page_with_noindex_never_shows_its_noindex(server: Server) -> None:
    server.serve("/robots.txt", 200, b"User-agent: *\nDisallow: /private/\n")
    server.serve("/private/p", 200, b'<html><head><meta name="robots" content="noindex"></head></html>', HTML)
    code, data = run(server.url("/private/p"))
    assert code == 1 and codes(data) == ["blockedNoindex"]
    assert data["crawlers"][0]["verdict"]["line"] == 2 and data["crawlers"][0]["page"]["noindex"] is True


def test_a_blocked_page_without_noindex_may_still_be_indexed(server: Server) -> None:
    server.serve("/robots.txt", 200, b"User-agent: *\nDisallow: /private/\nNoindex: /private/\n")
    server.serve("/private/q", 200, b"<html><head><title>x</title></head></html>", HTML)
    code, data = run(server.url("/private/q"))
    assert code == 1 and codes(data) == ["blockedIndexable", "noindexInRobotsTxt"]


def test_crawler_specific_headers_and_meta_reach_only_their_crawler(server: Server) -> None:
    server.serve("/robots.txt", 200, b"User-agent: *\nDisallow:\n")
    page = (
        b'<html><head><!-- <meta name="robots" content="noindex"> -->'
        b'<meta name="bingbot" content="noindex, nofollow"></head></html>'
    )
    server.serve(
        "/a", 200, page, {**HTML, "X-Robots-Tag": "googlebot: noindex, unavailable_after: 25 Jun 2030 15:00:00 PST"}
    )
    code, data = run(server.url("/a"), "--agent", "Googlebot", "--agent", "Bingbot", "--agent", "GPTBot")
    assert code == 0
    assert (
        codes(data, "Googlebot") == ["noindex"]
        and codes(data, "Bingbot") == ["noindex"]
        and codes(data, "GPTBot") == []
    )
    (google,) = [c for c in data["crawlers"] if c["agent"] == "Googlebot"]
    assert set(google["page"]["sources"]) == {"header"}  # the meta tag in a comment counts for nobody
    assert google["page"]["directives"][0] == "noindex" and google["page"]["directives"][1].startswith(
        "unavailable_after"
    )
    assert "Googlebot/2.1" in google["user_agent"]  # the catalogue's documented User-Agent string was sent


def test_a_server_that_refuses_what_robots_txt_allows(server: Server) -> None:
    server.serve("/robots.txt", 200, b"User-agent: *\nDisallow:\n")

    def by_agent(handler: BaseHTTPRequestHandler) -> None:
        blocked = "GPTBot" in handler.headers.get("User-Agent", "")
        respond(handler, 403 if blocked else 200, b"<html></html>", HTML)

    server.routes["/b"] = by_agent
    code, data = run(server.url("/b"), "--agent", "Googlebot", "--agent", "GPTBot")
    assert code == 1 and codes(data, "GPTBot") == ["serverRefuses"] and codes(data, "Googlebot") == []


def test_a_canonical_on_a_blocked_url_and_the_content_usage_header(server: Server, other_server: Server) -> None:
    server.serve("/robots.txt", 200, b"User-agent: *\nDisallow:\n")
    other_server.serve("/robots.txt", 200, b"User-agent: *\nDisallow: /canon/\n")
    page = (
        f'<html><head><link rel="canonical" href="{other_server.url("/canon/x")}">'
        '<meta name="robots" content="noai"></head></html>'
    ).encode()
    server.serve("/c", 200, page, {**HTML, "Content-Usage": "train-ai=n, search=y"})
    code, data = run(server.url("/c"))
    assert code == 1 and codes(data) == ["canonicalBlocked", "aiToken"]
    assert data["crawlers"][0]["page"]["content_usage"] == {"train-ai": "n", "search": "y"}
    assert data["crawlers"][0]["canonical_allowed"] is False


def test_hostile_pages_are_answered_in_bounded_time(server: Server) -> None:
    server.serve("/robots.txt", 200, b"User-agent: *\nDisallow:\n")
    server.serve(
        "/huge", 200, b"<html><head>" + b"<div>" * (2 * 1024 * 1024) + b'<meta name="robots" content="noindex">', HTML
    )
    server.serve("/open", 200, b'<html><head><meta name="robots" content="noindex"<<<<<<', HTML)
    for path in ("/huge", "/open"):
        code, data = run(server.url(path))
        assert code == 0 and data["crawlers"][0]["response"]["status"] == 200
    code, data = run(server.url("/huge"))
    assert (
        data["crawlers"][0]["response"]["cut"] is True and data["crawlers"][0]["page"]["noindex"] is False
    )  # past the first MiB


def test_each_x_robots_tag_line_is_read_alone(server: Server) -> None:
    # An HTTP client's dict joins repeated fields with commas: `otherbot: noindex, noindex`
    # would aim the second line's noindex at otherbot too.
    def lines(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        for value in ("otherbot: noindex", "noindex", "bingbot: nofollow"):
            handler.send_header("X-Robots-Tag", value)
        handler.send_header("Content-Type", "text/html")
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    server.serve("/robots.txt", 200, b"User-agent: *\nDisallow:\n")
    server.routes["/multi"] = lines
    code, data = run(server.url("/multi"), "--agent", "Googlebot", "--agent", "Bingbot")
    assert code == 0
    (google,) = [c for c in data["crawlers"] if c["agent"] == "Googlebot"]
    (bing,) = [c for c in data["crawlers"] if c["agent"] == "Bingbot"]
    assert google["page"]["directives"] == ["noindex"] and codes(data, "Googlebot") == ["noindex"]
    assert bing["page"]["directives"] == ["noindex", "nofollow"]


def test_a_page_blocked_by_an_unreachable_robots_txt_names_no_line(server: Server) -> None:
    server.serve("/robots.txt", 503, b"down")
    server.serve("/p", 200, b"<html><head><title>x</title></head></html>", HTML)
    code, data = run(server.url("/p"))
    (finding,) = data["crawlers"][0]["findings"]
    assert code == 1 and finding["code"] == "blockedIndexable"
    assert (
        finding["message"]["text"].startswith("robots.txt could not be fetched")
        and "line" not in finding["message"]["text"]
    )
    result = CliRunner().invoke(cli, ["page", server.url("/p"), "--no-cache", "--lang", "ko"])
    assert "robots.txt를 가져올 수 없어" in result.stdout and "0번 줄" not in result.stdout


@pytest.mark.parametrize(
    "body",
    [
        b"\x00\xff" * 1000,
        b"<meta name=robots content=",
        b"<" * 10000,
        b"<html><head><meta name='ROBOTS' content='NoIndex'>",
    ],
)
def test_page_facts_never_raise(body: bytes) -> None:
    facts = page_facts(
        "https://www.example.com/", [("x-robots-tag", "noindex"), ("x-robots-tag", "bingbot: none")], body, "googlebot"
    )
    assert facts.noindex  # the header alone says noindex


def test_the_text_report_names_the_verdict_the_answer_and_the_findings(server: Server) -> None:
    server.serve("/robots.txt", 200, b"User-agent: *\nDisallow: /private/\n")
    server.serve("/private/p", 200, b'<html><head><meta name="robots" content="noindex"></head></html>', HTML)
    result = CliRunner().invoke(cli, ["page", server.url("/private/p"), "--no-cache", "--lang", "en"])
    lines = result.stdout.splitlines()
    assert result.exit_code == 1 and lines[0] == f"{server.url('/private/p')} (robots.txt: {server.url('/robots.txt')})"
    assert "  robots.txt: DISALLOWED, line 2 (Disallow: /private/)" in lines and "  response: HTTP 200" in lines
    assert "  robots directives: noindex (meta:robots)" in lines and lines[-1].startswith(
        "  blockedNoindex: robots.txt line 2 blocks"
    )
    korean = CliRunner().invoke(cli, ["page", server.url("/private/p"), "--no-cache", "--lang", "ko"]).stdout
    assert "2번 줄" in korean


def test_a_challenge_page_where_robots_txt_allows_is_an_enforced_block(server: Server) -> None:
    server.serve("/robots.txt", 200, b"User-agent: *\nDisallow:\n")
    challenge = (
        b"<html><head><title>Just a moment...</title></head>"
        b'<body><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script></body></html>'
    )
    server.serve("/d", 403, challenge, HTML)
    code, data = run(server.url("/d"))
    (finding,) = data["crawlers"][0]["findings"]
    assert (
        code == 1 and finding["code"] == "serverRefuses" and "challenge page (HTTP 403)" in finding["message"]["text"]
    )
    assert data["crawlers"][0]["page"]["challenge"] is True
