"""nginx's `log_format`, read from the directive itself, into a format `compiled` reads. Pure.

    log_format main '$remote_addr - $remote_user [$time_local] "$request" '
                    '$status $body_bytes_sent "$http_referer" "$http_user_agent"';

The directive as nginx reads it: its strings quoted with `'` or `"` (a backslash escapes the quote,
a backslash, `t`, `r` and `n`) or bare, joined without a separator, an `escape=` parameter skipped,
ended by `;`. Also taken: the format string alone (as written, quotes and all, when it does not start
with one), or the name of nginx's predefined format, `combined`.

Variables are `$name` or `${name}`; those the audit reads are below, and any other is matched as an
opaque field (`$request_time`, `$upstream_cache_status`, `$http_x_forwarded_for` ...).
"""

from __future__ import annotations

import re

from ...messages import message
from .compiled import (
    CLF_PATTERN,
    EPOCH,
    EPOCH_PATTERN,
    ISO_PATTERN,
    Element,
    Field,
    clf_time,
    epoch_time,
    iso_time,
    time_field,
)
from .problems import FormatError, preview

COMBINED = (
    '$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent"'
)
_DIGITS = "[0-9]++|-"
_VARIABLES = {
    "remote_addr": Field("$remote_addr", "ip"),
    "realip_remote_addr": Field("$realip_remote_addr", "ip", 1),
    "time_local": time_field("$time_local", CLF_PATTERN, clf_time, EPOCH),
    "time_iso8601": time_field("$time_iso8601", ISO_PATTERN, iso_time, EPOCH),
    "msec": time_field("$msec", EPOCH_PATTERN, epoch_time("s"), EPOCH),
    "request": Field("$request", "request"),
    "request_method": Field("$request_method", "method", pattern="[A-Za-z]++|-"),
    "request_uri": Field("$request_uri", "uri", pattern=r'[^\s"]*+'),
    "uri": Field("$uri", "path", pattern=r'[^\s?"]*+'),
    "document_uri": Field("$document_uri", "path", 1, pattern=r'[^\s?"]*+'),
    "args": Field("$args", "args", pattern=r'[^\s"]*+'),
    "query_string": Field("$query_string", "args", 1, pattern=r'[^\s"]*+'),
    "is_args": Field("$is_args", pattern=r"\??+"),
    "host": Field("$host", "host"),
    "http_host": Field("$http_host", "host", 1),
    "server_name": Field("$server_name", "host", 2),
    "scheme": Field("$scheme", "scheme", pattern="[a-z]++"),
    "http_x_forwarded_proto": Field("$http_x_forwarded_proto", "scheme", 1),
    "https": Field("$https", "https", pattern="(?:on)?+"),
    "server_port": Field("$server_port", "port", pattern=_DIGITS),
    "status": Field("$status", "status", pattern="[0-9]{3}|-"),
    "body_bytes_sent": Field("$body_bytes_sent", "size", pattern=_DIGITS),
    "bytes_sent": Field("$bytes_sent", "size", 1, pattern=_DIGITS),
    "http_referer": Field("$http_referer", "referer"),
    "http_user_agent": Field("$http_user_agent", "user_agent"),
}
_NAME = re.compile(r"\$(?:\{([A-Za-z0-9_]+)\}|([A-Za-z0-9_]+))")
_ESCAPES = {'"': '"', "'": "'", "\\": "\\", "t": "\t", "r": "\r", "n": "\n"}
_TOKEN = re.compile(r"""\s+|#[^\n]*|;|'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|((?:[^\s;'"\\]|\\.)+)""", re.DOTALL)


def _unquoted(text: str) -> str:
    """A token's text with nginx's escapes undone (others keep their backslash)."""
    return re.sub(r"\\(.)", lambda found: _ESCAPES.get(found[1], found[0]), text, flags=re.DOTALL)


def _tokens(text: str) -> list[str]:
    """The arguments of the first directive of `text`, up to its `;`."""
    found: list[str] = []
    at = 0
    while at < len(text):
        token = _TOKEN.match(text, at)
        if token is None:
            raise FormatError(message("logs.format.directive", format="nginx", detail=preview(text[at:])))
        at = token.end()
        if token[0] == ";":
            break
        quoted = next((part for part in token.groups() if part is not None), None)
        if quoted is not None:
            found.append(_unquoted(quoted))
    return found


def format_string(directive: str) -> str:
    """The format string a `log_format` directive (or the string itself, or `combined`) gives."""
    text = directive.strip()
    if text in ("combined", "log_format combined", "log_format combined;"):
        return COMBINED
    if text.startswith("log_format") or text[:1] in ("'", '"'):
        arguments = _tokens(text)
        if arguments and arguments[0] == "log_format":
            arguments = arguments[2:]  # the directive's name and the format's
            if arguments and arguments[0].startswith("escape="):
                arguments = arguments[1:]
        if not arguments:
            raise FormatError(message("logs.format.directive", format="nginx", detail=preview(text)))
        return "".join(arguments)
    return text


def elements(directive: str) -> list[Element]:
    """The format's literal text and fields, in order."""
    source = format_string(directive)
    found: list[Element] = []
    at = 0
    for variable in _NAME.finditer(source):
        found.append(source[at : variable.start()])
        name = variable[1] or variable[2]
        found.append(_VARIABLES.get(name, Field(f"${name}")))
        at = variable.end()
    found.append(source[at:])
    return found


__all__ = ["COMBINED", "elements", "format_string"]
