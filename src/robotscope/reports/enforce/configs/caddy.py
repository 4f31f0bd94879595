"""Caddy 2 (Caddyfile): named matchers, `map`, and the directives that answer, in Caddy's directive order.

Tokens are read as Caddy's lexer reads them (`"..."` with `\\"` only, backquotes
as written, `#` at a token's start). A site's directives run in Caddy's
standard order (`map` first; `handle`, `handle_path` and `route` before
`abort`, `error` and `respond`, then the handlers that serve), `handle`
blocks of one level exclusive of each other, a `route` block as written;
the first answering directive whose matcher matches decides: `abort`,
`error` (500 unless given) and `respond` with 400 or more refuse.

Matchers: `header` (values exact, `*x`, `x*`, `*x*`: case-sensitive),
`header_regexp` and `path_regexp` (Go's RE2: case-sensitive unless `(?i)`),
`path` (case-insensitive, on the decoded path), `not`, `remote_ip`,
`client_ip`, `method`, and `expression` with `==`, `!=`, `&&`, `||`, `!`
over placeholders and strings. `map` tries its regexes (`~`) and values in
order. A named matcher no directive uses is read as `abort @name`, the use
ai.robots.txt's Caddyfile leaves to its reader, and said so.
"""

from __future__ import annotations

import ipaddress
import re
from functools import partial
from typing import NamedTuple

from ....messages import message
from .model import HOST, Config, Decision, Hit, Reading, Request, Scope, Work, refusing
from .regex import RE2, Regex, Unsupported

SERVER = "caddy"
MAX_DEPTH = 32
ORDER = (
    "map",
    "vars",
    "root",
    "header",
    "request_body",
    "redir",
    "method",
    "rewrite",
    "uri",
    "try_files",
    "basic_auth",
    "forward_auth",
    "request_header",
    "encode",
    "templates",
    "invoke",
    "handle",
    "handle_path",
    "route",
    "abort",
    "error",
    "respond",
    "metrics",
    "reverse_proxy",
    "php_fastcgi",
    "file_server",
)
_ANSWERING = frozenset({"abort", "error", "respond", "redir", "reverse_proxy", "php_fastcgi", "file_server"})
_BLOCKS = frozenset({"handle", "handle_path", "route"})
_MATCHERS = frozenset(
    {"header", "header_regexp", "path", "path_regexp", "not", "remote_ip", "client_ip", "method", "expression"}
)
_SHORTHANDS = {
    "{path}": "{http.request.uri.path}",
    "{uri}": "{http.request.uri}",
    "{query}": "{http.request.uri.query}",
    "{method}": "{http.request.method}",
    "{host}": "{http.request.host}",
    "{orig_uri}": "{http.request.orig_uri}",
    "{orig_path}": "{http.request.orig_uri.path}",
    "{orig_query}": "{http.request.orig_uri.query}",
    "{remote_host}": "{http.request.remote.host}",
    "{client_ip}": "{http.vars.client_ip}",
}
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][\w.\-]*)\}")
_PRIVATE = ("192.168.0.0/16", "172.16.0.0/12", "10.0.0.0/8", "127.0.0.1/8", "fd00::/8", "::1")


class Entry(NamedTuple):
    tokens: tuple[str, ...]
    line: int
    block: tuple[Entry, ...] | None


def _tokens(text: str, reading: Reading) -> list[tuple[str, int, bool]]:
    """(token, line, quoted) as Caddy's lexer reads them; a heredoc or an unclosed quote stops the reading."""
    found: list[tuple[str, int, bool]] = []
    at, line, size = 0, 1, len(text)
    while at < size:
        char = text[at]
        if char == "\n":
            line += 1
            at += 1
        elif char.isspace():
            at += 1
        elif char == "\\" and text[at + 1 : at + 2] == "\n":
            at += 2  # the line goes on: its tokens keep the line they started on
            line += 1
        elif char == "#":
            end = text.find("\n", at)
            at = size if end < 0 else end
        elif char in '"`':
            out: list[str] = []
            end = at + 1
            start = line
            while end < size and text[end] != char:
                if char == '"' and text[end] == "\\" and text[end + 1 : end + 2] == '"':
                    end += 1
                line += text[end] == "\n"
                out.append(text[end])
                end += 1
            if end >= size:
                reading.skip(start, "enforce.check.syntax", what="a quote that is never closed")
                break
            found.append(("".join(out), start, True))
            at = end + 1
        else:
            end = at
            while end < size and not text[end].isspace():
                end += 1
            token = text[at:end]
            if token.startswith("<<"):
                reading.skip(line, "enforce.check.directive", directive="heredoc")
                break
            found.append((token, line, False))
            at = end
    return found


def entries(text: str, reading: Reading) -> tuple[Entry, ...]:
    """The file's lines of tokens, a line ending in `{` holding the lines up to its `}`."""
    root: list[Entry] = []
    stack: list[tuple[list[Entry], tuple[str, ...], int]] = []
    current = root
    lines: dict[int, list[tuple[str, bool]]] = {}
    for token, line, quoted in _tokens(text, reading):
        lines.setdefault(line, []).append((token, quoted))
    for line, tokens in lines.items():
        words = [token for token, _ in tokens]
        if words == ["}"] and not tokens[0][1]:
            if not stack:
                reading.skip(line, "enforce.check.syntax", what="`}` with no block open")
                break
            parent, head, start = stack.pop()
            parent.append(Entry(head, start, tuple(current)))
            current = parent
        elif words[-1] == "{" and not tokens[-1][1]:
            if len(stack) >= MAX_DEPTH:
                reading.skip(line, "enforce.check.syntax", what=f"blocks nested more than {MAX_DEPTH} deep")
                break
            stack.append((current, tuple(words[:-1]), line))
            current = []
        else:
            current.append(Entry(tuple(words), line, None))
    if stack:
        reading.skip(stack[-1][2], "enforce.check.syntax", what="a block that is never closed")
    while stack:
        parent, head, start = stack.pop()
        parent.append(Entry(head, start, tuple(current)))
        current = parent
    return tuple(root)


def _shorthand(text: str) -> str:
    for short, full in _SHORTHANDS.items():
        text = text.replace(short, full)
    return re.sub(r"\{(header|query|vars)\.([^}]+)\}", r"{http.request.\1.\2}", text).replace(
        "{http.request.vars.", "{http.vars."
    )


class _Expression(NamedTuple):
    kind: str  # "or", "and", "not", "eq", "ne", "const"
    left: object
    right: object = None


_CEL = re.compile(r"\s*(?:(&&|\|\||==|!=|[!()])|(\{[^}\s]+\})|\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)'|(true|false))")


class _Cel:
    """The part of CEL `expression` matchers use: comparisons of placeholders and strings, and logic."""

    def __init__(self, text: str) -> None:
        self.items: list[tuple[str, str]] = []
        at = 0
        while at < len(text):
            if not text[at:].strip():
                break
            found = _CEL.match(text, at)
            if found is None:
                raise Unsupported(message("enforce.check.expression", what=text[at:].strip()[:20]))
            op, placeholder, double, single, const = found.groups()
            if op:
                self.items.append(("op", op))
            elif placeholder:
                self.items.append(("ph", _shorthand(placeholder)))
            elif const:
                self.items.append(("const", const))
            else:
                self.items.append(("str", double if double is not None else single))
            at = found.end()
        self.at = 0
        self.depth = 0

    def next(self) -> tuple[str, str]:
        item = self.items[self.at] if self.at < len(self.items) else ("end", "")
        self.at += 1
        return item

    def peek(self) -> tuple[str, str]:
        return self.items[self.at] if self.at < len(self.items) else ("end", "")

    def expression(self) -> _Expression:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise Unsupported(message("enforce.check.expression", what="nesting"))
        left = self.conjunction()
        while self.peek() == ("op", "||"):
            self.next()
            left = _Expression("or", left, self.conjunction())
        self.depth -= 1
        return left

    def conjunction(self) -> _Expression:
        left = self.unary()
        while self.peek() == ("op", "&&"):
            self.next()
            left = _Expression("and", left, self.unary())
        return left

    def unary(self) -> _Expression:
        kind, text = self.next()
        if (kind, text) == ("op", "!"):
            return _Expression("not", self.unary())
        if (kind, text) == ("op", "("):
            inner = self.expression()
            if self.next() != ("op", ")"):
                raise Unsupported(message("enforce.check.expression", what="a ( never closed"))
            return inner
        if kind == "const":
            return _Expression("const", text == "true")
        if kind in ("ph", "str"):
            operator = self.next()
            other = self.next()
            if operator not in (("op", "=="), ("op", "!=")) or other[0] not in ("ph", "str"):
                raise Unsupported(message("enforce.check.expression", what=f"{text} {operator[1]}"))
            return _Expression("eq" if operator[1] == "==" else "ne", (kind, text), other)
        raise Unsupported(message("enforce.check.expression", what=text or "an operand"))


class _Matcher(NamedTuple):
    kind: str
    args: tuple[str, ...]
    regex: Regex | None
    inner: tuple[_Matcher, ...]  # for `not`
    test: _Expression | None
    line: int


class _Directive(NamedTuple):
    name: str
    matcher: tuple[_Matcher, ...] | None  # None: every request
    args: tuple[str, ...]
    block: tuple[_Directive, ...]
    line: int


class _Map(NamedTuple):
    source: str
    destinations: tuple[str, ...]
    rows: tuple[tuple[Regex | None, str, tuple[str, ...], int], ...]
    defaults: tuple[str, ...]


class _Site(NamedTuple):
    maps: tuple[_Map, ...]
    directives: tuple[_Directive, ...]


class _Reader:
    def __init__(self, reading: Reading) -> None:
        self.reading = reading
        self.snippets: dict[str, tuple[Entry, ...]] = {}

    def imported(self, block: tuple[Entry, ...], depth: int = 0) -> list[Entry]:
        """The entries with each `import` of a snippet of the file put in its place."""
        out: list[Entry] = []
        for entry in block:
            if entry.tokens[:1] == ("import",) and entry.block is None:
                name = entry.tokens[1] if len(entry.tokens) > 1 else ""
                if name in self.snippets and depth < MAX_DEPTH:
                    out += self.imported(self.snippets[name], depth + 1)
                else:
                    self.reading.skip(entry.line, "enforce.check.include")
                continue
            out.append(entry)
        return out

    def matcher_set(self, lines: tuple[Entry, ...], depth: int = 0) -> tuple[_Matcher, ...]:
        made: list[_Matcher] = []
        for entry in lines:
            if not entry.tokens:
                continue
            found = self.matcher(entry, depth)
            if found is not None:
                made.append(found)
        return tuple(made)

    def matcher(self, entry: Entry, depth: int) -> _Matcher | None:
        kind, args, line = entry.tokens[0], tuple(_shorthand(t) for t in entry.tokens[1:]), entry.line
        if kind not in _MATCHERS or depth > MAX_DEPTH:
            self.reading.skip(line, "enforce.check.directive", directive=f"matcher {kind}")
            return None
        if kind == "not":
            if entry.block is not None:
                return _Matcher(kind, (), None, self.matcher_set(entry.block, depth + 1), None, line)
            inner = self.matcher(Entry(entry.tokens[1:], line, None), depth + 1) if len(entry.tokens) > 1 else None
            return None if inner is None else _Matcher(kind, (), None, (inner,), None, line)
        if kind in ("header_regexp", "path_regexp"):
            wanted = 2 if kind == "header_regexp" else 1
            if len(args) not in (wanted, wanted + 1):
                self.reading.skip(line, "enforce.check.syntax", what=f"{kind} arguments")
                return None
            args = args[len(args) - wanted :]
            regex = self.reading.regex(args[-1], RE2, line)
            return None if regex is None else _Matcher(kind, args[:-1], regex, (), None, line)
        if kind == "expression":
            try:
                test = _Cel(" ".join(entry.tokens[1:])).expression()
            except Unsupported as error:
                self.reading.reason(line, error.reason)
                return None
            return _Matcher(kind, (), None, (), test, line)
        if kind in ("remote_ip", "client_ip"):
            networks = [net for arg in args for net in (_PRIVATE if arg == "private_ranges" else (arg,))]
            if any(_network(net) is None for net in networks if net != "forwarded"):
                self.reading.skip(line, "enforce.check.syntax", what=f"{kind} ranges")
                return None
            return _Matcher(kind, tuple(net for net in networks if net != "forwarded"), None, (), None, line)
        if kind == "path" and any("%" in arg for arg in args):
            self.reading.skip(line, "enforce.check.directive", directive="path with an escape")
            return None
        if not args or (kind == "header" and len(args) > 2):
            self.reading.skip(line, "enforce.check.syntax", what=f"{kind} with the wrong number of arguments")
            return None
        return _Matcher(kind, args, None, (), None, line)

    def site(self, block: tuple[Entry, ...]) -> _Site:
        entries_ = self.imported(block)
        named: dict[str, tuple[_Matcher, ...]] = {}
        defined: dict[str, int] = {}
        used: set[str] = set()
        for entry in entries_:
            head = entry.tokens[0] if entry.tokens else ""
            if head.startswith("@"):
                lines = entry.block if entry.block is not None else (Entry(entry.tokens[1:], entry.line, None),)
                named[head] = (*named.get(head, ()), *self.matcher_set(lines))
                defined.setdefault(head, entry.line)
        maps: list[_Map] = []
        directives = self.directives(entries_, named, used, maps, 0)
        for name, matchers in named.items():
            if name not in used:
                line = defined[name]
                directives.append(_Directive("abort", matchers, (), (), line))
                self.reading.notes.append(message("enforce.check.note.unused-matcher", matcher=name, line=line))
        return _Site(tuple(maps), tuple(directives))

    def directives(
        self,
        block: list[Entry],
        named: dict[str, tuple[_Matcher, ...]],
        used: set[str],
        maps: list[_Map],
        depth: int,
    ) -> list[_Directive]:
        made: list[_Directive] = []
        for entry in block:
            if not entry.tokens or entry.tokens[0].startswith("@"):
                continue
            name, args = entry.tokens[0], list(entry.tokens[1:])
            if name == "map":
                found = self.map(entry)
                if found is not None:
                    maps.append(found)
                continue
            if name not in _ANSWERING and name not in _BLOCKS:
                continue
            matcher: tuple[_Matcher, ...] | None = None
            if args and args[0].startswith("@"):
                if args[0] not in named:
                    self.reading.skip(entry.line, "enforce.check.syntax", what=f"{args[0]} is defined nowhere")
                    continue
                used.add(args[0])
                matcher = named[args.pop(0)]
            elif args and (args[0].startswith("/") or args[0] == "*"):
                matcher = None if args[0] == "*" else (_Matcher("path", (args[0],), None, (), None, entry.line),)
                args.pop(0)
            inner: list[_Directive] = []
            if name in _BLOCKS:
                if depth >= MAX_DEPTH:
                    continue
                inner = self.directives(self.imported(entry.block or ()), named, used, maps, depth + 1)
            elif entry.block is not None:
                self.reading.skip(entry.line, "enforce.check.directive", directive=f"{name} {{ }}")
            made.append(_Directive(name, matcher, tuple(args), tuple(inner), entry.line))
        return made

    def map(self, entry: Entry) -> _Map | None:
        if len(entry.tokens) < 3 or entry.block is None:
            self.reading.skip(entry.line, "enforce.check.syntax", what="map needs a source, destinations and a block")
            return None
        source, destinations = _shorthand(entry.tokens[1]), tuple(t.strip("{}") for t in entry.tokens[2:])
        rows: list[tuple[Regex | None, str, tuple[str, ...], int]] = []
        defaults: tuple[str, ...] = ()
        for row in entry.block:
            if not row.tokens:
                continue
            if row.tokens[0] == "default":
                defaults = row.tokens[1:]
                continue
            regex = self.reading.regex(row.tokens[0][1:], RE2, row.line) if row.tokens[0].startswith("~") else None
            if row.tokens[0].startswith("~") and regex is None:
                continue
            rows.append((regex, row.tokens[0], row.tokens[1:], row.line))
        return _Map(source, destinations, tuple(rows), defaults)


def _network(text: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network | None:
    try:
        return ipaddress.ip_network(text, strict=False)
    except ValueError:
        return None


def _glob(pattern: str, path: str) -> bool:
    """Go's `path.Match`: `*` and `?` within a segment, `[...]` classes."""
    regex = re.escape(pattern).replace(r"\*", "[^/]*").replace(r"\?", "[^/]")
    regex = re.sub(r"\\\[(\\\^|!)?(.*?)\\\]", lambda m: "[" + ("^" if m.group(1) else "") + m.group(2) + "]", regex)
    try:
        return re.fullmatch(regex, path) is not None
    except re.error:
        return False


def _path_matches(pattern: str, path: str) -> bool:
    pattern, path = pattern.lower(), re.sub("/{2,}", "/", path.lower())
    if pattern == "*":
        return True
    stars = pattern.count("*")
    if stars == 2 and pattern.startswith("*") and pattern.endswith("*"):
        return pattern[1:-1] in path
    if stars == 1 and pattern.startswith("*"):
        return path.endswith(pattern[1:])
    if stars == 1 and pattern.endswith("*"):
        return path.startswith(pattern[:-1])
    return _glob(pattern, path)


def _header_matches(allowed: str, actual: str) -> bool:
    if allowed == "*":
        return True
    if len(allowed) > 1 and allowed.startswith("*") and allowed.endswith("*"):
        return allowed[1:-1] in actual
    if allowed.startswith("*"):
        return actual.endswith(allowed[1:])
    if allowed.endswith("*"):
        return actual.startswith(allowed[:-1])
    return actual == allowed


class _Run:
    def __init__(self, site: _Site, request: Request, work: Work) -> None:
        self.site, self.request, self.work = site, request, work
        self.hits: list[Hit] = []
        self.values: dict[str, str] = {}
        self.busy: set[str] = set()

    def header(self, name: str) -> str:
        lower = name.lower()
        return self.request.user_agent if lower == "user-agent" else HOST if lower == "host" else ""

    def placeholder(self, name: str) -> str:
        request = self.request
        if name.startswith("http.request.header."):
            return self.header(name[len("http.request.header.") :])
        values = {
            "http.request.orig_uri": request.target,
            "http.request.uri": request.target,
            "http.request.uri.path": request.decoded_path,
            "http.request.orig_uri.path": request.decoded_path,
            "http.request.uri.query": request.query,
            "http.request.orig_uri.query": request.query,
            "http.request.method": "GET",
            "http.request.host": HOST,
            "http.request.remote.host": request.address,
            "http.vars.client_ip": request.address,
        }
        if name in values:
            return values[name]
        for chosen in self.site.maps:
            if name in chosen.destinations and name not in self.busy:
                self.busy.add(name)
                value = self.values.setdefault(name, self.map(chosen, chosen.destinations.index(name)))
                self.busy.discard(name)
                return value
        return ""

    def expand(self, text: str) -> str:
        return _PLACEHOLDER.sub(lambda found: self.placeholder(found.group(1)), text)

    def map(self, chosen: _Map, index: int) -> str:
        source = self.expand(chosen.source)
        for regex, key, outputs, line in chosen.rows:
            self.work.step()
            output = outputs[index] if index < len(outputs) else "-"
            if output == "-":
                continue
            if regex is not None:
                matched = regex.search(source)
                if matched is None:
                    continue
                if source and source == self.request.user_agent:
                    self.hits.append(Hit(line, matched))
                return output
            if source == key:
                return self.expand(output)
        return self.expand(chosen.defaults[index]) if index < len(chosen.defaults) else ""

    def matches(self, matchers: tuple[_Matcher, ...] | None) -> bool:
        if matchers is None:
            return True
        self.work.step(len(matchers))
        headers: dict[str, list[_Matcher]] = {}
        paths: list[_Matcher] = []
        for matcher in matchers:
            if matcher.kind == "header":
                headers.setdefault(matcher.args[0].lower(), []).append(matcher)
            elif matcher.kind == "path":
                paths.append(matcher)
            elif not self.one(matcher):
                return False
        if paths and not any(_path_matches(p, self.request.decoded_path) for m in paths for p in m.args):
            return False
        for field, found in headers.items():
            actual = self.header(field.lstrip("!"))
            if field.startswith("!"):
                if actual:
                    return False
                continue
            allowed = [self.expand(value) for matcher in found for value in matcher.args[1:]]
            hit = next((value for value in allowed if _header_matches(value, actual)), None)
            if not actual or (allowed and hit is None):
                return False
            if field == "user-agent" and hit is not None:
                self.hits.append(Hit(found[0].line, hit.strip("*")))
        return True

    def one(self, matcher: _Matcher) -> bool:
        kind = matcher.kind
        if kind == "not":
            return not self.matches(matcher.inner)
        if kind in ("header_regexp", "path_regexp"):
            assert matcher.regex is not None
            subject = self.header(matcher.args[0]) if kind == "header_regexp" else self.request.decoded_path
            matched = matcher.regex.search(subject)
            if matched is not None and kind == "header_regexp" and matcher.args[0].lower() == "user-agent":
                self.hits.append(Hit(matcher.line, matched))
            return matched is not None
        if kind in ("remote_ip", "client_ip"):
            address = ipaddress.ip_address(self.request.address)
            return any(address in net for arg in matcher.args if (net := _network(arg)) is not None)
        if kind == "method":
            return "GET" in (arg.upper() for arg in matcher.args)
        assert matcher.test is not None
        return self.test(matcher.test)

    def test(self, test: _Expression) -> bool:
        if test.kind == "const":
            return bool(test.left)
        if test.kind == "not":
            assert isinstance(test.left, _Expression)
            return not self.test(test.left)
        if test.kind in ("and", "or"):
            assert isinstance(test.left, _Expression) and isinstance(test.right, _Expression)
            first = self.test(test.left)
            return (first and self.test(test.right)) if test.kind == "and" else (first or self.test(test.right))
        assert isinstance(test.left, tuple) and isinstance(test.right, tuple)
        left, right = (self.expand(value) if kind == "ph" else value for kind, value in (test.left, test.right))
        return (left == right) == (test.kind == "eq")

    def run(self, directives: tuple[_Directive, ...], as_written: bool) -> tuple[int, int] | None:
        """(status, line) of the directive that answers, or None."""
        ordered = directives if as_written else sorted(directives, key=lambda d: ORDER.index(d.name))
        handled = False
        for directive in ordered:
            self.work.step()
            if directive.name in ("handle", "handle_path"):
                if handled or not self.matches(directive.matcher):
                    continue
                handled = True
                found = self.run(directive.block, as_written=False)
            elif directive.name == "route":
                found = self.run(directive.block, as_written=True) if self.matches(directive.matcher) else None
            elif self.matches(directive.matcher):
                found = (_status(directive), directive.line)
            else:
                found = None
            if found is not None:
                return found
        return None


def _status(directive: _Directive) -> int:
    """The status a directive answers with (abort: refused, no answer at all)."""
    numbers = [int(arg) for arg in directive.args if re.fullmatch(r"[1-5]\d\d", arg)]
    if directive.name == "abort":
        return 499
    if directive.name == "error":
        return numbers[-1] if numbers else 500
    if directive.name == "respond":
        return numbers[-1] if numbers else 200
    return 302 if directive.name == "redir" else 200


def _decide(site: _Site, request: Request, work: Work) -> Decision:
    run = _Run(site, request, work)
    found = run.run(site.directives, as_written=False)
    if found is not None and refusing(found[0]):
        return Decision(True, found[1], tuple(run.hits))
    return Decision(False, None, tuple(run.hits))


def _is_site(entry: Entry) -> bool:
    head = entry.tokens[0] if entry.tokens else ""
    return entry.block is not None and not head.startswith(("@", "(")) and head not in ORDER and head != "import"


def read_caddy(text: str, reading: Reading) -> Config:
    top = list(entries(text, reading))
    reader = _Reader(reading)
    if top and not top[0].tokens and top[0].block is not None:
        top.pop(0)  # the global options
    for entry in top:
        if entry.tokens and entry.tokens[0].startswith("(") and entry.tokens[0].endswith(")"):
            reader.snippets[entry.tokens[0][1:-1]] = entry.block or ()
    body = [entry for entry in top if not (entry.tokens and entry.tokens[0].startswith("("))]
    sites = [entry for entry in body if _is_site(entry)]
    scopes: list[Scope] = []
    for site in sites:
        scopes.append(Scope(" ".join(site.tokens), site.line, partial(_decide, reader.site(site.block or ()))))
    rest = tuple(entry for entry in body if not _is_site(entry))
    head = rest[0].tokens[0] if rest and rest[0].tokens else "@"
    if not sites and rest and rest[0].block is None and not head.startswith("@") and head not in (*ORDER, "import"):
        # One site without braces: its address, then its directives.
        scopes.append(Scope(" ".join(rest[0].tokens), rest[0].line, partial(_decide, reader.site(rest[1:]))))
    elif not sites:
        scopes.append(Scope("", 0, partial(_decide, reader.site(rest))))
    return Config(SERVER, tuple(scopes), tuple(reading.unreadable), tuple(reading.notes))
