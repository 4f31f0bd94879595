"""A server's regex read as the server reads it, and matched with Python's `re`, bounded.

nginx, Apache, HAProxy and lighttpd hand their regexes to PCRE; Caddy to
Go's RE2. Python's `re` agrees with both on what the regexes in server
configurations use, once a few spellings are translated (`\\x{263a}`, `\\z`,
`\\Z`, `(?<name>`, POSIX classes, flags set in mid-pattern, which PCRE applies
to the rest of the group) and `re.ASCII` is set: PCRE without UCP and RE2
read `\\b`, `\\w`, `\\d`, `\\s` over ASCII only. RE2's `$` is the end of the
text (PCRE's and Python's also match before a final newline).

What `re` would read otherwise, or what the server itself rejects, is
refused with the reason (the configuration part is then reported as not
evaluated): backreferences, recursion, conditionals, verbs, `\\p{..}`; and,
for RE2, lookarounds, atomic groups and possessive repetition.

Python's `re` backtracks, so a regex is evaluated only when its cost is
bounded: at most `MAX_REPEATS` unbounded repetitions (`*`, `+`, `{n,}` or
more than `BOUND`), a repetition inside a repeated group at most
`MAX_PRODUCT` times, and inside a repeated group only alternatives that
begin with different characters (`(?:[^%]|%..)*` is fine, `(a|a)*` is not).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ....messages import Message, message

PCRE = "pcre"
RE2 = "re2"

MAX_LENGTH = 65_536  # characters of one regex
MAX_REPEATS = 3
BOUND = 16  # a repetition of more than this counts as unbounded
MAX_PRODUCT = 256
MAX_DEPTH = 50  # groups inside groups

_ASCII = frozenset(range(128))
_DIGITS = frozenset(range(48, 58))
_WORD = frozenset([*range(48, 58), *range(65, 91), *range(97, 123), 95])
_SPACE = frozenset([9, 10, 11, 12, 13, 32])
_POSIX = {
    "alpha": frozenset([*range(65, 91), *range(97, 123)]),
    "digit": _DIGITS,
    "alnum": frozenset([*range(48, 58), *range(65, 91), *range(97, 123)]),
    "upper": frozenset(range(65, 91)),
    "lower": frozenset(range(97, 123)),
    "space": _SPACE,
    "blank": frozenset([9, 32]),
    "punct": frozenset(c for c in range(33, 127) if not chr(c).isalnum()),
    "xdigit": frozenset([*range(48, 58), *range(65, 71), *range(97, 103)]),
    "word": _WORD,
    "cntrl": frozenset([*range(32), 127]),
    "print": frozenset(range(32, 127)),
    "graph": frozenset(range(33, 127)),
    "ascii": _ASCII,
}
_SHORTHANDS = {"d": (_DIGITS, False), "w": (_WORD, False), "s": (_SPACE, False)}
_CONTROL = {"n": 10, "r": 13, "t": 9, "f": 12, "a": 7, "e": 27}
_NO_ESCAPE = {PCRE: "", RE2: "e"}  # control escapes a flavour does not have (RE2 has no \e)


class Unsupported(Exception):
    """A regex that is not evaluated: `reason` says why."""

    def __init__(self, reason: Message) -> None:
        super().__init__(reason.code)
        self.reason = reason


class _Chars(NamedTuple):
    """One character: its Python spelling, the ASCII codes it may be, and whether it may be something else."""

    py: str
    codes: frozenset[int]
    other: bool


class _Assert(NamedTuple):
    py: str


class _Repeat(NamedTuple):
    node: _Node
    low: int
    high: int | None  # None: unbounded
    py: str  # the quantifier as Python writes it


class _Group(NamedTuple):
    opening: str  # `(?:`, `(?=`, `(?>`, ...
    body: _Alt
    look: bool  # a lookaround: matches no characters of its own


class _Alt(NamedTuple):
    branches: tuple[tuple[_Node, ...], ...]


_Node = _Chars | _Assert | _Repeat | _Group


class _Mode(NamedTuple):
    icase: bool
    dotall: bool = False
    multiline: bool = False


def _folded(codes: frozenset[int], icase: bool) -> frozenset[int]:
    if not icase:
        return codes
    return codes | {ord(chr(c).swapcase()) for c in codes if chr(c).isalpha()}


def _char_py(code: int) -> str:
    """One character as a regex literal Python reads alike inside and outside a class."""
    char = chr(code)
    if char.isascii() and char.isalnum():
        return char
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


class _Reader:
    """A recursive-descent reader of one regex in a flavour's syntax, into nodes Python can write."""

    def __init__(self, text: str, flavour: str, base: _Mode) -> None:
        self.text, self.flavour, self.at, self.base, self.depth = text, flavour, 0, base, 0

    def fail(self, code: str, **params: object) -> Unsupported:
        return Unsupported(message(code, **params))

    def peek(self, ahead: int = 0) -> str:
        at = self.at + ahead
        return self.text[at] if at < len(self.text) else ""

    def alternation(self, mode: _Mode, closing: bool) -> _Alt:
        branches: list[tuple[_Node, ...]] = []
        items: list[_Node] = []
        while True:
            char = self.peek()
            if not char or (char == ")" and closing):
                branches.append(tuple(items))
                return _Alt(tuple(branches))
            if char == ")":
                raise self.fail("enforce.check.regex.syntax", what="unmatched )")
            if char == "|":
                self.at += 1
                branches.append(tuple(items))
                items = []
                continue
            if char == "(" and self.peek(1) == "?" and self._flags_only():
                mode = self._set_flags(mode)  # applies to the rest of the group, later alternatives included
                continue
            node = self.atom(mode)
            if node is not None:
                items.append(self.quantified(node))

    def _flags_only(self) -> bool:
        return re.match(r"\(\?[a-zA-Z]*(?:-[a-zA-Z]*)?\)", self.text[self.at :]) is not None

    def _set_flags(self, mode: _Mode) -> _Mode:
        found = re.match(r"\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?\)", self.text[self.at :])
        assert found is not None
        self.at += found.end()
        return self._flagged(mode, found.group(1), found.group(2) or "")

    def _flagged(self, mode: _Mode, on: str, off: str) -> _Mode:
        known = "imsUJn" if self.flavour == PCRE else "imsU"
        for flag in on + off:
            if flag not in known:
                raise self.fail("enforce.check.regex.flag", flag=flag)
        return _Mode(
            icase=("i" in on) or (mode.icase and "i" not in off),
            dotall=("s" in on) or (mode.dotall and "s" not in off),
            multiline=("m" in on) or (mode.multiline and "m" not in off),
        )

    def quantified(self, node: _Node) -> _Node:
        found = re.match(r"(?:([*+?])|\{(\d{1,5})(?:(,)(\d{0,5}))?\})([?+]?)", self.text[self.at :])
        if found is None:
            return node
        if isinstance(node, _Assert) or (isinstance(node, _Group) and node.look):
            raise self.fail("enforce.check.regex.syntax", what="a repeated assertion")
        self.at += found.end()
        symbol, low_text, comma, high_text, suffix = found.groups()
        if suffix == "+" and self.flavour == RE2:
            raise self.fail("enforce.check.regex.re2", what="possessive repetition")
        if symbol:
            low, high = {"*": (0, None), "+": (1, None), "?": (0, 1)}[symbol]
        else:
            low = int(low_text)
            high = low if not comma else (int(high_text) if high_text else None)
            if high is not None and high < low:
                raise self.fail("enforce.check.regex.syntax", what="a repetition {n,m} with m below n")
        py = symbol or (f"{{{low}}}" if not comma else f"{{{low},{'' if high is None else high}}}")
        return _Repeat(node, low, high, py + suffix)

    def atom(self, mode: _Mode) -> _Node | None:
        char = self.peek()
        self.at += 1
        if char == "(":
            return self.group(mode)
        if char == "[":
            return self.char_class(mode)
        if char == "\\":
            return self.escape(mode)
        if char == ".":
            py = "(?s:.)" if mode.dotall else "[^\\n]"
            return _Chars(py, _ASCII if mode.dotall else _ASCII - {10}, True)
        if char == "^":
            return _Assert("(?m:^)" if mode.multiline else "^")
        if char == "$":
            if mode.multiline:
                return _Assert("(?m:$)")
            return _Assert("\\Z" if self.flavour == RE2 else "$")
        if char in "*+?":
            raise self.fail("enforce.check.regex.syntax", what=f"`{char}` with nothing to repeat")
        if char == "{" and re.match(r"\d{1,5}(?:,\d{0,5})?\}", self.text[self.at :]):
            raise self.fail("enforce.check.regex.syntax", what="`{` with nothing to repeat")
        return self.literal(ord(char), mode)

    def literal(self, code: int, mode: _Mode) -> _Chars:
        codes = _folded(frozenset({code}) if code < 128 else frozenset(), mode.icase)
        other = code >= 128
        return _Chars(self.scoped(_char_py(code), mode), codes, other)

    def scoped(self, py: str, mode: _Mode) -> str:
        """`py` read with the mode's case, where it differs from the case the whole regex is compiled with."""
        if mode.icase == self.base.icase:
            return py
        return f"(?i:{py})" if mode.icase else f"(?-i:{py})"

    def group(self, mode: _Mode) -> _Node | None:
        if self.depth >= MAX_DEPTH:
            raise self.fail("enforce.check.regex.deep", depth=MAX_DEPTH)
        rest = self.text[self.at :]
        opening, look, inner = "(?:", False, mode
        if rest.startswith("?#"):
            end = rest.find(")")
            if end < 0:
                raise self.fail("enforce.check.regex.syntax", what="an unclosed comment")
            self.at += end + 1
            return None
        if rest.startswith("?"):
            named = re.match(r"\?(?:P?<([A-Za-z_]\w*)>|'([A-Za-z_]\w*)')", rest)
            scoped = re.match(r"\?([a-zA-Z]*)(?:-([a-zA-Z]*))?:", rest)
            for prefix, python in (("?:", "(?:"), ("?=", "(?="), ("?!", "(?!"), ("?<=", "(?<="), ("?<!", "(?<!")):
                if rest.startswith(prefix):
                    opening, look = python, prefix not in ("?:",)
                    self.at += len(prefix)
                    break
            else:
                if rest.startswith("?>"):
                    opening = "(?>"
                    self.at += 2
                elif named is not None and not (named.group(2) and self.flavour == RE2):
                    self.at += named.end()  # captures are never read: a plain group
                elif scoped is not None:
                    self.at += scoped.end()
                    inner = self._flagged(mode, scoped.group(1), scoped.group(2) or "")
                else:
                    raise self.fail("enforce.check.regex.construct", what=f"({rest[:3]}")
            if (look or opening == "(?>") and self.flavour == RE2:
                raise self.fail("enforce.check.regex.re2", what="lookarounds and atomic groups")
        elif rest.startswith("*"):
            raise self.fail("enforce.check.regex.construct", what="(*VERB)")
        self.depth += 1
        body = self.alternation(inner, closing=True)
        self.depth -= 1
        if self.peek() != ")":
            raise self.fail("enforce.check.regex.syntax", what="an unclosed (")
        self.at += 1
        return _Group(opening, body, look)

    def escape(self, mode: _Mode) -> _Node:
        char = self.peek()
        self.at += 1
        if not char:
            raise self.fail("enforce.check.regex.syntax", what="a \\ at the end")
        if char in "bB":
            return _Assert("\\" + char)
        if char == "A":
            return _Assert("\\A")
        if char == "z":
            return _Assert("\\Z")
        if char == "Z" and self.flavour == PCRE:
            return _Assert("(?=\\n?\\Z)")
        if char == "Q":
            end = self.text.find("\\E", self.at)
            quoted = self.text[self.at : end if end >= 0 else len(self.text)]
            self.at = len(self.text) if end < 0 else end + 2
            return _Group("(?:", _Alt((tuple(self.literal(ord(c), mode) for c in quoted),)), False)
        if char == "E":
            return _Group("(?:", _Alt(((),)), False)  # a \E with no \Q: nothing
        found = self.class_escape(char, mode)
        if isinstance(found, int):
            return self.literal(found, mode)
        return found

    def class_escape(self, char: str, mode: _Mode) -> int | _Chars:
        """An escape that stands for characters: one code, or a shorthand class (`\\d`, `\\W`)."""
        if char.lower() in _SHORTHANDS:
            codes, _ = _SHORTHANDS[char.lower()]
            if char.isupper():
                return _Chars("\\" + char, _ASCII - codes, True)
            return _Chars("\\" + char, codes, False)
        if char in _CONTROL and char not in _NO_ESCAPE[self.flavour]:
            return _CONTROL[char]
        if char == "v":
            if self.flavour == RE2:
                return 11
            return _Chars("[\\n\\x0b\\x0c\\r\\x85\\u2028\\u2029]", frozenset([10, 11, 12, 13]), True)
        if char == "h" and self.flavour == PCRE:
            return _Chars("[\\t\\x20\\xa0\\u1680\\u180e\\u2000-\\u200a\\u202f\\u205f\\u3000]", frozenset([9, 32]), True)
        if char == "N" and self.flavour == PCRE and self.peek() != "{":
            return _Chars("[^\\n]", _ASCII - {10}, True)
        if char == "x":
            return self.hex_escape()
        if char == "c" and self.flavour == PCRE and self.peek():
            self.at += 1
            return ord(self.text[self.at - 1].upper()) ^ 0x40
        if char == "0" and self.flavour == PCRE:
            digits = re.match(r"[0-7]{0,2}", self.text[self.at :])
            assert digits is not None
            self.at += digits.end()
            return int("0" + digits.group(), 8)
        if char.isascii() and char.isalnum():
            raise self.fail("enforce.check.regex.construct", what="\\" + char)
        return ord(char)

    def hex_escape(self) -> int:
        rest = self.text[self.at :]
        wide = re.match(r"\{([0-9A-Fa-f]{1,8})\}", rest)
        if wide is not None:
            self.at += wide.end()
            code = int(wide.group(1), 16)
            if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
                raise self.fail("enforce.check.regex.syntax", what="a character code past Unicode")
            return code
        short = re.match(r"[0-9A-Fa-f]{2}" if self.flavour == RE2 else r"[0-9A-Fa-f]{0,2}", rest)
        if short is None:
            raise self.fail("enforce.check.regex.syntax", what="\\x without two hexadecimal digits")
        self.at += short.end()
        return int(short.group() or "0", 16)

    def char_class(self, mode: _Mode) -> _Chars:
        negated = self.peek() == "^"
        self.at += negated
        parts: list[str] = []
        codes: set[int] = set()
        other = False
        first = True
        while True:
            char = self.peek()
            if not char:
                raise self.fail("enforce.check.regex.syntax", what="an unclosed [")
            if char == "]" and not first:
                self.at += 1
                break
            first = False
            posix = re.match(r"\[:(\^?)([a-z]+):\]", self.text[self.at :])
            if posix is not None:
                if posix.group(2) not in _POSIX:
                    raise self.fail("enforce.check.regex.construct", what=posix.group())
                self.at += posix.end()
                chosen = _POSIX[posix.group(2)]
                if posix.group(1):
                    chosen, other = _ASCII - chosen, True
                    parts.append("\\x80-\\U0010ffff")
                parts += [_char_py(c) for c in sorted(chosen)]
                codes |= chosen
                continue
            low = self.class_member(mode)
            if isinstance(low, _Chars):
                parts.append(low.py)
                codes |= low.codes
                other = other or low.other
                continue
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.at += 1
                high = self.class_member(mode)
                if isinstance(high, _Chars) or high < low:
                    raise self.fail("enforce.check.regex.syntax", what="a bad range in [...]")
                parts.append(f"{_char_py(low)}-{_char_py(high)}")
                codes |= set(range(low, min(high, 127) + 1)) if low < 128 else set()
                other = other or high >= 128
            else:
                parts.append(_char_py(low))
                codes |= {low} if low < 128 else set()
                other = other or low >= 128
        codes = set(_folded(frozenset(codes), mode.icase))
        if negated:
            return _Chars(self.scoped(f"[^{''.join(parts)}]", mode), _ASCII - frozenset(codes), True)
        return _Chars(self.scoped(f"[{''.join(parts)}]", mode), frozenset(codes), other)

    def class_member(self, mode: _Mode) -> int | _Chars:
        char = self.peek()
        self.at += 1
        if char != "\\":
            return ord(char)
        escaped = self.peek()
        self.at += 1
        if escaped == "b":
            return 8  # backspace, inside a class
        if not escaped:
            raise self.fail("enforce.check.regex.syntax", what="an unclosed [")
        return self.class_escape(escaped, mode)


def _first(items: tuple[_Node, ...]) -> tuple[frozenset[int], bool] | None:
    """The characters a branch can begin with (ASCII codes, and whether others), or None when unknown."""
    for item in items:
        if isinstance(item, _Chars):
            return item.codes, item.other
        if isinstance(item, _Assert):
            continue
        if isinstance(item, _Group):
            if item.look:
                return None
            starts = [_first(branch) for branch in item.body.branches]
            if any(start is None for start in starts):
                return None
            return frozenset().union(*(s[0] for s in starts if s)), any(s[1] for s in starts if s)
        if item.low == 0:
            return None
        return _first((item.node,))
    return None  # an empty branch


def _walk(node: _Node | _Alt) -> list[_Node | _Alt]:
    """`node` and every node inside it."""
    found: list[_Node | _Alt] = []
    stack: list[_Node | _Alt] = [node]
    while stack:
        item = stack.pop()
        found.append(item)
        if isinstance(item, _Alt):
            stack += [child for branch in item.branches for child in branch]
        elif isinstance(item, _Group):
            stack.append(item.body)
        elif isinstance(item, _Repeat):
            stack.append(item.node)
    return found


def _weight(repeat: _Repeat) -> float:
    return float("inf") if repeat.high is None else float(repeat.high)


def _check_cost(tree: _Alt) -> None:
    """Raise `Unsupported` for a regex whose matching `re` could not finish in bounded time."""
    nodes = _walk(tree)
    repeats = [node for node in nodes if isinstance(node, _Repeat)]
    unbounded = sum(1 for node in repeats if _weight(node) > BOUND)
    if unbounded > MAX_REPEATS:
        raise Unsupported(message("enforce.check.regex.repeats", count=unbounded, limit=MAX_REPEATS))
    for repeat in repeats:
        if _weight(repeat) <= 1:
            continue
        inside = _walk(repeat.node)[1:]
        for inner in inside:
            if isinstance(inner, _Repeat) and _weight(inner) > 1 and _weight(inner) * _weight(repeat) > MAX_PRODUCT:
                raise Unsupported(message("enforce.check.regex.nested"))
            if isinstance(inner, _Alt) and len(inner.branches) > 1:
                starts = [_first(branch) for branch in inner.branches]
                seen: set[int] = set()
                others = 0
                for start in starts:
                    if start is None or seen & start[0]:
                        raise Unsupported(message("enforce.check.regex.overlap"))
                    seen |= start[0]
                    others += start[1]
                if others > 1:
                    raise Unsupported(message("enforce.check.regex.overlap"))


def _python(node: _Node | _Alt) -> str:
    if isinstance(node, _Alt):
        return "|".join("".join(_python(item) for item in branch) for branch in node.branches)
    if isinstance(node, _Chars | _Assert):
        return node.py
    if isinstance(node, _Group):
        return f"{node.opening}{_python(node.body)})"
    return _python(node.node) + node.py  # a repeated node is one atom: a character, a class or a group


class Regex:
    """A server's regex, ready to search with: `search` gives the text it matched (None: no match), remembered."""

    __slots__ = ("_compiled", "_memo", "icase", "source")

    def __init__(self, source: str, compiled: re.Pattern[str], icase: bool) -> None:
        self.source, self._compiled, self.icase = source, compiled, icase
        self._memo: dict[str, str | None] = {}

    def search(self, subject: str) -> str | None:
        if subject in self._memo:
            return self._memo[subject]
        found = self._compiled.search(subject)
        result = None if found is None else found.group()
        self._memo[subject] = result
        return result


def read(pattern: str, flavour: str, icase: bool = False) -> Regex:
    """`pattern` as `flavour` (PCRE or RE2) reads it, case-insensitively with `icase`; raises `Unsupported`."""
    if len(pattern) > MAX_LENGTH:
        raise Unsupported(message("enforce.check.regex.long", limit=MAX_LENGTH))
    lead = re.match(r"\(\?([a-zA-Z]+)\)", pattern)
    base = _Mode(icase)
    reader = _Reader(pattern, flavour, base)
    if lead is not None:
        base = reader._flagged(base, lead.group(1), "")
        reader = _Reader(pattern, flavour, base)
        reader.at = lead.end()
    tree = reader.alternation(base, closing=False)
    _check_cost(tree)
    flags = re.ASCII | (re.IGNORECASE if base.icase else 0)
    try:
        compiled = re.compile(_python(tree), flags)
    except (re.error, OverflowError, RecursionError, ValueError) as error:
        raise Unsupported(message("enforce.check.regex.python", error=str(error))) from None
    return Regex(pattern, compiled, base.icase)
