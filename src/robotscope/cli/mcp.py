"""`robotscope mcp`: serve robotscope's read-only tools to AI agents over MCP (stdio, or streamable HTTP)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ..messages import message
from .options import lang_option, timeout_option
from .output import current_lang, fail, warn

if TYPE_CHECKING:
    from ..mcp import Settings

DEFAULT_PORT = 8765


@click.command("mcp")
@click.option("--http", "over_http", is_flag=True, help="Serve streamable HTTP (at /mcp) instead of stdio.")
@click.option(
    "--host",
    default=None,
    help="Address --http listens on (default 127.0.0.1). Any other than loopback must be given here, "
    "and then anyone who can reach it can call the tools.",
)
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(0, 65535), help="Port for --http.")
@click.option(
    "--allow-private-fetch",
    is_flag=True,
    help="Let the tools fetch from loopback, private and link-local addresses (refused by default).",
)
@click.option(
    "--cache", "cache_path", metavar="PATH", help="The robots.txt cache (default: the user's cache directory)."
)
@click.option("--no-cache", is_flag=True, help="Fetch robots.txt even if a fresh copy is cached (still stored).")
@click.option("--no-dns", is_flag=True, help="verify_ip judges by the IP lists alone, without reverse DNS.")
@click.option("--dns-server", metavar="HOST:PORT", help="verify_ip asks this DNS server (default: the system's).")
@timeout_option
@lang_option
def mcp_command(
    over_http: bool,
    host: str | None,
    port: int,
    allow_private_fetch: bool,
    cache_path: str | None,
    no_cache: bool,
    no_dns: bool,
    dns_server: str | None,
    timeout: float,
    lang: str,
) -> None:
    """Serve robotscope's read-only tools over MCP, for AI agents and their clients.

    Tools: may_fetch (may this agent fetch this URL? the verdict, the
    deciding line, the robots.txt's SHA-256 and fetch time, usage
    preferences, and whether the agent's operator says robots.txt applies),
    explain_verdict, lint_robots, diff_robots, verify_ip. Over stdio by
    default, as MCP clients launch it; --http serves streamable HTTP on
    127.0.0.1. Fetches refuse loopback, private and link-local targets
    unless --allow-private-fetch. Texts follow --lang unless a call asks.

    \b
    Examples:
      robotscope mcp
      robotscope mcp --http --port 8765
      robotscope mcp --lang ko --no-dns
    """
    try:
        from ..mcp import Settings, UnusableWire, run_stdio
    except ImportError as error:
        fail(message("mcp.missing-extra", error=str(error)))
    if host is not None and not over_http:
        fail(message("mcp.host-without-http"))
    from ..verifying.resolvers import resolver
    from ..verifying.verifier import Verifier
    from .options import FetchSettings
    from .sources import open_cache

    try:
        verifier = Verifier(resolver=None if no_dns else resolver(dns_server))
    except ValueError as error:
        fail(str(error))
    cache = open_cache(FetchSettings(cache_path=cache_path))
    settings = Settings(
        lang=lang,
        allow_private_fetch=allow_private_fetch,
        cache=cache,
        reuse=not no_cache,
        timeout=timeout,
        verifier=verifier,
    )
    if not over_http:
        try:
            run_stdio(settings)
        except UnusableWire as error:
            fail(error.reason)
        return
    _serve_http(settings, host or "127.0.0.1", port)


def _serve_http(settings: Settings, host: str, port: int) -> None:
    """Listen on `host:port` (one clear line if it cannot) and serve until Ctrl+C."""
    import uvicorn

    from ..mcp import http_app
    from ..web.security import is_loopback_host
    from .serve import listen, uvicorn_options

    sock = listen(host, port)
    bound = sock.getsockname()[1]
    if not is_loopback_host(host):
        warn(message("mcp.public-host", host=host).render(current_lang()))
        if settings.allow_private_fetch:
            warn(message("mcp.public-private").render(current_lang()))
    shown = f"[{host}]" if ":" in host else host
    serving = message("mcp.serving", url=f"http://{shown}:{bound}/mcp")
    click.echo(f"robotscope: {serving.render(current_lang())}", err=True)
    uvicorn.Server(uvicorn.Config(http_app(settings, host), **uvicorn_options(host, bound))).run(sockets=[sock])
