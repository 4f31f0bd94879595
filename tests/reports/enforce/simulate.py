"""What a server does with generated entries, simulated in Python, and what the crawler's reading says.

`refused(entries, subject)` tries the entries in order and the first match
decides, as every server's rendering does (Python's `re` reads the
generated regexes as PCRE and RE2 do; lighttpd's `\\x{hhhh}` is written
`\\uhhhh` for it). `as_sent` and `lighttpd_path` are the strings a server
matches for a request target sent as `raw`: the target itself, Apache's
request line, lighttpd's decoded path (for a request lighttpd decodes
without ambiguity; None otherwise). `plain(raw)` says whether robotscope
reads `raw` exactly on the servers that match the target as sent.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from urllib.parse import unquote

from robotscope.reports.enforce.entries import Entry
from robotscope.reports.enforce.expressed import UNRESERVED
from robotscope.syntax.urls import target

_ESCAPE = re.compile(r"%(..)")
_WIDE = re.compile(r"\\x\{([0-9a-f]+)\}")


@cache
def compiled(regex: str, flags: int = 0) -> re.Pattern[str]:
    return re.compile(_WIDE.sub(lambda m: f"\\U{int(m.group(1), 16):08x}", regex), flags)


def refused(entries: Sequence[Entry], subject: str) -> bool:
    """Whether the first entry that matches `subject` is a disallow (none matching: not refused)."""
    for entry in entries:
        if compiled(entry.regex).search(subject):
            return not entry.allow
    return False


def target_of(raw: str) -> str:
    """The crawler's target for a request sent as `raw` (its URL on the site, read as RFC 9309 reads it)."""
    return target("http://example.com" + raw)


def request_line(raw: str) -> str:
    return f"GET {raw} HTTP/1.1"


def plain(raw: str) -> bool:
    """Printable ASCII without a space or `#`, each `%` starting an escape, none of an unreserved character."""
    if not raw.isascii() or not all("!" <= char <= "~" and char != "#" for char in raw):
        return False
    at = raw.find("%")
    while at >= 0:
        code = raw[at + 1 : at + 3]
        if len(code) < 2 or not all(c in "0123456789abcdefABCDEF" for c in code):
            return False
        if chr(int(code, 16)) in UNRESERVED:
            return False
        at = raw.find("%", at + 3)
    return True


def lighttpd_path(raw: str) -> str | None:
    """`$HTTP["url"]` for a request sent as `raw`, where lighttpd decodes it without ambiguity, else None.

    lighttpd decodes every escape of the path (as UTF-8 text), removes `.`
    and `..` segments and merges `//`; a request whose path has those, or an
    escape of a character that can also be sent as itself, is one robotscope
    says it cannot read exactly (`enforce.note.decoded`).
    """
    if not _decodable(raw):
        return None
    path = raw.split("?", 1)[0]
    segments = path.split("/")[1:]
    if any(segment in (".", "..") for segment in segments) or "" in segments[:-1]:
        return None
    for code in _ESCAPE.findall(path):
        number = int(code, 16)
        sent_as_itself = 0x20 < number < 0x7F and number not in (0x23, 0x25, 0x3F)
        if sent_as_itself and chr(number) not in UNRESERVED and chr(number) not in "*$":
            return None
    try:
        decoded = unquote(path, errors="strict")
    except UnicodeDecodeError:
        return None
    return decoded


def _decodable(raw: str) -> bool:
    """Printable ASCII without a space or `#`, each `%` starting an escape."""
    return (
        raw.isascii()
        and all("!" <= char <= "~" and char != "#" for char in raw)
        and not re.search("%(?![0-9A-Fa-f]{2})", raw)
    )
