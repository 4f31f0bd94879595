"""Scrapy integration: a robots.txt parser backend, and a middleware that reads HTTP outcomes right.

Parser only (Scrapy's own middleware, robotscope's answers)::

    ROBOTSTXT_PARSER = "robotscope.integrations.scrapy.RobotParser"

Scrapy's middleware parses whatever body comes back, whatever the status,
so an HTML 503 page reads as "allow all", and a network error also allows
everything. The middleware below applies robotscope's status policies
instead (4xx allow all; 5xx, 429 and network errors disallow all until a
good copy is fetched, retried after ROBOTSCOPE_ROBOTSTXT_RETRY seconds;
more than five redirects as the policy says). When another middleware
filters the robots.txt request itself (`IgnoreRequest`: the crawl chose not
to fetch it; no server failed), there is no robots.txt and everything is
allowed, as in Scrapy's own middleware, counted under
`robotscope/robotstxt/ignored`::

    ROBOTSTXT_OBEY = True
    ROBOTSTXT_PARSER = "robotscope.integrations.scrapy.RobotParser"
    ROBOTSCOPE_POLICY = "rfc9309"  # or google, bing, naver, yandex
    DOWNLOADER_MIDDLEWARES = {
        "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
        "robotscope.integrations.scrapy.RobotsTxtMiddleware": 100,
    }

Needs the `scrapy` extra; Scrapy is imported only here.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware as ScrapyRobotsTxtMiddleware
from scrapy.exceptions import IgnoreRequest
from scrapy.http import Response
from scrapy.robotstxt import RobotParser as ScrapyRobotParser
from scrapy.utils.httpobj import urlparse_cached
from twisted.internet.defer import Deferred

from ..access.policy import Action, Decision, Outcome, decide
from ..access.robots import parse, verdict_after
from ..compat import crawl_delay
from ..syntax.html import looks_like_html

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Request


def _text(value: str | bytes) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else value


class RobotParser(ScrapyRobotParser):
    """Scrapy's `RobotParser` interface answered by robotscope (RFC 9309)."""

    def __init__(self, robotstxt_body: bytes, decision: Decision | None = None) -> None:
        self.robots = parse(robotstxt_body)
        # What the policy concluded from the fetch (None: the body is the file and its rules apply).
        self.decision = decision

    @classmethod
    def from_crawler(cls, crawler: Crawler, robotstxt_body: bytes) -> RobotParser:
        return cls(robotstxt_body)

    def allowed(self, url: str | bytes, user_agent: str | bytes) -> bool:
        if self.decision is None:
            return self.robots.can_fetch(_text(user_agent), _text(url))
        # The one reading of a fetch's decision: unreachable is complete disallow (bar /robots.txt itself).
        return verdict_after(self.decision, self.robots, _text(user_agent), _text(url)).allowed

    def crawl_delay(self, user_agent: str | bytes) -> float | None:
        return crawl_delay(self.robots, _text(user_agent))


class RobotsTxtMiddleware(ScrapyRobotsTxtMiddleware):
    """Scrapy's robots.txt middleware, with the HTTP outcome read by a robotscope policy."""

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        self._policy: str = crawler.settings.get("ROBOTSCOPE_POLICY", "rfc9309")
        self._retry_after = crawler.settings.getfloat("ROBOTSCOPE_ROBOTSTXT_RETRY", 600.0)
        self._unreachable_since: dict[str, float] = {}

    async def robot_parser(self, request: Request) -> Any:
        netloc = urlparse_cached(request).netloc
        since = self._unreachable_since.get(netloc)
        if since is not None and time.monotonic() - since >= self._retry_after:
            # Unreachable long enough: fetch again, hoping for a good copy.
            del self._unreachable_since[netloc]
            self._parsers.pop(netloc, None)
        parser = await super().robot_parser(request)
        if parser is None:
            # Scrapy hands one Deferred to every request waiting for the same
            # robots.txt; awaited as asyncio futures, only the first waiter
            # gets the parser and later ones get None, which Scrapy reads as
            # "allow". The parser is stored by then: use it.
            stored = self._parsers.get(netloc)
            parser = None if isinstance(stored, Deferred) else stored
        return parser

    async def _parse_robots(self, response: Response, netloc: str, request: Request) -> None:
        # A response built without its request (by another middleware, or a test) has no
        # `meta`, and Scrapy would turn the AttributeError into "unreachable".
        request_of = response.request
        redirects = 0 if request_of is None else len(request_of.meta.get("redirect_urls", ()))
        html = 200 <= response.status < 300 and looks_like_html(parse(response.body))
        decision = decide(Outcome(status=response.status, redirects=redirects, html=html), self._policy)
        self.crawler.stats.inc_value(f"robotscope/robotstxt/{decision.action}")
        if decision.action is Action.PARSE:  # this response's body is the file
            await super()._parse_robots(response, netloc, request)
        elif decision.action is Action.DISALLOW_ALL:
            self._unreachable(netloc, decision)
        else:
            self._resolve(netloc, RobotParser(b"", decision))

    def _robots_error(self, exc: Exception, netloc: str) -> None:
        if isinstance(exc, IgnoreRequest):
            # The crawl itself filtered the robots.txt request: no file, no failure.
            self.crawler.stats.inc_value("robotscope/robotstxt/ignored")
            self._resolve(netloc, RobotParser(b""))
            return
        # Scrapy allows everything when robots.txt cannot be downloaded; RFC 9309,
        # Section 2.3.1.4 says an unreachable file means complete disallow.
        self.crawler.stats.inc_value(f"robotstxt/exception_count/{type(exc)}")
        self._unreachable(netloc, decide(Outcome(error="network"), self._policy))

    def _unreachable(self, netloc: str, decision: Decision) -> None:
        self._unreachable_since[netloc] = time.monotonic()
        self._resolve(netloc, RobotParser(b"", decision))

    def _resolve(self, netloc: str, parser: RobotParser) -> None:
        # Hand the parser to the requests waiting for this origin's robots.txt.
        waiting = self._parsers[netloc]
        self._parsers[netloc] = parser
        if isinstance(waiting, Deferred):
            waiting.callback(parser)
