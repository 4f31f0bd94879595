"""Fuzz target: every line the MCP server reads over stdio is a message, an error that answers it, or blank.

With atheris installed (`pip install atheris`), from the repository root:

    python -m tests.fuzz.fuzz_mcp_stdio tests/fuzz/seeds_mcp_stdio -max_total_time=60

An input is what a client writes to the server's stdin: its lines are read
as the transport reads them, within a limit of `CAP` bytes here (the
transport's is `MAX_MESSAGE`, too large for a fuzzer's inputs) so that
over-long lines are tried too. What is read must encode back to one line of
JSON that reads as the same message. Without atheris, `check(data)` is a
plain function: tests/mcpserver/test_stdio.py runs it on every seed. Add
each input a fuzzer finds there.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

from tests.fuzz.harness import fuzz, instrumented

with instrumented(__name__):
    from mcp import types

    from robotscope.integrations.records import lines
    from robotscope.mcp.stdio import Refused, encoded, read_line

SEEDS = Path(__file__).parent / "seeds_mcp_stdio"
CAP = 256


def check(data: bytes) -> None:
    """Read every line of `data`; raise only on a bug."""
    for line in lines(io.BytesIO(data), CAP):
        read = read_line(line)
        if read is None:
            assert line is not None and not line.strip()
            continue
        sent = read.answer if isinstance(read, Refused) else read
        written = encoded(sent)
        assert written.endswith(b"\n") and written.count(b"\n") == 1 and written.isascii()
        assert types.jsonrpc_message_adapter.validate_python(json.loads(written)) == sent
        if isinstance(read, Refused):
            assert read.answer.error.code in (types.PARSE_ERROR, types.INVALID_REQUEST)
            assert read.answer.id is None or read.answer.error.code == types.INVALID_REQUEST
            assert "\n" not in read.answer.error.message
        if line is None:
            assert isinstance(read, Refused) and read.answer.error.code == types.PARSE_ERROR


if __name__ == "__main__":
    fuzz(check)
