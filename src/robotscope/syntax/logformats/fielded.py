"""W3C extended logs (IIS) and AWS CloudFront's standard logs, read by the names their `#Fields:` header gives. Pure.

    #Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) ...

Each `#Fields:` line names the columns of the lines after it, until the next one: files written
across a configuration change, or concatenated, change their columns mid-file, and are read by the
header in force. A header without the columns the audit needs (`date`, `time`, `c-ip`, `cs-method`,
`cs-uri-stem`, `cs(User-Agent)`) is a bad line saying which it lacks, and so is each line under it.
Other `#` lines (`#Version:`, `#Software:`, `#Date:`) are no requests.

The two differ in their values:

- W3C (IIS): columns separated by spaces, a space inside a value written `+` (IIS writes
  `Mozilla/5.0+(Windows+NT+10.0)`); no host by default (`cs-host` when logged), no scheme (implied by
  `s-port` 443 or 80). A line before any header cannot be read.
- CloudFront: columns separated by tabs, values URL-encoded (`%20` for a space, `%25` for `%`), and the
  User-Agent sometimes twice (`Mozilla/5.0%2520(...)`): decoded again when once leaves `%20` and no
  space. The viewer's host is `x-host-header` (`cs(Host)` is the distribution's own name); the scheme
  is `cs-protocol`. Lines before any header are read by the documented 33 columns.

Both: `date` and `time` in UTC, `-` for an empty value (`cs-uri-query` without a query), status `000`
for a viewer that left before the response.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from typing import NamedTuple
from urllib.parse import unquote

from ...messages import message
from .model import BadLine, Request
from .problems import FIELDS, MAX_LINE, bad, unreadable
from .requests import status_code
from .times import date_and_time

# The header of CloudFront's 33 documented columns: the columns of lines before any header.
CLOUDFRONT_HEADER = (
    "#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) "
    "cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes "
    "time-taken x-forwarded-for ssl-protocol ssl-cipher x-edge-response-result-type cs-protocol-version fle-status "
    "fle-encrypted-fields c-port time-to-first-byte x-edge-detailed-result-type sc-content-type sc-content-len "
    "sc-range-start sc-range-end"
)

# The columns each field of a request is read from, by preference (names compared in lower case).
_COLUMNS = {
    "date": ("date",),
    "time": ("time",),
    "ip": ("c-ip",),
    "method": ("cs-method",),
    "path": ("cs-uri-stem",),
    "query": ("cs-uri-query",),
    "status": ("sc-status",),
    "size": ("sc-bytes",),
    "referer": ("cs(referer)",),
    "user_agent": ("cs(user-agent)",),
}
_HOSTS = {"cloudfront": ("x-host-header", "cs(host)"), "w3c": ("cs-host", "cs(host)")}
_SCHEMES = {"cloudfront": "cs-protocol", "w3c": "s-port"}
_NEEDS = {"time": ("date", "time"), "ip": ("ip",), "request": ("method", "path"), "user_agent": ("user_agent",)}
_PLUSES = re.compile(r"\+(\+?)")
_IMPLIED = {"https": "https", "wss": "https", "http": "http", "ws": "http", "443": "https", "80": "http"}


class _Columns(NamedTuple):
    """A `#Fields:` header read: where each field of a request is, and what the header lacks."""

    line: int  # the header's line number (0: the documented columns, no header read)
    at: dict[str, int]
    width: int  # columns a line needs for every field read
    missing: tuple[str, ...]


def _columns(names: Sequence[str], kind: str, line: int, needs: frozenset[str]) -> _Columns:
    lowered = [name.lower() for name in names]
    at = {}
    for field, candidates in {**_COLUMNS, "host": _HOSTS[kind], "scheme": (_SCHEMES[kind],)}.items():
        found = next((lowered.index(name) for name in candidates if name in lowered), None)
        if found is not None:
            at[field] = found
    missing = tuple(f for f in FIELDS if f in needs and not all(part in at for part in _NEEDS[f]))
    return _Columns(line, at, max(at.values(), default=-1) + 1, missing)


def _cloudfront_agent(value: str) -> str:
    once = unquote(value, errors="replace")
    return unquote(once, errors="replace") if "%20" in once and " " not in once else once


def _iis_agent(value: str) -> str:
    """IIS writes a space as `+` and leaves a `+` as it is: `; +http://` becomes `;++http://`. A `+` after
    another is read as the `+` itself (crawlers write `+http://` for their page), any other as a space."""
    return _PLUSES.sub(lambda run: " " + run[1], value)


def is_fields(line: str) -> bool:
    """Whether `line` is a `#Fields:` header (any case), the one line above requests their reader needs."""
    return line[:8].lower() == "#fields:"


Header = tuple[int, str]  # a `#Fields:` line of a log: its number and its text


def sets_columns(line: str) -> bool:
    """Whether a reader takes `line` as its `#Fields:` header: one too long to read is a bad line, no header."""
    return len(line) <= MAX_LINE and is_fields(line)


class FieldsInForce:
    """The `#Fields:` headers among lines of many logs ((source, number, text) each; other lines are left
    out): the one in force at any line, the last of its log at or before the line's number (a header's own,
    for a header). For logs held as rows of a table in any order, where no reader sees the lines above a
    row (Spark's partitions)."""

    def __init__(self, lines: Iterable[tuple[str, int, str]]) -> None:
        by_source: dict[str, list[Header]] = {}
        for source, number, text in lines:
            if sets_columns(text):
                by_source.setdefault(source, []).append((number, text))
        self._headers = {source: sorted(found) for source, found in by_source.items()}
        self._numbers = {source: [number for number, _ in found] for source, found in self._headers.items()}

    def at(self, source: str, number: int) -> Header | None:
        """The header in force at line `number` of `source`; None before its first (or in a log without one)."""
        numbers = self._numbers.get(source)
        if numbers is None:
            return None
        found = bisect_right(numbers, number)
        return self._headers[source][found - 1] if found else None


class FieldedReader:
    """W3C extended (`kind` "w3c") or CloudFront (`kind` "cloudfront") lines, by the header in force."""

    def __init__(self, kind: str, needs: frozenset[str]) -> None:
        self.name = kind
        self._kind = kind
        self._needs = needs
        self._cloudfront = kind == "cloudfront"
        self._columns: _Columns | None = (
            _columns(CLOUDFRONT_HEADER[8:].split(), kind, 0, needs) if self._cloudfront else None
        )

    def read(self, number: int, line: str) -> Request | BadLine | None:
        if len(line) > MAX_LINE:
            return bad(number, "too-long", limit=MAX_LINE)
        if line.startswith("#"):
            if is_fields(line):
                header = self._columns = _columns(line[8:].split(), self._kind, number, self._needs)
                if header.missing:
                    return bad(number, "header", missing=[message(f"logs.field.{f}") for f in header.missing])
            return None
        if not line.strip():
            return None
        columns = self._columns
        if columns is None:
            return bad(number, "no-fields")
        if columns.missing:
            return bad(number, "unusable", header=columns.line)
        values = line.split("\t") if self._cloudfront else line.split()
        if len(values) < columns.width:
            return bad(number, "columns", found=len(values), expected=columns.width)
        return self._request(number, values, columns.at)

    def _request(self, number: int, values: list[str], at: dict[str, int]) -> Request | BadLine:
        text = self._text
        when = None
        if "date" in at and "time" in at:
            when = date_and_time(values[at["date"]], values[at["time"]])
            if when is None:
                return unreadable(number, "time", f"{values[at['date']]} {values[at['time']]}")
        status = values[at["status"]] if "status" in at else "-"
        size = values[at["size"]] if "size" in at else "-"
        if not (status == "-" or (status.isascii() and status.isdigit() and len(status) == 3)):
            return unreadable(number, "status", status)
        path = text(values, at, "path") or ""
        query = text(values, at, "query")
        agent = values[at["user_agent"]] if "user_agent" in at else "-"
        if agent == "-":
            agent = ""
        elif self._cloudfront:
            agent = _cloudfront_agent(agent)
        else:
            agent = _iis_agent(agent)
        scheme = values[at["scheme"]].lower() if "scheme" in at else ""
        return Request(
            number,
            when,
            values[at["ip"]] if "ip" in at else "",
            values[at["method"]] if "method" in at else "",
            path + "?" + query if query else path,
            text(values, at, "host"),
            _IMPLIED.get(scheme),
            status_code(status),
            agent,
            text(values, at, "referer"),
            int(size) if size.isascii() and size.isdigit() and len(size) < 19 else None,
        )

    def _text(self, values: list[str], at: dict[str, int], field: str) -> str | None:
        """A column's text (URL-decoded in CloudFront's logs), None where the header has none or `-` is logged."""
        if field not in at:
            return None
        value = values[at[field]]
        if value == "-":
            return None
        return unquote(value, errors="replace") if self._cloudfront else value


__all__ = ["CLOUDFRONT_HEADER", "FieldedReader", "FieldsInForce", "Header", "is_fields", "sets_columns"]
