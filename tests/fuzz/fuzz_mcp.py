"""Fuzz target: any tool call the MCP server gets is answered, never raised, and an answer fits its output schema.

With atheris installed (`pip install atheris`), from the repository root:

    python -m tests.fuzz.fuzz_mcp tests/fuzz/seeds_mcp -max_total_time=60

An input is the JSON of one `tools/call` (`{"name": ..., "arguments": {...}}`).
No call leaves this process: every name resolves to a public address the
guard lets through, and a mock transport answers every request with the
input's `robots_txt` (loopback and private literals are refused by the
guard, as the server refuses them). Without atheris, `check(data)` is a plain
function: tests/mcpserver/test_tools.py runs it on every seed. Add each input a
fuzzer finds there.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.fuzz.harness import fuzz, instrumented

with instrumented(__name__):
    import anyio
    import httpx
    from jsonschema import Draft202012Validator

    from robotscope.mcp import TOOLS, Settings, call
    from robotscope.verifying.verifier import Verifier

SEEDS = Path(__file__).parent / "seeds_mcp"
OUTPUTS = {name: Draft202012Validator(tool.output_schema) for name, tool in TOOLS.items()}


async def _public(host: str, port: int) -> list[str]:
    return ["93.184.216.34"]  # never connected to: the mock transport answers first


def settings(robots_txt: bytes) -> Settings:
    """A server that fetches nothing from the network: every robots.txt is `robots_txt`."""
    transport = httpx.MockTransport(lambda request: httpx.Response(200, stream=httpx.ByteStream(robots_txt)))
    return Settings(cache=False, verifier=Verifier(), transport=transport, resolve=_public)


def check(data: bytes) -> None:
    """Call the tool `data` names with its arguments; raise only on a bug."""
    try:
        request = json.loads(data)
    except (ValueError, RecursionError):
        return
    if not isinstance(request, dict):
        return
    name, arguments = request.get("name"), request.get("arguments")
    if not isinstance(name, str) or not isinstance(arguments, dict):
        return
    served = str(arguments.get("robots_txt", "User-agent: *\nDisallow: /private/\n")).encode("utf-8", "replace")
    result = anyio.run(call, settings(served), name, arguments)
    text = result.content[0].text  # type: ignore[union-attr]  # always one text block
    if result.is_error:
        assert result.structured_content is None and text and len(text) < 2000
        assert not text.startswith(f"{name} failed with an internal error"), text  # a bug the server caught
        return
    answer: Any = result.structured_content
    assert json.loads(text) == answer
    OUTPUTS[name].validate(answer)


if __name__ == "__main__":
    fuzz(check)
