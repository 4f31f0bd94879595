"""The request a log line names: its request line split, an absolute URL split, escapes undone. Pure.

A request line is `METHOD TARGET PROTOCOL` (`GET /a?b HTTP/1.1`), or `METHOD TARGET` (HTTP/0.9). A
server logs what it received: `-` or an empty line when the client sent none, and whatever bytes it
got otherwise (a TLS handshake sent to a plain HTTP port). A target may be an absolute URL (sent to a
proxy, and always so in AWS load balancers' logs): its scheme and host are the request's, its path
and query the target.

Apache escapes `"` and `\\` and bytes outside printable ASCII in the fields it logs (`\\"`, `\\\\`,
`\\xhh`); nginx writes `\\xHH` for them (`escape=default`) or JSON escapes (`escape=json`). `unescape`
undoes all three, and decodes the bytes as UTF-8.
"""

from __future__ import annotations

import re
from typing import NamedTuple

# RFC 9110's token, the characters of a method, starting with a letter (ALB writes `-` for none).
_METHOD = re.compile(r"[A-Za-z][!#$%&'*+.^_`|~0-9A-Za-z-]*")
_PROTOCOL = re.compile(r"HTTP/[0-9](?:\.[0-9])?")
_ABSOLUTE = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]*)(.*)", re.DOTALL)
_DEFAULT_PORTS = {"http": ":80", "https": ":443", "ws": ":80", "wss": ":443"}
_ESCAPE = re.compile(r"\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|.)", re.DOTALL)
_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v"}


class Target(NamedTuple):
    """A request's target as the audit wants it: path and query, and the scheme and host an absolute URL names."""

    target: str
    host: str | None = None
    scheme: str | None = None


class Line(NamedTuple):
    """A request line read: its method and target."""

    method: str
    target: Target


def split_target(target: str) -> Target:
    """`target`, or the parts of an absolute URL: `http://h:80/p?q` is `/p?q` on host `h` over http.

    The port is kept unless it is the scheme's default (ALB writes `:443` on every URL).
    """
    if target.startswith("/"):
        return Target(target)
    found = _ABSOLUTE.fullmatch(target)
    if found is None:
        return Target(target)  # `*` (OPTIONS) or an authority (CONNECT): the audit judges no such target
    scheme = found[1].lower()
    host = found[2].rpartition("@")[2]  # never userinfo
    default = _DEFAULT_PORTS.get(scheme)
    if default is not None and host.endswith(default):
        host = host[: -len(default)]
    kind = "https" if scheme in ("https", "wss") else "http" if scheme in ("http", "ws") else scheme
    return Target(found[3] or "/", host or None, kind)


def request_line(line: str) -> Line | None:
    """The method and target of a request line; None for one that is not `METHOD TARGET [HTTP/x.y]`."""
    method, space, rest = line.partition(" ")
    if not space or not _METHOD.fullmatch(method):
        return None
    target, space, protocol = rest.rpartition(" ")
    if not space:
        target = rest  # HTTP/0.9: no protocol
    elif not _PROTOCOL.fullmatch(protocol):
        return None
    if not target or " " in target:
        return None
    return Line(method, split_target(target))


def _escaped(code: str) -> bytes:
    """The bytes one escape (without its backslash) stands for."""
    if code[0] == "x" and len(code) == 3:
        return bytes((int(code[1:], 16),))
    if code[0] == "u" and len(code) == 5:
        return chr(int(code[1:], 16)).encode("utf-8", "surrogatepass")
    return _SIMPLE.get(code, code).encode("utf-8", "surrogatepass")


def unescape(text: str) -> str:
    """`text` with Apache's, nginx's and JSON's escapes undone (`\\x22` is `"`, `\\xE2\\x80\\x99` is `’`).

    Bytes that are no UTF-8 become U+FFFD, as do lone surrogates.
    """
    if "\\" not in text:
        return text
    octets = bytearray()
    done = 0
    for found in _ESCAPE.finditer(text):
        octets += text[done : found.start()].encode("utf-8", "surrogatepass")
        octets += _escaped(found[1])
        done = found.end()
    octets += text[done:].encode("utf-8", "surrogatepass")
    return octets.decode("utf-8", "replace")


__all__ = ["Line", "Target", "request_line", "split_target", "unescape"]
