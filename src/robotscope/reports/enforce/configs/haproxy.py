"""HAProxy: `acl` and `http-request` rules of each frontend (and its default backend), as HAProxy runs them.

Lines are split as HAProxy splits them (single quotes as written, double
quotes and bare words with `\\\\`, `\\ `, `\\#`, `\\t`, `\\xHH`, ...; `#` starts a
comment). A request runs the `http-request` rules in order: `deny`,
`tarpit`, `silent-drop`, `reject` and `return` with 400 or more refuse,
`allow` and `redirect` end; `set-var(...) str(...)` sets what later
conditions read. Conditions are `if`/`unless` with ACL names, `!`,
`||`/`or`, and anonymous ACLs in braces.

ACLs read the User-Agent with `hdr(user-agent)`, `req.hdr(...)` and their
`hdr_sub`, `hdr_beg`, `hdr_end`, `hdr_reg`, `hdr_dom`, `hdr_dir`,
`hdr_str` forms (the header split at its commas, each value tried) or
`req.fhdr(...)` (the whole header), the path with `path`, `pathq`, `url`
and their forms, and `var(...)`, `src`, `method`; `-i` matches
case-insensitively, `-m` chooses the match (`str`, `sub`, `beg`, `end`,
`reg`, `dom`, `dir`, `found`), `-f FILE` reads patterns from a file, one per
line (a line starting with `#` is a comment; leading blanks are dropped).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from functools import partial
from typing import NamedTuple

from ..entries import safe
from .model import HOST, Config, Decision, Hit, Reading, Request, Scope, Unreadable, Work, quoted, refusing
from .regex import PCRE, Regex, Unsupported, read

SERVER = "haproxy"
MAX_FILES = 64
_SECTIONS = frozenset(
    {"global", "defaults", "frontend", "backend", "listen", "userlist", "peers", "resolvers", "cache", "program"}
    | {"http-errors", "ring", "mailers", "crt-store", "traces", "log-forward"}
)
_FETCHES = {
    "hdr": "str",
    "req.hdr": "str",
    "req.fhdr": "str",
    "path": "str",
    "pathq": "str",
    "url": "str",
    "query": "str",
    "var": "str",
    "src": "ip",
    "method": "str",
    "base": "str",
}
_SUFFIXES = {"sub", "beg", "end", "reg", "dom", "dir", "str"}
_CRITERION = re.compile(r"([a-z_.]+?)(?:_(sub|beg|end|reg|dom|dir|str|len|cnt|ip|val))?(?:\(([^)]*)\))?")
_REFUSING = frozenset({"deny", "tarpit", "silent-drop", "reject"})
_HARMLESS = frozenset(
    {"set-header", "add-header", "del-header", "capture", "set-log-level", "set-mark", "set-tos", "set-nice"}
    | {"track-sc0", "track-sc1", "track-sc2", "sc-inc-gpc0", "sc-inc-gpc1", "sc-inc-gpc", "set-priority-class"}
    | {"set-priority-offset", "add-acl", "del-acl", "set-map", "del-map", "set-timeout", "wait-for-handshake"}
)
# HAProxy's predefined ACLs, for a GET of an origin-form target over HTTP/1.1, without a body, from ADDRESS.
_PREDEFINED = {
    **dict.fromkeys(("TRUE", "HTTP", "HTTP_1.1", "METH_GET", "HTTP_URL_SLASH", "WAIT_END"), True),
    **dict.fromkeys(("FALSE", "HTTP_1.0", "HTTP_2.0", "HTTP_3.0", "HTTP_CONTENT", "HTTP_URL_ABS"), False),
    **dict.fromkeys(("HTTP_URL_STAR", "LOCALHOST", "RDP_COOKIE", "REQ_CONTENT", "METH_CONNECT"), False),
    **dict.fromkeys(("METH_DELETE", "METH_HEAD", "METH_OPTIONS", "METH_POST", "METH_PUT", "METH_TRACE"), False),
}
_ESCAPES = {" ": " ", "\\": "\\", "t": "\t", "n": "\n", "r": "\r", "#": "#", "'": "'", '"': '"'}


def split(line: str) -> list[str]:
    """One configuration line's words, as HAProxy's `parse_line` reads them; raises ValueError on what it refuses."""
    found: list[str] = []
    word: list[str] = []
    started = False  # a word is open (it may be empty: `''`)
    quote = ""
    at = 0
    while at < len(line):
        char = line[at]
        at += 1
        if quote == "'" and char != "'":
            word.append(char)
        elif char in "'\"" and quote in ("", char):
            quote = "" if quote else char
            started = True
        elif char == "#" and not quote:
            break
        elif char == "\\":
            started = True
            nxt = line[at : at + 1]
            if nxt == "x":
                code = line[at + 1 : at + 3]
                if not re.fullmatch(r"[0-9A-Fa-f]{2}", code):
                    raise ValueError("\\x without two hexadecimal digits")
                word.append(chr(int(code, 16)))
                at += 3
            elif nxt in _ESCAPES or (nxt == "$" and quote):
                word.append(_ESCAPES.get(nxt, nxt))
                at += 1
            else:
                word.append("\\")
        elif char == "$" and quote == '"':
            raise ValueError("an environment variable, which robotscope cannot know")
        elif char.isspace() and not quote:
            if started:
                found.append("".join(word))
                word, started = [], False
        else:
            word.append(char)
            started = True
    if quote:
        raise ValueError("a quote that is never closed")
    if started:
        found.append("".join(word))
    return found


def patterns(text: str) -> list[tuple[str, int]]:
    """The patterns of an ACL file, with their line numbers."""
    found = []
    for number, raw in enumerate(text.splitlines(), 1):
        if raw.startswith("#"):
            continue
        value = raw.lstrip(" \t")
        if value:
            found.append((value, number))
    return found


class _Acl(NamedTuple):
    fetch: str  # hdr, req.fhdr, path, pathq, url, query, var, src, method, base
    argument: str  # the header or variable name
    method: str  # str, sub, beg, end, reg, dom, dir, found, ip
    icase: bool
    lower: bool  # a `,lower` converter
    values: tuple[tuple[str, int, str | None], ...]  # (pattern, line, file)
    regexes: tuple[tuple[Regex, int, str | None], ...]
    line: int


class _Term(NamedTuple):
    negated: bool
    name: str  # an ACL's name, or "" for `acl`
    acl: _Acl | None  # an anonymous ACL


_Condition = tuple[tuple[_Term, ...], ...]  # OR of ANDs


class _Rule(NamedTuple):
    action: str  # refuse, end, set, unset
    status: int
    variable: str
    value: str
    condition: _Condition | None
    unless: bool
    line: int


class _Section(NamedTuple):
    kind: str
    name: str
    line: int
    acls: dict[str, list[_Acl]]
    rules: list[_Rule]
    backend: str  # default_backend


class _Reader:
    def __init__(self, reading: Reading, load: Callable[[str], str | None]) -> None:
        self.reading, self.load = reading, load
        self.files: dict[str, str | None] = {}

    def file(self, name: str, line: int) -> str | None:
        if name not in self.files:
            if len(self.files) >= MAX_FILES:
                self.reading.skip(line, "enforce.check.files", limit=MAX_FILES)
                return None
            self.files[name] = self.load(name)
        text = self.files[name]
        if text is None:
            self.reading.skip(line, "enforce.check.pattern-file", file=name)
        return text

    def acl(self, words: list[str], line: int) -> _Acl | None:
        if not words:
            self.reading.skip(line, "enforce.check.syntax", what="an ACL with no criterion")
            return None
        criterion, *rest = words
        parts = criterion.split(",")
        fetch_text, converters = parts[0], parts[1:]
        found = re.fullmatch(
            r"([a-z_.]+?)(?:_(sub|beg|end|reg|dom|dir|str|len|cnt|ip|val))?(?:\(([^)]*)\))?", fetch_text
        )
        base, suffix, argument = (found.group(1), found.group(2), found.group(3) or "") if found else ("", None, "")
        if base in ("hdr", "req.hdr", "req.fhdr") and argument:
            argument = argument.split(",")[0].strip().lower()
        if base not in _FETCHES or (suffix and suffix not in _SUFFIXES) or set(converters) - {"lower", "upper"}:
            self.reading.skip(line, "enforce.check.directive", directive=f"acl criterion {criterion}")
            return None
        if base in ("hdr", "req.hdr", "req.fhdr") and argument not in ("user-agent", "host"):
            self.reading.skip(line, "enforce.check.directive", directive=f"acl criterion {criterion}")
            return None
        method = suffix if suffix and suffix != "str" else _FETCHES[base]
        icase = False
        values: list[tuple[str, int, str | None]] = []
        at = 0
        while at < len(rest):
            flag = rest[at]
            if flag == "--":
                at += 1
                break
            if not flag.startswith("-") or flag in ("-",):
                break
            if flag == "-i":
                icase = True
            elif flag == "-m" and at + 1 < len(rest):
                at += 1
                method = rest[at]
            elif flag == "-f" and at + 1 < len(rest):
                at += 1
                text = self.file(rest[at], line)
                if text is not None:
                    values += [(value, number, rest[at]) for value, number in patterns(text)]
            elif flag == "-u" and at + 1 < len(rest):
                at += 1
            elif flag == "-n":
                pass
            else:
                self.reading.skip(line, "enforce.check.directive", directive=f"acl flag {flag}")
                return None
            at += 1
        values += [(value, line, None) for value in rest[at:]]
        if method not in ("str", "sub", "beg", "end", "reg", "dom", "dir", "found", "ip"):
            self.reading.skip(line, "enforce.check.directive", directive=f"-m {method}")
            return None
        regexes: list[tuple[Regex, int, str | None]] = []
        if method == "reg":
            for value, number, file in values:
                try:
                    regexes.append((read(value, PCRE, icase), number, file))
                except Unsupported as error:
                    if file is None:
                        self.reading.reason(line, error.reason)
                    else:
                        self.reading.unreadable.append(Unreadable(number, safe(value), quoted(error.reason), file))
        if method == "ip" and any(_network(value) is None for value, _, _ in values):
            self.reading.skip(line, "enforce.check.syntax", what="an address or network")
            return None
        return _Acl(base, argument, method, icase, "lower" in converters, tuple(values), tuple(regexes), line)

    def condition(self, words: list[str], line: int) -> _Condition | None:
        alternatives: list[tuple[_Term, ...]] = []
        terms: list[_Term] = []
        at = 0
        while at < len(words):
            word = words[at]
            if word in ("||", "or"):
                alternatives.append(tuple(terms))
                terms = []
                at += 1
                continue
            negated = word.startswith("!")
            word = word[1:] if negated else word
            if word == "":  # `! name`
                at += 1
                word = words[at] if at < len(words) else ""
            if word == "{":
                end = words.index("}", at) if "}" in words[at:] else -1
                if end < 0:
                    self.reading.skip(line, "enforce.check.syntax", what="a { never closed")
                    return None
                acl = self.acl(words[at + 1 : end], line)
                if acl is None:
                    return None
                terms.append(_Term(negated, "", acl))
                at = end + 1
                continue
            terms.append(_Term(negated, word, None))
            at += 1
        alternatives.append(tuple(terms))
        return tuple(alternatives)

    def rule(self, words: list[str], line: int) -> _Rule | None:
        if not words:
            return None
        at = next((i for i, word in enumerate(words) if word in ("if", "unless")), len(words))
        action_words, condition_words = words[:at], words[at + 1 :]
        condition = self.condition(condition_words, line) if at < len(words) else None
        if at < len(words) and condition is None:
            return None
        unless = at < len(words) and words[at] == "unless"
        action = action_words[0]
        options = action_words[1:]

        def option(name: str, default: str) -> str:
            return options[options.index(name) + 1] if name in options[:-1] else default

        if action in _REFUSING:
            status = option("deny_status", "403") if action == "deny" else "403"
            return _Rule("refuse", int(status) if status.isdigit() else 403, "", "", condition, unless, line)
        if action == "return":
            status = option("status", "200")
            return _Rule("answer", int(status) if status.isdigit() else 200, "", "", condition, unless, line)
        if action in ("allow", "redirect"):
            return _Rule("answer", 200, "", "", condition, unless, line)
        found = re.fullmatch(r"(set-var|unset-var)\(([\w.]+)(?:,[^)]*)?\)", action)
        if found is not None:
            if found.group(1) == "unset-var":
                return _Rule("unset", 0, found.group(2), "", condition, unless, line)
            value = re.fullmatch(r"(?:str|int|bool)\(([^)]*)\)", options[0]) if options else None
            if value is not None:
                return _Rule("set", 0, found.group(2), value.group(1), condition, unless, line)
        if action not in _HARMLESS:
            self.reading.skip(line, "enforce.check.directive", directive=f"http-request {action}")
        return None

    def undefined(self, sections: list[_Section]) -> None:
        """Say each ACL a rule names that its section defines nowhere: HAProxy would not start."""
        for section in sections:
            for rule in section.rules:
                for terms in rule.condition or ():
                    for term in terms:
                        if term.acl is None and term.name not in section.acls and term.name not in _PREDEFINED:
                            self.reading.skip(rule.line, "enforce.check.acl", name=term.name)

    def sections(self, text: str) -> list[_Section]:
        made = [_Section("fragment", "", 0, {}, [], "")]
        for number, raw in enumerate(text.splitlines(), 1):
            try:
                words = split(raw)
            except ValueError as error:
                self.reading.skip(number, "enforce.check.syntax", what=str(error))
                continue
            if not words:
                continue
            keyword = words[0]
            if keyword in _SECTIONS:
                made.append(_Section(keyword, words[1] if len(words) > 1 else "", number, {}, [], ""))
                continue
            section = made[-1]
            if section.kind in ("global", "defaults", "userlist", "peers", "resolvers", "cache", "program"):
                continue
            if keyword == "acl" and len(words) >= 3:
                acl = self.acl(words[2:], number)
                if acl is not None:
                    section.acls.setdefault(words[1], []).append(acl)
            elif keyword == "http-request" and len(words) >= 2:
                found = self.rule(words[1:], number)
                if found is not None:
                    section.rules.append(found)
            elif keyword == "default_backend" and len(words) == 2:
                made[-1] = section._replace(backend=words[1])
            elif keyword in ("use_backend", "tcp-request"):
                self.reading.skip(number, "enforce.check.directive", directive=keyword)
        return made


def _network(text: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network | None:
    try:
        return ipaddress.ip_network(text, strict=False)
    except ValueError:
        return None


class _Run:
    def __init__(self, section: _Section, backend: _Section | None, request: Request, work: Work) -> None:
        self.section, self.backend, self.request, self.work = section, backend, request, work
        self.variables: dict[str, str] = {}
        self.hits: list[Hit] = []

    def samples(self, acl: _Acl) -> list[str] | None:
        request = self.request
        if acl.fetch in ("hdr", "req.hdr", "req.fhdr"):
            value = request.user_agent if acl.argument == "user-agent" else HOST
            if not value:
                return None
            return [value] if acl.fetch == "req.fhdr" else [part.strip(" \t") for part in value.split(",")]
        if acl.fetch == "var":
            found = self.variables.get(acl.argument)
            return None if found is None else [found]
        values = {
            "path": request.path,
            "pathq": request.target,
            "url": request.target,
            "query": request.query,
            "src": request.address,
            "method": "GET",
            "base": HOST + request.path,
        }
        return [values[acl.fetch]]

    def acl(self, acl: _Acl) -> bool:
        samples = self.samples(acl)
        if samples is None:
            return False
        if acl.method == "found":
            return True
        user_agent = acl.fetch in ("hdr", "req.hdr", "req.fhdr") and acl.argument == "user-agent"
        for sample in samples:
            sample = sample.lower() if acl.lower else sample
            matched = self.match(acl, sample)
            if matched is not None:
                if user_agent:
                    self.hits.append(Hit(*matched))
                return True
        return False

    def match(self, acl: _Acl, sample: str) -> tuple[int, str, str | None] | None:
        """The line of the pattern that matched `sample`, the text it matched, and the pattern's file."""
        if acl.method == "reg":
            for regex, line, file in acl.regexes:
                self.work.step()
                found = regex.search(sample)
                if found is not None:
                    return line, found, file
            return None
        if acl.method == "ip":
            address = ipaddress.ip_address(sample)
            return next(((line, v, file) for v, line, file in acl.values if address in (_network(v) or ())), None)
        folded = sample.lower() if acl.icase else sample
        for value, line, file in acl.values:
            self.work.step()
            pattern = value.lower() if acl.icase else value
            if _matches(acl.method, pattern, folded):
                at = folded.find(pattern)
                return line, sample[at : at + len(pattern)] if at >= 0 else value, file
        return None

    def term(self, term: _Term, acls: dict[str, list[_Acl]]) -> bool:
        if term.acl is not None:
            result = self.acl(term.acl)
        elif term.name in acls:
            result = any(self.acl(acl) for acl in acls[term.name])
        else:
            result = _PREDEFINED.get(term.name, False)
        return result != term.negated

    def holds(self, rule: _Rule, acls: dict[str, list[_Acl]]) -> bool:
        if rule.condition is None:
            return True
        result = any(all(self.term(term, acls) for term in terms) for terms in rule.condition)
        return result != rule.unless

    def run(self) -> Decision:
        for section in (self.section, self.backend):
            if section is None:
                continue
            for rule in section.rules:
                self.work.step()
                if not self.holds(rule, section.acls):
                    continue
                if rule.action == "set":
                    self.variables[rule.variable] = rule.value
                elif rule.action == "unset":
                    self.variables.pop(rule.variable, None)
                elif rule.action == "refuse" or refusing(rule.status):
                    return Decision(True, rule.line, tuple(self.hits))
                else:
                    return Decision(False, None, tuple(self.hits))
        return Decision(False, None, tuple(self.hits))


def _matches(method: str, pattern: str, sample: str) -> bool:
    if method == "str":
        return sample == pattern
    if method == "sub":
        return pattern in sample
    if method == "beg":
        return sample.startswith(pattern)
    if method == "end":
        return sample.endswith(pattern)
    # dom, dir: the pattern between delimiters (or the sample's edges)
    edge = "[/]" if method == "dir" else "[/?.:]"
    return re.search(f"(?:^|{edge}){re.escape(pattern)}(?:{edge}|$)", sample) is not None


def _decide(section: _Section, backend: _Section | None, request: Request, work: Work) -> Decision:
    return _Run(section, backend, request, work).run()


def read_haproxy(text: str, reading: Reading, load: Callable[[str], str | None]) -> Config:
    """`load(name)` gives the text of a pattern file `-f` names (None: it cannot be read)."""
    reader = _Reader(reading, load)
    sections = reader.sections(text)
    reader.undefined(sections)
    backends = {section.name: section for section in sections if section.kind == "backend"}
    scopes = []
    for section in sections:
        if section.kind in ("frontend", "listen") or (section.kind == "fragment" and (section.rules or section.acls)):
            backend = backends.get(section.backend)
            scopes.append(Scope(section.name, section.line, partial(_decide, section, backend)))
    if not scopes:
        scopes.append(Scope("", 0, partial(_decide, sections[0], None)))
    return Config(SERVER, tuple(scopes), tuple(reading.unreadable), tuple(reading.notes))
