"""NCSA common and combined logs (Apache's and nginx's defaults), read by one regular expression each. Pure.

    combined: %h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i"
              $remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent
              "$http_referer" "$http_user_agent"
    common:   %h %l %u %t "%r" %>s %b

Tolerated: a virtual host before the address (Apache's `vhost_combined`, `%v:%p %h ...`, or `%v %h`),
fields after the last one (a custom format that appends `$request_time` or a cache status; after a
common line's size, not a quoted one, which makes it a combined line cut short), and the escapes
Apache and nginx write inside quotes. A request line of `-` (no request sent) or of bytes that
are none is a line of the format whose request cannot be judged: a `BadLine` with its own reason.

This is the reader of the common case, kept to one match and cheap conversions for a common line
(no backslash, `METHOD /target HTTP/x.y`: nearly every line, as servers escape only odd bytes): one
regular expression splits it whole, as fast as a plain one. Any other line (escapes, an absolute URL
or an HTTP/0.9 request, `-`) is matched again by the same expression with escape-aware quoted fields
and the request line whole, and checked field by field. Every quantifier is possessive, so a hostile
line costs time linear in its length. The time parse is remembered per distinct `%t` text
(`times.clf`, a few thousand at most: logs repeat each second on many lines).
"""

from __future__ import annotations

import re

from .model import BadLine, Request
from .problems import MAX_LINE, bad, preview, unreadable
from .requests import request_line, status_code, unescape
from .times import clf

# A quoted field as Apache and nginx write it: a backslash escapes the character after it.
QUOTED = r'[^"\\]*+(?:\\.[^"\\]*+)*+'
# The address and two words, or a virtual host (%v or %v:%p) and the address and two words: the word
# before the time then does not start with `[`.
_HEAD = r"(\S++) (\S++) \S++ (?:([^\s\[]\S*+) )?\[([^\]]{1,64}+)\] "
_AGENT = r' "({0})" "({0})"'
_END = r"(?=\s|$)"  # what follows is another field, or nothing
# The common line: no backslash, `METHOD /target HTTP/x.y`, a status and a size.
_FAST = _HEAD + r'"([A-Z]{1,20}+) (/[^\s"]*+) HTTP/[0-9.]{1,5}+" ([1-9][0-9]{2}) ([0-9]{1,18}+|-)'
# Any line: quoted fields with their escapes, the request line whole, `-` (or 000) for no status.
_ANY = _HEAD + f'"({QUOTED})"' + r" ([0-9]{3}|-) ([0-9]{1,18}+|-)"
_PORT_SCHEMES = {"443": "https", "80": "http"}
_make = Request._make


def _virtual(vhost: str, host: str | None, scheme: str | None) -> tuple[str, str | None]:
    """The host and scheme a virtual host field (`%v` or `%v:%p`) gives, where the request line gave none:
    port 443 implies https and 80 http (Apache's `vhost_combined` writes the port, never the scheme)."""
    name, colon, port = vhost.rpartition(":")
    if not colon or not (port.isascii() and port.isdigit()):
        name, port = vhost, ""
    return host or name, scheme or _PORT_SCHEMES.get(port)


class NcsaReader:
    """Common or combined lines (`name` says which): one match for a common line, another for any other."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._combined = name == "combined"
        agent = _AGENT if self._combined else ""
        # After a common line's size, a quoted field is a combined line's (cut short, or garbled): not common.
        end = _END if self._combined else r'(?=\s(?!")|$)'
        self._fast = re.compile(_FAST + agent.format(r'[^"]*+') + end).match
        self._any = re.compile(_ANY + agent.format(QUOTED) + end, re.DOTALL).match

    def read(self, number: int, line: str) -> Request | BadLine | None:
        if len(line) > MAX_LINE:
            return bad(number, "too-long", limit=MAX_LINE)
        found = None if "\\" in line else self._fast(line)
        if found is None:
            return self._other(number, line)
        if self._combined:
            first, second, before_time, stamp, method, target, status, size, referer, agent = found.groups()
        else:
            first, second, before_time, stamp, method, target, status, size = found.groups()
            referer = agent = "-"
        when = clf(stamp)
        if when is None:
            return unreadable(number, "time", stamp)
        host = scheme = None
        if before_time is not None:  # a virtual host first: the address is the second word
            host, scheme = _virtual(first, None, None)
            first = second
        return _make(
            (
                number,
                when,
                first,
                method,
                target,
                host,
                scheme,
                int(status),
                "" if agent == "-" else agent,
                None if referer == "-" else referer,
                0 if size == "-" else int(size),  # `%b` writes - for no bytes
            )
        )

    def _other(self, number: int, line: str) -> Request | BadLine | None:
        """A line the common case does not match: escapes, another request line, no status, or none of the format."""
        found = self._any(line)
        if found is None:
            return None if not line.strip() else bad(number, "shape", format=self.name)
        if self._combined:
            first, second, before_time, stamp, request, status, size, referer, agent = found.groups()
        else:
            first, second, before_time, stamp, request, status, size = found.groups()
            referer = agent = "-"
        when = clf(stamp)
        if when is None:
            return unreadable(number, "time", stamp)
        if request in ("-", ""):
            return bad(number, "no-request")
        split = request_line(unescape(request))
        if split is None:
            return bad(number, "request-line", line=preview(request))
        method, (target, host, scheme) = split
        if before_time is not None:
            host, scheme = _virtual(first, host, scheme)
            first = second
        return _make(
            (
                number,
                when,
                first,
                method,
                target,
                host,
                scheme,
                status_code(status),
                "" if agent == "-" else unescape(agent),
                None if referer == "-" else unescape(referer),
                0 if size == "-" else int(size),
            )
        )


__all__ = ["QUOTED", "NcsaReader"]
