"""Apache's `LogFormat`, read from the directive itself, into a format `compiled` reads. Pure.

    LogFormat "%h %l %u %t \\"%r\\" %>s %b \\"%{Referer}i\\" \\"%{User-Agent}i\\"" combined

Taken: a `LogFormat` or `CustomLog` directive (its format argument, quoted as Apache's configuration
quotes: `\\"` inside double quotes), the format string alone (as written, or quoted), or the name of
one of Apache's stock formats (`common`, `combined`, `combinedio`, `vhost_combined`, `referer`,
`agent`).

Directives are `%` with optional conditions and `<`/`>` (`%>s`, `%!200,304{Referer}i`), an optional
`{argument}` and a letter. The audit reads: `%a` (then `%h`, then `%{c}a`) for the address; `%t`,
`%{sec}t`, `%{msec}t`, `%{usec}t`, `%{msec_frac}t`, `%{usec_frac}t` and `%{strftime format}t` (with a
`%z` or a literal `Z`: Apache writes local time, and a time without its offset cannot be placed) for
the time; `%r`, or `%m` with `%U` and `%q`, for the request; `%{Host}i`, then `%V`, then `%v` for the
host; `%{X-Forwarded-Proto}i` and `%{HTTPS}e` for the scheme; `%>s` (then `%s`, `%<s`); `%b` (then
`%B`, `%O`); `%{Referer}i` and `%{User-Agent}i`. Every other directive is an opaque field; an
unknown letter is refused, as Apache refuses it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ...messages import message
from .compiled import (
    CLF_PATTERN,
    EPOCH,
    EPOCH_PATTERN,
    Element,
    Field,
    Parts,
    clf_time,
    epoch_time,
    fraction_time,
    time_field,
)
from .problems import FormatError, preview
from .times import MONTHS

STOCK = {
    "common": '%h %l %u %t "%r" %>s %b',
    "combined": '%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i"',
    "combinedio": '%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i" %I %O',
    "vhost_combined": '%v:%p %h %l %u %t "%r" %>s %O "%{Referer}i" "%{User-Agent}i"',
    "referer": "%{Referer}i -> %U",
    "agent": "%{User-agent}i",
}
_DIRECTIVE = re.compile(r"%([!0-9,<>]*)(?:\{([^}]*)\})?([!0-9,<>]*)(\^t[io]|[A-Za-z%])")
_DIGITS = "[0-9]++|-"
# Letters whose values are known (their pattern), or that are opaque; the fields the audit reads are below.
_OPAQUE: dict[str, str | None] = {**dict.fromkeys("ACefHlLnoRu"), **dict.fromkeys("DIkPST", _DIGITS), "X": "[X+-]"}
_HEADERS = {
    "referer": Field("%{Referer}i", "referer"),
    "user-agent": Field("%{User-Agent}i", "user_agent"),
    "host": Field("%{Host}i", "host"),
    "x-forwarded-proto": Field("%{X-Forwarded-Proto}i", "scheme", 1),
}
_LETTERS = {
    "a": Field("%a", "ip"),
    "h": Field("%h", "ip", 1),
    "t": time_field("%t", r"\[" + CLF_PATTERN + r"\]", clf_time, EPOCH),
    "r": Field("%r", "request"),
    "m": Field("%m", "method", pattern="[A-Za-z]++|-"),
    "U": Field("%U", "path", pattern=r'[^\s?"]*+'),
    "q": Field("%q", "query", pattern=r'(?:\?[^\s"]*+)?+'),
    "V": Field("%V", "host", 1),
    "v": Field("%v", "host", 2),
    "b": Field("%b", "size", pattern=_DIGITS),
    "B": Field("%B", "size", 1, pattern=_DIGITS),
    "O": Field("%O", "size", 2, pattern=_DIGITS),
    "p": Field("%p", "port", pattern=_DIGITS),
}
_STATUS = {">": 0, "": 1, "<": 2}  # `%>s` is the final status, `%<s` the original one

# strftime(3) conversions in `%{...}t`: the part of the time each gives, and what it matches.
_STRFTIME = {
    "Y": ("year", "[0-9]{4}"),
    "y": ("year2", "[0-9]{2}"),
    "m": ("month", "[0-9]{2}"),
    "b": ("month_name", "[A-Z][a-z]{2}"),
    "h": ("month_name", "[A-Z][a-z]{2}"),
    "B": ("month_name", "[A-Z][a-z]{2,8}"),
    "d": ("day", "[0-9]{2}"),
    "e": ("day", " ?[0-9]{1,2}"),
    "H": ("hour", "[0-9]{2}"),
    "M": ("minute", "[0-9]{2}"),
    "S": ("second", "[0-9]{2}"),
    "z": ("zone", "[+-][0-9]{4}"),
    "s": ("epoch", "[0-9]{1,20}"),
    "a": ("", "[A-Z][a-z]{2}"),
    "A": ("", "[A-Z][a-z]{5,8}"),
    "j": ("", "[0-9]{3}"),
}
_SHORTHANDS = {"T": "%H:%M:%S", "F": "%Y-%m-%d", "D": "%m/%d/%y", "R": "%H:%M"}
_GIVES = {"year2": "year", "month_name": "month", "zone": "offset"}


def _apache_arguments(text: str) -> list[str]:
    """A configuration line's arguments as Apache reads them: quoted with `"` or `'` (a backslash before the
    quote escapes it), or bare words."""
    found = []
    for quoted_double, quoted_single, bare in re.findall(r'"((?:[^"\\]|\\.)*)"|\'((?:[^\'\\]|\\.)*)\'|(\S+)', text):
        if bare:
            found.append(bare)
        else:
            quote = '"' if quoted_double or not quoted_single else "'"
            found.append((quoted_double or quoted_single).replace("\\" + quote, quote))
    return found


def format_string(directive: str) -> str:
    """The format string a `LogFormat` or `CustomLog` directive (or the string, or a stock name) gives."""
    text = directive.strip()
    if text in STOCK:
        return STOCK[text]
    head = text.split(None, 1)[0].lower() if text else ""
    if head in ("logformat", "customlog") or text[:1] in ('"', "'"):
        arguments = _apache_arguments(text)
        if head in ("logformat", "customlog"):
            arguments = arguments[1:] if head == "logformat" else arguments[2:]  # CustomLog names its file first
        if not arguments:
            raise FormatError(message("logs.format.directive", format="apache", detail=preview(text)))
        return STOCK.get(arguments[0], arguments[0])
    return text


def _strftime(name: str, spec: str) -> Field:
    """A `%{...}t` field whose argument is a strftime(3) format, read back into the parts of a time."""
    pattern = []
    named = []
    parts: list[str] = []
    utc = False
    at = 0
    while at < len(spec):
        char = spec[at]
        if char != "%":
            pattern.append(re.escape(char))
            named.append(re.escape(char))
            utc = utc or char == "Z"  # a literal Z: the time is written in UTC
            at += 1
            continue
        letter = spec[at + 1 : at + 2]
        at += 2
        if letter == "%":
            pattern.append("%")
            named.append("%")
        elif letter in ("n", "t"):
            pattern.append(r"\s")
            named.append(r"\s")
        elif letter in _SHORTHANDS:
            spec = spec[:at] + _SHORTHANDS[letter] + spec[at:]
        elif letter in _STRFTIME:
            part, matched = _STRFTIME[letter]
            pattern.append(f"(?:{matched})")
            if part:
                named.append(f"(?P<g{len(parts)}>{matched})")
                parts.append(part)
            else:
                named.append(f"(?:{matched})")
        else:
            raise FormatError(message("logs.format.time", directive=name, detail=f"%{letter}"))
    gives = frozenset(_GIVES.get(part, part) for part in parts) | ({"offset"} if utc else set())
    return time_field(name, "".join(pattern), _civil(re.compile("".join(named)), parts, utc), gives)


def _civil(named: re.Pattern[str], parts: list[str], utc: bool) -> Callable[[str], Parts | None]:
    """The parser of a strftime field's text: each conversion's value, as the part of the time it gives."""

    def parse(text: str) -> Parts | None:
        found = named.fullmatch(text)
        if found is None:
            return None
        read: dict[str, float] = {"offset": 0} if utc else {}
        for index, part in enumerate(parts):
            value = found[f"g{index}"].strip()
            if part == "month_name":
                month = MONTHS.get(value[:3].title())
                if month is None:
                    return None
                read.setdefault("month", month)
            elif part == "year2":
                read.setdefault("year", 2000 + int(value))
            elif part == "zone":
                ahead = int(value[1:3]) * 3600 + int(value[3:5]) * 60
                read.setdefault("offset", -ahead if value[0] == "-" else ahead)
            else:
                read.setdefault(part, int(value))
        return read

    return parse


def _time(name: str, argument: str | None) -> Field:
    """`%t` or `%{...}t`, by its argument (`begin:` and `end:` only say which moment: both are the request's)."""
    if argument is None:
        return _LETTERS["t"]
    spec = argument.removeprefix("begin:").removeprefix("end:")
    if spec in ("sec", "msec", "usec"):
        return time_field(name, EPOCH_PATTERN, epoch_time({"sec": "s", "msec": "ms", "usec": "us"}[spec]), EPOCH)
    if spec in ("msec_frac", "usec_frac"):
        return time_field(name, "[0-9]{3}" if spec == "msec_frac" else "[0-9]{6}", fraction_time, frozenset())
    return _strftime(name, spec)


def _field(found: re.Match[str]) -> Element:
    """The field one directive stands for (`%%` is the literal `%`)."""
    conditions, argument, modifiers, letter = found.groups()
    name = found[0]
    if letter == "%":
        return "%"
    if letter == "t":
        return _time(name, argument)
    if letter == "s":
        return Field(name, "status", _STATUS.get((conditions + modifiers).strip("!0123456789,"), 1), "[0-9]{3}|-")
    if letter == "i" and argument is not None:
        known = _HEADERS.get(argument.lower())
        return Field(name, known.role, known.rank) if known is not None else Field(name)
    if letter == "e" and argument is not None and argument.upper() == "HTTPS":
        return Field(name, "https", pattern="on|-|")
    if letter == "a" and argument == "c":
        return Field(name, "ip", 2)
    if letter == "p" and argument not in (None, "canonical", "local"):
        return Field(name, pattern=_DIGITS)  # the remote port: not the server's
    if letter in _LETTERS:
        return _LETTERS[letter]._replace(name=name)
    if letter in _OPAQUE or letter in ("^ti", "^to", "i"):
        return Field(name, pattern=_OPAQUE.get(letter))
    raise FormatError(message("logs.format.directive", format="apache", detail=preview(name)))


def elements(directive: str) -> list[Element]:
    """The format's literal text and fields, in order (`\\n` and `\\t` in the text are a newline and a tab)."""
    source = format_string(directive)
    found: list[Element] = []
    at = 0
    for directive_found in _DIRECTIVE.finditer(source):
        found.append(source[at : directive_found.start()].replace("\\n", "\n").replace("\\t", "\t"))
        found.append(_field(directive_found))
        at = directive_found.end()
    rest = source[at:]
    if "%" in rest:
        raise FormatError(message("logs.format.directive", format="apache", detail=preview(rest)))
    found.append(rest.replace("\\n", "\n").replace("\\t", "\t"))
    return found


__all__ = ["STOCK", "elements", "format_string"]
