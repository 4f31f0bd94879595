"""Caddy's JSON access log: one object per request, as its `log` directive writes by default. Pure.

    {"level":"info","ts":1786054486.193625,"logger":"http.log.access.log0","msg":"handled request",
     "request":{"remote_ip":"…","client_ip":"…","proto":"HTTP/1.1","method":"GET","host":"…","uri":"/p?q",
     "headers":{"User-Agent":["curl/8.17.0"]},"tls":{…}},"status":404,"size":99,…}

- The client is `client_ip` (the real client when `trusted_proxies` is configured, else the same as
  `remote_ip`), then `remote_ip` (Caddy before 2.7 logs no `client_ip`).
- `ts` is a number (seconds by default; milliseconds or nanoseconds with another `time_format`, told
  apart by size) or text (ISO 8601, `common_log`, or "wall" time, which Caddy writes in UTC unless
  told `time_local`).
- Headers are lists (the first value is read); a request sent without a User-Agent has none logged,
  and its User-Agent is empty. The scheme is https when the request has a `tls` object, else http.
"""

from __future__ import annotations

from .jsonlines import JsonSpec

SPEC = JsonSpec(
    "caddy",
    {
        "time": [("ts",)],
        "ip": [("request", "client_ip"), ("request", "remote_ip")],
        "method": [("request", "method")],
        "target": [("request", "uri")],
        "host": [("request", "host")],
        "scheme": [("request", "tls")],
        "status": [("status",)],
        "user_agent": [("request", "headers", "User-Agent")],
        "referer": [("request", "headers", "Referer")],
        "size": [("size",)],
    },
    naive_utc=True,
    agent_optional=True,
    scheme_default="http",
)

__all__ = ["SPEC"]
