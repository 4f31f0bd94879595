"""Reading a request body: JSON of real text, within a size and a time budget, from this origin only."""

from __future__ import annotations

import json
from typing import Any

import anyio
import httpx
from starlette.requests import ClientDisconnect, Request

from ..reports.analysis import LIMITS
from .errors import ApiError

# The caps of `robotscope.reports.analysis.LIMITS` (the page reads them from /api/info).
MAX_BODY = LIMITS["max_body"]
BODY_TIMEOUT = 10.0  # seconds for the whole request body to arrive (a stalled client gets 408)


def _refuse_lone_surrogates(data: object) -> None:
    """400 `bad-json` if any string of the body holds a lone surrogate (JSON `"\\ud800"`).

    json.loads accepts such escapes, but the result is not Unicode: it cannot be
    encoded as UTF-8, so the core's percent-encoding and the JSON answer would fail on it.
    """
    stack = [data]
    while stack:  # iterative: the depth json.loads accepted must not recurse here again
        item = stack.pop()
        if isinstance(item, str):
            if not item.isascii():
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError:
                    raise ApiError(
                        400,
                        "bad-json",
                        "the request body holds a lone surrogate escape such as \\ud800, which is not text",
                    ) from None
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


async def read_json(request: Request, timeout: float = BODY_TIMEOUT) -> dict[str, Any]:
    """The request's JSON object; 413 past MAX_BODY bytes, 415 unless JSON, 403 for a foreign Origin.

    The whole body must arrive within `timeout` seconds (408 `body-timeout`), so a
    client that stalls or trickles its body cannot hold a connection and a task forever.
    """
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise ApiError(415, "unsupported-media-type", "send the request body as application/json")
    origin = request.headers.get("origin")
    if origin is not None:
        try:
            netloc = httpx.URL(origin).netloc.decode("ascii", "replace")
        except httpx.InvalidURL:
            netloc = ""  # an Origin that is not even a URL is not this server's
        if netloc != request.headers.get("host", ""):
            raise ApiError(403, "cross-origin", "requests from other origins are not accepted")
    declared = request.headers.get("content-length")
    # isascii: str.isdigit() is also true for "²", which int() refuses.
    if declared is not None and declared.isascii() and declared.isdigit() and int(declared) > MAX_BODY:
        raise ApiError(413, "too-large", f"the request body is over {MAX_BODY} bytes")
    body = bytearray()
    try:
        with anyio.fail_after(timeout):
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY:
                    raise ApiError(413, "too-large", f"the request body is over {MAX_BODY} bytes")
    except TimeoutError:
        # Connection: close, because the rest of the body may still come and is never read.
        raise ApiError(
            408,
            "body-timeout",
            f"the request body did not arrive within {timeout:g} seconds",
            headers={"Connection": "close"},
        ) from None
    except ClientDisconnect:
        raise ApiError(400, "bad-json", "the client disconnected before the request body was complete") from None
    try:
        data = json.loads(body)
    except RecursionError:
        raise ApiError(400, "bad-json", "the request body nests arrays or objects too deeply") from None
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "bad-json", "the request body is not valid JSON") from None
    if not isinstance(data, dict):
        raise ApiError(400, "bad-json", "the request body must be a JSON object")
    _refuse_lone_surrogates(data)
    return data
