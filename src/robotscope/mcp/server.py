"""The MCP server: its read-only tools, each call checked against its input schema, over stdio or streamable HTTP.

Built on the official SDK's low-level `Server`: the schemas are written out
(`schemas`), not derived from signatures, so they are closed and bounded.
A tool call is checked against its input schema, runs, and answers with
structured content (and the same JSON as text, for clients that read only
text). A question no tool can answer (a URL with no robots.txt, an empty
user agent, a target the SSRF guard refuses to fetch) is a tool error with
one message; so is a bug, which is logged on stderr while the server goes
on. The answers come from the layers below (`gating`, `reports.tool_views`,
`verifying`): this module only fetches, checks and adapts.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import anyio
import anyio.to_thread
import httpx
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from mcp import types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from starlette.applications import Starlette

from .._version import __version__
from ..access.engines.registry import PROFILED
from ..access.robots import Robots, parse
from ..cache import RobotsCache
from ..fetch import FetchResult
from ..fetch.guard import RefusedTarget, Resolver, system_resolve
from ..gating import TIMEOUT, evidence_of, fetch_guarded, gate_async, refusal
from ..messages import DEFAULT_LANG, Message, message
from ..reports.gate import POLICY, InvalidRequest, checked_agent, checked_length
from ..reports.tool_views import diff_view, explain_view, lint_view
from ..syntax.ipindex import parse_address
from ..syntax.urls import InvalidURL
from ..verifying.verifier import Verifier
from . import schemas
from .stdio import stdio_streams

LOG = logging.getLogger("robotscope.mcp")
MAX_ERROR = 300  # characters of a schema problem quoted back: the value itself may be megabytes


@dataclass
class Settings:
    """How one server answers: its language, whether fetches may reach private targets, the cache, DNS.

    `cache`: a `RobotsCache`, or False for none; `reuse=False` fetches even
    when a fresh copy is cached. `transport` and `resolve` are the fetcher's
    and the SSRF guard's seams (tests and the fuzz target).
    """

    lang: str = DEFAULT_LANG
    allow_private_fetch: bool = False
    cache: RobotsCache | bool = False
    reuse: bool = True
    timeout: float = TIMEOUT
    verifier: Verifier = field(default_factory=Verifier)
    transport: httpx.AsyncBaseTransport | None = None
    resolve: Resolver = system_resolve


class ToolFailure(Exception):
    """A call a tool cannot answer: `reason` is what the client is told."""

    def __init__(self, reason: Message) -> None:
        super().__init__(reason.render())
        self.reason = reason


Arguments = dict[str, Any]
Run = Callable[[Settings, Arguments, str], Awaitable[dict[str, Any]]]


async def _fetched(settings: Settings, url: str) -> FetchResult:
    """The robots.txt of `url`'s origin, through the guard unless the server allows private fetches."""
    return await fetch_guarded(
        checked_length("url", url),
        allow_private=settings.allow_private_fetch,
        cache=settings.cache,
        timeout=settings.timeout,
        reuse=settings.reuse,
        transport=settings.transport,
        resolve=settings.resolve,
    )


async def may_fetch(settings: Settings, args: Arguments, lang: str) -> dict[str, Any]:
    answer = await gate_async(
        args["url"],
        args["user_agent"],
        args.get("initiated_by", "model"),
        allow_private=settings.allow_private_fetch,
        cache=settings.cache,
        timeout=settings.timeout,
        reuse=settings.reuse,
        transport=settings.transport,
        resolve=settings.resolve,
    )
    return answer.as_dict(lang)


async def explain_verdict(settings: Settings, args: Arguments, lang: str) -> dict[str, Any]:
    url, agent, engine = args["url"], args["user_agent"], args.get("engine", PROFILED)
    text: str | None = args.get("robots_txt")
    if text is not None:
        view = await anyio.to_thread.run_sync(lambda: explain_view(parse(text), None, agent, url, engine, lang))
        return {**view, "robots_txt": None}
    checked_agent(agent)
    result = await _fetched(settings, url)
    decision = result.decisions[POLICY]
    view = await anyio.to_thread.run_sync(lambda: explain_view(result.robots, decision, agent, url, engine, lang))
    return {**view, "robots_txt": evidence_of(result).as_dict()}


async def lint_robots(settings: Settings, args: Arguments, lang: str) -> dict[str, Any]:
    text: str | None = args.get("robots_txt")
    url: str | None = args.get("url")
    if (text is None) == (url is None):
        raise ToolFailure(message("mcp.lint-source"))
    if text is not None:
        view = await anyio.to_thread.run_sync(lambda: lint_view(parse(text), (), None, lang))
        return {**view, "robots_txt": None}
    assert url is not None
    result = await _fetched(settings, url)
    robots: Robots | None = result.robots
    decision = result.decisions[POLICY]
    view = await anyio.to_thread.run_sync(lambda: lint_view(robots, result.served, decision, lang))
    return {**view, "robots_txt": evidence_of(result).as_dict()}


async def diff_robots(settings: Settings, args: Arguments, lang: str) -> dict[str, Any]:
    def compare() -> dict[str, Any]:
        old, new = parse(args["old_robots_txt"]), parse(args["new_robots_txt"])
        return diff_view(old, new, args.get("urls"), args.get("agents"), lang)

    return await anyio.to_thread.run_sync(compare)


async def verify_ip(settings: Settings, args: Arguments, lang: str) -> dict[str, Any]:
    address, agent = args["address"].strip(), checked_agent(args["user_agent"])
    if parse_address(address) is None:
        raise ToolFailure(message("verify.error.address", address=address))
    found = await anyio.to_thread.run_sync(settings.verifier.verify, address, agent)
    return found.as_dict(lang)


@dataclass(frozen=True)
class Tool:
    """One tool: what tools/list says of it, and the function that answers a call."""

    name: str
    title: str
    description: str
    input_schema: schemas.Schema
    output_schema: schemas.Schema
    run: Run
    fetches: bool  # reaches sites on the network (a hint for clients: open world)

    def listing(self) -> types.Tool:
        hints = types.ToolAnnotations(
            title=self.title,
            read_only_hint=True,
            destructive_hint=False,
            idempotent_hint=True,
            open_world_hint=self.fetches,
        )
        return types.Tool(
            name=self.name,
            title=self.title,
            description=self.description,
            input_schema=self.input_schema,
            output_schema=self.output_schema,
            annotations=hints,
        )


TOOLS = {
    tool.name: tool
    for tool in (
        Tool(
            "may_fetch",
            "May this agent fetch this URL?",
            "Fetch the robots.txt of the URL's site and answer whether the agent may fetch the URL: the verdict by "
            "the crawler's own reading with the deciding line, the robots.txt URL, its SHA-256, fetch time and "
            "HTTP status, RFC 9309's decision for anything but a 2xx (a 5xx or an unreachable robots.txt allows "
            "nothing), the AI usage preferences and License URLs that apply, and whether the agent's operator says "
            "robots.txt applies to a fetch the model (initiated_by=model) or a user (initiated_by=user) started. "
            "Call it before every fetch; log its evidence.",
            schemas.MAY_FETCH_INPUT,
            schemas.MAY_FETCH_OUTPUT,
            may_fetch,
            fetches=True,
        ),
        Tool(
            "explain_verdict",
            "Why this verdict?",
            "Explain a robots.txt verdict: the deciding line and the rules it beat, notes where the crawler's "
            "operator reads the file otherwise, every engine's reading side by side, and what is known of the "
            "crawler. Fetches the site's robots.txt unless robots_txt is given.",
            schemas.EXPLAIN_INPUT,
            schemas.EXPLAIN_OUTPUT,
            explain_verdict,
            fetches=True,
        ),
        Tool(
            "lint_robots",
            "Lint a robots.txt",
            "Find the mistakes that silently change what a robots.txt means, each with its line, what happens "
            "and the fix. Give the text (robots_txt) or a URL of the site (url) to fetch it.",
            schemas.LINT_INPUT,
            schemas.LINT_OUTPUT,
            lint_robots,
            fetches=True,
        ),
        Tool(
            "diff_robots",
            "What a robots.txt change does",
            "Compare two versions of a robots.txt by effect: every crawler/URL pair whose verdict flips, with the "
            "deciding line in each version.",
            schemas.DIFF_INPUT,
            schemas.DIFF_OUTPUT,
            diff_robots,
            fetches=False,
        ),
        Tool(
            "verify_ip",
            "Is it really that crawler?",
            "Judge whether a request from this IP address with this User-Agent really comes from the crawler it "
            "names: by the operators' published IP lists, then forward-confirmed reverse DNS.",
            schemas.VERIFY_INPUT,
            schemas.VERIFY_OUTPUT,
            verify_ip,
            fetches=True,
        ),
    )
}
# Each tool's input schema, compiled once.
_VALIDATORS = {name: Draft202012Validator(tool.input_schema) for name, tool in TOOLS.items()}


def schema_problem(name: str, arguments: Arguments) -> str | None:
    """Why `arguments` do not fit the tool's input schema, in one line of bounded length; None when they do."""
    error = best_match(_VALIDATORS[name].iter_errors(arguments))
    if error is None:
        return None
    where = "/".join(str(part) for part in error.absolute_path) or "arguments"
    if len(error.message) <= MAX_ERROR:
        said = error.message
    else:  # the message quotes the value: name the keyword it breaks instead
        said = f"not within `{error.validator}` {str(error.validator_value)[:MAX_ERROR]}"
    return f"{where}: {said}"


def _answer(data: dict[str, Any]) -> types.CallToolResult:
    text = json.dumps(data, ensure_ascii=False)
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], structured_content=data)


def _error(reason: Message, lang: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=reason.render(lang))], is_error=True)


async def call(settings: Settings, name: str, arguments: Arguments) -> types.CallToolResult:
    """Answer one tool call: its structured answer, or a tool error saying why not. Never raises."""
    lang = arguments.get("lang") if isinstance(arguments.get("lang"), str) else None
    lang = lang if lang in ("en", "ko") else settings.lang
    tool = TOOLS.get(name)
    if tool is None:
        return _error(message("mcp.unknown-tool", name=name[:100], tools=list(TOOLS)), lang)
    problem = schema_problem(name, arguments)
    if problem is not None:
        return _error(message("mcp.bad-arguments", tool=name, problem=problem), lang)
    try:
        return _answer(await tool.run(settings, arguments, lang))
    except (ToolFailure, InvalidRequest, InvalidURL) as failure:
        return _error(failure.reason, lang)
    except RefusedTarget as refused:
        return _error(refusal(refused), lang)
    except Exception as error:  # a bug: said to the client and logged, and the server serves on
        LOG.exception("tool %s failed", name)
        return _error(message("mcp.internal-error", tool=name, error=type(error).__name__), lang)


INSTRUCTIONS = (
    "robotscope answers robots.txt questions for AI agents. Before fetching a URL, call may_fetch with the "
    "URL, your User-Agent and who started the fetch (initiated_by=model when you chose the URL, user when "
    "the user asked for it); do not fetch when allowed is false. Every answer carries its evidence (deciding "
    "line, robots.txt SHA-256, fetch time) for your logs."
)


def create_server(settings: Settings) -> Server[Any]:
    """The MCP server with every tool of `TOOLS`, answering by `settings`."""

    async def list_tools(
        context: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[tool.listing() for tool in TOOLS.values()])

    async def call_tool(
        context: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        return await call(settings, params.name, params.arguments or {})

    return Server(
        "robotscope",
        version=__version__,
        title="robotscope",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        get_tool_input_schema=lambda name: TOOLS[name].input_schema if name in TOOLS else None,
    )


async def serve_stdio(settings: Settings) -> None:
    """Serve one client over this process's standard input and output until it closes them (`stdio`)."""
    server = create_server(settings)
    async with stdio_streams(settings.lang) as (read, write):
        await server.run(read, write, server.create_initialization_options())


def run_stdio(settings: Settings) -> None:
    """`serve_stdio` in an event loop of its own, until the client closes the streams."""
    anyio.run(serve_stdio, settings)


def http_app(settings: Settings, host: str) -> Starlette:
    """The streamable HTTP app (the endpoint `/mcp`); bound to loopback, it refuses other Host and Origin headers
    (the SDK's DNS rebinding protection)."""
    return create_server(settings).streamable_http_app(host=host, max_request_body_size=schemas.MAX_MESSAGE)
