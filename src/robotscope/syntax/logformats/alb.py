"""AWS Application Load Balancer access logs (and Classic Load Balancer's, which lack the first field). Pure.

    type time elb client:port target:port request_processing_time target_processing_time
    response_processing_time elb_status_code target_status_code received_bytes sent_bytes "request"
    "user_agent" ssl_cipher ssl_protocol target_group_arn "trace_id" "domain_name" "chosen_cert_arn"
    matched_rule_priority request_creation_time "actions_executed" ...

Fields are separated by spaces and AWS appends new ones at the end (29 of them in 2018, more since):
the ones after the User-Agent are read only for `request_creation_time`, the moment the request
arrived, which is the time the audit wants (`time` is when the response ended: for a WebSocket, when
the connection closed); without it, `time`. The request line holds an absolute URL
(`GET https://www.example.com:443/p HTTP/1.1`): its scheme and host are the request's. An IPv6
client is written without brackets (`2001:db8::1:50718`): the port is after the last colon. The
status is the load balancer's (what the client got); `-` when it sent none.
"""

from __future__ import annotations

import re

from .model import BadLine, Request
from .ncsa import QUOTED
from .problems import MAX_LINE, bad, preview, unreadable
from .requests import request_line, unescape
from .times import iso

_TIME = r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]{8,20}+Z"
_LINE = re.compile(
    r"(?:[a-z0-9]{1,8}+ )?(" + _TIME + r") \S++ (\S++) \S++ \S++ \S++ \S++ ([0-9]{3}|-) \S++ \S++ ([0-9]++|-) "
    r'"(' + QUOTED + r')" "(' + QUOTED + r')"'
    r'(?: \S++ \S++ \S++ "' + QUOTED + '" "' + QUOTED + '" "' + QUOTED + r'" \S++ (' + _TIME + r"))?+"
    r"(?=\s|$)",
    re.DOTALL,
)


class AlbReader:
    """Lines of an ALB (or Classic ELB) access log."""

    name = "alb"

    def read(self, number: int, line: str) -> Request | BadLine | None:
        if len(line) > MAX_LINE:
            return bad(number, "too-long", limit=MAX_LINE)
        found = _LINE.match(line)
        if found is None:
            return bad(number, "shape", format=self.name)
        ended, client, status, size, request, agent, created = found.groups()
        when = iso(created or ended)
        if when is None:
            return unreadable(number, "time", created or ended)
        if request in ("-", "", "- - - "):
            return bad(number, "no-request")
        split = request_line(unescape(request))
        if split is None:
            return bad(number, "request-line", line=preview(request))
        method, (target, host, scheme) = split
        address, colon, port = client.rpartition(":")
        ip = address.strip("[]") if colon and port.isascii() and port.isdigit() else client
        return Request(
            number,
            when,
            ip,
            method,
            target,
            host,
            scheme,
            None if status == "-" else int(status),
            "" if agent == "-" else unescape(agent),
            None,
            None if size == "-" else int(size),
        )


__all__ = ["AlbReader"]
