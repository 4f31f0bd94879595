"""Apache's expressions (`<If>`, `SetEnvIfExpr`, `Require expr`): the part server rules use, as Apache reads it.

Operators `&&`/`and`, `||`/`or`, `!`/`not`, parentheses, `true`,
`false`; `-n`, `-z`, `-R` (the client address in a network), `-T`;
`==`/`=`, `!=`, `=~` and `!~` with `/regex/i` or `m#regex#i` (the regex as
written: Apache's lexer ends it at the delimiter and escapes nothing),
`-ipmatch`, `-strmatch`, `-strcmatch`; operands `'string'` and
`"string"` (with `%{VAR}` inside and `\\n`-style escapes), `%{VAR}`, `.`
(concatenation), numbers and the functions `reqenv`, `env`, `req`, `http`,
`tolower`, `toupper`. Anything else raises `Unsupported` with the reason.
"""

from __future__ import annotations

import fnmatch
import ipaddress
import re
from collections.abc import Callable
from typing import NamedTuple

from ....messages import message
from .regex import PCRE, Regex, Unsupported, read

MAX_DEPTH = 32
_TOKEN = re.compile(
    r"\s*(?:(?P<op>&&|\|\||!=|!~|=~|==|<=|>=|[!()=<>.,])|(?P<dash>-[A-Za-z_]\w*)|(?P<var>%\{[^}]*\})"
    r"|(?P<word>[A-Za-z_]\w*|\d+)|(?P<quote>['\"]))"
)
_STRING_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f"}
_WORD_OPS = {"and": "&&", "or": "||", "not": "!", "eq": "==", "ne": "!="}
_FUNCTIONS = frozenset({"reqenv", "env", "req", "http", "tolower", "toupper"})


class Lookup(NamedTuple):
    """What an expression reads of a request: `%{VAR}`, request headers, environment variables, the address."""

    variable: Callable[[str], str | None]  # None: a variable robotscope does not know
    header: Callable[[str], str]
    env: Callable[[str], str]
    address: str
    hit: Callable[[str, str], None]  # a regex matched this subject with this text
    step: Callable[[], None]  # one test evaluated: the work it takes is counted


class _Text(NamedTuple):
    parts: tuple[str | tuple[str, str], ...]  # text, or ("var", NAME) / (FUNCTION, argument word)

    def value(self, lookup: Lookup) -> str:
        out = []
        for part in self.parts:
            if isinstance(part, str):
                out.append(part)
            elif part[0] == "var":
                out.append(lookup.variable(part[1]) or "")
            else:
                out.append(_call(part[0], part[1], lookup))
        return "".join(out)


def _call(function: str, argument: str, lookup: Lookup) -> str:
    if function in ("reqenv", "env"):
        return lookup.env(argument)
    if function in ("req", "http"):
        return lookup.header(argument)
    return argument.lower() if function == "tolower" else argument.upper()


class _Word(NamedTuple):
    pieces: tuple[_Text | _Call, ...]  # concatenated

    def value(self, lookup: Lookup) -> str:
        return "".join(piece.value(lookup) for piece in self.pieces)


class _Call(NamedTuple):
    function: str
    argument: _Word

    def value(self, lookup: Lookup) -> str:
        return _call(self.function, self.argument.value(lookup), lookup)


class _Test(NamedTuple):
    kind: str  # "const", "not", "and", "or", "unary", "binary", "regex"
    op: str = ""
    left: _Word | _Test | None = None
    right: _Word | _Test | None = None
    regex: Regex | None = None
    const: bool = False

    def true(self, lookup: Lookup) -> bool:
        lookup.step()
        if self.kind == "const":
            return self.const
        if self.kind in ("not", "and", "or"):
            assert isinstance(self.left, _Test)
            if self.kind == "not":
                return not self.left.true(lookup)
            assert isinstance(self.right, _Test)
            if self.kind == "and":
                return self.left.true(lookup) and self.right.true(lookup)
            return self.left.true(lookup) or self.right.true(lookup)
        assert isinstance(self.left, _Word)
        left = self.left.value(lookup)
        if self.kind == "unary":
            return _unary(self.op, left, lookup)
        if self.kind == "regex":
            assert self.regex is not None
            found = self.regex.search(left)
            if found is not None:
                lookup.hit(left, found)
            return (found is not None) == (self.op == "=~")
        assert isinstance(self.right, _Word)
        return _binary(self.op, left, self.right.value(lookup), lookup)


def _unary(op: str, value: str, lookup: Lookup) -> bool:
    if op == "n":
        return value != ""
    if op == "z":
        return value == ""
    if op == "T":
        return value.lower() not in ("", "0", "off", "false", "no")
    return _in_network(lookup.address, value)  # -R


def _in_network(address: str, network: str) -> bool:
    try:
        return ipaddress.ip_address(address) in ipaddress.ip_network(network, strict=False)
    except ValueError:
        return False


def _binary(op: str, left: str, right: str, lookup: Lookup) -> bool:
    if op in ("==", "="):
        return left == right
    if op == "!=":
        return left != right
    if op == "ipmatch":
        return _in_network(left, right)
    if op == "strmatch":
        return fnmatch.fnmatchcase(left, right)
    return fnmatch.fnmatchcase(left.lower(), right.lower())  # strcmatch


_UNARY = frozenset({"n", "z", "R", "T"})
_BINARY = frozenset({"ipmatch", "strmatch", "strcmatch"})


class _Parser:
    def __init__(self, text: str, known: Callable[[str], bool]) -> None:
        self.text, self.at, self.depth, self.known = text, 0, 0, known

    def variable(self, name: str) -> tuple[str, str]:
        if not self.known(name):
            raise Unsupported(message("enforce.check.variable", variable=f"%{{{name}}}"))
        return "var", name

    def fail(self, what: str) -> Unsupported:
        return Unsupported(message("enforce.check.expression", what=what))

    def token(self, peek: bool = False) -> tuple[str, str]:
        """The next token as (kind, text): op, dash, var, word, quote, or ("end", "")."""
        found = _TOKEN.match(self.text, self.at)
        if found is None:
            if self.text[self.at :].strip():
                raise self.fail(self.text[self.at :].strip()[:20])
            return "end", ""
        kind = found.lastgroup or "end"
        if not peek:
            self.at = found.end()
        return kind, found.group(kind)

    def expression(self) -> _Test:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.fail("nesting")
        test = self.conjunction()
        while self.peek_op() == "||":
            self.token()
            test = _Test("or", left=test, right=self.conjunction())
        self.depth -= 1
        return test

    def peek_op(self) -> str:
        kind, text = self.token(peek=True)
        if kind == "word" and text in _WORD_OPS:
            return _WORD_OPS[text]
        return text if kind == "op" else ""

    def conjunction(self) -> _Test:
        test = self.negation()
        while self.peek_op() == "&&":
            self.token()
            test = _Test("and", left=test, right=self.negation())
        return test

    def negation(self) -> _Test:
        if self.peek_op() == "!":
            self.token()
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise self.fail("nesting")
            inner = self.negation()
            self.depth -= 1
            return _Test("not", left=inner)
        return self.comparison()

    def comparison(self) -> _Test:
        kind, text = self.token(peek=True)
        if kind == "op" and text == "(":
            self.token()
            test = self.expression()
            if self.token() != ("op", ")"):
                raise self.fail("a ( never closed")
            return test
        if kind == "word" and text in ("true", "false"):
            self.token()
            return _Test("const", const=text == "true")
        if kind == "dash":
            self.token()
            if text[1:] not in _UNARY:
                raise self.fail(text)
            return _Test("unary", op=text[1:], left=self.word())
        left = self.word()
        op = self.peek_op()
        kind, text = self.token(peek=True)
        if op in ("==", "=", "!="):
            self.token()
            return _Test("binary", op=op, left=left, right=self.word())
        if op in ("=~", "!~"):
            self.token()
            return _Test("regex", op=op, left=left, regex=self.regex())
        if kind == "dash" and text[1:] in _BINARY:
            self.token()
            return _Test("binary", op=text[1:], left=left, right=self.word())
        raise self.fail(text or "a comparison")

    def regex(self) -> Regex:
        rest = self.text[self.at :].lstrip()
        self.at = len(self.text) - len(rest)
        if rest[:1] == "/":
            stop, start = "/", 1
        elif rest[:1] == "m" and len(rest) > 1 and rest[1] in "/#$%^|?!'\",;:._-":
            stop, start = rest[1], 2
        else:
            raise self.fail("a regex")
        end = rest.find(stop, start)
        if end < 0:
            raise self.fail("a regex never closed")
        flags = re.match(r"[ismg]*", rest[end + 1 :])
        assert flags is not None
        self.at += end + 1 + flags.end()
        if set(flags.group()) - {"i"}:
            raise self.fail(f"regex flags {flags.group()}")
        return read(rest[start:end], PCRE, "i" in flags.group())

    def word(self) -> _Word:
        pieces = [self.piece()]
        while self.peek_op() == ".":
            self.token()
            pieces.append(self.piece())
        return _Word(tuple(pieces))

    def piece(self) -> _Text | _Call:
        kind, text = self.token()
        if kind == "var":
            return _Text((self.variable(text[2:-1]),))
        if kind == "quote":
            return self.string(text)
        if kind == "word" and text.isdigit():
            return _Text((text,))
        if kind == "word" and text in _FUNCTIONS and self.token(peek=True) == ("op", "("):
            self.token()
            argument = self.word()
            if self.token() != ("op", ")"):
                raise self.fail(f"{text}( never closed")
            return _Call(text, argument)
        raise self.fail(text or "an operand")

    def string(self, quote: str) -> _Text:
        parts: list[str | tuple[str, str]] = []
        text: list[str] = []
        while True:
            if self.at >= len(self.text):
                raise self.fail("a string never closed")
            char = self.text[self.at]
            self.at += 1
            if char == quote:
                break
            if char == "\\" and self.at < len(self.text):
                escaped = self.text[self.at]
                self.at += 1
                text.append(_STRING_ESCAPES.get(escaped, escaped))
            elif char == "%" and self.text.startswith("{", self.at):
                end = self.text.find("}", self.at)
                if end < 0:
                    raise self.fail("%{ never closed")
                parts += ["".join(text), self.variable(self.text[self.at + 1 : end])]
                text = []
                self.at = end + 1
            else:
                text.append(char)
        return _Text((*parts, "".join(text)))


Expression = _Test


def parse(text: str, known: Callable[[str], bool]) -> Expression:
    """An expression, ready to evaluate with `evaluate`; raises `Unsupported` for what robotscope does not read
    (a `%{VAR}` that `known` does not know among them)."""
    parser = _Parser(text, known)
    test = parser.expression()
    if parser.token() != ("end", ""):
        raise parser.fail(text[parser.at :].strip()[:20])
    return test


def evaluate(expression: Expression, lookup: Lookup) -> bool:
    return expression.true(lookup)
