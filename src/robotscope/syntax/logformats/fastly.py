"""Fastly's real-time logs in JSON, by the keys of Fastly's documented templates. Pure.

Fastly writes whatever format string the customer gives. Read here: JSON objects with the keys of the
templates Fastly documents (the default of its New Relic, Datadog and similar endpoints:
`timestamp`, `client_ip`, `request` (the method), `host`, `url`, `request_referer`,
`request_user_agent`, `is_tls`; its "useful formats" JSON: `request_method`, `response_status`,
`response_body_size`), and their common variants. Fastly keeps time in GMT (its VCL knows no other
zone), so a `timestamp` without an offset is UTC; a number is seconds or milliseconds
(`time.start.sec`, `time.start.msec`), told apart by size. Other keys: the generic JSON reader with a
mapping (`jsonl`).

Fastly's default for many endpoints is Apache's common log format, `%h %l %u %t "%r" %>s %b`, which
has no User-Agent: such a line is refused with a message saying so, never read as a request of an
unknown crawler.
"""

from __future__ import annotations

import re

from .jsonlines import JsonReader, JsonSpec
from .model import BadLine, Request
from .problems import bad

SPEC = JsonSpec(
    "fastly",
    {
        "time": [("timestamp",), ("time_start",), ("time",), ("start_time",)],
        "ip": [("client_ip",), ("ip",), ("remote_addr",)],
        "method": [("request_method",), ("method",), ("request",)],
        "target": [("url",), ("request_url",), ("uri",), ("path",)],
        "host": [("host",), ("request_host",)],
        "scheme": [("is_tls",), ("scheme",), ("tls",)],
        "status": [("response_status",), ("status",), ("status_code",)],
        "user_agent": [("request_user_agent",), ("user_agent",)],
        "referer": [("request_referer",), ("referer",)],
        "size": [("response_body_size",), ("body_size",), ("bytes",)],
    },
    naive_utc=True,
)
# A common log line, after the syslog header some endpoints prepend: `%h %l %u %t "%r" %>s %b`.
_COMMON = re.compile(r'(?:<[0-9]{1,3}+>.*?: )?\S++ \S++ \S++ \[[^\]]{1,64}+\] "')


class FastlyReader(JsonReader):
    """Fastly's JSON lines; a common log line is refused, as it names no User-Agent."""

    def __init__(self, needs: frozenset[str]) -> None:
        super().__init__(SPEC, needs)

    def read(self, number: int, line: str) -> Request | BadLine | None:
        if not line.lstrip().startswith("{") and _COMMON.match(line[:512]):
            return bad(number, "fastly-clf")
        return super().read(number, line)


__all__ = ["SPEC", "FastlyReader"]
