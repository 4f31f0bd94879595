"""The MCP server's tools, in process through the SDK's client: schemas, answers, errors, the command's options.

The tools' schemas are kept in tests/snapshots/mcp_tools.json: a change of
the contract clients read shows up in review (ROBOTSCOPE_UPDATE_SNAPSHOTS=1
writes it anew).
"""

from __future__ import annotations

import json
import os
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import anyio
import pytest
import uvicorn
from click.testing import CliRunner
from jsonschema import Draft202012Validator
from mcp import Client
from mcp.types import CallToolResult, TextContent

import robotscope.cli.serve as serve_module
from robotscope.cli.mcp import mcp_command
from robotscope.mcp import TOOLS, Settings, create_server
from robotscope.mcp.server import MAX_ERROR
from robotscope.reports.tool_views import MAX_FLIPS
from robotscope.verifying.verifier import Verifier
from tests.conftest import Server
from tests.fuzz.fuzz_mcp import SEEDS, check
from tests.fuzz.harness import run_briefly
from tests.paths import SNAPSHOTS

pytestmark = pytest.mark.usefixtures("isolated")

SNAPSHOT = SNAPSHOTS / "mcp_tools.json"
KOREAN_NOT_HTTP = "`gopher://x/`은(는) http나 https URL이 아닙니다"
ROBOTS = "User-agent: Googlebot\nDisallow: /shop\n\nUser-agent: *\nDisallow: /private/\n"


def _in_process(talk: Callable[[Client], Awaitable[None]], **settings: Any) -> None:
    server = create_server(Settings(**{"cache": False, "verifier": Verifier(), **settings}))

    async def run() -> None:
        async with Client(server) as client:
            await talk(client)

    anyio.run(run)


def _answer(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert isinstance(result.structured_content, dict)
    block = result.content[0]
    assert isinstance(block, TextContent) and json.loads(block.text) == result.structured_content
    return result.structured_content


def _error(result: CallToolResult) -> str:
    assert result.is_error
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text


def _listing() -> dict[str, Any]:
    return {
        name: tool.listing().model_dump(mode="json", by_alias=True, exclude_none=True) for name, tool in TOOLS.items()
    }


def test_the_tools_schemas_are_the_snapshot() -> None:
    if os.environ.get("ROBOTSCOPE_UPDATE_SNAPSHOTS"):
        SNAPSHOT.write_text(json.dumps(_listing(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    assert _listing() == json.loads(SNAPSHOT.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(TOOLS))
def test_each_schema_is_valid_closed_and_bounded(name: str) -> None:
    tool = TOOLS[name]
    for schema in (tool.input_schema, tool.output_schema):
        Draft202012Validator.check_schema(schema)
        assert schema["type"] == "object" and schema["additionalProperties"] is False
    inputs = tool.input_schema["properties"]
    assert inputs["lang"]["enum"] == ["en", "ko"]
    for key, field in inputs.items():
        if field.get("type") == "string" and "enum" not in field:
            assert field["maxLength"] <= 1024 * 1024, key
        if field.get("type") == "array":
            assert field["maxItems"] == 100 and field["items"]["maxLength"] == 8192, key


def test_may_fetch_schema_keys() -> None:
    schema = TOOLS["may_fetch"].input_schema
    assert schema["required"] == ["url", "user_agent"]
    assert schema["properties"]["initiated_by"] == {
        "type": "string",
        "enum": ["model", "user"],
        "default": "model",
        "description": schema["properties"]["initiated_by"]["description"],
    }
    out = TOOLS["may_fetch"].output_schema
    assert set(out["required"]) >= {"allowed", "line", "rule", "robots_txt", "policy", "usage", "licenses"}
    assert set(out["properties"]["robots_txt"]["required"]) == {
        "url",
        "status",
        "fetched_at",
        "from_cache",
        "sha256",
        "hops",
        "error",
    }
    assert out["properties"]["operator_scope"]["properties"]["robots_txt_applies"]["enum"] == [
        "yes",
        "no",
        "partial",
        "unknown",
    ]


def test_every_tool_answers_within_its_output_schema(server: Server) -> None:
    server.serve("/robots.txt", body=ROBOTS.encode())
    calls = {
        "may_fetch": {"url": server.url("/private/x"), "user_agent": "GPTBot", "lang": "ko"},
        "explain_verdict": {"url": server.url("/shop"), "user_agent": "Googlebot-Image"},
        "lint_robots": {"url": server.url("/")},
        "diff_robots": {"old_robots_txt": ROBOTS, "new_robots_txt": "User-agent: *\nDisallow: /\n"},
        "verify_ip": {"address": "66.249.66.1", "user_agent": "Googlebot"},
    }
    found: dict[str, dict[str, Any]] = {}

    async def talk(client: Client) -> None:
        for name, arguments in calls.items():
            found[name] = _answer(await client.call_tool(name, arguments))
            Draft202012Validator(TOOLS[name].output_schema).validate(found[name])

    _in_process(talk, allow_private_fetch=True)
    assert found["may_fetch"]["line"] == 5 and "5번 줄" in found["may_fetch"]["explanation"]["text"]
    explained = found["explain_verdict"]
    # Google documents that Googlebot-Image obeys the Googlebot group: the profile decides, and says so.
    assert explained["verdict"]["line"] == 2 and explained["verdict"]["profile"] is not None
    assert explained["robots_txt"]["status"] == 200 and explained["crawler"]["operator"] == "Google"
    assert set(explained["readings"]["readings"]) >= {"rfc9309", "google"}
    assert found["lint_robots"]["linted"] is True and found["lint_robots"]["robots_txt"]["status"] == 200
    flips = found["diff_robots"]["flips"]
    assert {(f["agent"], f["url"]) for f in flips} >= {("*", "/")}
    assert found["verify_ip"]["status"] == "verified" and found["verify_ip"]["method"] == "ip-list"


def test_text_sources_and_what_the_tools_refuse() -> None:
    async def talk(client: Client) -> None:
        explained = _answer(
            await client.call_tool(
                "explain_verdict",
                {"url": "/shop?id=1", "user_agent": "Googlebot", "robots_txt": ROBOTS, "engine": "rfc9309"},
            )
        )
        assert explained["robots_txt"] is None and explained["policy"] is None
        assert explained["verdict"]["line"] == 2 and explained["engine"] == "rfc9309"
        linted = _answer(await client.call_tool("lint_robots", {"robots_txt": "User-agent: *\nDisalow: /x\n"}))
        assert linted["counts"]["error"] >= 1 and linted["robots_txt"] is None
        page = _answer(await client.call_tool("lint_robots", {"robots_txt": "<html><body>Hi</body></html>\n"}))
        assert [f["code"] for f in page["findings"]].count("htmlContent") == 1
        for neither_or_both in ({}, {"robots_txt": "", "url": "https://example.com/"}):
            assert "one of the two" in _error(await client.call_tool("lint_robots", neither_or_both))
        said = _error(await client.call_tool("verify_ip", {"address": "999.1.1.1", "user_agent": "Googlebot"}))
        assert said == "999.1.1.1 is not an IP address (IPv4 or IPv6)"
        said = _error(await client.call_tool("explain_verdict", {"url": "shop", "user_agent": "A", "robots_txt": ""}))
        assert "neither a path starting with / nor an http or https URL" in said
        extra = await client.call_tool("may_fetch", {"url": "https://example.com/", "user_agent": "A", "x" * 10_000: 1})
        assert len(_error(extra)) < MAX_ERROR + 200  # the unexpected key is not quoted back whole

    _in_process(talk)


def test_a_diff_lists_at_most_max_flips_and_says_it_cut() -> None:
    urls = [f"/page{n}" for n in range(100)]
    agents = [f"Bot{n}" for n in range(100)]  # 10,000 pairs, every one flips

    async def talk(client: Client) -> None:
        arguments = {"old_robots_txt": "", "new_robots_txt": "User-agent: *\nDisallow: /\n", "urls": urls}
        found = _answer(await client.call_tool("diff_robots", {**arguments, "agents": agents}))
        assert found["truncated"] is True and len(found["flips"]) == MAX_FLIPS
        assert found["summary"]["code"] == "diff.title.truncated"
        assert "maxItems" in _error(await client.call_tool("diff_robots", {**arguments, "agents": [*agents, "One"]}))

    _in_process(talk)


def test_a_bug_in_a_tool_is_a_tool_error_and_the_server_serves_on(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(settings: Settings, args: dict[str, Any], lang: str) -> dict[str, Any]:
        raise KeyError("a bug")

    monkeypatch.setitem(TOOLS, "lint_robots", replace(TOOLS["lint_robots"], run=broken))

    async def talk(client: Client) -> None:
        said = _error(await client.call_tool("lint_robots", {"robots_txt": ""}))
        assert said.startswith("lint_robots failed with an internal error (KeyError)")
        _answer(await client.call_tool("diff_robots", {"old_robots_txt": "", "new_robots_txt": ""}))

    _in_process(talk)
    assert "tool lint_robots failed" in caplog.text


def test_the_korean_catalogue_answers_when_the_server_is_told_so() -> None:
    async def talk(client: Client) -> None:
        said = _error(await client.call_tool("may_fetch", {"url": "gopher://x/", "user_agent": "A"}))
        assert said == KOREAN_NOT_HTTP
        english = _error(await client.call_tool("may_fetch", {"url": "gopher://x/", "user_agent": "A", "lang": "en"}))
        assert english == "`gopher://x/` is not an http or https URL" and said != english

    _in_process(talk, lang="ko")


@pytest.mark.parametrize("seed", sorted(SEEDS.iterdir()), ids=lambda p: p.name)
def test_the_fuzz_target_passes_on_every_seed(seed: Path) -> None:
    check(seed.read_bytes())


def test_the_fuzz_target_runs_under_atheris(tmp_path: Path) -> None:
    run_briefly("tests.fuzz.fuzz_mcp", SEEDS, tmp_path, 1000)


# ---------- the command's options ----------


def test_host_is_for_http_only_and_a_bad_dns_server_is_one_line() -> None:
    result = CliRunner().invoke(mcp_command, ["--host", "127.0.0.1"])
    assert result.exit_code == 2 and "give it with --http" in result.output
    result = CliRunner().invoke(mcp_command, ["--http", "--dns-server", "not a server"])
    assert result.exit_code == 2 and result.output.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "host", "warned"),
    [
        ([], "127.0.0.1", False),
        (["--host", "::1"], "::1", False),
        (["--host", "192.0.2.7"], "192.0.2.7", True),
    ],
)
def test_http_binds_loopback_unless_told_and_then_says_so(
    monkeypatch: pytest.MonkeyPatch, args: list[str], host: str, warned: bool
) -> None:
    runs: list[dict[str, Any]] = []

    class Recorded:  # uvicorn's server, recording its configuration instead of serving
        def __init__(self, config: uvicorn.Config) -> None:
            self.config = config

        def run(self, sockets: list[Any]) -> None:
            runs.append({"host": self.config.host, "app": self.config.app})

    class Bound:  # a socket never opened: the test binds no address
        def __init__(self, host: str, port: int) -> None:
            self.port = port

        def getsockname(self) -> tuple[str, int]:
            return ("", self.port)

    monkeypatch.setattr(uvicorn, "Server", Recorded)
    monkeypatch.setattr(serve_module, "listen", Bound)
    result = CliRunner().invoke(mcp_command, ["--http", "--no-dns", *args])
    assert result.exit_code == 0, result.output
    assert [run["host"] for run in runs] == [host]
    assert ("not a loopback address" in result.output) is warned
    assert "MCP server (streamable HTTP) on http://" in result.output
