"""Alerts POSTed to a webhook: plain JSON, or a Slack-compatible message, held to one deadline.

A receiver that is down, slow or answers an error must not stop the watch:
`post` says what went wrong (a one-line reason) and the caller reports it
and exits non-zero, since the alerts did not reach anyone. Redirects are
not followed (a webhook URL is exact) and the answer's body is never read
past its first bytes.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import httpx

from ..fetch.tls import tls_context

ANSWER_BYTES = 4096  # read of a receiver's answer at most: only its status matters


async def post(
    url: str, payload: dict[str, Any], *, timeout: float = 10.0, transport: httpx.AsyncBaseTransport | None = None
) -> str | None:
    """POST `payload` as JSON to `url`; None when the receiver took it (2xx), else why not, in one line."""
    body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
    headers = {"Content-Type": "application/json; charset=utf-8"}
    try:
        client = httpx.AsyncClient(
            timeout=timeout, follow_redirects=False, transport=transport, verify=tls_context(transport is None)
        )
        async with client:
            with anyio.fail_after(timeout):
                async with client.stream("POST", url, content=body, headers=headers) as response:
                    async for _ in response.aiter_raw(ANSWER_BYTES):
                        break
                    if 200 <= response.status_code < 300:
                        return None
                    return f"HTTP {response.status_code}"
    except TimeoutError:
        return f"no answer within {timeout:g} s"
    except (httpx.HTTPError, httpx.InvalidURL, OSError, ValueError) as error:
        return str(error).splitlines()[0] if str(error) else type(error).__name__
