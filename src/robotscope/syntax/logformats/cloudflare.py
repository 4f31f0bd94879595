"""Cloudflare Logpush's `http_requests` dataset: one JSON object per request (NDJSON, gzip). Pure.

Read: `EdgeStartTimestamp` (when the edge received the request: an integer of nanoseconds by default,
seconds with the job's `timestamp_format` `unix`, or RFC 3339 text with `rfc3339`), `ClientIP`,
`ClientRequestMethod`, `ClientRequestURI` (path and query; `ClientRequestPath` without the query if
that is all the job logs), `ClientRequestHost`, `ClientRequestScheme`, `EdgeResponseStatus` (what the
client got), `ClientRequestUserAgent`, `ClientRequestReferer`, `EdgeResponseBytes`. A job configured
without one of the fields the audit needs makes every line a bad line naming it.

Logpush carries no verified bot's name, only `VerifiedBotCategory`, and the Bot Management fields
only on Enterprise plans: the audit verifies the crawler itself.
"""

from __future__ import annotations

from .jsonlines import JsonSpec

SPEC = JsonSpec(
    "cloudflare",
    {
        "time": [("EdgeStartTimestamp",)],
        "ip": [("ClientIP",)],
        "method": [("ClientRequestMethod",)],
        "target": [("ClientRequestURI",), ("ClientRequestPath",)],
        "host": [("ClientRequestHost",)],
        "scheme": [("ClientRequestScheme",)],
        "status": [("EdgeResponseStatus",)],
        "user_agent": [("ClientRequestUserAgent",)],
        "referer": [("ClientRequestReferer",)],
        "size": [("EdgeResponseBytes",)],
    },
)

__all__ = ["SPEC"]
