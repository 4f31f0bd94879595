"""What every reader of a server configuration gives: scopes that decide requests, and what it could not read.

A `Config` is a server configuration read the way the server reads it: one
`Scope` per server, virtual host, site or frontend (the whole file when it
has none), each deciding a `Request` as the server would: refused or not,
with the line that refused and the User-Agent tests that matched on the way
(`Hit`). What the reader does not evaluate is `Unreadable`, with its line and
why; a scope then decides as if that part were not there.

A `Request` is a GET with a User-Agent and a target sent as written, from
`ADDRESS` (in no operator's list: a claim from there is unverified).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple
from urllib.parse import unquote

from ....messages import Message, message
from ..entries import safe
from .regex import Regex, Unsupported, read

ADDRESS = "192.0.2.1"  # TEST-NET-1 (RFC 5737): no crawler's published address
HOST = "example.com"
MAX_CHARS = 4 * 1024 * 1024  # characters of a configuration read (robotscope's own export of the largest robots.txt
# files takes that much); past them, nothing is read
_SHOWN = 120  # characters of a line shown with a finding


class Request(NamedTuple):
    """A GET request: its User-Agent ("" when none is sent) and its target, as sent."""

    user_agent: str
    target: str
    address: str = ADDRESS

    @property
    def path(self) -> str:
        return self.target.split("?", 1)[0]

    @property
    def query(self) -> str:
        return self.target.partition("?")[2]

    @property
    def line(self) -> str:
        """The request line: `GET /a?b HTTP/1.1`."""
        return f"GET {self.target} HTTP/1.1"

    @property
    def decoded_path(self) -> str:
        """The path as servers that decode it see it: escapes decoded, `.` and `..` removed, `//` merged."""
        return decoded(self.path)


def decoded(path: str) -> str:
    out: list[str] = []
    segments = unquote(path, errors="replace").split("/")
    for at, segment in enumerate(segments[1:], 1):
        last = at == len(segments) - 1
        if segment == "..":
            if out:
                out.pop()
            if last:
                out.append("")
        elif segment == ".":
            if last:
                out.append("")
        elif segment or last:
            out.append(segment)
    return "/" + "/".join(out)


class Hit(NamedTuple):
    """A User-Agent test that matched: its line, the text of the User-Agent it matched, and the file it is in
    (None: the configuration; a pattern file's name for HAProxy's `-f`)."""

    line: int
    matched: str
    file: str | None = None


class Decision(NamedTuple):
    refused: bool
    line: int | None  # the line that refused (None when not refused, or refused by a rule the file implies)
    hits: tuple[Hit, ...] = ()


class Unreadable(NamedTuple):
    """A part of the configuration not evaluated: where, its text, and why."""

    line: int
    text: str
    reason: Message
    file: str | None = None  # a file the configuration names (HAProxy's pattern files); None: the configuration

    def as_message(self, config: str) -> Message:
        return message(
            "enforce.check.unreadable", file=self.file or config, line=self.line, text=self.text, reason=self.reason
        )


class OutOfWork(Exception):
    """Deciding took more steps than the `Work` allowed."""


class Work:
    """The steps a reader's interpreter takes deciding requests (a directive, a condition or a pattern tried),
    and the most it may take: a configuration can be large and each request walks all of it."""

    __slots__ = ("done", "limit")

    def __init__(self, limit: int | None = None) -> None:
        self.done, self.limit = 0, limit

    def step(self, count: int = 1) -> None:
        self.done += count
        if self.limit is not None and self.done > self.limit:
            raise OutOfWork


class Scope(NamedTuple):
    """One server, virtual host, site or frontend of the configuration, and how it decides a request."""

    name: str  # as the configuration writes it ("" for the whole file)
    line: int  # where it starts (0: the whole file)
    run: Callable[[Request, Work], Decision]

    def decide(self, request: Request, work: Work | None = None) -> Decision:
        """The server's answer to `request`; raises `OutOfWork` past `work`'s limit."""
        return self.run(request, Work() if work is None else work)


class Config(NamedTuple):
    server: str
    scopes: tuple[Scope, ...]
    unreadable: tuple[Unreadable, ...]
    notes: tuple[Message, ...]


class Reading:
    """What a reader collects while it reads one file: the parts it cannot evaluate, and notes."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.unreadable: list[Unreadable] = []
        self.notes: list[Message] = []

    def text_of(self, line: int) -> str:
        raw = self.lines[line - 1].strip() if 0 < line <= len(self.lines) else ""
        return safe(raw if len(raw) <= _SHOWN else raw[: _SHOWN - 1] + "…")

    def skip(self, line: int, code: str, **params: object) -> None:
        """Line `line` is not evaluated, for the reason `code` says."""
        self.reason(line, message(code, **params))

    def regex(self, pattern: str, flavour: str, line: int, icase: bool = False) -> Regex | None:
        """`pattern` read as `flavour` reads it; None, with why on line `line`, when robotscope cannot evaluate it."""
        try:
            return read(pattern, flavour, icase)
        except Unsupported as error:
            self.reason(line, error.reason)
            return None

    def reason(self, line: int, reason: Message) -> None:
        line = min(max(line, 1), max(len(self.lines), 1))  # the end of the text is on its last line
        self.unreadable.append(Unreadable(line, self.text_of(line), quoted(reason)))


def quoted(reason: Message) -> Message:
    """`reason` with the configuration's text it quotes made one printable line each."""
    return Message(reason.code, {key: safe(v) if isinstance(v, str) else v for key, v in reason.params.items()})


def refusing(status: int) -> bool:
    """Whether an answer with this status refuses the request (444: nginx closes the connection)."""
    return status >= 400
