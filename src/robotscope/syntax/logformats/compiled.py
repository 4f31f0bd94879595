"""A log format given as a list of fields and literal text, compiled to one regular expression. Pure.

nginx's `log_format` and Apache's `LogFormat` (read in `nginx` and `apache`) both become a list of
literal text and `Field`s: each field says what it gives the audit (its `role`: the client address,
the request line, the User-Agent, a part of the time ...) or nothing (an opaque field, matched and
dropped). Here that list becomes one anchored regular expression and a reader of its groups.

Every field matches possessively (what it took is never given back), so a line is matched in time
linear in its length whatever the format: a field whose values are known (a status, a number, a
time) matches those; any other matches up to the first character of the literal text after it (a
field between double quotes: a quoted string, its escapes included). Two fields with nothing between
them cannot be told apart unless the first one's values are known (`%U%q`, `$uri$is_args$args`, or
`$host$request_uri`: a host holds no `/`): the format is refused. Text after the format's end is
tolerated when it starts with white space (fields a later configuration appended).

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
from .requests import request_line, split_target, status_code, unescape
from .times import UNITS, clf, epoch, iso, seconds

_make = Request._make
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
    stops: str = ""  # characters its values never hold, beyond the text after it (a host holds no `/`)
    instant: Callable[[str], float | None] | None = None  # for a time field that gives the whole time alone


Element = str | Field
EPOCH = frozenset({"epoch"})

# The time as NCSA writes it (`%t` adds the brackets), ISO 8601 with an offset, a number since the epoch.
CLF_PATTERN = r"[0-9]{2}/[A-Z][a-z]{2}/[0-9]{4}:[0-9]{2}:[0-9]{2}:[0-9]{2} [+-][0-9]{4}"
ISO_PATTERN = r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,9})?(?:Z|[+-][0-9]{2}:?[0-9]{2})"
EPOCH_PATTERN = r"[0-9]{1,20}(?:\.[0-9]{1,9})?"


def _clf_bracketed(text: str) -> float | None:
    return clf(text.strip("[]"))


def instant_field(name: str, pattern: str, instant: Callable[[str], float | None]) -> Field:
    """A time field that gives the whole time by itself: NCSA's, ISO 8601, a number since the epoch."""

    def parts(text: str) -> Parts | None:
        when = instant(text)
        return None if when is None else {"epoch": when}

    return Field(name, "time", pattern=pattern, time=parts, gives=EPOCH, instant=instant)


def clf_field(name: str, pattern: str) -> Field:
    return instant_field(name, pattern, _clf_bracketed)


def iso_field(name: str) -> Field:
    return instant_field(name, ISO_PATTERN, iso)


def epoch_field(name: str, unit: str) -> Field:
    """A number since the epoch in `unit` (s, ms, us)."""
    divisor = UNITS[unit]
    return instant_field(name, EPOCH_PATTERN, lambda text: epoch(float(text) / divisor, "s"))


def fraction_time(text: str) -> Parts | None:
    """Apache's `%{msec_frac}t` and `%{usec_frac}t`: the fraction of the second."""
    return {"fraction": int(text) / 10 ** len(text)}


def time_field(name: str, pattern: str, parse: Callable[[str], Parts | None], gives: frozenset[str]) -> Field:
    return Field(name, "time", pattern=pattern, time=parse, gives=gives)


HOST_STOPS = "/"  # a host name or address, with its port, holds no slash
_PORT_SCHEMES = {"443": "https", "80": "http"}


def _field_pattern(field: Field, after: Element | None) -> str:
    """What `field` matches, possessively, given the element after it."""
    if field.pattern is not None:
        return f"(?>{field.pattern})"
    stops = re.escape(field.stops)
    if isinstance(after, Field):
        if not stops:
            raise FormatError(message("logs.format.adjacent", first=field.name, second=after.name))
        return f'[^\\s"{stops}]*+'
    if after is None:
        return ".*+"
    if after.startswith('"'):
        return QUOTED
    return f"[^{re.escape(after[0])}{stops}]*+"


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


def _provided(roles: frozenset[str], time_parts: frozenset[str]) -> set[str]:
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
            parts.append(re.escape(element) if isinstance(element, str) else _field_pattern(element, after))
        chosen = _chosen(merged)
        times = [e for e in merged if isinstance(e, Field) and e.role == "time"]
        at_times = [i for i, e in enumerate(merged) if isinstance(e, Field) and e.role == "time"]
        captured = sorted(set(chosen.values()) | set(at_times))
        for i in captured:
            parts[i] = f"({parts[i]})"
        tail = "" if merged and isinstance(merged[-1], Field) and merged[-1].pattern is None else r"(?=\s|$)"
        self._match = re.compile("".join(parts) + tail, re.DOTALL).match
        # Where each field read is in the match's groups (0 from 1), -1 for a field the format lacks.
        position = {index: number for number, index in enumerate(captured)}
        self._at = {role: position[index] for role, index in chosen.items()}
        at = self._at.get
        self._ip, self._request, self._method = at("ip", -1), at("request", -1), at("method", -1)
        self._host, self._agent, self._referer = at("host", -1), at("user_agent", -1), at("referer", -1)
        self._status, self._size = at("status", -1), at("size", -1)
        self._times = [(position[i], field.time) for i, field in zip(at_times, times, strict=True) if field.time]
        alone = times[0].instant if len(times) == 1 else None
        self._instant = (position[at_times[0]], alone) if alone is not None else None
        gives = frozenset().union(*(field.gives for field in times))
        if times and "epoch" not in gives and "offset" not in gives and gives >= CIVIL - {"offset"}:
            raise FormatError(message("logs.format.local-time", directive=" ".join(field.name for field in times)))
        require(name, _provided(frozenset(chosen), gives), needs)

    def read(self, number: int, line: str) -> Request | BadLine | None:
        if len(line) > MAX_LINE:
            return bad(number, "too-long", limit=MAX_LINE)
        found = self._match(line)
        if found is None:
            return None if not line.strip() else bad(number, "shape", format=self.name)
        values = found.groups()
        when = None
        if self._instant is not None:
            when = self._instant[1](values[self._instant[0]])
        elif self._times:
            when = self._time(values)
        if when is None and self._times:
            return unreadable(number, "time", " ".join(values[at] for at, _ in self._times))
        if self._request >= 0:
            text = values[self._request]
            if text in ("-", ""):
                return bad(number, "no-request")
            split = request_line(unescape(text))
            if split is None:
                return bad(number, "request-line", line=preview(text))
            method, (target, host, scheme) = split
        else:
            method = values[self._method]
            if method == "-":
                return bad(number, "no-request")
            target, host, scheme = split_target(unescape(self._target(values)))
        size = values[self._size] if self._size >= 0 else None
        return _make(
            (
                number,
                when,
                values[self._ip],
                method,
                target,
                host or _text(values, self._host),
                scheme or self._scheme(values),
                status_code(values[self._status]) if self._status >= 0 else None,
                _text(values, self._agent) or "",
                _text(values, self._referer),
                None if size is None else 0 if size == "-" else int(size),  # Apache's `%b` writes - for none
            )
        )

    def _time(self, values: tuple[str, ...]) -> float | None:
        """The time the time fields give together (Apache's `%{%d/%b/%Y %T}t.%{msec_frac}t %{%z}t`)."""
        parts: dict[str, float] = {}
        for at, parse in self._times:
            read = parse(values[at])
            if read is None:
                return None
            for key, value in read.items():
                parts.setdefault(key, value)
        fraction = parts.get("fraction", 0.0)
        if "epoch" in parts:
            return epoch(parts["epoch"] + fraction, "s")
        whole = seconds(*(int(parts[key]) for key in ("year", "month", "day", "hour", "minute", "second", "offset")))
        return None if whole is None else whole + fraction

    def _target(self, values: tuple[str, ...]) -> str:
        at = self._at
        if "uri" in at:
            return values[at["uri"]]
        path = values[at["path"]] if "path" in at else ""
        if "query" in at:
            return path + values[at["query"]]
        args = values[at["args"]] if "args" in at else ""
        return path + "?" + args if args not in ("", "-") else path

    def _scheme(self, values: tuple[str, ...]) -> str | None:
        """`http` or `https`: from a scheme field, from nginx's `$https` or Apache's `%{HTTPS}e` (`on`, or
        nothing for http), or implied by the server's port (443 or 80)."""
        at = self._at
        if "scheme" in at:
            value = values[at["scheme"]].lower()
            return value if value in ("http", "https") else None
        if "https" in at:
            return "https" if values[at["https"]] == "on" else "http"
        return _PORT_SCHEMES.get(values[at["port"]]) if "port" in at else None


def _text(values: tuple[str, ...], at: int) -> str | None:
    """A text field's value, None where the format has none (`at` -1) or the line has `-`."""
    if at < 0:
        return None
    value = values[at]
    return None if value in ("-", "") else unescape(value)


__all__ = [
    "CIVIL",
    "CLF_PATTERN",
    "EPOCH",
    "EPOCH_PATTERN",
    "HOST_STOPS",
    "ISO_PATTERN",
    "CompiledReader",
    "Element",
    "Field",
    "Parts",
    "clf_field",
    "epoch_field",
    "fraction_time",
    "instant_field",
    "iso_field",
    "time_field",
]
