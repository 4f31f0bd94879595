"""robotscope.compat.RobotFileParser: the standard library's API with RFC 9309 answers.

The cases are CPython's Lib/test/test_robotparser.py cases, rewritten here as
data (robots.txt, crawler, URLs expected allowed and disallowed, sitemaps,
crawl-delay, request-rate). Where RFC 9309 answers differently from the old
first-match parser, the case carries `rfc_differs` with the reason; the
same list is in docs/compat.md.
"""

from __future__ import annotations

import threading
import urllib.robotparser
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

import pytest

from robotscope import parse
from robotscope.compat import RobotFileParser, crawl_delay
from tests.conftest import Server
from tests.paths import CORPUS

AGENT = "test_robotparser"

# One file, read by two spellings of the same crawler (CPython's two figtree cases).
FIGTREE: dict[str, Any] = {
    "robots": (
        "User-agent: figtree\nCrawl-delay: 3\nRequest-rate: 9/30\nDisallow: /tmp\nDisallow: /a%3cd.html\n"
        "Disallow: /a%2fb.html\nDisallow: /%7ejoe/index.html\n"
    ),
    "good": [("figtree", "/foo.html")],
    "bad": ["/tmp", "/tmp.html", "/tmp/a.html", "/a%3cd.html", "/a%3Cd.html", "/a%2fb.html", "/~joe/index.html"],
    "crawl_delay": 3,
    "request_rate": (9, 30),
}

CASES: list[dict[str, Any]] = [
    {
        "name": "UserAgentWildcard",
        "robots": (
            "User-agent: *\nDisallow: /cyberworld/map/ # This is an infinite virtual URL space\n"
            "Disallow: /tmp/ # these will soon disappear\nDisallow: /foo.html\n"
        ),
        "good": ["/", "/test.html"],
        "bad": ["/cyberworld/map/index.html", "/tmp/xxx", "/foo.html"],
    },
    {
        "name": "CrawlDelayAndCustomAgent",
        "robots": (
            "# robots.txt for http://www.example.com/\n\nUser-agent: *\nCrawl-delay: 1\nRequest-rate: 3/15\n"
            "Disallow: /cyberworld/map/ # This is an infinite virtual URL space\n\n"
            "# Cybermapper knows where to go.\nUser-agent: cybermapper\nDisallow:\n"
        ),
        "good": ["/", "/test.html", ("cybermapper", "/cyberworld/map/index.html")],
        "bad": ["/cyberworld/map/index.html"],
    },
    {
        "name": "Sitemap",
        "robots": (
            "# robots.txt for http://www.example.com/\n\nUser-agent: *\n"
            "Sitemap: http://www.gstatic.com/s2/sitemaps/profiles-sitemap.xml\n"
            "Sitemap: http://www.google.com/hostednews/sitemap_index.xml\n"
            "Request-rate: 3/15\nDisallow: /cyberworld/map/ # This is an infinite virtual URL space\n\n"
        ),
        "good": ["/", "/test.html"],
        "bad": ["/cyberworld/map/index.html"],
        "site_maps": [
            "http://www.gstatic.com/s2/sitemaps/profiles-sitemap.xml",
            "http://www.google.com/hostednews/sitemap_index.xml",
        ],
    },
    {
        "name": "RejectAllRobots",
        "robots": "# go away\nUser-agent: *\nDisallow: /\n",
        "bad": ["/cyberworld/map/index.html", "/", "/tmp/"],
    },
    {"name": "EmptyFile", "robots": "", "good": ["/anything"]},
    {"name": "CrawlDelayAndRequestRate", **FIGTREE, "agent": "figtree"},
    {"name": "DifferentAgent", **FIGTREE, "agent": "FigTree Robot libwww-perl/5.04"},
    {
        "name": "InvalidRequestRate",
        "robots": (
            "User-agent: *\nDisallow: /tmp/\nDisallow: /a%3Cd.html\nDisallow: /a/b.html\nDisallow: /%7ejoe/index.html\n"
            "Crawl-delay: 3\nRequest-rate: 9/banana\n"
        ),
        "good": ["/tmp"],
        "bad": ["/tmp/", "/tmp/a.html", "/a%3cd.html", "/a%3Cd.html", "/a/b.html", "/%7Ejoe/index.html"],
        "crawl_delay": 3,
        "request_rate": None,
    },
    {
        "name": "InvalidCrawlDelay",
        "robots": "User-Agent: *\nDisallow: /.\nCrawl-delay: pears\n",
        "good": ["/foo.html"],
        "crawl_delay": None,
    },
    {
        "name": "AnotherInvalidRequestRate",
        "robots": (
            "User-agent: Googlebot\nAllow: /folder1/myfile.html\nDisallow: /folder1/\nRequest-rate: whale/banana\n"
        ),
        "agent": "Googlebot",
        "good": ["/folder1/myfile.html"],
        "bad": ["/folder1/anotherfile.html"],
        "request_rate": None,
    },
    {
        "name": "UserAgentOrdering",
        "robots": "User-agent: Googlebot\nDisallow: /\n\nUser-agent: Googlebot-Mobile\nAllow: /\n",
        "agent": "Googlebot",
        "bad": ["/something.jpg"],
    },
    {
        "name": "UserAgentGoogleMobile",
        "robots": "User-agent: Googlebot\nDisallow: /\n\nUser-agent: Googlebot-Mobile\nAllow: /\n",
        "agent": "Googlebot-Mobile",
        "good": ["/something.jpg"],
        "rfc_differs": (
            "RFC 9309, Section 2.2.1: the crawler's token is matched exactly, "
            "so Googlebot-Mobile uses its own group (Allow: /); "
            "the old parser matched `googlebot` as a substring of `googlebot-mobile` and took the first group"
        ),
    },
    {
        "name": "GoogleURLOrdering",
        "robots": "User-agent: Googlebot\nAllow: /folder1/myfile.html\nDisallow: /folder1/\n",
        "agent": "googlebot",
        "good": ["/folder1/myfile.html"],
        "bad": ["/folder1/anotherfile.html"],
    },
    {
        "name": "DisallowQueryString",
        "robots": "User-agent: *\nDisallow: /some/path?name=value\n",
        "good": ["/some/path"],
        "bad": ["/some/path?name=value"],
    },
    {
        "name": "UseFirstUserAgentWildcard",
        "robots": "User-agent: *\nDisallow: /some/path\n\nUser-agent: *\nDisallow: /another/path\n",
        "bad": ["/some/path", "/another/path"],
        "rfc_differs": (
            "RFC 9309, Section 2.2.1: all groups for the same crawler (here two `*` groups) are merged, "
            "so /another/path is disallowed too; the old parser obeyed only the first `*` group"
        ),
    },
    {
        "name": "EmptyQueryString",
        "robots": "User-agent: *\nAllow: /some/path?\nDisallow: /another/path?\n",
        "good": ["/some/path?"],
        "bad": ["/another/path?"],
    },
    {
        "name": "DefaultEntry",
        "robots": "User-agent: *\nCrawl-delay: 1\nRequest-rate: 3/15\nDisallow: /cyberworld/map/\n",
        "good": ["/", "/test.html"],
        "bad": ["/cyberworld/map/index.html"],
        "crawl_delay": 1,
        "request_rate": (3, 15),
    },
]


def _agent_and_url(case: dict[str, Any], item: str | tuple[str, str]) -> tuple[str, str]:
    return item if isinstance(item, tuple) else (case.get("agent", AGENT), item)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_stdlib_cases_answer_as_rfc_9309_says(case: dict[str, Any]) -> None:
    parser = RobotFileParser()
    parser.parse(case["robots"].splitlines(keepends=True))
    for item in case.get("good", []):
        assert parser.can_fetch(*_agent_and_url(case, item)), item
    for item in case.get("bad", []):
        assert not parser.can_fetch(*_agent_and_url(case, item)), item
    assert parser.site_maps() == case.get("site_maps")
    agent = case.get("agent", AGENT)
    if "crawl_delay" in case:
        assert parser.crawl_delay(agent) == case["crawl_delay"]
    if "request_rate" in case:
        expected = None if case["request_rate"] is None else urllib.robotparser.RequestRate(*case["request_rate"])
        assert parser.request_rate(agent) == expected


@pytest.mark.parametrize("case", [c for c in CASES if "rfc_differs" in c], ids=lambda c: c["name"])
def test_listed_differences_really_differ_from_the_first_match_parser(case: dict[str, Any]) -> None:
    # This interpreter's urllib.robotparser (3.11) is the old first-match parser.
    old = urllib.robotparser.RobotFileParser()
    old.parse(case["robots"].splitlines())
    items = [(i, True) for i in case.get("good", [])] + [(i, False) for i in case.get("bad", [])]
    assert any(old.can_fetch(*_agent_and_url(case, item)) != allowed for item, allowed in items)


def test_nothing_is_allowed_before_read_or_parse() -> None:
    parser = RobotFileParser("http://example.com/robots.txt")
    assert parser.mtime() == 0 and not parser.can_fetch("*", "/")
    assert (parser.host, parser.path) == ("example.com", "/robots.txt")


def test_string_formatting_prints_groups_named_first() -> None:
    parser = RobotFileParser()
    parser.parse(
        "User-agent: *\nCrawl-delay: 1\nRequest-rate: 3/15\nDisallow: /cyberworld/map/ # x\n\n"
        "# Cybermapper knows where to go.\nUser-agent: cybermapper\nDisallow: /some/path\n".splitlines()
    )
    assert str(parser) == (
        "User-agent: cybermapper\nDisallow: /some/path\n\n"
        "User-agent: *\nCrawl-delay: 1\nRequest-rate: 3/15\nDisallow: /cyberworld/map/"
    )


class _Forbidden(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_error(403, "Forbidden access")

    def log_message(self, format: str, *args: object) -> None:
        pass


def test_read_a_403_allows_everything_as_rfc_9309_says() -> None:
    """CPython's PasswordProtectedSite case: the old parser disallows all on 401/403.

    RFC 9309, Section 2.3.1.3: a 4xx status means the file is unavailable and
    the crawler may access any resource.
    """
    server = HTTPServer(("127.0.0.1", 0), _Forbidden)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        parser = RobotFileParser()
        parser.set_url(url + "/robots.txt")
        parser.read()
        assert parser.allow_all and not parser.disallow_all and parser.mtime() > 0
        assert parser.can_fetch("*", url + "/robots.txt") and parser.can_fetch("*", url + "/private")
        old = urllib.robotparser.RobotFileParser(url + "/robots.txt")
        old.read()
        assert not old.can_fetch("*", url + "/private")
    finally:
        server.shutdown()
        server.server_close()


def test_request_rate_is_the_standard_librarys_named_tuple() -> None:
    parser = RobotFileParser()
    parser.parse(FIGTREE["robots"].splitlines())
    rate = parser.request_rate("figtree")
    assert isinstance(rate, urllib.robotparser.RequestRate) and (rate.requests, rate.seconds) == (9, 30)


RECORDS_PER_RUN = (
    "User-agent: a\nCrawl-delay: 5\nUser-agent: b\nCrawl-delay: 10\nDisallow: /x\nUser-agent: *\nCrawl-delay: 1\n"
)


@pytest.mark.parametrize(("agent", "delay"), [("a", 5), ("b", 10), ("c", 1)])
def test_crawl_delay_belongs_to_the_user_agent_lines_right_above_it(agent: str, delay: int) -> None:
    # As the standard library (and Protego) read it; the Disallow still applies to a and b
    # together, since under RFC 9309 a record does not end a group.
    parser = RobotFileParser()
    parser.parse(RECORDS_PER_RUN.splitlines())
    old = urllib.robotparser.RobotFileParser()
    old.parse(RECORDS_PER_RUN.splitlines())
    assert parser.crawl_delay(agent) == delay and str(old.crawl_delay(agent)) == str(delay)
    assert parser.can_fetch(agent, "/x") is (agent == "c")


OWN_GROUP_STATES_NONE = "User-agent: *\nCrawl-delay: 5\nRequest-rate: 1/10\nUser-agent: NoTime\nDisallow: /x\n"


@pytest.mark.parametrize(("agent", "delay", "rate"), [("NoTime", None, None), ("other", 5, (1, 10))])
def test_a_crawler_with_lines_of_its_own_gets_no_delay_from_star(
    agent: str, delay: int | None, rate: tuple[int, int] | None
) -> None:
    # NoTime's own user-agent line states no delay: the `*` one is not NoTime's. Protego 0.7
    # answers the same (crawl_delay, request_rate and visit_time: None for NoTime, 5.0 for
    # other), as the standard library does here and texting_robots does.
    parser = RobotFileParser()
    parser.parse(OWN_GROUP_STATES_NONE.splitlines())
    old = urllib.robotparser.RobotFileParser()
    old.parse(OWN_GROUP_STATES_NONE.splitlines())
    expected_rate = None if rate is None else urllib.robotparser.RequestRate(*rate)
    assert parser.crawl_delay(agent) == delay and str(old.crawl_delay(agent)) == str(delay)  # typeshed: str
    assert parser.request_rate(agent) == old.request_rate(agent) == expected_rate
    assert not parser.can_fetch(agent, "/x")  # one group for its rules under RFC 9309, still


def test_a_real_file_keeps_each_crawlers_delay_to_itself() -> None:
    # artofmanliness.com: Slurp 2, bingbot 2, then `*` 1, with no rule between them, so under
    # RFC 9309 all three are one group; the delay of 2 was handed to every crawler.
    path = CORPUS / "artofmanliness.com"
    robots = parse(path.read_bytes())
    old = urllib.robotparser.RobotFileParser()
    old.parse(path.read_text().splitlines())
    for agent, delay in (("Slurp", 2), ("bingbot", 2), ("Googlebot", 1)):
        assert crawl_delay(robots, agent) == delay and str(old.crawl_delay(agent)) == str(delay)


@pytest.mark.parametrize("value", ["-5", "-0.5", "inf", "-inf", "nan", "1e999", "five", ""])
def test_invalid_crawl_delays_are_none(value: str) -> None:
    parser = RobotFileParser()
    parser.parse(["User-agent: *\n", f"Crawl-delay: {value}\n"])
    assert parser.crawl_delay("bot") is None


@pytest.mark.parametrize(("value", "delay"), [("0", 0), ("3", 3), ("0.5", 0.5), (" 2 ", 2)])
def test_valid_crawl_delays(value: str, delay: float) -> None:
    parser = RobotFileParser()
    parser.parse(["User-agent: *", f"Crawl-delay: {value}"])
    assert parser.crawl_delay("bot") == delay


def test_an_unreachable_robots_txt_disallows_all_but_robots_txt_itself(server: Server) -> None:
    # One reading everywhere (policy.verdict_for, Robots, the CLI): RFC 9309, Section 2.2.2.
    server.serve("/robots.txt", 503, b"down")
    parser = RobotFileParser(server.url("/robots.txt"))
    parser.read()
    assert parser.disallow_all
    assert parser.can_fetch("bot", server.url("/robots.txt")) and not parser.can_fetch("bot", server.url("/x"))
