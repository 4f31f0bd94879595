"""The expectation file: TOML statements of what a robots.txt must do, read into `Expectations`.

    engine = "rfc9309+profiles"   # optional: the reading every statement uses unless it names its own

    [[allow]]                     # these crawlers may fetch these URLs
    agent = "Googlebot"           # or agents = [...]
    urls = ["/", "/products/"]    # or url = "..."

    [[block]]                     # these crawlers may not
    agents = ["GPTBot", "CCBot"]
    url = "/"

    [served]                      # how the file is served (checked on a fetched file)
    status = 200
    content_type = "text/plain"
    max_size = 512000

    [[usage]]                     # Content-Usage preferences that must apply (agent defaults to *)
    url = "/"
    train-ai = "n"

    [[signal]]                    # Content-Signal uses that must apply
    url = "/"
    ai-train = "no"

    [[sitemap]]                   # sitemap lines that must be listed
    url = "https://example.com/sitemap.xml"

Any statement may take `severity` (critical, major, minor, info) for the
alert it raises when it fails. `load_expectations` never raises anything
but `ExpectationError`, whose message is one line naming the line and key.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from ...access.engines.registry import ALL, choices
from ...access.preferences import CATEGORIES, SIGNAL_USES, SIGNALS
from ...messages import Message, message
from ...syntax.urls import InvalidURL, checked_url
from ..watch.alerts import CODES, Severity

MAX_CHARS = 1024 * 1024  # of an expectation file: a few hundred statements fit in a few KB
MAX_STATEMENTS = 10_000
# Crawler/URL pairs asked in all: a 1 MiB file listing 100,000 agents and 100,000 URLs in one
# statement would ask 10^10 verdicts.
MAX_CHECKS = 100_000
LISTS = ("allow", "block", "usage", "signal", "sitemap")  # arrays of tables: [[allow]]
TABLES = ("served",)  # single tables: [served]
SEVERITIES = {s.value: s for s in Severity}
# The alert code of each kind of statement that fails; its severity (`alerts.CODES`) unless the statement says
# otherwise: a page crawlers must reach matters most.
ALERT_CODES = {
    "allow": "expectAllow",
    "block": "expectBlock",
    "served": "expectServed",
    "usage": "expectUsage",
    "signal": "expectSignal",
    "sitemap": "expectSitemap",
}
_COMMON = ("severity",)
_VERDICT_KEYS = ("agent", "agents", "url", "urls", "engine", *_COMMON)
KEYS = {
    "allow": _VERDICT_KEYS,
    "block": _VERDICT_KEYS,
    "usage": ("agent", "agents", "url", "urls", "engine", *CATEGORIES, *_COMMON),
    "signal": ("agent", "agents", "url", "urls", "engine", *SIGNALS, "use", *_COMMON),
    "sitemap": ("url", "urls", *_COMMON),
    "served": ("status", "content_type", "max_size", *_COMMON),
}
VALUES = {
    **dict.fromkeys(CATEGORIES, ("y", "n")),
    **dict.fromkeys(SIGNALS, ("yes", "no")),
    "use": SIGNAL_USES,
}


class ExpectationError(ValueError):
    """A bad expectation file: `reason` says where and what, in one line."""

    def __init__(self, reason: Message) -> None:
        super().__init__(reason.render())
        self.reason = reason


class Statement(NamedTuple):
    """One statement: its table (`allow`, `block`, ...), the line it starts on, and what it says."""

    kind: str
    line: int
    agents: tuple[str, ...] = ()
    urls: tuple[str, ...] = ()
    engine: str | None = None
    severity: Severity = Severity.MAJOR
    values: tuple[tuple[str, Any], ...] = ()  # preferences (`train-ai` = "n"), or served fields (`status` = 200)


class Expectations(NamedTuple):
    """Every statement of a file, in file order, and the reading they use unless they name one."""

    statements: tuple[Statement, ...]
    engine: str | None = None


class _Places:
    """Where each table and key of the text is: the line numbers errors name (tomllib gives none)."""

    _HEADER = re.compile(r"\s*(\[\[?)\s*([A-Za-z0-9_-]+|\"[^\"]*\")\s*\]\]?\s*(?:#.*)?")
    _KEY = re.compile(r"\s*([A-Za-z0-9_-]+|\"[^\"]*\")\s*=")

    def __init__(self, text: str) -> None:
        self.tables: dict[str, list[tuple[int, dict[str, int]]]] = {}
        self.top: dict[str, int] = {}
        keys = self.top
        for number, line in enumerate(text.splitlines(), start=1):
            header = self._HEADER.fullmatch(line)
            if header is not None:
                keys = {}
                self.tables.setdefault(header[2].strip('"'), []).append((number, keys))
                continue
            key = self._KEY.match(line)
            if key is not None:
                keys.setdefault(key[1].strip('"'), number)

    def table(self, name: str, index: int = 0) -> int:
        found = self.tables.get(name, [])
        return found[index][0] if index < len(found) else 1

    def key(self, name: str, index: int, key: str) -> int:
        found = self.tables.get(name, [])
        if index < len(found):
            return found[index][1].get(key, found[index][0])
        return self.top.get(key, 1)


def load_expectations(text: str) -> Expectations:
    """The statements of an expectation file; `ExpectationError` (one line: the line, the key) when it is bad."""
    if len(text) > MAX_CHARS:
        raise ExpectationError(message("expect.error.size", limit=MAX_CHARS))
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ExpectationError(message("expect.error.toml", problem=str(error))) from None
    places = _Places(text)
    engine = data.pop("engine", None)
    if engine is not None:
        engine = _engine(engine, places.top.get("engine", 1))
    statements: list[Statement] = []
    for name, value in data.items():
        if name in LISTS:
            if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
                raise ExpectationError(message("expect.error.array", line=places.table(name), table=name))
            statements.extend(_statement(name, i, entry, places) for i, entry in enumerate(value))
        elif name in TABLES:
            if not isinstance(value, dict):
                raise ExpectationError(message("expect.error.table", line=places.key("", 0, name), table=name))
            statements.append(_statement(name, 0, value, places))
        else:
            line = places.table(name) if name in places.tables else places.top.get(name, 1)
            raise ExpectationError(
                message("expect.error.unknownTable", line=line, table=name, known=[*LISTS, *TABLES, "engine"])
            )
        if len(statements) > MAX_STATEMENTS:
            raise ExpectationError(message("expect.error.tooMany", limit=MAX_STATEMENTS))
    if not statements:
        raise ExpectationError(message("expect.error.empty"))
    checks = sum(len(s.agents) * max(1, len(s.urls)) for s in statements)
    if checks > MAX_CHECKS:
        raise ExpectationError(message("expect.error.tooManyChecks", count=checks, limit=MAX_CHECKS))
    return Expectations(tuple(sorted(statements, key=lambda s: s.line)), engine)


def _engine(value: object, line: int) -> str:
    known = [c for c in choices() if c != ALL]
    if not isinstance(value, str) or value not in known:
        raise ExpectationError(message("expect.error.value", line=line, key="engine", choices=known))
    return value


def _statement(kind: str, index: int, entry: Mapping[str, Any], places: _Places) -> Statement:
    line = places.table(kind, index)

    def at(key: str) -> int:
        return places.key(kind, index, key)

    for key in entry:
        if key not in KEYS[kind]:
            raise ExpectationError(
                message("expect.error.unknownKey", line=at(key), key=key, table=kind, known=list(KEYS[kind]))
            )
    severity = CODES[ALERT_CODES[kind]]
    if "severity" in entry:
        chosen = entry["severity"]
        if chosen not in SEVERITIES:
            raise ExpectationError(
                message("expect.error.value", line=at("severity"), key="severity", choices=list(SEVERITIES))
            )
        severity = SEVERITIES[chosen]
    if kind == "served":
        return Statement(kind, line, severity=severity, values=_served(entry, at))
    urls = _strings(entry, "url", "urls", at, kind)
    for url in urls:
        try:
            checked_url(url)
        except InvalidURL as error:
            where = at("urls" if "urls" in entry else "url")
            raise ExpectationError(message("expect.error.url", line=where, reason=error.reason)) from None
    if kind == "sitemap":
        return Statement(kind, line, urls=urls, severity=severity)
    if kind in ("usage", "signal") and not {"agent", "agents"} & set(entry):
        agents: tuple[str, ...] = ("*",)  # preferences are most often stated for every crawler
    else:
        agents = _strings(entry, "agent", "agents", at, kind)
    engine = _engine(entry["engine"], at("engine")) if "engine" in entry else None
    values = tuple((key, _choice(entry[key], key, kind, at(key))) for key in entry if key in VALUES)
    if kind in ("usage", "signal") and not values:
        known = [k for k in KEYS[kind] if k in VALUES]
        raise ExpectationError(message("expect.error.missing", line=line, table=kind, key=known))
    return Statement(kind, line, agents, urls, engine, severity, values)


def _strings(entry: Mapping[str, Any], one: str, many: str, at: Callable[[str], int], kind: str) -> tuple[str, ...]:
    """`one = "x"` or `many = ["x", ...]` (not both, not neither), as a tuple of non-blank strings."""
    if (one in entry) == (many in entry):
        line = at(one) if one in entry else at("")
        raise ExpectationError(message("expect.error.oneOf", line=line, table=kind, one=one, many=many))
    key = one if one in entry else many
    value = entry[key]
    found = [value] if key == one else value
    if not isinstance(found, list) or not found or not all(isinstance(v, str) and v.strip() for v in found):
        raise _bad_type(key, kind, at(key), "string" if key == one else "strings")
    return tuple(v.strip() for v in found)


def _bad_type(key: str, table: str, line: int, expected: str) -> ExpectationError:
    said = message(f"expect.type.{expected}")
    return ExpectationError(message("expect.error.type", line=line, key=key, table=table, expected=said))


def _choice(value: object, key: str, kind: str, line: int) -> str:
    if value not in VALUES[key]:
        raise ExpectationError(message("expect.error.value", line=line, key=key, choices=list(VALUES[key])))
    assert isinstance(value, str)
    return value


def _served(entry: Mapping[str, Any], at: Callable[[str], int]) -> tuple[tuple[str, Any], ...]:
    values: list[tuple[str, Any]] = []
    for key, kind, low, high in (("status", "status", 100, 599), ("max_size", "size", 0, 1 << 40)):
        if key in entry:
            value = entry[key]
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise _bad_type(key, "served", at(key), kind)
            values.append((key, value))
    if "content_type" in entry:
        value = entry["content_type"]
        if not isinstance(value, str) or not value.strip():
            raise _bad_type("content_type", "served", at("content_type"), "string")
        values.append(("content_type", value.strip()))
    if not values:
        raise ExpectationError(
            message("expect.error.missing", line=at(""), table="served", key=["status", "content_type", "max_size"])
        )
    return tuple(values)
