"""nginx: `map`, `geo`, and each server's `set`, `if`, `return`, `break`, `location` and `deny`, as nginx runs them.

Words are read as nginx's configuration reader reads them (quotes, `\\"`,
`\\'`, `\\\\`, `\\t`, `\\r`, `\\n`; a `)` right after a quoted word starts a
word of its own). A request first runs the server's rewrite directives in
order (`if ($http_user_agent ~ '...')`: `~` is case-sensitive, `~*` is not;
`=` compares exactly; `if ($var)` is true unless empty or `0`), then those
of the location its decoded path (`$uri`) selects (`=`, then the longest
prefix, stopping at `^~`, then the first regex), then `deny`/`allow` of the
location or else the server. A `map` answers its exact keys
case-insensitively, then its regexes in order (none for an empty value),
then its default; `geo` the longest network holding the address. A `return`
of 400 or more (or 444) refuses.

A file with no `server` block is read as one server's directives (a snippet
to include in one). A file that only sets `$robotscope_deny` (robotscope's
own export) is read with the rule its usage names in each server:
`if ($robotscope_deny) { return 403; }`.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping
from functools import partial
from typing import NamedTuple

from ....messages import message
from .model import HOST, Config, Decision, Hit, Reading, Request, Scope, Work, refusing
from .regex import PCRE, Regex

SERVER = "nginx"
MAX_DEPTH = 32
_VARIABLE = re.compile(r"\$(?:\{(\w+)\}|(\w+))")
_ESCAPES = {'"': '"', "'": "'", "\\": "\\", "t": "\t", "r": "\r", "n": "\n"}
_GENERATED = "robotscope_deny"


class Statement(NamedTuple):
    words: tuple[str, ...]
    line: int
    block: tuple[Statement, ...] | None  # the statements inside `{ }`, for a block


def _unescape(raw: str) -> str:
    out: list[str] = []
    at = 0
    while at < len(raw):
        char = raw[at]
        if char == "\\" and raw[at + 1 : at + 2] in _ESCAPES:
            out.append(_ESCAPES[raw[at + 1]])
            at += 2
            continue
        out.append(char)
        at += 1
    return "".join(out)


def statements(text: str, reading: Reading) -> tuple[Statement, ...]:
    """The file's statements and blocks, as nginx's reader splits them; a syntax error stops the reading."""
    root: list[Statement] = []
    stack: list[tuple[list[Statement], tuple[str, ...], int]] = []
    current = root
    words: list[str] = []
    first, at, line, size = 0, 0, 1, len(text)

    def wrong(what: str) -> None:
        reading.skip(line, "enforce.check.syntax", what=what)

    while at < size:
        char = text[at]
        if char == "\n":
            line += 1
            at += 1
        elif char in " \t\r":
            at += 1
        elif char == "#":
            end = text.find("\n", at)
            at = size if end < 0 else end
        elif char == ";" or char == "{":
            if not words:
                wrong(f"`{char}` with no directive before it")
                break
            if char == ";":
                current.append(Statement(tuple(words), first, None))
            elif len(stack) >= MAX_DEPTH:
                wrong(f"blocks nested more than {MAX_DEPTH} deep")
                break
            else:
                stack.append((current, tuple(words), first))
                current = []
            words = []
            at += 1
        elif char == "}":
            if words or not stack:
                wrong("`}` with no block open, or after a directive without `;`")
                break
            parent, block_words, block_line = stack.pop()
            parent.append(Statement(block_words, block_line, tuple(current)))
            current = parent
            at += 1
        else:
            if not words:
                first = line
            if char in "\"'":
                end = at + 1
                while end < size and text[end] != char:
                    end += 2 if text[end] == "\\" else 1
                if end >= size:
                    wrong("a quote that is never closed")
                    break
                words.append(_unescape(text[at + 1 : end]))
                line += text.count("\n", at, end)
                at = end + 1
                if at < size and text[at] not in " \t\r\n;{)":
                    wrong(f"`{text[at]}` right after a quoted word")
                    break
            else:
                end = at
                while end < size:
                    if text[end] == "\\":
                        end += 2
                    elif text[end] in " \t\r\n;" or (text[end] == "{" and text[end - 1 : end] != "$"):
                        break
                    else:
                        end += 1
                words.append(_unescape(text[at:end]))
                at = end
    else:
        if stack:
            reading.skip(stack[-1][2], "enforce.check.syntax", what="a block that is never closed")
        elif words:
            reading.skip(first, "enforce.check.syntax", what="the file ends inside a directive")
    while stack:  # what was read of blocks left open by an error
        parent, block_words, block_line = stack.pop()
        parent.append(Statement(block_words, block_line, tuple(current)))
        current = parent
    return tuple(root)


def builtin(name: str, request: Request) -> str | None:
    """The value of one of nginx's own variables for `request` (None: not one robotscope knows)."""
    values = {
        "http_user_agent": request.user_agent,
        "request_uri": request.target,
        "uri": request.decoded_path,
        "document_uri": request.decoded_path,
        "args": request.query,
        "query_string": request.query,
        "is_args": "?" if "?" in request.target else "",
        "request": request.line,
        "request_method": "GET",
        "remote_addr": request.address,
        "realip_remote_addr": request.address,
        "host": HOST,
        "http_host": HOST,
        "server_name": HOST,
        "scheme": "http",
        "server_protocol": "HTTP/1.1",
    }
    if name in values:
        return values[name]
    if name.startswith("arg_"):
        for pair in request.query.split("&"):
            key, _, value = pair.partition("=")
            if key.lower() == name[4:].lower():
                return value
        return ""
    if name.startswith(("http_", "cookie_")):
        return ""
    return None


class _Map(NamedTuple):
    source: str
    exact: Mapping[str, str]  # keys lower-cased
    regexes: tuple[tuple[Regex, str, int], ...]
    default: str
    line: int


class _Geo(NamedTuple):
    source: str
    networks: tuple[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, str], ...]
    default: str


class _Condition(NamedTuple):
    variable: str
    operator: str  # "" (true unless empty or 0), "=", "!=", "~", "~*", "!~", "!~*"
    value: str
    regex: Regex | None
    line: int


class _Set(NamedTuple):
    name: str
    value: str
    line: int


class _If(NamedTuple):
    condition: _Condition
    body: tuple[_Op, ...]
    line: int


class _Return(NamedTuple):
    status: int
    line: int | None


class _Break(NamedTuple):
    line: int


_Op = _Set | _If | _Return | _Break
_Access = tuple[tuple[bool, ipaddress.IPv4Network | ipaddress.IPv6Network | None, int], ...]


class _Location(NamedTuple):
    modifier: str  # "=", "^~", "~", "~*" or "" (a prefix)
    path: str
    regex: Regex | None
    rewrite: tuple[_Op, ...]
    access: _Access | None  # None: the server's
    line: int


class _Server(NamedTuple):
    name: str
    line: int
    rewrite: tuple[_Op, ...]
    locations: tuple[_Location, ...]
    access: _Access


class _Reader:
    """Reads the statements into maps, geos and servers, saying what it does not evaluate."""

    def __init__(self, reading: Reading) -> None:
        self.reading = reading
        self.maps: dict[str, _Map] = {}
        self.geos: dict[str, _Geo] = {}
        self.used: list[tuple[str, int]] = []  # variables read, with the line reading them
        self.set: set[str] = set()
        self.refuses = False  # a `return` or `deny` anywhere

    def variables(self, value: str, line: int) -> None:
        for found in _VARIABLE.finditer(value):
            self.used.append((found.group(1) or found.group(2), line))

    def http(self, block: tuple[Statement, ...]) -> list[Statement]:
        """Read the maps and geos of a level; its servers."""
        servers: list[Statement] = []
        for statement in block:
            name = statement.words[0]
            if name == "map" and statement.block is not None:
                self.map(statement)
            elif name == "geo" and statement.block is not None:
                self.geo(statement)
            elif name == "server" and statement.block is not None:
                servers.append(statement)
            elif name == "http" and statement.block is not None:
                servers += self.http(statement.block)
            elif name == "include":
                self.reading.skip(statement.line, "enforce.check.include")
        return servers

    def map(self, statement: Statement) -> None:
        words, line = statement.words, statement.line
        if len(words) != 3 or not words[2].startswith("$"):
            self.reading.skip(line, "enforce.check.syntax", what="a map names a source and a $variable")
            return
        self.variables(words[1], line)
        exact: dict[str, str] = {}
        regexes: list[tuple[Regex, str, int]] = []
        default = ""
        for entry in statement.block or ():
            key = entry.words[0]
            if entry.block is not None or (len(entry.words) != 2 and key not in ("hostnames", "volatile")):
                self.reading.skip(entry.line, "enforce.check.syntax", what="a map entry is a key and a value")
                continue
            if key == "hostnames":
                self.reading.skip(entry.line, "enforce.check.directive", directive="hostnames")
                continue
            if key == "volatile":
                continue
            value = entry.words[1]
            self.variables(value, entry.line)
            if key == "include":
                self.reading.skip(entry.line, "enforce.check.include")
            elif key == "default":
                default = value
            elif key.startswith("~"):
                icase = key.startswith("~*")
                found = self.reading.regex(key[2 if icase else 1 :], PCRE, entry.line, icase)
                if found is not None:
                    regexes.append((found, value, entry.line))
            else:
                exact.setdefault((key[1:] if key.startswith("\\") else key).lower(), value)
        self.maps[words[2][1:]] = _Map(words[1], exact, tuple(regexes), default, line)

    def geo(self, statement: Statement) -> None:
        words, line = statement.words, statement.line
        if len(words) not in (2, 3) or not words[-1].startswith("$"):
            self.reading.skip(line, "enforce.check.syntax", what="geo names an optional source and a $variable")
            return
        source = words[1] if len(words) == 3 else "$remote_addr"
        self.variables(source, line)
        networks = []
        default = ""
        for entry in statement.block or ():
            if len(entry.words) != 2 or entry.block is not None:
                self.reading.skip(entry.line, "enforce.check.directive", directive=entry.words[0])
                continue
            key, value = entry.words
            if key == "default":
                default = value
                continue
            try:
                networks.append((ipaddress.ip_network(key, strict=False), value))
            except ValueError:
                self.reading.skip(entry.line, "enforce.check.directive", directive=key)
        self.geos[words[-1][1:]] = _Geo(source, tuple(networks), default)

    def condition(self, statement: Statement) -> _Condition | None:
        args = list(statement.words[1:])
        line = statement.line
        # nginx takes the `(` and `)` off the first and last words, or drops them when they stand alone.
        if not (args and args[0].startswith("(")):
            args = []
        elif args[0] == "(":
            args = args[1:]
        else:
            args = [args[0][1:], *args[1:]]
        if args and args[-1].endswith(")"):
            args = args[:-1] if args[-1] == ")" else [*args[:-1], args[-1][:-1]]
        else:
            args = []
        if args and args[0].startswith(("-", "!-")):
            self.reading.skip(line, "enforce.check.directive", directive=f"if ({args[0]} ...)")
            return None
        if not args or not _VARIABLE.fullmatch(args[0]) or len(args) not in (1, 3):
            self.reading.skip(line, "enforce.check.syntax", what="an if condition nginx does not accept")
            return None
        variable = args[0][1:].strip("{}")
        self.used.append((variable, line))
        if len(args) == 1:
            return _Condition(variable, "", "", None, line)
        operator, value = args[1], args[2]
        if operator in ("=", "!="):
            self.variables(value, line)
            return _Condition(variable, operator, value, None, line)
        if operator in ("~", "~*", "!~", "!~*"):
            found = self.reading.regex(value, PCRE, line, operator.endswith("*"))
            return None if found is None else _Condition(variable, operator, value, found, line)
        self.reading.skip(line, "enforce.check.syntax", what=f"an if operator `{operator}`")
        return None

    def ops(self, block: tuple[Statement, ...], in_if: bool = False) -> tuple[_Op, ...]:
        """The rewrite directives of a block, in order."""
        made: list[_Op] = []
        for statement in block:
            words, line = statement.words, statement.line
            name = words[0]
            if name == "set" and len(words) == 3 and words[1].startswith("$"):
                self.set.add(words[1][1:])
                self.variables(words[2], line)
                made.append(_Set(words[1][1:], words[2], line))
            elif name == "if" and statement.block is not None and not in_if:
                condition = self.condition(statement)
                body = self.ops(statement.block, in_if=True)
                if condition is not None:
                    made.append(_If(condition, body, line))
            elif name == "return" and len(words) in (2, 3):
                self.refuses = True
                made.append(_Return(int(words[1]) if words[1].isdigit() else 302, line))
            elif name == "break" and len(words) == 1:
                made.append(_Break(line))
            elif name in ("rewrite", "include", "if", "set", "return", "break"):
                code = "enforce.check.include" if name == "include" else "enforce.check.directive"
                self.reading.skip(line, code, directive=name)
        return tuple(made)

    def access(self, block: tuple[Statement, ...]) -> _Access | None:
        rules: list[tuple[bool, ipaddress.IPv4Network | ipaddress.IPv6Network | None, int]] = []
        for statement in block:
            if statement.words[0] not in ("allow", "deny") or len(statement.words) != 2:
                continue
            allow, where = statement.words[0] == "allow", statement.words[1]
            if where == "all":
                rules.append((allow, None, statement.line))
                self.refuses = self.refuses or not allow
                continue
            try:
                rules.append((allow, ipaddress.ip_network(where, strict=False), statement.line))
                self.refuses = self.refuses or not allow
            except ValueError:
                self.reading.skip(statement.line, "enforce.check.directive", directive=statement.words[0])
        return tuple(rules) if rules else None

    def location(self, statement: Statement) -> _Location | None:
        words, line = statement.words, statement.line
        if len(words) == 3 and words[1] in ("=", "^~", "~", "~*"):
            modifier, path = words[1], words[2]
        elif len(words) == 2 and words[1].startswith("=") and len(words[1]) > 1:
            modifier, path = "=", words[1][1:]
        elif len(words) == 2 and not words[1].startswith("@"):
            modifier, path = "", words[1]
        else:
            if not (len(words) == 2 and words[1].startswith("@")):
                self.reading.skip(line, "enforce.check.syntax", what="a location nginx does not accept")
            return None
        block = statement.block or ()
        for inner in block:
            if inner.words[0] == "location":
                self.reading.skip(inner.line, "enforce.check.directive", directive="location inside location")
        regex = self.reading.regex(path, PCRE, line, modifier == "~*") if modifier.startswith("~") else None
        if modifier.startswith("~") and regex is None:
            return None
        return _Location(modifier, path, regex, self.ops(block), self.access(block), line)

    def server(self, name: str, line: int, block: tuple[Statement, ...]) -> _Server:
        locations = []
        for statement in block:
            if statement.words[0] == "location" and statement.block is not None:
                found = self.location(statement)
                if found is not None:
                    locations.append(found)
        return _Server(name, line, self.ops(block), tuple(locations), self.access(block) or ())


class _Run:
    """One request through one server: variables, maps and geos evaluated on first use."""

    def __init__(self, reader: _Reader, request: Request, work: Work) -> None:
        self.reader, self.request, self.work = reader, request, work
        self.values: dict[str, str] = {}
        self.hits: list[Hit] = []
        self.busy: set[str] = set()  # maps being evaluated: a map reading itself gives ""

    def variable(self, name: str) -> str:
        if name in self.values:
            return self.values[name]
        value = builtin(name, self.request)
        if value is not None:
            return value
        if name in self.reader.maps and name not in self.busy:
            self.busy.add(name)
            value = self.values[name] = self.map(self.reader.maps[name])
            self.busy.discard(name)
            return value
        if name in self.reader.geos:
            geo = self.reader.geos[name]
            return self.values.setdefault(name, self.geo(geo))
        return ""

    def expand(self, value: str) -> str:
        return _VARIABLE.sub(lambda found: self.variable(found.group(1) or found.group(2)), value)

    def map(self, chosen: _Map) -> str:
        value = self.expand(chosen.source)
        if value.lower() in chosen.exact:
            return self.expand(chosen.exact[value.lower()])
        if value:
            for regex, out, line in chosen.regexes:
                self.work.step()
                matched = regex.search(value)
                if matched is not None:
                    if chosen.source == "$http_user_agent":
                        self.hits.append(Hit(line, matched))
                    return self.expand(out)
        return self.expand(chosen.default)

    def geo(self, chosen: _Geo) -> str:
        try:
            address = ipaddress.ip_address(self.expand(chosen.source))
        except ValueError:
            return self.expand(chosen.default)
        held = [(net.prefixlen, value) for net, value in chosen.networks if address in net]
        return self.expand(max(held)[1] if held else chosen.default)

    def test(self, condition: _Condition) -> bool:
        value = self.variable(condition.variable)
        operator = condition.operator
        if not operator:
            return value not in ("", "0")
        if operator in ("=", "!="):
            return (value == self.expand(condition.value)) == (operator == "=")
        assert condition.regex is not None
        matched = condition.regex.search(value)
        if matched is not None and condition.variable == "http_user_agent" and not operator.startswith("!"):
            self.hits.append(Hit(condition.line, matched))
        return (matched is not None) != operator.startswith("!")

    def run(self, ops: tuple[_Op, ...]) -> _Return | _Break | None:
        for op in ops:
            self.work.step()
            if isinstance(op, _Set):
                self.values[op.name] = self.expand(op.value)
            elif isinstance(op, _If):
                if self.test(op.condition):
                    ended = self.run(op.body)
                    if ended is not None:
                        return ended
            else:
                return op
        return None


def _location(server: _Server, uri: str, work: Work) -> _Location | None:
    """The location nginx selects for `uri`: exact, then the longest prefix (final with `^~`), then regexes."""
    work.step(len(server.locations))
    for location in server.locations:
        if location.modifier == "=" and location.path == uri:
            return location
    prefixes = [loc for loc in server.locations if loc.modifier in ("", "^~") and uri.startswith(loc.path)]
    longest = max(prefixes, key=lambda loc: len(loc.path), default=None)
    if longest is not None and longest.modifier == "^~":
        return longest
    for location in server.locations:
        if location.regex is not None and location.regex.search(uri) is not None:
            return location
    return longest


def _decide(reader: _Reader, server: _Server, request: Request, work: Work) -> Decision:
    run = _Run(reader, request, work)
    ended = run.run(server.rewrite)
    location = _location(server, request.decoded_path, work)
    if not isinstance(ended, _Return) and location is not None:
        ended = run.run(location.rewrite)
    if isinstance(ended, _Return):
        return Decision(refusing(ended.status), ended.line, tuple(run.hits))
    rules = location.access if location is not None and location.access is not None else server.access
    for allow, network, line in rules:
        if network is None or ipaddress.ip_address(request.address) in network:
            return Decision(not allow, None if allow else line, tuple(run.hits))
    return Decision(False, None, tuple(run.hits))


def read_nginx(text: str, reading: Reading) -> Config:
    top = statements(text, reading)
    reader = _Reader(reading)
    servers = reader.http(top)
    made = [reader.server(" ".join(s.words[1:]) or "server", s.line, s.block or ()) for s in servers]
    if not made:
        made = [reader.server("", 0, top)]
    if not reader.refuses and _GENERATED in reader.maps:
        # robotscope's own export: the rule its usage puts in each server block.
        implied = _If(_Condition(_GENERATED, "", "", None, 0), (_Return(403, None),), 0)
        made = [server._replace(rewrite=(*server.rewrite, implied)) for server in made]
        reading.notes.append(message("enforce.check.note.implied", rule=f"if (${_GENERATED}) {{ return 403; }}"))
    known = set(reader.maps) | set(reader.geos) | reader.set
    for name, line in reader.used:
        if name not in known and builtin(name, Request("", "/")) is None and not name.isdigit():
            reading.skip(line, "enforce.check.variable", variable=f"${name}")
    scopes = tuple(Scope(server.name, server.line, partial(_decide, reader, server)) for server in made)
    return Config(SERVER, scopes, tuple(reading.unreadable), tuple(reading.notes))
