"""NCSA common and combined logs (Apache's and nginx's defaults), read by one regular expression each. Pure.

    combined: %h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i"
              $remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent
              "$http_referer" "$http_user_agent"
    common:   %h %l %u %t "%r" %>s %b

Tolerated: a virtual host before the address (Apache's `vhost_combined`, `%v:%p %h ...`, or `%v %h`),
fields after the last one (a custom format that appends `$request_time` or a cache status), and the
escapes Apache and nginx write inside quotes. A request line of `-` (no request sent) or of bytes that
are none is a line of the format whose request cannot be judged: a `BadLine` with its own reason.

This is the reader of the common case, so it is kept to one match and cheap conversions: the time
parse is remembered per distinct `%t` text, and a line is split no further than the match does.
"""

from __future__ import annotations

import re

from .model import BadLine, Request
from .problems import MAX_LINE, bad, preview, unreadable
from .requests import request_line, split_target, unescape
from .times import clf

# A quoted field as Apache and nginx write it: a backslash escapes the character after it.
QUOTED = r'(?:[^"\\]|\\.)*+'
_HEAD = (
    r"(?:(\S++) )?"  # a virtual host (%v or %v:%p): the line then has four words before the time
    r"(\S++) \S++ \S++ \[([^\]]{1,64}+)\] "
    r'"(?:([A-Z]{1,20}+) ([^\s"\\]++)(?: HTTP/[0-9.]{1,5}+)?|(' + QUOTED + r'))" '
    r"([0-9]{3}|-) ([0-9]++|-)"
)
_AGENT = r' "(' + QUOTED + r')" "(' + QUOTED + r')"'
_END = r"(?=\s|$)"  # what follows is another field, or nothing
_PORT_SCHEMES = {"443": "https", "80": "http"}


def _virtual(vhost: str, host: str | None, scheme: str | None) -> tuple[str, str | None]:
    """The host and scheme a virtual host field (`%v` or `%v:%p`) gives, where the request line gave none:
    port 443 implies https and 80 http (Apache's `vhost_combined` writes the port, never the scheme)."""
    name, colon, port = vhost.rpartition(":")
    if not colon or not (port.isascii() and port.isdigit()):
        name, port = vhost, ""
    return host or name, scheme or _PORT_SCHEMES.get(port)


class NcsaReader:
    """Common or combined lines (`name` says which), one regular expression match each."""

    def __init__(self, name: str) -> None:
        self.name = name
        combined = name == "combined"
        self._match = re.compile(_HEAD + (_AGENT if combined else "") + _END, re.DOTALL).match
        self._combined = combined

    def read(self, number: int, line: str) -> Request | BadLine | None:
        if len(line) > MAX_LINE:
            return bad(number, "too-long", limit=MAX_LINE)
        found = self._match(line)
        if found is None:
            return bad(number, "shape", format=self.name)
        if self._combined:
            vhost, ip, stamp, method, target, other, status, size, referer, agent = found.groups()
        else:
            vhost, ip, stamp, method, target, other, status, size = found.groups()
            referer = agent = "-"
        when = clf(stamp)
        if when is None:
            return unreadable(number, "time", stamp)
        host = scheme = None
        if method is None:  # escapes in the request line, an unusual method, or no request at all
            if other in ("-", ""):
                return bad(number, "no-request")
            split = request_line(unescape(other))
            if split is None:
                return bad(number, "request-line", line=preview(other))
            method, (target, host, scheme) = split
        elif target[0] != "/":
            target, host, scheme = split_target(target)
        if vhost is not None:
            host, scheme = _virtual(vhost, host, scheme)
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
            None if referer == "-" else unescape(referer),
            0 if size == "-" else int(size),  # `%b` writes - for no bytes
        )


__all__ = ["QUOTED", "NcsaReader"]
