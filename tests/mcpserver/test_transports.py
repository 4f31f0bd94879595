"""`robotscope mcp` through the `mcp` SDK's own client, against a site on 127.0.0.1.

Over stdio, the client's stdio transport starts `python -m robotscope mcp`
itself; over streamable HTTP, this test starts the server on a free port of
127.0.0.1 (`--port 0`: it says which on stderr) and stops it by its PID.
The site is on 127.0.0.1, a loopback address the server refuses to fetch
from: these servers run with --allow-private-fetch, but one, started
without it, must refuse and never ask the site.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.types import CallToolResult, TextContent

from robotscope.mcp import TOOLS
from tests.conftest import Server

pytestmark = pytest.mark.usefixtures("isolated")

ROBOTS = b"License: https://licenses.example/site.xml\nUser-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n\n"
TOOL_NAMES = {"may_fetch", "explain_verdict", "lint_robots", "diff_robots", "verify_ip"}


def _command(*options: str) -> list[str]:
    return [sys.executable, "-m", "robotscope", "mcp", "--no-dns", *options]


def _over_stdio(options: tuple[str, ...], talk: Callable[[Client], Awaitable[None]]) -> None:
    command = _command(*options)
    # The whole environment: the isolated cache directory, and no proxy, reach the server.
    params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))

    async def run() -> None:
        async with Client(params, read_timeout_seconds=60) as client:
            await talk(client)

    anyio.run(run)


@pytest.fixture
def http_server(tmp_path: Path) -> Iterator[str]:
    """The MCP endpoint of a `robotscope mcp --http` process of this test (stopped by its PID)."""
    process = subprocess.Popen(
        _command("--http", "--port", "0", "--allow-private-fetch", "--cache", str(tmp_path / "cache.sqlite3")),
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        found = re.search(r"on (http://127\.0\.0\.1:\d+/mcp) ", line)
        assert found is not None, line
        yield found.group(1)
    finally:
        process.terminate()
        process.communicate(timeout=30)  # reads what is left of stderr, and closes it


def structured(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert isinstance(result.structured_content, dict)
    return result.structured_content


def error_text(result: CallToolResult) -> str:
    assert result.is_error and result.structured_content is None
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text


async def _lists_every_tool_with_its_schemas(client: Client) -> None:
    listed = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert set(listed) == TOOL_NAMES
    for name, tool in listed.items():
        assert tool.input_schema == TOOLS[name].input_schema
        assert tool.output_schema == TOOLS[name].output_schema
        assert tool.annotations is not None and tool.annotations.read_only_hint is True


async def _answers_allowed_disallowed_and_503(client: Client, site: Server, down: Server) -> None:
    allowed = structured(await client.call_tool("may_fetch", {"url": site.url("/shop"), "user_agent": "MyAgent/1.0"}))
    assert allowed["allowed"] is True and allowed["reason"] == "no-matching-rule" and allowed["line"] is None
    fetched = allowed["robots_txt"]
    assert fetched["url"] == site.url("/robots.txt") and fetched["status"] == 200
    assert fetched["sha256"] == hashlib.sha256(ROBOTS).hexdigest()
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", fetched["fetched_at"])
    assert allowed["policy"]["name"] == "rfc9309" and allowed["policy"]["action"] == "parse"
    assert allowed["usage"]["content_usage"]["train-ai"] == {"value": "n", "lines": [4]}
    assert allowed["licenses"] == [{"url": "https://licenses.example/site.xml", "line": 1}]
    assert allowed["operator_scope"]["robots_txt_applies"] == "yes"

    disallowed = structured(
        await client.call_tool(
            "may_fetch", {"url": site.url("/private/plan"), "user_agent": "ChatGPT-User", "initiated_by": "user"}
        )
    )
    assert disallowed["allowed"] is False and disallowed["reason"] == "rule"
    assert disallowed["line"] == 3 and disallowed["rule"] == "Disallow: /private/"
    scope = disallowed["operator_scope"]
    assert (scope["initiated_by"], scope["robots_txt_applies"], scope["operator"]) == ("user", "partial", "OpenAI")

    outage = structured(await client.call_tool("may_fetch", {"url": down.url("/"), "user_agent": "MyAgent/1.0"}))
    assert outage["allowed"] is False and outage["reason"] == "robots-txt-unreachable"
    assert outage["robots_txt"]["status"] == 503 and outage["policy"]["action"] == "disallow-all"
    assert outage["robots_txt"]["sha256"] is None


async def _hostile_inputs_are_tool_errors(client: Client) -> None:
    huge = "https://example.com/" + "a" * 1_000_000
    assert "maxLength" in error_text(await client.call_tool("may_fetch", {"url": huge, "user_agent": "A"}))
    said = error_text(await client.call_tool("may_fetch", {"url": "file:///etc/passwd", "user_agent": "A"}))
    assert said == "`file:///etc/passwd` is not an http or https URL"
    said = error_text(await client.call_tool("may_fetch", {"url": "https://example.com/", "user_agent": "a\r\nb"}))
    assert "control character (U+000D)" in said
    empty = await client.call_tool("may_fetch", {"url": "https://example.com/", "user_agent": ""})
    assert "user_agent: '' should be non-empty" in error_text(empty)
    assert "initiated_by" in error_text(
        await client.call_tool(
            "may_fetch", {"url": "https://example.com/", "user_agent": "A", "initiated_by": "the model"}
        )
    )
    assert "no tool `fetch`" in error_text(await client.call_tool("fetch", {"url": "https://example.com/"}))


def test_over_stdio(server: Server, other_server: Server) -> None:
    server.serve("/robots.txt", body=ROBOTS)
    other_server.serve("/robots.txt", status=503)

    async def talk(client: Client) -> None:
        await _lists_every_tool_with_its_schemas(client)
        await _hostile_inputs_are_tool_errors(client)
        # The server lived through them all.
        await _answers_allowed_disallowed_and_503(client, server, other_server)

    _over_stdio(("--allow-private-fetch",), talk)


def test_over_streamable_http(server: Server, other_server: Server, http_server: str) -> None:
    server.serve("/robots.txt", body=ROBOTS)
    other_server.serve("/robots.txt", status=503)

    async def run() -> None:
        async with Client(http_server, read_timeout_seconds=60) as client:
            await _lists_every_tool_with_its_schemas(client)
            await _hostile_inputs_are_tool_errors(client)
            await _answers_allowed_disallowed_and_503(client, server, other_server)

    anyio.run(run)


def test_without_allow_private_fetch_a_loopback_site_is_refused_unasked(server: Server) -> None:
    server.serve("/robots.txt", body=ROBOTS)

    async def talk(client: Client) -> None:
        answer = structured(await client.call_tool("may_fetch", {"url": server.url("/shop"), "user_agent": "A"}))
        assert answer["allowed"] is False and answer["reason"] == "refused-target"
        assert answer["robots_txt"]["error"]["kind"] == "refused-target" and answer["policy"] is None
        assert "--allow-private-fetch" in answer["explanation"]["text"]
        # The tools that fetch refuse alike, as tool errors.
        said = error_text(await client.call_tool("lint_robots", {"url": server.url("/")}))
        assert "127.0.0.1" in said and "private" in said

    _over_stdio((), talk)
    assert server.hits["/robots.txt"] == 0
