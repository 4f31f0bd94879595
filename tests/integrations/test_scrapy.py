"""Scrapy: robotscope's parser backend and its middleware, in real crawls against servers on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from scrapy.exceptions import IgnoreRequest
from scrapy.http import Request, Response
from scrapy.robotstxt import RobotParser as ScrapyRobotParser
from scrapy.utils.test import get_crawler
from twisted.internet.defer import Deferred

from robotscope import parse
from robotscope.integrations.scrapy import RobotParser, RobotsTxtMiddleware
from tests.conftest import Server

pytestmark = pytest.mark.usefixtures("isolated")
CRAWL = str(Path(__file__).parent / "scrapy_crawl.py")
USER_AGENT = "ExampleBot/1.0 (+https://example.com/bot)"
ROBOTS = b"User-agent: *\nDisallow: /private/\nAllow: /private/ok\n\nUser-agent: ExampleBot\nDisallow: /nobots\n"
ERROR_PAGE = b"<!DOCTYPE html><html><body><h1>503 Service Unavailable</h1></body></html>"


def crawl(mode: str, urls: list[str]) -> dict[str, Any]:
    done = subprocess.run([sys.executable, CRAWL, mode, *urls], capture_output=True, text=True, timeout=120, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def serve_pages(server: Server, paths: list[str]) -> list[str]:
    for path in paths:
        server.serve(path, 200, b"<html><body>page</body></html>", {"Content-Type": "text/html"})
    return [server.url(p) for p in paths]


def test_parser_backend_answers_as_robotscope() -> None:
    parser = RobotParser.from_crawler(None, ROBOTS)  # type: ignore[arg-type]
    robots = parse(ROBOTS)
    for path in ("/private/x", "/private/ok", "/nobots", "/public"):
        url = "http://example.com" + path
        assert parser.allowed(url.encode(), USER_AGENT.encode()) == robots.can_fetch(USER_AGENT, url)
    assert not parser.allowed("http://example.com/nobots", USER_AGENT)  # the named group, not `*`


def test_parser_backend_gives_no_star_delay_to_a_crawler_with_lines_of_its_own() -> None:
    # Through compat.crawl_delay, the one reading of a record's crawlers.
    parser = RobotParser(b"User-agent: *\nCrawl-delay: 5\nUser-agent: NoTime\nDisallow: /x\n")
    assert parser.crawl_delay(b"NoTime/1.0") is None and parser.crawl_delay("OtherBot") == 5


# Scrapy's own middleware checks at most two concurrent requests per host
# correctly (see test_middleware_checks_every_concurrent_request), so the
# parser backend is crawled with two URLs.
@pytest.mark.parametrize(
    ("mode", "paths"),
    [("parser", ["/private/secret", "/nobots"]), ("middleware", ["/public", "/private/secret", "/nobots"])],
)
def test_crawl_obeys_the_rules_with_robotscope_verdicts(server: Server, mode: str, paths: list[str]) -> None:
    server.serve("/robots.txt", 200, ROBOTS)
    urls = serve_pages(server, paths)
    result = crawl(mode, urls)
    robots = parse(ROBOTS)
    expected = sorted(u for u in urls if robots.can_fetch(USER_AGENT, u))
    # ExampleBot has its own group, so the `*` group's /private/ does not apply to it.
    assert result["fetched"] == expected == sorted(u for u in urls if not u.endswith("/nobots"))
    assert result["forbidden"] == 1


def test_middleware_checks_every_concurrent_request(server: Server) -> None:
    # Scrapy's own middleware lets requests through unchecked when more than two
    # wait for the same robots.txt (see RobotsTxtMiddleware.robot_parser).
    server.serve("/robots.txt", 200, b"User-agent: *\nDisallow: /\n")
    urls = serve_pages(server, [f"/page{i}" for i in range(6)])
    assert crawl("middleware", urls) == {"fetched": [], "forbidden": 6}
    assert crawl("parser", urls)["fetched"] != []


def test_503_html_page_allows_everything_with_scrapy_middleware_but_not_with_robotscope(server: Server) -> None:
    server.serve("/robots.txt", 503, ERROR_PAGE, {"Content-Type": "text/html"})
    urls = serve_pages(server, ["/a", "/b"])
    # Scrapy's own middleware parses the HTML error page: everything is allowed.
    assert crawl("parser", urls)["fetched"] == sorted(urls)
    # robotscope's middleware reads the 503 as RFC 9309 says: unreachable, disallow all.
    result = crawl("middleware", urls)
    assert result["fetched"] == [] and result["forbidden"] == 2


def test_middleware_404_allows_and_200_is_parsed(server: Server, other_server: Server) -> None:
    server.serve("/robots.txt", 404, b"not found", {"Content-Type": "text/html"})
    other_server.serve("/robots.txt", 200, ROBOTS)
    urls = serve_pages(server, ["/anything"]) + serve_pages(other_server, ["/nobots", "/public"])
    result = crawl("middleware", urls)
    assert result["fetched"] == sorted([server.url("/anything"), other_server.url("/public")])
    assert result["forbidden"] == 1


def test_middleware_unreachable_origin_disallows(server: Server) -> None:
    urls = serve_pages(server, ["/page"])
    dead = "http://127.0.0.1:9/page"  # the discard port: nothing listens there
    result = crawl("middleware", [*urls, dead])
    assert server.url("/page") in result["fetched"] and dead not in result["fetched"]


def _middleware() -> tuple[RobotsTxtMiddleware, Deferred[ScrapyRobotParser | None]]:
    crawler = get_crawler(
        settings_dict={"ROBOTSTXT_OBEY": True, "ROBOTSTXT_PARSER": "robotscope.integrations.scrapy.RobotParser"}
    )
    middleware = RobotsTxtMiddleware(crawler)
    waiting: Deferred[ScrapyRobotParser | None] = Deferred()
    middleware._parsers["example.com"] = waiting
    return middleware, waiting


def test_middleware_reads_a_response_not_tied_to_a_request() -> None:
    # Scrapy's own tests build such responses; `response.meta` raises for them.
    middleware, waiting = _middleware()
    response = Response("http://example.com/robots.txt", body=b"User-agent: *\nDisallow: /x\n")
    got: list[object] = []
    waiting.addCallback(got.append)
    asyncio.run(middleware._parse_robots(response, "example.com", Request("http://example.com/")))
    (parser,) = got
    assert isinstance(parser, RobotParser)
    assert not parser.allowed("http://example.com/x", USER_AGENT) and parser.allowed("http://example.com/y", USER_AGENT)


def test_ignored_robots_txt_request_allows_everything_and_is_no_failure() -> None:
    middleware, waiting = _middleware()
    got: list[object] = []
    waiting.addCallback(got.append)
    middleware._robots_error(IgnoreRequest("filtered by another middleware"), "example.com")
    (parser,) = got
    assert isinstance(parser, RobotParser) and parser.allowed("http://example.com/anything", USER_AGENT)
    stats = middleware.crawler.stats.get_stats()
    assert stats.get("robotscope/robotstxt/ignored") == 1
    assert "example.com" not in middleware._unreachable_since


def test_a_download_error_still_disallows_everything() -> None:
    middleware, waiting = _middleware()
    got: list[object] = []
    waiting.addCallback(got.append)
    middleware._robots_error(ConnectionRefusedError("refused"), "example.com")
    (parser,) = got
    assert isinstance(parser, RobotParser) and not parser.allowed("http://example.com/anything", USER_AGENT)
