"""Every log format by name: a reader for one, and the format of a log told from its first lines. Pure.

`reader(name)` gives a fresh reader (a new one per file: `#Fields:` readers keep the header in force).
It refuses, with a `FormatError` saying why, an unknown name, a directive or mapping it cannot read,
and a format that cannot give what is asked of every request (`needs`: by default what the audit
needs, the time, client address, request and User-Agent; the address and request are always needed).

`detect(lines)` looks at the first `DETECT_LINES` lines that are not blank and names the first format,
most particular first, in which every one of them reads (a line whose request line is `-` or
garbage counts, as the format's own lines do) and at least one is a request; None when no format
does. A log of NCSA common lines is detected as `common`, which `reader` then refuses (no
User-Agent): the user learns why rather than that nothing matched. nginx and Apache formats with a
directive, and JSON with a mapping, are never detected: they say how to read them.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...messages import message
from .alb import AlbReader
from .apache import elements as apache_elements
from .caddy import SPEC as CADDY
from .cloudflare import SPEC as CLOUDFLARE
from .compiled import CompiledReader
from .fastly import FastlyReader
from .fielded import FieldedReader
from .jsonlines import JsonReader, parse_mapping
from .model import LineReader, Request
from .ncsa import NcsaReader
from .nginx import elements as nginx_elements
from .problems import AUDIT, OF_THE_FORMAT, FormatError, require

FORMATS = (
    "combined",
    "common",
    "nginx",
    "apache",
    "caddy",
    "cloudfront",
    "alb",
    "cloudflare",
    "w3c",
    "fastly",
    "jsonl",
)
DETECTED = ("cloudfront", "w3c", "alb", "cloudflare", "caddy", "fastly", "combined", "common")
DETECT_LINES = 20
MINIMUM = frozenset({"ip", "request"})  # a Request has an address and a request whatever is asked
_NCSA = {"combined": frozenset({"time", "ip", "request", "user_agent"}), "common": frozenset({"time", "ip", "request"})}


def _fixed(name: str, needs: frozenset[str]) -> LineReader:
    """A reader of a format that takes no directive or mapping."""
    if name in _NCSA:
        require(name, _NCSA[name], needs)
        return NcsaReader(name)
    if name in ("cloudfront", "w3c"):
        return FieldedReader(name, needs)
    if name == "alb":
        return AlbReader()
    if name == "fastly":
        return FastlyReader(needs)
    return JsonReader(CADDY if name == "caddy" else CLOUDFLARE, needs)


def reader(
    name: str, log_format: str | None = None, mapping: str | None = None, *, needs: frozenset[str] = AUDIT
) -> LineReader:
    """A fresh reader of format `name`; `log_format` is nginx's or Apache's directive, `mapping` the
    `--map` text of `jsonl`. Raises `FormatError` for what cannot be read, or lacks a field in `needs`."""
    wanted = needs | MINIMUM
    if name not in FORMATS:
        raise FormatError(message("logs.format.unknown", format=name, known=list(FORMATS)))
    if log_format is not None and name not in ("nginx", "apache"):
        raise FormatError(message("logs.format.no-directive", format=name))
    if mapping is not None and name != "jsonl":
        raise FormatError(message("logs.format.no-mapping", format=name))
    if name == "jsonl":
        if mapping is None:
            raise FormatError(message("logs.format.needs-mapping"))
        return JsonReader(parse_mapping(mapping), wanted)
    if name in ("nginx", "apache"):
        if log_format is None:
            return _fixed("combined", wanted)  # both servers' default format
        found = nginx_elements(log_format) if name == "nginx" else apache_elements(log_format)
        return CompiledReader(name, found, wanted)
    return _fixed(name, wanted)


def directive_kind(text: str) -> str | None:
    """Whether a `--log-format` text is nginx's (`$variables`) or Apache's (`%directives`); None if neither."""
    stripped = text.strip()
    if stripped.lower().startswith("log_format") or ("$" in stripped and "%" not in stripped):
        return "nginx"
    if stripped.lower().startswith(("logformat", "customlog")) or "%" in stripped:
        return "apache"
    return None


def _reads(name: str, lines: Sequence[tuple[int, str]]) -> bool:
    """Whether every line reads in format `name`, and one at least is a request."""
    read = _fixed(name, MINIMUM)
    requests = 0
    for number, line in lines:
        got = read.read(number, line)
        if isinstance(got, Request):
            requests += 1
        elif got is not None and got.reason.code not in OF_THE_FORMAT:
            return False
    return requests > 0


def detect(first_lines: Sequence[str]) -> str | None:
    """The format of a log from its first lines (the first `DETECT_LINES` that are not blank), None if unknown."""
    looked = [(number, line) for number, line in enumerate(first_lines, 1) if line.strip()][:DETECT_LINES]
    return next((name for name in DETECTED if _reads(name, looked)), None)


__all__ = ["DETECTED", "DETECT_LINES", "FORMATS", "MINIMUM", "detect", "directive_kind", "reader"]
