"""`RobotsClient`: one fetch per origin, shared by concurrent callers."""

from __future__ import annotations

import asyncio
import time
from http.server import BaseHTTPRequestHandler

import pytest

from robotscope.client import RobotsClient
from robotscope.syntax.model import Reason
from tests.conftest import Server, respond

pytestmark = pytest.mark.usefixtures("isolated")


def test_single_flight_20_concurrent_calls_fetch_once(server: Server) -> None:
    def slow(h: BaseHTTPRequestHandler) -> None:
        time.sleep(0.2)  # keep the fetch in flight while the other calls arrive
        respond(h, 200, b"User-agent: *\nDisallow: /private/\n")

    server.routes["/robots.txt"] = slow

    async def main() -> list[bool]:
        async with RobotsClient(cache=False, max_concurrency=4) as client:
            urls = [server.url(f"/private/{i}" if i % 2 else f"/public/{i}") for i in range(20)]
            verdicts = await asyncio.gather(*(client.allowed(u, "bot") for u in urls))
            return [v.allowed for v in verdicts]

    allowed = asyncio.run(main())
    assert server.hits["/robots.txt"] == 1
    assert allowed == [i % 2 == 0 for i in range(20)]


def test_unreachable_origin_disallows_and_origins_are_separate(server: Server, other_server: Server) -> None:
    server.serve("/robots.txt", 503, b"down")
    other_server.serve("/robots.txt", 404, b"")

    async def main() -> None:
        async with RobotsClient(cache=False, policy="google") as client:
            down = await client.allowed(server.url("/a"), "bot")
            missing = await client.allowed(other_server.url("/a"), "bot")
            assert (down.allowed, down.reason) == (False, Reason.UNREACHABLE)
            assert (missing.allowed, missing.reason) == (True, Reason.UNAVAILABLE)
            result = await client.robots(server.url("/b"))
            assert result.decision == "disallow-all" and result.explanation.startswith("Google (")

    asyncio.run(main())
    assert server.hits["/robots.txt"] == 1 and other_server.hits["/robots.txt"] == 1
