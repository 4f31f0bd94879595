"""A log format given as a list of fields and literal text, compiled to one regular expression. Pure.

nginx's `log_format` and Apache's `LogFormat` (read in `nginx` and `apache`) both become a list of
literal text and `Field`s: each field says what it gives the audit (its `role`: the client address,
the request line, the User-Agent, a part of the time ...) or nothing (an opaque field, matched and
dropped). Here that list becomes one anchored regular expression and a reader of its groups.

Every field matches possessively (what it took is never given back), so a line is matched in time
linear in its length whatever the format: a field whose values are known (a status, a number, a
time) matches those; any other matches up to the first character of the literal text after it (a
field between double quotes: a quoted string, its escapes included). Two fields with nothing between
them cannot be told apart unless the first one's values are known (`%U%q`, `$uri$is_args$args`): the
format is refused. Text after the format's end is tolerated when it starts with white space (fields
a later configuration appended).

A format is refused before any line when it cannot give what the reader is asked for: the time (a
whole one: an Apache `%{...}t` without a UTC offset is local time nobody can place), the client
address, the request (a request line, or a method and a target) and the User-Agent.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

from ...messages import message
from .model import BadLine, Request
from .ncsa import QUOTED
from .problems import MAX_LINE, FormatError, bad, preview, require, unreadable
from .requests import request_line, split_target, unescape
from .times import UNITS, clf, iso, seconds

Parts = Mapping[str, float]  # parts of a time: epoch, or year ... second and offset; fraction
CIVIL = frozenset({"year", "month", "day", "hour", "minute", "second", "offset"})


class Field(NamedTuple):
    """One field of a format: as written, what it gives (`role`, None for nothing) and what it matches."""

    name: str  # as the format writes it, for messages: `$status`, `%>s`
    role: str | None = None
    rank: int = 0  # of two fields giving the same role, the lower rank is read (`%a` before `%h`)
    pattern: str | None = None  # the values it takes, when known; else up to the text after it
    time: Callable[[str], Parts | None] | None = None  # for role "time": the parts its text gives
    gives: frozenset[str] = frozenset()  # for role "time": the parts it gives when read


Element = str | Field

# The time as NCSA writes it (`%t` adds the brackets), ISO 8601 with an offset, a number since the epoch.
CLF_PATTERN = r"[0-9]{2}/[A-Z][a-z]{2}/[0-9]{4}:[0-9]{2}:[0-9]{2}:[0-9]{2} [+-][0-9]{4}"
ISO_PATTERN = r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,9})?(?:Z|[+-][0-9]{2}:?[0-9]{2})"
EPOCH_PATTERN = r"[0-9]{1,20}(?:\.[0-9]{1,9})?"


def clf_time(text: str) -> Parts | None:
    when = clf(text.strip("[]"))
    return None if when is None else {"epoch": when}


def iso_time(text: str) -> Parts | None:
    when = iso(text)
    return None if when is None else {"epoch": when}


def epoch_time(unit: str) -> Callable[[str], Parts | None]:
    """The parts of a number since the epoch in `unit` (s, ms, us)."""
    divisor = UNITS[unit]

    def parse(text: str) -> Parts | None:
        return {"epoch": float(text) / divisor}

    return parse


def fraction_time(text: str) -> Parts | None:
    """Apache's `%{msec_frac}t` and `%{usec_frac}t`: the fraction of the second."""
    return {"fraction": int(text) / 10 ** len(text)}


def time_field(name: str, pattern: str, parse: Callable[[str], Parts | None], gives: frozenset[str]) -> Field:
    return Field(name, "time", pattern=pattern, time=parse, gives=gives)


EPOCH = frozenset({"epoch"})
_PORT_SCHEMES = {"443": "https", "80": "http"}


def _field_pattern(field: Field, after: Element | None) -> str:
    """What `field` matches, possessively, given the element after it."""
    if field.pattern is not None:
        return f"(?>{field.pattern})"
    if isinstance(after, Field):
        raise FormatError(message("logs.format.adjacent", first=field.name, second=after.name))
    if after is None:
        return ".*+"
    if after.startswith('"'):
        return QUOTED
    return f"[^{re.escape(after[0])}]*+"


def _merged(elements: Sequence[Element]) -> list[Element]:
    """Adjacent literal texts joined, empty ones dropped."""
    merged: list[Element] = []
    for element in elements:
        if isinstance(element, str) and merged and isinstance(merged[-1], str):
            merged[-1] += element
        elif not isinstance(element, str) or element:
            merged.append(element)
    return merged


def _chosen(elements: Sequence[Element]) -> dict[str, int]:
    """For each role, the index of the field read for it (the lowest rank, then the first)."""
    best: dict[str, int] = {}
    for index, element in enumerate(elements):
        if isinstance(element, Field) and element.role is not None and element.role != "time":
            held = best.get(element.role)
            if held is None or element.rank < _rank(elements[held]):
                best[element.role] = index
    return best


def _rank(element: Element) -> int:
    return element.rank if isinstance(element, Field) else 0


def provided(roles: frozenset[str], time_parts: frozenset[str]) -> set[str]:
    """The audit's fields that a format's roles give."""
    given = set()
    if "epoch" in time_parts or time_parts >= CIVIL:
        given.add("time")
    if "ip" in roles:
        given.add("ip")
    if "request" in roles or ("method" in roles and roles & {"uri", "path"}):
        given.add("request")
    if "user_agent" in roles:
        given.add("user_agent")
    return given


class CompiledReader:
    """Lines of one format, matched by the regular expression compiled from its elements."""

    def __init__(self, name: str, elements: Sequence[Element], needs: frozenset[str]) -> None:
        self.name = name
        merged = _merged(elements)
        parts = []
        for index, element in enumerate(merged):
            after = merged[index + 1] if index + 1 < len(merged) else None
            if isinstance(element, str):
                parts.append(re.escape(element))
            else:
                parts.append(_field_pattern(element, after))
        chosen = _chosen(merged)
        times = [i for i, e in enumerate(merged) if isinstance(e, Field) and e.role == "time"]
        captured = sorted(set(chosen.values()) | set(times))
        for i in captured:
            parts[i] = f"({parts[i]})"
        tail = "" if merged and isinstance(merged[-1], Field) and merged[-1].pattern is None else r"(?=\s|$)"
        self._match = re.compile("".join(parts) + tail, re.DOTALL).match
        group = {index: number for number, index in enumerate(captured, 1)}
        self._groups = {role: group[index] for role, index in chosen.items()}
        self._times: list[tuple[int, Callable[[str], Parts | None]]] = []
        gives: frozenset[str] = frozenset()
        for i in times:
            field = merged[i]
            assert isinstance(field, Field) and field.time is not None
            self._times.append((group[i], field.time))
            gives |= field.gives
        if times and "epoch" not in gives and "offset" not in gives and gives >= CIVIL - {"offset"}:
            names = " ".join(field.name for field in merged if isinstance(field, Field) and field.role == "time")
            raise FormatError(message("logs.format.local-time", directive=names))
        require(name, provided(frozenset(chosen), gives), needs)

    def read(self, number: int, line: str) -> Request | BadLine | None:
        if len(line) > MAX_LINE:
            return bad(number, "too-long", limit=MAX_LINE)
        found = self._match(line)
        if found is None:
            return bad(number, "shape", format=self.name)
        groups = self._groups
        when = None
        if self._times:
            when = self._time(found)
            if when is None:
                return unreadable(number, "time", " ".join(found[g] for g, _ in self._times))
        if "request" in groups:
            text = found[groups["request"]]
            if text in ("-", ""):
                return bad(number, "no-request")
            split = request_line(unescape(text))
            if split is None:
                return bad(number, "request-line", line=preview(text))
            method, (target, host, scheme) = split
        else:
            method = found[groups["method"]] if "method" in groups else ""
            target, host, scheme = split_target(unescape(self._target(found)))
        return Request(
            number,
            when,
            found[groups["ip"]] if "ip" in groups else "",
            method,
            target,
            host or self._text(found, "host"),
            scheme or self._scheme(found),
            self._number(found, "status"),
            self._text(found, "user_agent") or "",
            self._text(found, "referer"),
            0 if self._text(found, "size") is None and "size" in groups else self._number(found, "size"),
        )

    def _time(self, found: re.Match[str]) -> float | None:
        """The time the time fields give together (Apache's `%{%d/%b/%Y %T}t.%{msec_frac}t %{%z}t`)."""
        parts: dict[str, float] = {}
        for group, parse in self._times:
            read = parse(found[group])
            if read is None:
                return None
            for key, value in read.items():
                parts.setdefault(key, value)
        fraction = parts.get("fraction", 0.0)
        if "epoch" in parts:
            return parts["epoch"] + fraction
        whole = seconds(*(int(parts[key]) for key in ("year", "month", "day", "hour", "minute", "second", "offset")))
        return None if whole is None else whole + fraction

    def _target(self, found: re.Match[str]) -> str:
        groups = self._groups
        if "uri" in groups:
            return found[groups["uri"]]
        path = found[groups["path"]] if "path" in groups else ""
        if "query" in groups:
            return path + found[groups["query"]]
        args = found[groups["args"]] if "args" in groups else ""
        return path + "?" + args if args not in ("", "-") else path

    def _text(self, found: re.Match[str], role: str) -> str | None:
        """A text field's value, None where the format has none or the line has `-`."""
        group = self._groups.get(role)
        if group is None:
            return None
        value = found[group]
        return None if value in ("-", "") else unescape(value)

    def _number(self, found: re.Match[str], role: str) -> int | None:
        group = self._groups.get(role)
        if group is None:
            return None
        value = found[group]
        return int(value) if value.isdigit() and value.isascii() and len(value) < 19 else None

    def _scheme(self, found: re.Match[str]) -> str | None:
        """`http` or `https`: from a scheme field, from nginx's `$https` or Apache's `%{HTTPS}e` (`on`, or
        nothing for http), or implied by the server's port (443 or 80)."""
        groups = self._groups
        if "scheme" in groups:
            value = found[groups["scheme"]].lower()
            return value if value in ("http", "https") else None
        if "https" in groups:
            return "https" if found[groups["https"]] == "on" else "http"
        return _PORT_SCHEMES.get(found[groups["port"]]) if "port" in groups else None


__all__ = [
    "CIVIL",
    "CLF_PATTERN",
    "EPOCH",
    "EPOCH_PATTERN",
    "ISO_PATTERN",
    "CompiledReader",
    "Element",
    "Field",
    "Parts",
    "clf_time",
    "epoch_time",
    "fraction_time",
    "iso_time",
    "provided",
    "time_field",
]
