"""Apache httpd 2.4: mod_setenvif, mod_rewrite, mod_access_compat and `Require`, in the order Apache runs them.

Directives are split as Apache splits them (`\\` at a line's end continues
it; quotes and `\\\\` by `ap_getword_conf`; `RewriteCond` and `RewriteRule`
by mod_rewrite's own reader, which keeps every backslash). For a request:

1. `SetEnvIf`, `SetEnvIfNoCase`, `BrowserMatch(NoCase)`, `SetEnvIfExpr` and
   `SetEnv` set variables, in order (`NoCase` and `[NC]` read case-insensitively);
2. `RewriteRule`s with their `RewriteCond`s (`[OR]`, `[NC]`, `!`) run in
   order while `RewriteEngine` is on; `[F]`, `[G]` or `[R=4xx]` refuse; `-`
   with `[L]` ends. In a `.htaccess` file (or a `<Directory>`) a rule's
   pattern sees the path without its leading `/`, elsewhere the whole path;
3. `Order`, `Allow from` and `Deny from` (`all`, `env=`, addresses) decide;
4. `Require` (`all`, `env`, `ip`, `expr`, `method`, `not`; `<RequireAll>`,
   `<RequireAny>`, `<RequireNone>`): the last section that has any, taking
   sections in Apache's merge order (directory, `<Files>`, `<Location>`,
   `<If>`), decides.

`<IfModule>`, `<IfDefine>`, `<IfVersion>`, `<Directory>` hold what they hold;
`<Location>`, `<Files>`, `<FilesMatch>`, `<If>`/`<ElseIf>`/`<Else>` and
`<Limit>` apply to the requests they match. Each `<VirtualHost>` is a
scope, with the directives outside every one.
"""

from __future__ import annotations

import fnmatch
import ipaddress
import re
from collections.abc import Callable
from functools import partial
from typing import NamedTuple

from . import apexpr
from .model import HOST, Config, Decision, Hit, Reading, Request, Scope, Work
from .regex import PCRE, Regex, Unsupported

SERVER = "apache"
MAX_DEPTH = 32
_CONTAINERS = frozenset(
    {
        "ifmodule",
        "ifdefine",
        "ifversion",
        "ifdirective",
        "ifsection",
        "directory",
        "directorymatch",
        "virtualhost",
        "location",
        "locationmatch",
        "files",
        "filesmatch",
        "if",
        "elseif",
        "else",
        "limit",
        "limitexcept",
        "requireall",
        "requireany",
        "requirenone",
    }
)
_REQUIRE_CONTAINERS = frozenset({"requireall", "requireany", "requirenone"})
_MERGE_ORDER = {"files": 1, "filesmatch": 1, "location": 2, "locationmatch": 2, "if": 3, "elseif": 3, "else": 3}
_SETENV = frozenset({"setenvif", "setenvifnocase", "browsermatch", "browsermatchnocase", "setenvifexpr", "setenv"})
_REFUSING_FLAGS = frozenset({"f", "forbidden", "g", "gone"})


class Directive(NamedTuple):
    name: str  # lower-cased
    args: str  # the text after the name, as written
    line: int
    block: tuple[Directive, ...] | None


def words(text: str) -> list[str]:
    """Arguments as `ap_getword_conf` splits them: quotes, and `\\\\` (or `\\"` inside quotes) for one character."""
    found: list[str] = []
    at = 0
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at >= len(text):
            return found
        quote = text[at] if text[at] in "\"'" else ""
        start = at + 1 if quote else at
        end = start
        out: list[str] = []
        while end < len(text) and (text[end] != quote if quote else not text[end].isspace()):
            if text[end] == "\\" and end + 1 < len(text) and text[end + 1] in ("\\", quote or "\\"):
                end += 1
            out.append(text[end])
            end += 1
        found.append("".join(out))
        at = end + 1 if quote else end


def rewrite_words(text: str) -> list[str]:
    """Up to three arguments as mod_rewrite reads them: a quote runs to the next, `\\ ` keeps a space; no unescaping."""
    found: list[str] = []
    at = 0
    while len(found) < 3:
        while at < len(text) and text[at].isspace():
            at += 1
        if at >= len(text):
            break
        quote = text[at] if text[at] in "\"'" else ""
        at += bool(quote)
        start = at
        while at < len(text) and not ((text[at].isspace() and not quote) or (quote and text[at] == quote)):
            at += 2 if text[at] == "\\" and text[at + 1 : at + 2].isspace() else 1
        found.append(text[start:at])
        at += 1
    return found


def directives(text: str, reading: Reading) -> tuple[Directive, ...]:
    """The file's directives and containers; a container that is never closed, or closed wrongly, stops it."""
    root: list[Directive] = []
    stack: list[tuple[list[Directive], str, str, int]] = []
    current = root
    lines = text.splitlines()
    number = 0
    while number < len(lines):
        start = number + 1
        logical = lines[number]
        number += 1
        while logical.endswith("\\") and number < len(lines):
            logical = logical[:-1] + lines[number]
            number += 1
        stripped = logical.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("</"):
            name = stripped[2:].rstrip(">").strip().lower()
            if not stack or stack[-1][1] != name:
                reading.skip(start, "enforce.check.syntax", what=f"</{name}> closes no <{name}>")
                break
            parent, _, args, line = stack.pop()
            parent.append(Directive(name, args, line, tuple(current)))
            current = parent
            continue
        if stripped.startswith("<"):
            if not stripped.endswith(">"):
                reading.skip(start, "enforce.check.syntax", what="a container line without its >")
                break
            head, _, args = stripped[1:-1].partition(" ")
            if len(stack) >= MAX_DEPTH:
                reading.skip(start, "enforce.check.syntax", what=f"containers nested more than {MAX_DEPTH} deep")
                break
            stack.append((current, head.lower(), args.strip(), start))
            current = []
            continue
        name, _, args = stripped.partition(" ")
        current.append(Directive(name.lower(), args.strip(), start, None))
    else:
        if stack:
            reading.skip(stack[-1][3], "enforce.check.syntax", what=f"<{stack[-1][1]}> is never closed")
    while stack:
        parent, name, args, line = stack.pop()
        parent.append(Directive(name, args, line, tuple(current)))
        current = parent
    return tuple(root)


def _variable(name: str, request: Request, env: dict[str, str]) -> str | None:
    """`%{NAME}` for `request` (None: not a variable robotscope knows)."""
    upper = name.upper()
    if upper.startswith("ENV:"):
        return env.get(name[4:], "")
    if upper.startswith("HTTP:"):
        return _header(name[5:], request)
    values = {
        "HTTP_USER_AGENT": request.user_agent,
        "HTTP_HOST": HOST,
        "REQUEST_URI": request.decoded_path,
        "THE_REQUEST": request.line,
        "QUERY_STRING": request.query,
        "REQUEST_METHOD": "GET",
        "REMOTE_ADDR": request.address,
        "REQUEST_SCHEME": "http",
        "HTTPS": "off",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "SERVER_NAME": HOST,
    }
    if upper in values:
        return values[upper]
    return "" if upper.startswith("HTTP_") else None


def _header(name: str, request: Request) -> str:
    lower = name.lower()
    return request.user_agent if lower == "user-agent" else HOST if lower == "host" else ""


_ATTRIBUTES: dict[str, Callable[[Request], str]] = {
    "request_uri": lambda request: request.decoded_path,
    "request_method": lambda request: "GET",
    "request_protocol": lambda request: "HTTP/1.1",
    "remote_addr": lambda request: request.address,
    "remote_host": lambda request: request.address,
}


class _Where(NamedTuple):
    """A container a directive is inside, as far as it decides whether the directive applies."""

    kind: str
    regex: Regex | None = None
    text: str = ""
    test: apexpr.Expression | None = None
    before: tuple[apexpr.Expression, ...] = ()  # an <ElseIf>/<Else>: the tests of the chain before it


class _Item(NamedTuple):
    directive: Directive
    where: tuple[_Where, ...]
    per_dir: bool
    order: int  # the merge order of its innermost section


class _SetEnv(NamedTuple):
    attribute: str  # lower-cased; "" for SetEnvIfExpr and SetEnv
    regex: Regex | None
    test: apexpr.Expression | None
    assignments: tuple[tuple[str, str | None], ...]  # (name, value); None unsets
    line: int


class _Cond(NamedTuple):
    test: str
    regex: Regex | None
    equal: str | None  # `=text`
    negated: bool
    icase: bool
    alternative: bool  # [OR]
    line: int


class _Rule(NamedTuple):
    regex: Regex
    negated: bool
    conditions: tuple[_Cond, ...]
    refuses: bool
    last: bool
    line: int
    per_dir: bool


class _Require(NamedTuple):
    negated: bool
    provider: str
    args: tuple[str, ...]
    test: apexpr.Expression | None
    line: int


class _Group(NamedTuple):
    kind: str  # requireall, requireany, requirenone
    members: tuple[_Require | _Group, ...]
    line: int


class _Authz(NamedTuple):
    where: tuple[_Where, ...]
    order: tuple[int, int]
    group: _Group


class _Access(NamedTuple):
    where: tuple[_Where, ...]
    order: tuple[int, int]
    kind: str  # order, allow, deny
    args: tuple[str, ...]
    line: int


class _Scope(NamedTuple):
    setenv: tuple[tuple[tuple[_Where, ...], _SetEnv], ...]
    rules: tuple[tuple[tuple[_Where, ...], _Rule], ...]
    engine: tuple[tuple[tuple[_Where, ...], bool, int], ...]  # RewriteEngine on/off, in order
    access: tuple[_Access, ...]
    authz: tuple[_Authz, ...]


class _Reader:
    def __init__(self, reading: Reading) -> None:
        self.reading = reading

    def skip(self, at: Directive, code: str, **params: object) -> None:
        self.reading.skip(at.line, code, **params)

    def expression(self, text: str, line: int) -> apexpr.Expression | None:
        try:
            return apexpr.parse(text, lambda name: _variable(name, Request("", "/"), {}) is not None)
        except Unsupported as error:
            self.reading.reason(line, error.reason)
            return None

    def flatten(
        self, block: tuple[Directive, ...], where: tuple[_Where, ...], per_dir: bool, order: int, out: list[_Item]
    ) -> None:
        """Every directive with the containers around it, in order."""
        chain: list[apexpr.Expression] = []
        for directive in block:
            name = directive.name
            if directive.block is None:
                if name not in ("elseif", "else"):
                    chain = []
                out.append(_Item(directive, where, per_dir, order))
                continue
            if name not in _CONTAINERS:
                self.skip(directive, "enforce.check.directive", directive=f"<{name}>")
                continue
            if name == "virtualhost":
                continue  # a scope of its own
            if name in _REQUIRE_CONTAINERS:
                out.append(_Item(directive, where, per_dir, order))
                continue
            here = self.container(directive, chain)
            if name not in ("if", "elseif", "else"):
                chain = []
            if here is None:
                chain = []
                continue
            inner_dir = per_dir or name in ("directory", "directorymatch")
            self.flatten(directive.block, (*where, here), inner_dir, max(order, _MERGE_ORDER.get(name, 0)), out)

    def container(self, directive: Directive, chain: list[apexpr.Expression]) -> _Where | None:
        name, args = directive.name, words(directive.args)
        if name in ("ifmodule", "ifdefine", "ifversion", "ifdirective", "ifsection", "directory", "directorymatch"):
            return _Where("any")
        if name in ("location", "files") and args and args[0] == "~" and len(args) == 2:
            name, args = name + "match", args[1:]
        if name in ("location", "files") and len(args) == 1:
            return _Where(name, text=args[0])
        if name in ("locationmatch", "filesmatch") and len(args) == 1:
            regex = self.reading.regex(args[0], PCRE, directive.line)
            return None if regex is None else _Where(name, regex=regex)
        if name in ("limit", "limitexcept"):
            return _Where(name, text=" ".join(arg.upper() for arg in args))
        if name in ("if", "elseif") and len(args) == 1:
            if name == "if":
                chain.clear()
            test = self.expression(args[0], directive.line)
            if test is None:
                return None
            found = _Where("if", test=test, before=tuple(chain))
            chain.append(test)
            return found
        if name == "else" and not args:
            return _Where("if", before=tuple(chain))
        self.skip(directive, "enforce.check.syntax", what=f"<{name} {directive.args}>")
        return None

    def scope(self, items: list[_Item]) -> _Scope:
        setenv, rules, engine, access, authz = [], [], [], [], []
        pending: list[_Cond] = []
        for at, item in enumerate(items):
            directive, name = item.directive, item.directive.name
            if name in _SETENV:
                found = self.setenv(directive)
                if found is not None:
                    setenv.append((item.where, found))
            elif name == "rewriteengine":
                engine.append((item.where, directive.args.strip().lower() == "on", directive.line))
            elif name == "rewritecond":
                cond = self.cond(directive)
                if cond is not None:
                    pending.append(cond)
            elif name == "rewriterule":
                rule = self.rule(directive, tuple(pending), item.per_dir, item.where)
                pending = []
                if rule is not None:
                    rules.append((item.where, rule))
            elif name in ("order", "allow", "deny"):
                found_access = self.access(item, (item.order, at))
                if found_access is not None:
                    access.append(found_access)
            elif name == "require" or name in _REQUIRE_CONTAINERS:
                member = self.require(directive, 0)
                if member is not None:
                    authz.append(_Authz(item.where, (item.order, at), _Group("requireany", (member,), 0)))
            elif name in ("include", "includeoptional"):
                self.skip(directive, "enforce.check.include")
            elif name in ("rewritemap", "rewriteoptions", "satisfy", "authmerging"):
                self.skip(directive, "enforce.check.directive", directive=directive.name)
        return _Scope(tuple(setenv), tuple(rules), tuple(engine), tuple(access), _merged(authz))

    def setenv(self, directive: Directive) -> _SetEnv | None:
        name, args, line = directive.name, words(directive.args), directive.line
        if name == "setenv":
            if not args:
                return None
            return _SetEnv("", None, apexpr.parse("true", lambda _: True), ((args[0], " ".join(args[1:])),), line)
        if name == "setenvifexpr":
            test = self.expression(args[0], line) if args else None
            return None if test is None else _SetEnv("", None, test, _assignments(args[1:]), line)
        if name.startswith("browsermatch"):
            args = ["User-Agent", *args]
        if len(args) < 3:
            self.skip(
                directive, "enforce.check.syntax", what=f"{directive.name} needs an attribute, a regex and a variable"
            )
            return None
        attribute = args[0].lower()
        if re.search(r"[\\^$.|?*+()\[\]{}]", attribute):
            self.skip(directive, "enforce.check.directive", directive=f"{directive.name} with a regex for a name")
            return None
        regex = self.reading.regex(args[1], PCRE, line, name.endswith("nocase"))
        return None if regex is None else _SetEnv(attribute, regex, None, _assignments(args[2:]), line)

    def cond(self, directive: Directive) -> _Cond | None:
        args = rewrite_words(directive.args)
        if len(args) < 2:
            self.skip(directive, "enforce.check.syntax", what="RewriteCond needs a test string and a pattern")
            return None
        test, pattern = args[0], args[1]
        flags = _flags(args[2] if len(args) > 2 else "")
        if re.search(r"[$%]\d", test) or not self.known(test):
            self.skip(directive, "enforce.check.directive", directive="RewriteCond test string")
            return None
        negated = pattern.startswith("!")
        pattern = pattern[negated:]
        icase = "nc" in flags or "nocase" in flags
        alternative = "or" in flags or "ornext" in flags
        if pattern.startswith("="):
            return _Cond(test, None, pattern[1:].strip('"'), negated, icase, alternative, directive.line)
        if pattern.startswith(("-", "<", ">")) or "expr" in flags:
            self.skip(directive, "enforce.check.directive", directive=f"RewriteCond {pattern}")
            return None
        regex = self.reading.regex(pattern, PCRE, directive.line, icase)
        return None if regex is None else _Cond(test, regex, None, negated, icase, alternative, directive.line)

    def known(self, test: str) -> bool:
        return all(_variable(name, Request("", "/"), {}) is not None for name in re.findall(r"%\{([^}]*)\}", test))

    def rule(
        self, directive: Directive, conditions: tuple[_Cond, ...], per_dir: bool, where: tuple[_Where, ...]
    ) -> _Rule | None:
        args = rewrite_words(directive.args)
        if len(args) < 2:
            self.skip(directive, "enforce.check.syntax", what="RewriteRule needs a pattern and a substitution")
            return None
        flags = _flags(args[2] if len(args) > 2 else "")
        redirect = next((flag for flag in flags if flag.startswith(("r=", "redirect="))), "")
        status = redirect.partition("=")[2]
        refuses = bool(flags & _REFUSING_FLAGS) or (status.isdigit() and int(status) >= 400)
        if any(kind.kind.startswith("location") for kind in where):
            self.skip(directive, "enforce.check.directive", directive="RewriteRule in <Location>")
            return None
        if not refuses and (args[1] != "-" or flags & {"e", "s", "c", "n", "chain", "skip", "next"}):
            self.skip(directive, "enforce.check.directive", directive="RewriteRule that rewrites")
            return None
        negated = args[0].startswith("!")
        regex = self.reading.regex(args[0][negated:], PCRE, directive.line, "nc" in flags or "nocase" in flags)
        if regex is None:
            return None
        last = refuses or bool(flags & {"l", "last", "end"})
        return _Rule(regex, negated, conditions, refuses, last, directive.line, per_dir)

    def access(self, item: _Item, order: tuple[int, int]) -> _Access | None:
        directive = item.directive
        args = tuple(words(directive.args))
        if directive.name == "order":
            value = "".join(args).lower()
            if value not in ("deny,allow", "allow,deny", "mutual-failure"):
                self.skip(directive, "enforce.check.syntax", what=f"Order {directive.args}")
                return None
            return _Access(item.where, order, "order", (value,), directive.line)
        if not args or args[0].lower() != "from":
            self.skip(directive, "enforce.check.syntax", what=f"{directive.name} from ...")
            return None
        for term in args[1:]:
            if term.lower() != "all" and not term.lower().startswith("env=") and not _network(term):
                self.skip(directive, "enforce.check.directive", directive=f"{directive.name} from {term}")
                return None
        return _Access(item.where, order, directive.name, args[1:], directive.line)

    def require(self, directive: Directive, depth: int) -> _Require | _Group | None:
        if directive.block is not None:
            members = [self.require(inner, depth + 1) for inner in directive.block if depth < MAX_DEPTH]
            for inner in directive.block:
                if inner.name != "require" and inner.name not in _REQUIRE_CONTAINERS:
                    self.skip(inner, "enforce.check.directive", directive=f"{inner.name} in <{directive.name}>")
            found = tuple(member for member in members if member is not None)
            return _Group(directive.name, found, directive.line)
        if directive.name != "require":
            return None
        args = words(directive.args)
        negated = bool(args) and args[0].lower() == "not"
        args = args[negated:]
        if not args:
            self.skip(directive, "enforce.check.syntax", what="Require with nothing required")
            return None
        provider = args[0].lower()
        test = None
        if provider == "expr":
            test = self.expression(" ".join(args[1:]), directive.line)
            if test is None:
                return None
        elif provider not in ("all", "env", "ip", "method", "local"):
            self.skip(directive, "enforce.check.directive", directive=f"Require {provider}")
            return None
        elif provider == "all" and (len(args) != 2 or args[1].lower() not in ("granted", "denied")):
            self.skip(directive, "enforce.check.syntax", what="Require all granted|denied")
            return None
        return _Require(negated, provider, tuple(args[1:]), test, directive.line)


def _assignments(args: list[str]) -> tuple[tuple[str, str | None], ...]:
    made: list[tuple[str, str | None]] = []
    for arg in args:
        if arg.startswith("!"):
            made.append((arg[1:], None))
        else:
            name, equals, value = arg.partition("=")
            made.append((name, value if equals else "1"))
    return tuple(made)


def _flags(text: str) -> frozenset[str]:
    text = text.strip()
    if not (text.startswith("[") and text.endswith("]")):
        return frozenset()
    return frozenset(flag.strip().lower() for flag in text[1:-1].split(",") if flag.strip())


def _network(term: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network | None:
    """An address or network of `Allow from`/`Deny from` (a partial address `10.1` is `10.1.0.0/16`)."""
    if re.fullmatch(r"\d{1,3}(?:\.\d{1,3}){0,2}\.?", term):
        parts = term.rstrip(".").split(".")
        term = ".".join(parts + ["0"] * (4 - len(parts))) + f"/{8 * len(parts)}"
    try:
        return ipaddress.ip_network(term, strict=False)
    except ValueError:
        return None


def _merged(authz: list[_Authz]) -> tuple[_Authz, ...]:
    """The Require lines of one section as one `<RequireAny>` (several lines in a section are any of them)."""
    sections: dict[tuple[tuple[_Where, ...], int], _Authz] = {}
    for found in authz:
        key = (found.where, found.order[0])
        if key in sections:
            before = sections[key]
            sections[key] = before._replace(
                group=before.group._replace(members=(*before.group.members, *found.group.members))
            )
        else:
            sections[key] = found
    return tuple(sections.values())


class _Run:
    """One request through one scope."""

    def __init__(self, request: Request, work: Work) -> None:
        self.request, self.work = request, work
        self.env: dict[str, str] = {}
        self.hits: list[Hit] = []
        self.line = 0  # the line being evaluated, for hits
        self.lookup = apexpr.Lookup(
            lambda name: _variable(name, self.request, self.env),
            lambda name: _header(name, self.request),
            lambda name: self.env.get(name, ""),
            self.request.address,
            self.hit,
            self.work.step,
        )

    def hit(self, subject: str, matched: str) -> None:
        if subject and subject == self.request.user_agent:
            self.hits.append(Hit(self.line, matched))

    def applies(self, where: tuple[_Where, ...]) -> bool:
        self.work.step(len(where))
        path = self.request.decoded_path
        for found in where:
            if found.kind == "location" and not (path == found.text or path.startswith(found.text.rstrip("/") + "/")):
                return False
            if found.kind == "files" and not fnmatch.fnmatchcase(path.rsplit("/", 1)[-1], found.text):
                return False
            if found.kind == "locationmatch" and (found.regex is None or found.regex.search(path) is None):
                return False
            if found.kind == "filesmatch" and (
                found.regex is None or found.regex.search(path.rsplit("/", 1)[-1]) is None
            ):
                return False
            if found.kind in ("limit", "limitexcept") and ("GET" in found.text.split()) != (found.kind == "limit"):
                return False
            if found.kind == "if":
                lookup = self.lookup
                if any(apexpr.evaluate(test, lookup) for test in found.before):
                    return False
                if found.test is not None and not apexpr.evaluate(found.test, lookup):
                    return False
        return True

    def setenv(self, found: _SetEnv) -> None:
        self.work.step()
        self.line = found.line
        if found.test is not None:
            matched = apexpr.evaluate(found.test, self.lookup)
        else:
            assert found.regex is not None
            subject = _ATTRIBUTES[found.attribute](self.request) if found.attribute in _ATTRIBUTES else None
            if subject is None:
                header = _header(found.attribute, self.request)
                subject = header or self.env.get(found.attribute, "")
            text = found.regex.search(subject)
            if text is not None:
                self.hit(subject, text)
            matched = text is not None
        if matched:
            for name, value in found.assignments:
                if value is None:
                    self.env.pop(name, None)
                else:
                    self.env[name] = value

    def condition(self, cond: _Cond) -> bool:
        self.work.step()
        self.line = cond.line
        subject = re.sub(r"%\{([^}]*)\}", lambda m: _variable(m.group(1), self.request, self.env) or "", cond.test)
        if cond.equal is not None:
            same = subject.lower() == cond.equal.lower() if cond.icase else subject == cond.equal
            return same != cond.negated
        assert cond.regex is not None
        text = cond.regex.search(subject)
        if text is not None and not cond.negated:
            self.hit(subject, text)
        return (text is not None) != cond.negated

    def conditions(self, conds: tuple[_Cond, ...]) -> bool:
        result, alternative = True, False
        for cond in conds:
            if alternative:
                result = result or self.condition(cond)
            else:
                if not result:
                    return False
                result = self.condition(cond)
            alternative = cond.alternative
        return result

    def rewrite(self, scope: _Scope) -> int | None:
        """The line of the rule that refuses, or None."""
        engine_on = False
        for place, on, _ in scope.engine:
            if self.applies(place):
                engine_on = on
        for where, rule in scope.rules:
            self.work.step()
            if not engine_on or not self.applies(where):
                continue
            path = self.request.decoded_path
            subject = path[1:] if rule.per_dir else path
            self.line = rule.line
            text = rule.regex.search(subject)
            if (text is not None) == rule.negated or not self.conditions(rule.conditions):
                continue
            if rule.refuses:
                return rule.line
            if rule.last:
                return None
        return None

    def access(self, scope: _Scope) -> int | None:
        """The line of the `Deny` that refuses, or None."""
        found = sorted((item for item in scope.access if self.applies(item.where)), key=lambda item: item.order)
        if not found:
            return None
        order = next((item.args[0] for item in reversed(found) if item.kind == "order"), "deny,allow")
        lists = {}
        for kind in ("allow", "deny"):
            chosen = [item for item in found if item.kind == kind]
            if chosen:
                last_section = chosen[-1].where
                lists[kind] = [item for item in chosen if item.where == last_section]
        allowed = next((item for item in lists.get("allow", []) if self.matches(item.args)), None)
        denied = next((item for item in lists.get("deny", []) if self.matches(item.args)), None)
        if order == "deny,allow":
            return denied.line if denied is not None and allowed is None else None
        if order == "allow,deny":
            if denied is not None:
                return denied.line
            return None if allowed is not None else found[-1].line
        return None if allowed is not None and denied is None else found[-1].line

    def matches(self, terms: tuple[str, ...]) -> bool:
        for term in terms:
            lower = term.lower()
            if lower == "all":
                return True
            if lower.startswith("env="):
                name = term[4:]
                if (name[1:] not in self.env) if name.startswith("!") else (name in self.env):
                    return True
                continue
            network = _network(term)
            if network is not None and ipaddress.ip_address(self.request.address) in network:
                return True
        return False

    def authz(self, scope: _Scope) -> int | None:
        """The line that refuses by `Require`, or None."""
        found = sorted((item for item in scope.authz if self.applies(item.where)), key=lambda item: item.order)
        if not found:
            return None
        result, line = self.group(found[-1].group)
        return None if result == "granted" else line

    def group(self, group: _Group) -> tuple[str, int]:
        results = [self.member(member) for member in group.members]
        denied = next((line for result, line in results if result == "denied"), group.line)
        granted = any(result == "granted" for result, _ in results)
        if group.kind == "requireall":
            if any(result == "denied" for result, _ in results):
                return "denied", denied
            return ("granted" if granted else "neutral"), group.line
        if group.kind == "requirenone":
            first = next((line for result, line in results if result == "granted"), group.line)
            return ("denied", first) if granted else ("neutral", group.line)
        return ("granted", group.line) if granted else ("denied", denied)

    def member(self, member: _Require | _Group) -> tuple[str, int]:
        self.work.step()
        if isinstance(member, _Group):
            return self.group(member)
        self.line = member.line
        success = self.provider(member)
        if member.negated:
            return ("denied" if success else "neutral"), member.line
        return ("granted" if success else "denied"), member.line

    def provider(self, require: _Require) -> bool:
        if require.provider == "all":
            return require.args[0].lower() == "granted"
        if require.provider == "env":
            return any(name in self.env for name in require.args)
        if require.provider == "ip":
            return any(
                (network := _network(term)) is not None and ipaddress.ip_address(self.request.address) in network
                for term in require.args
            )
        if require.provider == "method":
            return "GET" in (arg.upper() for arg in require.args)
        if require.provider == "expr":
            assert require.test is not None
            return apexpr.evaluate(require.test, self.lookup)
        return False  # local: the request comes from elsewhere


def _decide(scope: _Scope, request: Request, work: Work) -> Decision:
    run = _Run(request, work)
    for where, found in scope.setenv:
        if run.applies(where):
            run.setenv(found)
    for line in (run.rewrite(scope), run.access(scope), run.authz(scope)):
        if line is not None:
            return Decision(True, line, tuple(run.hits))
    return Decision(False, None, tuple(run.hits))


def read_apache(text: str, reading: Reading, per_dir: bool) -> Config:
    """`per_dir`: the file is a `.htaccess` (its rewrite patterns see the path without its leading `/`)."""
    top = directives(text, reading)
    reader = _Reader(reading)
    outside: list[_Item] = []
    reader.flatten(top, (), per_dir, 0, outside)
    hosts = [directive for directive in top if directive.name == "virtualhost" and directive.block is not None]
    scopes: list[Scope] = []
    for host in hosts:
        items = list(outside)
        reader.flatten(host.block or (), (), per_dir, 0, items)
        scopes.append(Scope(f"<VirtualHost {host.args}>", host.line, partial(_decide, reader.scope(items))))
    if not scopes:
        scopes.append(Scope("", 0, partial(_decide, reader.scope(outside))))
    return Config(SERVER, tuple(scopes), tuple(reading.unreadable), tuple(reading.notes))
