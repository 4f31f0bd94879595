"""`fetch_robots` and its async twin against real HTTP servers on 127.0.0.1."""

from __future__ import annotations

import asyncio
import socket
import tracemalloc
import zlib
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from robotscope.access.policy import POLICIES
from robotscope.cache import RobotsCache
from robotscope.fetch import FetchResult, fetch_robots, fetch_robots_async
from robotscope.syntax.parser import MAX_BYTES
from tests.conftest import Server

pytestmark = pytest.mark.usefixtures("isolated")

TITLES = {name: row.title for name, row in POLICIES.items()}
ROBOTS = b"User-agent: *\nDisallow: /private/\n"


def sync_fetch(url: str, **kw: object) -> FetchResult:
    return fetch_robots(url, cache=False, **kw)  # type: ignore[arg-type]


def async_fetch(url: str, **kw: object) -> FetchResult:
    return asyncio.run(fetch_robots_async(url, cache=False, **kw))  # type: ignore[arg-type]


FETCHERS = pytest.mark.parametrize("fetch", [sync_fetch, async_fetch], ids=["sync", "async"])
Fetch = Callable[..., FetchResult]


def assert_decisions(result: FetchResult, expected: dict[str, str]) -> None:
    """Every policy's action, and each explanation names its policy and cites its first source."""
    assert {name: d.action for name, d in result.decisions.items()} == expected
    for name, decision in result.decisions.items():
        assert decision.explanation.startswith(f"{TITLES[name]} ({POLICIES[name].sources[0]}): ")
    assert result.decision == expected[result.policy]
    assert result.explanation == result.decisions[result.policy].explanation


def every(action: str, **but: str) -> dict[str, str]:
    """`action` for every policy, but those named (`yandex="allow-all"`)."""
    return {**dict.fromkeys(POLICIES, action), **but}


OPEN_TO_YANDEX = {"yandex": "allow-all"}  # any HTTP answer but 200 OK: no robots.txt, the site is open


@FETCHERS
def test_200_is_parsed_by_every_policy(server: Server, fetch: Fetch) -> None:
    server.serve("/robots.txt", 200, ROBOTS)
    result = fetch(server.url("/some/page?q=1"))
    assert result.robots_url == server.url("/robots.txt")
    assert result.hops == ((server.url("/robots.txt"), 200),)
    assert (result.status, result.content_type, result.bytes_received, result.truncated) == (
        200,
        "text/plain",
        len(ROBOTS),
        False,
    )
    assert result.error is None and not result.from_cache
    assert_decisions(result, every("parse"))
    assert "HTTP 200, so the file is parsed" in result.explanation
    assert result.robots is not None and not result.robots.can_fetch("bot", "/private/x")


@pytest.mark.parametrize(
    ("status", "expected", "phrase"),
    [
        (204, every("parse", **OPEN_TO_YANDEX), "HTTP 204, so the file is parsed"),
        (300, every("allow-all"), "a redirect that cannot be followed"),
        (400, every("allow-all"), "HTTP 400"),
        (401, every("allow-all"), "HTTP 401"),
        (403, every("allow-all"), "HTTP 403"),
        (404, every("allow-all"), "HTTP 404"),
        (410, every("allow-all"), "HTTP 410"),
        (429, every("disallow-all", **OPEN_TO_YANDEX), "HTTP 429"),
        (500, every("disallow-all", **OPEN_TO_YANDEX), "HTTP 500"),
        (503, every("disallow-all", **OPEN_TO_YANDEX), "HTTP 503"),
        (504, every("disallow-all", **OPEN_TO_YANDEX), "HTTP 504"),
    ],
)
def test_each_status_class(server: Server, status: int, expected: dict[str, str], phrase: str) -> None:
    server.serve("/robots.txt", status, b"User-agent: *\nDisallow: /\n")
    result = sync_fetch(server.url("/"))
    assert result.status == status
    assert_decisions(result, expected)
    for name, decision in result.decisions.items():
        # A policy reading the case otherwise than RFC 9309 (Yandex on a 204 or a 5xx) says why.
        assert (
            phrase in decision.explanation
            if expected[name] == expected["rfc9309"]
            else "200 OK" in decision.explanation
        )
    if expected["rfc9309"] != "parse":
        assert result.robots is None  # an error body is never read as rules


@pytest.mark.parametrize("status", [429, 503])
@pytest.mark.parametrize("policy", [name for name, row in POLICIES.items() if not row.ok_only])
def test_429_and_503_disallow_all_under_every_policy_but_yandex(server: Server, status: int, policy: str) -> None:
    server.serve("/robots.txt", status, b"User-agent: *\nAllow: /\n")
    result = sync_fetch(server.url("/"), policy=policy)
    assert result.policy == policy and result.decision == "disallow-all"
    assert result.explanation.startswith(f"{TITLES[policy]} (")
    assert result.robots is None
    if policy == "google":
        assert "stops crawling for 12 hours" in result.explanation
        if status == 429:
            assert "Google treats 429 like a server error" in result.explanation
    if policy == "rfc9309" and status == 503:
        assert "unreachable (Section 2.3.1.4)" in result.explanation
    if policy == "bing":
        assert (
            f"HTTP {status}, so robotscope reads it as a server error" in result.explanation
            if status == 429
            else (
                "HTTP 503, so RFC 9309 applies (Bing documents nothing for server errors): the file is unreachable"
                in result.explanation
            )
        )


@FETCHERS
@pytest.mark.parametrize("status", [429, 503])
def test_yandex_reads_a_429_or_503_as_an_open_site(server: Server, fetch: Fetch, status: int) -> None:
    # Yandex: only a 200 OK is robots.txt; otherwise "the site is considered open for indexing".
    server.serve("/robots.txt", status, b"User-agent: *\nDisallow: /\n")
    result = fetch(server.url("/"), policy="yandex")
    assert result.policy == "yandex" and result.decision == "allow-all" and result.robots is None
    assert f"HTTP {status}, so Yandex reads any answer but 200 OK" in result.explanation
    assert result.verdict("YandexBot", server.url("/private")).allowed
    assert not fetch(server.url("/"), policy="rfc9309").verdict("YandexBot", server.url("/private")).allowed


@pytest.mark.parametrize("hops", [1, 2, 3, 4, 5, 6])
def test_redirect_chains(server: Server, hops: int) -> None:
    for i in range(hops):
        server.redirect("/robots.txt" if i == 0 else f"/r{i}", f"/r{i + 1}", 302 if i % 2 else 301)
    server.serve(f"/r{hops}", 200, ROBOTS)
    result = sync_fetch(server.url("/"))
    if hops <= 5:
        assert len(result.hops) == hops + 1 and result.hops[-1] == (server.url(f"/r{hops}"), 200)
        assert_decisions(result, every("parse"))
        assert result.robots is not None and not result.robots.can_fetch("bot", "/private/")
    else:
        assert len(result.hops) == 6 and all(status in (301, 302) for _, status in result.hops)
        assert server.hits[f"/r{hops}"] == 0  # the sixth redirect is not followed
        assert_decisions(result, every("allow-all"))
        assert "after 5 redirects" in result.explanation
        assert "treats robots.txt as a 404" in result.decisions["google"].explanation
        assert "stops and allows everything" in result.decisions["naver"].explanation
        assert "may be taken as unavailable" in result.decisions["rfc9309"].explanation


def test_redirect_loop_is_detected(server: Server) -> None:
    server.redirect("/robots.txt", "/a")
    server.redirect("/a", "/b")
    server.redirect("/b", "/robots.txt")
    result = sync_fetch(server.url("/"))
    assert [url for url, _ in result.hops] == [server.url(p) for p in ("/robots.txt", "/a", "/b")]
    assert server.hits["/robots.txt"] == 1
    assert_decisions(result, every("allow-all"))
    assert "HTTP 301: redirect 3 points back into the chain (a loop), so" in result.explanation


def test_a_robots_txt_redirecting_to_itself_loops_at_its_first_redirect(server: Server) -> None:
    server.redirect("/robots.txt", "/robots.txt")
    result = sync_fetch(server.url("/"))
    assert_decisions(result, every("allow-all"))
    assert (
        "HTTP 301: redirect 1 points back into the chain (a loop), so" in result.explanation
        and "0 hops" not in result.explanation
    )


@FETCHERS
def test_redirect_to_another_host(server: Server, other_server: Server, fetch: Fetch) -> None:
    server.redirect("/robots.txt", other_server.url("/robots.txt"), 308)
    other_server.serve("/robots.txt", 200, b"User-agent: *\nDisallow: /\n")
    result = fetch(server.url("/x"))
    assert result.hops == ((server.url("/robots.txt"), 308), (other_server.url("/robots.txt"), 200))
    assert result.robots_url == server.url("/robots.txt")
    assert_decisions(result, every("parse"))
    assert result.robots is not None and not result.robots.can_fetch("bot", "/x")


def _stall(server: Server) -> Callable[[BaseHTTPRequestHandler], None]:
    def stall(handler: BaseHTTPRequestHandler) -> None:
        server.stopping.wait(5)

    return stall


def _trickle(server: Server) -> Callable[[BaseHTTPRequestHandler], None]:
    def handler(h: BaseHTTPRequestHandler) -> None:
        h.send_response(200)
        h.send_header("Content-Length", "1000")
        h.end_headers()
        for _ in range(1000):
            h.wfile.write(b"#")
            h.wfile.flush()
            if server.stopping.wait(0.05):
                return

    return handler


@FETCHERS
@pytest.mark.parametrize("behaviour", [_stall, _trickle], ids=["stall-before-headers", "trickle-body"])
def test_slow_servers_time_out_within_bounds(
    server: Server, fetch: Fetch, behaviour: Callable[[Server], Callable[[BaseHTTPRequestHandler], None]]
) -> None:
    # The stall outlasts a read's own timeout, the trickle's every read is quick: only the one deadline
    # over the whole fetch can end the trickle as a timeout (without it, the body arrives whole).
    server.routes["/robots.txt"] = behaviour(server)
    result = fetch(server.url("/"), timeout=0.5)
    assert result.error is not None and result.error.kind == "timeout"
    assert_decisions(result, every("disallow-all"))
    assert "the fetch failed: " in result.explanation and "(timeout)" in result.explanation


def test_connection_refused_is_a_result_not_an_exception() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    result = sync_fetch(f"http://127.0.0.1:{port}/", timeout=1.0)
    assert result.status is None and result.hops == ()
    assert result.error is not None and result.error.kind == "connect"
    assert_decisions(result, every("disallow-all"))


def _peak(call: Callable[[], FetchResult]) -> tuple[FetchResult, int]:
    tracemalloc.start()
    try:
        result = call()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_5_mb_body_is_cut_at_500_kib_with_bounded_memory(server: Server) -> None:
    line = b"# " + b"x" * 97 + b"\n"  # 100-byte comment lines
    server.serve("/robots.txt", 200, b"User-agent: *\nDisallow: /p\n" + line * 50_000)
    result, peak = _peak(lambda: sync_fetch(server.url("/")))
    assert result.truncated and MAX_BYTES <= result.bytes_received <= MAX_BYTES + 100
    assert result.body.endswith(b"\n")  # cut after the line the limit falls in
    assert peak < 6_000_000
    assert_decisions(result, every("parse"))
    assert result.robots is not None and not result.robots.can_fetch("bot", "/p")


@pytest.fixture(scope="module")
def gzip_bomb() -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    zeros = bytes(1_000_000)
    data = b"".join(packer.compress(zeros) for _ in range(100)) + packer.flush()
    assert len(data) < 200_000  # 100 MB of zeros
    return data


@FETCHERS
def test_gzip_bomb_is_inflated_only_to_the_limit(server: Server, gzip_bomb: bytes, fetch: Fetch) -> None:
    server.serve("/robots.txt", 200, gzip_bomb, {"Content-Encoding": "gzip"})
    result, peak = _peak(lambda: fetch(server.url("/")))
    assert result.truncated and result.bytes_received <= MAX_BYTES + 2048
    assert peak < 5_000_000
    assert_decisions(result, every("parse"))


def test_gzip_body_is_decoded(server: Server) -> None:
    server.serve("/robots.txt", 200, zlib.compress(ROBOTS, wbits=16 + zlib.MAX_WBITS), {"Content-Encoding": "gzip"})
    result = sync_fetch(server.url("/"))
    assert result.body == ROBOTS and not result.truncated
    assert result.robots is not None and not result.robots.can_fetch("bot", "/private/")


def test_html_page_with_200_is_parsed_and_allows_everything(server: Server) -> None:
    page = b"<!DOCTYPE html>\n<html><head><title>Oops</title></head><body>Disallow: /</body></html>\n"
    server.serve("/robots.txt", 200, page, {"Content-Type": "text/html; charset=utf-8"})
    result = sync_fetch(server.url("/"))
    assert result.content_type == "text/html; charset=utf-8"
    assert_decisions(result, every("parse", **OPEN_TO_YANDEX))  # Yandex wants a TXT file (inferred)
    assert all("with an HTML page" in d.explanation for d in result.decisions.values())
    assert "may be taken as no robots.txt" in result.decisions["naver"].explanation
    assert "keeping valid lines and ignoring the rest" in result.decisions["google"].explanation
    assert result.robots is not None and result.robots.can_fetch("bot", "/anything")


def test_latin1_body_is_parsed_with_replacement(server: Server) -> None:
    server.serve(
        "/robots.txt",
        200,
        b"User-agent: *\nDisallow: /caf\xe9\nDisallow: /x\n",
        {"Content-Type": "text/plain; charset=iso-8859-1"},
    )
    result = sync_fetch(server.url("/"))
    assert_decisions(result, every("parse"))
    assert result.robots is not None and result.robots.invalid_utf8
    assert not result.robots.can_fetch("bot", "/x")


def test_body_with_bom(server: Server) -> None:
    server.serve("/robots.txt", 200, b"\xef\xbb\xbfUser-agent: *\nDisallow: /x\n")
    result = sync_fetch(server.url("/"))
    assert_decisions(result, every("parse"))
    assert result.robots is not None and result.robots.bom and not result.robots.can_fetch("bot", "/x")


def test_user_agent_is_sent(server: Server) -> None:
    seen: list[str] = []

    def handler(h: BaseHTTPRequestHandler) -> None:
        seen.append(h.headers["User-Agent"])
        h.send_response(404)
        h.send_header("Content-Length", "0")
        h.end_headers()

    server.routes["/robots.txt"] = handler
    sync_fetch(server.url("/"), user_agent="TestBot/1.0")
    assert seen == ["TestBot/1.0"]


def test_bad_url_and_policy_raise() -> None:
    from robotscope.syntax.urls import InvalidURL

    with pytest.raises(InvalidURL):
        fetch_robots("ftp://example.com/", cache=False)
    with pytest.raises(ValueError, match="unknown policy"):
        fetch_robots("http://127.0.0.1:1/", policy="yahoo", cache=False)


@FETCHERS
def test_the_headers_that_matter_are_kept(server: Server, fetch: Fetch) -> None:
    served = {"ETag": '"v1"', "CF-Ray": "8c1-AMS", "X-Robots-Tag": "noindex", "Set-Cookie": "id=1"}
    served["X-Cache"] = "x" * 5000
    server.serve("/robots.txt", 200, ROBOTS, served)
    result = fetch(server.url("/"))
    assert result.headers["etag"] == '"v1"' and result.headers["cf-ray"] == "8c1-AMS"
    assert result.headers["x-robots-tag"] == "noindex" and result.headers["content-type"] == "text/plain"
    assert result.headers["x-cache"] == "x" * 1024  # a value is cut, not kept whole
    assert "set-cookie" not in result.headers and "date" not in result.headers
    assert result.as_dict()["headers"]["etag"] == '"v1"'
    with pytest.raises(TypeError):
        result.headers["etag"] = "changed"  # type: ignore[index]


def test_a_cached_copy_keeps_its_headers(server: Server, tmp_path: Path) -> None:
    server.serve("/robots.txt", 200, ROBOTS, {"ETag": '"v1"'})
    with RobotsCache(tmp_path / "robots.sqlite3") as cache:
        fetch_robots(server.url("/"), cache=cache)
        hit = fetch_robots(server.url("/"), cache=cache)
    assert hit.from_cache and hit.headers["etag"] == '"v1"'
