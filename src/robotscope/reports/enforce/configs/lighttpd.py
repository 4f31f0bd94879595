"""lighttpd 1.4: conditional blocks and `url.access-deny`, as lighttpd merges them for a request.

Strings are `"..."` with `\\"` alone as an escape (a regex's backslashes
reach PCRE as written). Conditions test `$HTTP["user-agent"]` (or
`"useragent"`, or `$REQUEST_HEADER["User-Agent"]`), `$HTTP["url"]` (the
decoded path, without its query), `$HTTP["querystring"]`,
`$HTTP["remoteip"]`, `$HTTP["host"]` and `$HTTP["request-method"]` with
`==`, `!=`, `=~`, `!~` (PCRE, case-sensitive unless `(?i)`), `=^` and `=$`;
blocks nest, and `else` (with or without a condition) follows the one
before it. The settings of every block whose conditions hold apply in
order, later ones overriding; `url.access-deny` then refuses a path ending
with one of its entries (`""` ends every path), `url.access-allow` every
path ending with none of its entries. A `server.modules` without
`mod_access` makes both do nothing.
"""

from __future__ import annotations

import ipaddress
import re
from functools import partial
from typing import NamedTuple

from ....messages import message
from .model import HOST, Config, Decision, Hit, Reading, Request, Scope, Work
from .regex import PCRE, Regex

SERVER = "lighttpd"
MAX_DEPTH = 32
_FIELDS = {
    ("HTTP", "url"): "url",
    ("HTTP", "user-agent"): "user-agent",
    ("HTTP", "useragent"): "user-agent",
    ("HTTP", "querystring"): "query",
    ("HTTP", "query-string"): "query",
    ("HTTP", "remoteip"): "address",
    ("HTTP", "remote-ip"): "address",
    ("HTTP", "host"): "host",
    ("HTTP", "request-method"): "method",
    ("HTTP", "scheme"): "scheme",
}
_TOKEN = re.compile(
    r"""\s*(?:(?P<comment>\#[^\n]*)|(?P<string>"(?:[^"\\]|\\.)*")|(?P<cond>\$(?P<obj>[A-Z_]+)\[(?P<tag>"[^"\n]*")\])"""
    r"""|(?P<op>==|!=|=~|!~|=\^|=\$|:=|\+=|=>|[=(){},+])|(?P<word>[A-Za-z_][\w.\-]*)|(?P<number>\d+))""",
    re.S,
)
_SETTINGS = frozenset({"url.access-deny", "url.access-allow", "server.modules"})


class _Condition(NamedTuple):
    field: str
    operator: str
    value: str
    regex: Regex | None
    line: int


class _Set(NamedTuple):
    key: str
    append: bool
    values: tuple[str, ...] | None  # None: a value robotscope does not read
    line: int


class _Block(NamedTuple):
    condition: _Condition | None  # None: an `else` without one
    body: tuple[_Set | _Block, ...]
    after: bool  # an `else` branch: runs only when the blocks before it in the chain did not


class _Parser:
    def __init__(self, text: str, reading: Reading) -> None:
        self.reading = reading
        self.items: list[tuple[str, str, int]] = []
        at, line = 0, 1
        while at < len(text):
            found = _TOKEN.match(text, at)
            if found is None:
                rest = text[at:].lstrip()
                if rest:
                    line += text.count("\n", at, len(text) - len(rest))
                    reading.skip(line, "enforce.check.syntax", what=f"`{rest[:1]}`")
                break
            line += text.count("\n", at, found.start(found.lastgroup or 0))
            kind = found.lastgroup or ""
            if kind == "tag" or kind == "obj":
                kind = "cond"
            if kind != "comment":
                self.items.append((kind, found.group(kind), line))
            line += found.group(kind).count("\n")
            at = found.end()
        self.at = 0
        self.last = line  # where the text ends: the line of an error there

    def peek(self) -> tuple[str, str, int]:
        return self.items[self.at] if self.at < len(self.items) else ("end", "", self.last)

    def next(self) -> tuple[str, str, int]:
        item = self.peek()
        self.at += 1
        return item

    def fail(self, line: int, what: str) -> None:
        self.reading.skip(line, "enforce.check.syntax", what=what)
        self.at = len(self.items)

    def block(self, depth: int, closing: bool) -> tuple[_Set | _Block, ...]:
        body: list[_Set | _Block] = []
        while True:
            kind, text, line = self.peek()
            if kind == "end":
                if closing:
                    self.fail(line, "a block that is never closed")
                return tuple(body)
            if (kind, text) == ("op", "}"):
                if not closing:
                    self.fail(line, "`}` with no block open")
                    return tuple(body)
                self.next()
                return tuple(body)
            if kind == "cond" or (kind, text) in (("word", "else"), ("word", "elseif"), ("word", "elsif")):
                found = self.conditional(depth)
                if found is None:
                    return tuple(body)
                body += found
            elif kind == "word" and text in ("include", "include_shell"):
                self.next()
                self.next()
                self.reading.skip(line, "enforce.check.include")
            elif kind == "word":
                found_set = self.assignment()
                if found_set is None:
                    return tuple(body)
                body.append(found_set)
            else:
                self.fail(line, f"`{text}`")
                return tuple(body)

    def conditional(self, depth: int) -> list[_Block] | None:
        chain: list[_Block] = []
        while True:
            kind, text, line = self.peek()
            after = bool(chain)
            if after:
                if (kind, text) not in (("word", "else"), ("word", "elseif"), ("word", "elsif"), ("word", "elif")):
                    return chain
                self.next()
                kind, text, line = self.peek()
            if kind != "cond":
                if after and (kind, text) == ("op", "{"):
                    condition = None
                else:
                    self.fail(line, "a condition")
                    return None
            else:
                self.next()
                condition = self.condition(text, line)
                if condition is None:
                    return None
            if self.next()[:2] != ("op", "{") or depth >= MAX_DEPTH:
                self.fail(line, "a condition without its {")
                return None
            body = self.block(depth + 1, closing=True)
            if condition is not None or after:
                chain.append(_Block(condition, body, after))
            if condition is None and after:
                return chain

    def condition(self, text: str, line: int) -> _Condition | None:
        found = re.fullmatch(r'\$([A-Z_]+)\["([^"]*)"\]', text)
        assert found is not None
        obj, tag = found.groups()
        field = "user-agent" if obj == "REQUEST_HEADER" and tag.lower() == "user-agent" else _FIELDS.get((obj, tag))
        kind, operator, _ = self.next()
        value_kind, value, _ = self.next()
        if kind != "op" or operator not in ("==", "!=", "=~", "!~", "=^", "=$") or value_kind != "string":
            self.fail(line, "a condition is a field, an operator and a string")
            return None
        value = _string(value)
        if field is None:
            self.reading.skip(line, "enforce.check.directive", directive=text)
            return _Condition("", "never", "", None, line)
        regex = None
        if operator in ("=~", "!~"):
            regex = self.reading.regex(value, PCRE, line)
            if regex is None:
                return _Condition("", "never", "", None, line)
        return _Condition(field, operator, value, regex, line)

    def assignment(self) -> _Set | None:
        _, key, line = self.next()
        kind, operator, _ = self.next()
        if kind != "op" or operator not in ("=", "+=", ":="):
            self.fail(line, f"`{key}` with no assignment")
            return None
        found = self.value()
        if found is None:
            return None
        values, readable = found
        return _Set(key, operator == "+=", tuple(values) if readable else None, line)

    def value(self, depth: int = 0) -> tuple[list[str], bool] | None:
        """The strings of a value (of an array's values, `=>` keys left out), and whether all of it is strings."""
        collected: list[str] = []
        readable = True
        while True:
            found = self.term(depth)
            if found is None:
                return None
            collected += found[0]
            readable = readable and found[1]
            if self.peek()[:2] != ("op", "+"):
                return collected, readable
            self.next()

    def term(self, depth: int) -> tuple[list[str], bool] | None:
        kind, text, line = self.next()
        if kind == "string":
            return [_string(text)], True
        if kind in ("number", "word"):
            return [], False  # a number, or a variable
        if (kind, text) != ("op", "(") or depth >= MAX_DEPTH:
            self.fail(line, "a value")
            return None
        collected: list[str] = []
        readable = True
        while self.peek()[:2] != ("op", ")"):
            found = self.value(depth + 1)
            if found is not None and self.peek()[:2] == ("op", "=>"):
                self.next()
                found = self.value(depth + 1)
            if found is None:
                return None
            collected += found[0]
            readable = readable and found[1]
            if self.peek()[:2] == ("op", ","):
                self.next()
            elif self.peek()[:2] != ("op", ")"):
                self.fail(self.peek()[2] or line, "an array")
                return None
        self.next()
        return collected, readable


def _string(token: str) -> str:
    return token[1:-1].replace('\\"', '"')


class _Run:
    def __init__(self, request: Request, work: Work) -> None:
        self.request, self.work = request, work
        self.hits: list[Hit] = []

    def field(self, name: str) -> str:
        request = self.request
        values = {
            "url": request.decoded_path,
            "user-agent": request.user_agent,
            "query": request.query,
            "address": request.address,
            "host": HOST,
            "method": "GET",
            "scheme": "http",
        }
        return values[name]

    def holds(self, condition: _Condition) -> bool:
        if condition.operator == "never":
            return False
        value = self.field(condition.field)
        operator = condition.operator
        if operator in ("=~", "!~"):
            assert condition.regex is not None
            matched = condition.regex.search(value)
            if matched is not None and condition.field == "user-agent" and operator == "=~":
                self.hits.append(Hit(condition.line, matched))
            return (matched is not None) == (operator == "=~")
        if condition.field == "address" and operator in ("==", "!="):
            try:
                inside = ipaddress.ip_address(value) in ipaddress.ip_network(condition.value, strict=False)
            except ValueError:
                inside = False
            return inside == (operator == "==")
        if operator in ("==", "!="):
            return (value == condition.value) == (operator == "==")
        return value.startswith(condition.value) if operator == "=^" else value.endswith(condition.value)

    def apply(self, body: tuple[_Set | _Block, ...], settings: dict[str, tuple[list[str], int]]) -> None:
        taken = False  # a block of the current else chain ran
        for item in body:
            self.work.step()
            if isinstance(item, _Set):
                if item.key in _SETTINGS and item.values is not None:
                    before = settings.get(item.key, ([], 0))[0] if item.append else []
                    settings[item.key] = ([*before, *item.values], item.line)
                continue
            if not item.after:
                taken = False
            if taken:
                continue
            if item.condition is None or self.holds(item.condition):
                taken = True
                self.apply(item.body, settings)


def _decide(body: tuple[_Set | _Block, ...], request: Request, work: Work) -> Decision:
    run = _Run(request, work)
    settings: dict[str, tuple[list[str], int]] = {}
    run.apply(body, settings)
    modules = settings.get("server.modules")
    if modules is not None and "mod_access" not in modules[0]:
        return Decision(False, None, tuple(run.hits))
    path = request.decoded_path
    deny, deny_line = settings.get("url.access-deny", ([], 0))
    if any(path.endswith(entry) for entry in deny):
        return Decision(True, deny_line, tuple(run.hits))
    allow, allow_line = settings.get("url.access-allow", ([], 0))
    if allow and not any(path.endswith(entry) for entry in allow):
        return Decision(True, allow_line, tuple(run.hits))
    return Decision(False, None, tuple(run.hits))


def read_lighttpd(text: str, reading: Reading) -> Config:
    parser = _Parser(text, reading)
    body = parser.block(0, closing=False)
    for item in _sets(body):
        if item.key in _SETTINGS and item.values is None:
            reading.skip(item.line, "enforce.check.directive", directive=item.key)
    if any(item.key == "server.modules" and item.values and "mod_access" not in item.values for item in _sets(body)):
        reading.notes.append(message("enforce.check.note.no-mod-access"))
    return Config(SERVER, (Scope("", 0, partial(_decide, body)),), tuple(reading.unreadable), tuple(reading.notes))


def _sets(body: tuple[_Set | _Block, ...]) -> list[_Set]:
    found: list[_Set] = []
    stack = list(body)
    while stack:
        item = stack.pop()
        if isinstance(item, _Set):
            found.append(item)
        else:
            stack += item.body
    return found
