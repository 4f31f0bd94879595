"""A drop-in for the standard library's `urllib.robotparser.RobotFileParser`, with RFC 9309 answers.

The public API is the standard library's: `set_url`, `read`, `parse`,
`can_fetch`, `mtime`, `modified`, `crawl_delay`, `request_rate`,
`site_maps`, and the `url`, `host`, `path`, `allow_all`, `disallow_all` and
`last_checked` attributes. The answers are robotscope's: longest match wins,
groups naming the crawler are merged, `*` and `$` work, escapes are
normalised, and `read()` interprets the HTTP outcome as RFC 9309 does (a 401
or 403 allows everything, a 5xx or network error disallows everything).
docs/compat.md lists where that differs from the old first-match parser.
"""

from __future__ import annotations

import time
import urllib.parse
from collections.abc import Iterable
from urllib.robotparser import RequestRate

from .access.policy import Action
from .access.robots import Robots, parse
from .access.verdicts import blanket
from .syntax.tokens import product_token
from .syntax.urls import target


def crawl_delay(robots: Robots, useragent: str) -> int | float | None:
    """The Crawl-delay for `useragent` in seconds, or None when unset, not a number, negative or not finite."""
    return robots.crawl_delay(useragent)


def request_rate(robots: Robots, useragent: str) -> RequestRate | None:
    """The Request-rate (`requests/seconds`) for `useragent`, or None when unset or malformed."""
    record = robots.agent_record(useragent, "request-rate")
    if record is None:
        return None
    requests, _, seconds = record.value.partition("/")
    if not (requests.strip().isdigit() and seconds.strip().isdigit()):
        return None
    return RequestRate(int(requests), int(seconds))


class RobotFileParser:
    """Read robots.txt and answer `can_fetch(useragent, url)` under RFC 9309."""

    def __init__(self, url: str = "") -> None:
        self._robots: Robots | None = None
        self.allow_all = False
        self.disallow_all = False
        self.last_checked = 0.0
        self.set_url(url)

    def mtime(self) -> float:
        """When robots.txt was last read or parsed (0 if never)."""
        return self.last_checked

    def modified(self) -> None:
        """Record that robots.txt was read now."""
        self.last_checked = time.time()

    def set_url(self, url: str) -> None:
        """Set the URL of the robots.txt file."""
        self.url = url
        self.host, self.path = urllib.parse.urlsplit(url)[1:3]

    def read(self) -> None:
        """Fetch the robots.txt URL and apply RFC 9309's reading of the HTTP outcome."""
        from .fetch import fetch_robots  # httpx is needed only here

        result = fetch_robots(self.url, policy="rfc9309", cache=False)
        action = result.decisions["rfc9309"].action
        self.allow_all = action is Action.ALLOW_ALL
        self.disallow_all = action is Action.DISALLOW_ALL
        if result.robots is not None and action.rules_apply:
            self._robots = result.robots
        self.modified()

    def parse(self, lines: Iterable[str]) -> None:
        """Parse robots.txt lines (with or without their line ends)."""
        self._robots = parse("\n".join(line.rstrip("\r\n") for line in lines))
        self.modified()

    def can_fetch(self, useragent: str, url: str) -> bool:
        """Whether `useragent` may fetch `url`.

        As in the standard library, nothing is allowed until robots.txt has
        been read or parsed: until then it is unknown, and RFC 9309 treats an
        unknown file as disallowing everything.
        """
        if self.disallow_all or self.allow_all:
            # What the fetch decided, or the caller set (the standard library lets them): no rule applies,
            # read as every answer of robotscope reads it (/robots.txt itself stays allowed).
            return blanket(not self.disallow_all, product_token(useragent), url, target(url)).allowed
        if not self.last_checked or self._robots is None:
            return False
        return self._robots.can_fetch(useragent, url)

    def crawl_delay(self, useragent: str) -> int | float | None:
        """The Crawl-delay for `useragent` (of the user-agent lines right above it), in seconds, or None."""
        return None if self._robots is None else crawl_delay(self._robots, useragent)

    def request_rate(self, useragent: str) -> RequestRate | None:
        """The Request-rate for `useragent` as the standard library's `RequestRate`, or None."""
        return None if self._robots is None else request_rate(self._robots, useragent)

    def site_maps(self) -> list[str] | None:
        """The Sitemap URLs of the file, or None when it names none."""
        if self._robots is None or not self._robots.sitemaps:
            return None
        return [s.value for s in self._robots.sitemaps]

    def __str__(self) -> str:
        """The groups, named ones first and `*` last, as the standard library prints them."""
        if self._robots is None:
            return ""
        groups = sorted(self._robots.groups, key=lambda g: "*" in g.agents)
        blocks = []
        for group in groups:
            lines = [f"User-agent: {self._robots.line(n).value}" for n in group.agent_lines]
            lines += [
                f"{r.key.capitalize()}: {r.value}" for r in group.records if r.key in ("crawl-delay", "request-rate")
            ]
            lines += [r.text for r in group.rules]
            blocks.append("\n".join(lines))
        return "\n\n".join(blocks)
