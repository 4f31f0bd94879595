"""A captured HTTP/1.1 request head read as a `SignedRequest`: request line, header fields, the target URI.

The head is what a server or proxy received, as RFC 9112 writes it: a
request line (`GET /path?q HTTP/1.1`, Section 3), then one field line per
header (`Name: value`, Section 5), up to an empty line; anything after it (a
body) is ignored. Lines end in CRLF or a bare LF (Section 2.2 lets a
recipient accept either), and empty lines before the request line are
skipped (the same section). The target URI (RFC 9421's `@target-uri`) is an
absolute-form target as given, else `scheme://Host` + the origin-form
target (RFC 9112, Section 3.3): https unless the caller says otherwise, as
signed agents reach sites over TLS and a capture is made behind it.

Within bounds and without raising: a head over `MAX_HEAD` bytes, or whose
request line, target or Host cannot give a target URI, is refused with one
`fatal` message. A field line that is not one (no colon, a name that is not a
token, white space before the colon, obsolete line folding, a stray CR) is
skipped and reported with its line number, and reading goes on; past
`MAX_FIELDS` field lines the rest is not read, and that is reported too. Bytes
are read as Latin-1 (field values may hold any octet, RFC 9110 Section 5.5);
a signature covering such a value fails on its own (its base is not ASCII).
Not read: HTTP/2 and HTTP/3 captures (pseudo-header fields), trailers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...messages import Message, message
from .model import SignedRequest

MAX_HEAD = 65_536  # bytes: servers refuse heads far smaller (8 to 16 KiB is common)
MAX_FIELDS = 256
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")  # RFC 9110, Section 5.6.2
_VERSION = re.compile(r"HTTP/[0-9]\.[0-9]")


@dataclass(frozen=True)
class Head:
    """The request (None when the head cannot give one: `fatal` says why) and the lines skipped on the way."""

    request: SignedRequest | None
    problems: tuple[Message, ...] = ()
    fatal: Message | None = None

    @property
    def user_agent(self) -> str | None:
        """The first User-Agent field's value, None without one."""
        if self.request is None:
            return None
        return next((value for name, value in self.request.headers if name.lower() == "user-agent"), None)


def read_head(data: bytes, scheme: str = "https") -> Head:
    """The request `data` holds (a captured HTTP/1.1 request head); never raises."""
    if len(data) > MAX_HEAD:
        return Head(None, fatal=message("request.too-big", limit=MAX_HEAD))
    lines = data.decode("latin-1").split("\n")
    number = 0
    while number < len(lines) and lines[number].rstrip("\r") == "":
        number += 1  # RFC 9112, Section 2.2: empty lines before the request line are skipped
    if number == len(lines):
        return Head(None, fatal=message("request.empty"))
    parts = lines[number].removesuffix("\r").split(" ")
    start = number + 1
    if len(parts) != 3 or not _TOKEN.fullmatch(parts[0]) or not _VERSION.fullmatch(parts[2]):
        return Head(None, fatal=message("request.request-line", line=start))
    method, target, _ = parts
    headers, problems = _fields(lines, start)
    uri = _target_uri(target, headers, scheme)
    if isinstance(uri, Message):
        return Head(None, tuple(problems), uri)
    return Head(SignedRequest(method, uri, tuple(headers)), tuple(problems))


def _fields(lines: list[str], start: int) -> tuple[list[tuple[str, str]], list[Message]]:
    """The field lines after the request line (line `start`, counted from 1), and the problems of the bad ones."""
    headers: list[tuple[str, str]] = []
    problems: list[Message] = []
    for index in range(start, len(lines)):
        line, number = lines[index].removesuffix("\r"), index + 1
        if line == "":
            break  # the end of the head
        if len(headers) + len(problems) >= MAX_FIELDS:
            problems.append(message("request.too-many", limit=MAX_FIELDS, line=number))
            break
        name, colon, value = line.partition(":")
        if line[0] in " \t":
            problems.append(message("request.folded", line=number))
        elif not colon or not _TOKEN.fullmatch(name) or "\r" in value:
            problems.append(message("request.bad-line", line=number))
        else:
            headers.append((name, value.strip(" \t")))
    return headers, problems


def _target_uri(target: str, headers: list[tuple[str, str]], scheme: str) -> str | Message:
    lowered = target.lower()
    if lowered.startswith(("http://", "https://")):
        return target  # absolute form: its authority is the one that counts (RFC 9112, Section 3.2.2)
    if not target.startswith("/"):
        return message("request.target", target=target[:200])
    hosts = [value for name, value in headers if name.lower() == "host"]
    if len(hosts) != 1:
        return message("request.host", count=len(hosts))
    if not hosts[0] or any(c in hosts[0] for c in " \t/?#@\\"):
        return message("request.bad-host", host=hosts[0][:200])
    return f"{scheme}://{hosts[0]}{target}"
