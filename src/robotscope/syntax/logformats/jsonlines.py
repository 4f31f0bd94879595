"""Logs of one JSON object per line, read by where each field of a request is in the object. Pure.

A `JsonSpec` names, for each field of a request, the paths to it (a path is a list of keys, tried in
turn until one is present): Caddy, Cloudflare and Fastly have theirs (`caddy`, `cloudflare`, `fastly`),
and any other JSON log is read with a mapping the user gives (`parse_mapping`):

    time=ts,ip=request.client_ip|request.remote_ip,method=request.method,target=request.uri,
    user_agent=request.headers.User-Agent

Reading a value: a key is looked up as written (then, in a user's mapping, ignoring case); a list where a
value is expected gives its first item (Caddy logs each header as a list); a number in a list's place
is an index. A key that is absent from the line is a bad line when the field is needed (the mapping
names a key the log does not write); a null is a value the request did not have (no User-Agent, no
status). A time is a number since the epoch (in the spec's unit, or the one its size implies), ISO
8601, or NCSA's `19/Aug/2026:18:06:38 +0000`. A target may be a path and query or an absolute URL;
a method with a space in it is a whole request line. A scheme may be `http`/`https`, a boolean or
`"true"`/`"false"` (is it TLS?), `on`, or an object (Caddy's `tls`: there is TLS).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from ...messages import message
from .model import BadLine, Request
from .problems import MAX_LINE, FormatError, bad, preview, require, unreadable
from .requests import request_line, split_target
from .times import UNITS, number_or_text

Path = tuple[str, ...]

# Our fields, and the names a mapping may also give them.
JSON_FIELDS = ("time", "ip", "method", "target", "query", "host", "scheme", "status", "user_agent", "referer", "size")
ALIASES = {"ua": "user_agent", "agent": "user_agent", "url": "target", "uri": "target", "path": "target"}
_MISSING = object()
_TRUE = {"true", "on", "https", "1", "yes"}
_FALSE = {"false", "off", "http", "0", "no", ""}


class JsonSpec(NamedTuple):
    """Where a JSON log keeps each field of a request, and how it writes its times."""

    name: str
    paths: Mapping[str, Sequence[Path]]  # field: its paths, by preference
    unit: str | None = None  # a number's unit as a time; None: the one its size implies
    naive_utc: bool = False  # an ISO time without an offset is UTC (the format says so)
    agent_optional: bool = False  # no User-Agent is an empty one (a log of the headers the request had)
    scheme_default: str | None = None  # the scheme when the scheme's path is absent (Caddy: no `tls`, http)
    any_case: bool = False  # keys not found as written are looked for ignoring case (a user's mapping)


def dotted(path: Path) -> str:
    return ".".join(path)


def _lookup(data: object, path: Path, any_case: bool) -> object:
    """The value at `path` in `data` (None for null), `_MISSING` if absent; keys compared ignoring case
    when `any_case`."""
    value = data
    for key in path:
        if isinstance(value, dict):
            found = value.get(key, _MISSING)
            if found is _MISSING and any_case:
                lowered = key.lower()
                found = next((item for name, item in value.items() if name.lower() == lowered), _MISSING)
            value = found
        elif isinstance(value, list) and key.isascii() and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        else:
            return _MISSING
    if isinstance(value, list):
        return value[0] if value else None
    return value


# Escapes for `re` to read, not surrogates in the literal: mypyc cannot compile a string holding one.
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _mended(text: str) -> str:
    """`text` with each lone surrogate (valid JSON escapes one: `\\ud800`) made U+FFFD, as a log's bytes that are
    no UTF-8 are: a row written as UTF-8 cannot hold it."""
    return text if text.isascii() else _SURROGATE.sub("\ufffd", text)


def _provided(paths: Mapping[str, Sequence[Path]]) -> set[str]:
    given = {field for field in ("time", "ip", "user_agent") if paths.get(field)}
    if paths.get("method") and paths.get("target"):
        given.add("request")
    return given


def _scheme(value: object) -> str | None:
    if isinstance(value, dict):
        return "https"  # a TLS connection's details
    if isinstance(value, bool):
        return "https" if value else "http"
    if isinstance(value, str):
        lowered = value.lower()
        return "https" if lowered in _TRUE else "http" if lowered in _FALSE else None
    return None


def _count(value: object) -> int | None:
    """A whole number logged as a number or as digits; None for anything else."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 19:
        return int(value)
    return None


class JsonReader:
    """Lines of a JSON log, read by a `JsonSpec`."""

    def __init__(self, spec: JsonSpec, needs: frozenset[str]) -> None:
        require(spec.name, _provided(spec.paths), needs)
        self.name = spec.name
        self._spec = spec
        self._paths = {field: tuple(spec.paths.get(field, ())) for field in JSON_FIELDS}

    def _value(self, data: object, field: str) -> object:
        """The first value the field's paths hold, keys as written (then ignoring case, if the spec says so);
        None if they hold only nulls, `_MISSING` if none is there."""
        null = False
        for any_case in (False, True) if self._spec.any_case else (False,):
            for path in self._paths[field]:
                found = _lookup(data, path, any_case)
                if found is None:
                    null = True
                elif found is not _MISSING:
                    return _mended(found) if isinstance(found, str) else found
        return None if null else _MISSING

    def _missing(self, number: int, field: str) -> BadLine:
        return bad(number, "missing", field=dotted(self._paths[field][0]) if self._paths[field] else field)

    def read(self, number: int, line: str) -> Request | BadLine | None:
        if len(line) > MAX_LINE:
            return bad(number, "too-long", limit=MAX_LINE)
        if not line.strip():
            return None
        try:
            data = json.loads(line)
        except (ValueError, RecursionError):
            return bad(number, "json")
        if not isinstance(data, dict):
            return bad(number, "json")
        return self.request(number, data)

    def request(self, number: int, data: dict[str, object]) -> Request | BadLine:
        """The request one JSON object records."""
        spec = self._spec
        value = self._value
        when = None
        if self._paths["time"]:
            stamp = value(data, "time")
            if stamp is _MISSING or stamp is None:
                return self._missing(number, "time")
            when = number_or_text(stamp, spec.unit, spec.naive_utc)
            if when is None:
                return unreadable(number, "time", str(stamp))
        ip = value(data, "ip")
        method = value(data, "method")
        for field, found in (("ip", ip), ("method", method)):
            if not isinstance(found, str) or not found:
                return self._missing(number, field)
        assert isinstance(ip, str) and isinstance(method, str)
        if " " in method:  # a whole request line (Fastly's `request`, when it holds one)
            split = request_line(method)
            if split is None:
                return bad(number, "request-line", line=preview(method))
            method, (target, host, scheme) = split
        else:
            raw = value(data, "target")
            if not isinstance(raw, str) or not raw:
                return self._missing(number, "target")
            target, host, scheme = split_target(raw)
        query = value(data, "query")
        if isinstance(query, str) and query and "?" not in target:
            target += query if query.startswith("?") else "?" + query
        agent = value(data, "user_agent")
        if agent is _MISSING and self._paths["user_agent"] and not spec.agent_optional:
            return self._missing(number, "user_agent")
        named_host = value(data, "host")
        status = value(data, "status")
        absent = status is _MISSING or status is None or status in ("", "-")
        code = None if absent else _count(status)
        if (code is None and not absent) or (code and not 100 <= code <= 599):
            return unreadable(number, "status", str(status))
        referer = value(data, "referer")
        said_scheme = value(data, "scheme")
        return Request(
            number,
            when,
            ip,
            method,
            target,
            host or (named_host if isinstance(named_host, str) and named_host not in ("", "-") else None),
            scheme or (spec.scheme_default if said_scheme is _MISSING else _scheme(said_scheme)),
            code or None,
            agent if isinstance(agent, str) and agent != "-" else "",
            referer if isinstance(referer, str) and referer not in ("", "-") else None,
            _count(value(data, "size")),
        )


def _split(text: str, separator: str) -> list[str]:
    """`text` split at each `separator` not escaped by a backslash (the backslashes kept)."""
    pieces = [""]
    escaped = False
    for char in text:
        if escaped:
            pieces[-1] += "\\" + char
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == separator:
            pieces.append("")
        else:
            pieces[-1] += char
    if escaped:
        pieces[-1] += "\\"
    return pieces


def parse_mapping(text: str, name: str = "jsonl") -> JsonSpec:
    """A spec from the `--map` syntax: `FIELD=PATH[|PATH...]` items separated by commas, a path's keys by dots.

    `time=ts:ms` names the unit of a numeric time (s, ms, us, ns; by default the one its size
    implies). A backslash makes the next character a plain one (`headers.X\\.Y` is the key `X.Y`).
    Raises `FormatError` (`logs.map.*`) for an item that is none of these.
    """
    paths: dict[str, list[Path]] = {}
    unit = None
    for item in _split(text, ","):
        if not item.strip():
            continue
        key, equals, where = item.partition("=")
        field = ALIASES.get(key.strip().lower(), key.strip().lower())
        if not equals or not where.strip():
            raise FormatError(message("logs.map.syntax", item=preview(item)))
        if field not in JSON_FIELDS:
            raise FormatError(message("logs.map.field", field=preview(key.strip()), known=list(JSON_FIELDS)))
        if field in paths:
            raise FormatError(message("logs.map.twice", field=field))
        if field == "time":
            where, *said = _split(where, ":")
            if said and (len(said) > 1 or said[0].strip() not in UNITS):
                raise FormatError(message("logs.map.unit", unit=preview(":".join(said)), known=list(UNITS)))
            unit = said[0].strip() if said else None
        alternatives = []
        for alternative in _split(where.strip(), "|"):
            keys = tuple(_unescaped(key_text) for key_text in _split(alternative.strip(), "."))
            if not alternative.strip() or not all(keys):
                raise FormatError(message("logs.map.syntax", item=preview(item)))
            alternatives.append(keys)
        paths[field] = alternatives
    return JsonSpec(name, paths, unit, any_case=True)


def _unescaped(text: str) -> str:
    out = []
    escaped = False
    for char in text:
        if escaped or char != "\\":
            out.append(char)
            escaped = False
        else:
            escaped = True
    return "".join(out)


__all__ = ["ALIASES", "JSON_FIELDS", "JsonReader", "JsonSpec", "dotted", "parse_mapping"]
