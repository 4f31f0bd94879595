"""`robotscope mcp`: robotscope as an MCP server for AI agents, on the official `mcp` SDK (the `mcp` extra).

Read-only tools (`server.TOOLS`): `may_fetch` (the gate of `robotscope.agent`),
`explain_verdict`, `lint_robots`, `diff_robots` and `verify_ip`, each with a
JSON Schema for its input and its output (`schemas`). Served over stdio
(`serve_stdio`, what MCP clients launch; `stdio` reads each message within
`MAX_MESSAGE` bytes) or streamable HTTP (`http_app`,
which the `robotscope mcp --http` command runs under uvicorn on 127.0.0.1).
Fetches go through robotscope's fetcher and its SSRF guard: loopback,
private and reserved targets are refused unless the server allows them
(`Settings.allow_private_fetch`). See docs/mcp.md.
"""

from .schemas import MAX_MESSAGE
from .server import TOOLS, Settings, call, create_server, http_app, run_stdio, serve_stdio
from .stdio import UnusableWire

__all__ = [
    "MAX_MESSAGE",
    "TOOLS",
    "Settings",
    "UnusableWire",
    "call",
    "create_server",
    "http_app",
    "run_stdio",
    "serve_stdio",
]
