"""RFC 9651 Structured Field Values: the Dictionary parser and serializer that usage preferences need.

`parse_dictionary(text)` (and `parse_item`) follows RFC 9651, Section 4.2 step by step
(4.2.2 Dictionaries, 4.2.3 Items, 4.2.1.2 Inner Lists, 4.2.3.2 Parameters,
4.2.4-4.2.10 the bare items): keys are lower-case (`A=1` fails the whole
field), the last of duplicate keys wins in the first one's place, and any
failure fails the whole field: the answer is then None, never an exception.
`serialize_dictionary` is Section 4.1.2 for the values robotscope writes;
`serialize_member` is Section 4.1 for any member the parser returns (what an
HTTP message signature covers: RFC 9421, Sections 2.1.2 and 2.3).
Imports nothing from robotscope.
"""

from __future__ import annotations

import base64
import binascii
from decimal import Decimal
from typing import NamedTuple

_LCALPHA = "abcdefghijklmnopqrstuvwxyz"
_DIGIT = "0123456789"
_ALPHA = _LCALPHA + _LCALPHA.upper()
_KEY_FIRST = _LCALPHA + "*"
_KEY_REST = _LCALPHA + _DIGIT + "_-.*"
_TCHAR = _ALPHA + _DIGIT + "!#$%&'*+-.^_`|~"
_TOKEN_REST = _TCHAR + ":/"
_BASE64 = _ALPHA + _DIGIT + "+/="


class Token(str):
    """An sf-token (RFC 9651, Section 3.3.4), told apart from an sf-string."""

    __slots__ = ()


class Date(int):
    """An sf-date (RFC 9651, Section 3.3.7): seconds since the epoch."""

    __slots__ = ()


class DisplayString(str):
    """An sf-displaystring (RFC 9651, Section 3.3.8)."""

    __slots__ = ()


BareItem = int | Decimal | str | Token | bytes | bool | Date | DisplayString
Parameters = dict[str, BareItem]


class Item(NamedTuple):
    value: BareItem
    params: Parameters


class InnerList(NamedTuple):
    items: list[Item]
    params: Parameters


Member = Item | InnerList


class _Fail(Exception):
    """Parsing failed: the whole field is ignored (RFC 9651, Section 4.2)."""


class _Input:
    __slots__ = ("pos", "text")

    def __init__(self, text: str) -> None:
        self.text, self.pos = text, 0

    def peek(self) -> str:
        return self.text[self.pos : self.pos + 1]

    def take(self) -> str:
        char = self.peek()
        self.pos += 1
        return char

    def empty(self) -> bool:
        return self.pos >= len(self.text)

    def skip(self, chars: str) -> None:
        while not self.empty() and self.text[self.pos] in chars:
            self.pos += 1


def parse_dictionary(text: str) -> dict[str, Member] | None:
    """The Dictionary in `text`, or None when it is not one (the field is then ignored)."""
    source = _Input(text.strip(" "))  # Section 4.2, step 2: leading and trailing SP are discarded
    try:
        if not text.isascii():
            raise _Fail  # Section 4.2, step 1: the field is ASCII
        members: dict[str, Member] = {}
        while not source.empty():
            key = _key(source)
            if source.peek() == "=":
                source.take()
                member = _item_or_inner_list(source)
            else:
                member = Item(True, _parameters(source))
            members[key] = member  # a duplicate overwrites the value, keeping the first's place
            source.skip(" \t")
            if source.empty():
                break
            if source.take() != ",":
                raise _Fail
            source.skip(" \t")
            if source.empty():
                raise _Fail  # a trailing comma
        return members
    except _Fail:
        return None


def parse_item(text: str) -> Item | None:
    """The Item in `text` (RFC 9651, Section 4.2 with the field type Item), or None when it is not one."""
    source = _Input(text.strip(" "))
    try:
        if not text.isascii():
            raise _Fail
        item = Item(_bare_item(source), _parameters(source))
        if not source.empty():
            raise _Fail  # Section 4.2, step 6: nothing may follow
        return item
    except _Fail:
        return None


def _key(source: _Input) -> str:
    if source.peek() == "" or source.peek() not in _KEY_FIRST:
        raise _Fail
    start = source.pos
    source.take()
    source.skip(_KEY_REST)
    return source.text[start : source.pos]


def _item_or_inner_list(source: _Input) -> Member:
    if source.peek() == "(":
        return _inner_list(source)
    return Item(_bare_item(source), _parameters(source))


def _inner_list(source: _Input) -> InnerList:
    source.take()
    items: list[Item] = []
    while not source.empty():
        source.skip(" ")
        if source.peek() == ")":
            source.take()
            return InnerList(items, _parameters(source))
        items.append(Item(_bare_item(source), _parameters(source)))
        if source.peek() not in (" ", ")"):
            raise _Fail
    raise _Fail  # no closing parenthesis


def _parameters(source: _Input) -> Parameters:
    params: Parameters = {}
    while source.peek() == ";":
        source.take()
        source.skip(" ")
        key = _key(source)
        value: BareItem = True
        if source.peek() == "=":
            source.take()
            value = _bare_item(source)
        params[key] = value
    return params


def _bare_item(source: _Input) -> BareItem:
    first = source.peek()
    if first == "-" or (first != "" and first in _DIGIT):
        return _number(source)
    if first == '"':
        return _string(source)
    if first == "*" or (first != "" and first in _ALPHA):
        return _token(source)
    if first == ":":
        return _bytes(source)
    if first == "?":
        return _boolean(source)
    if first == "@":
        source.take()
        number = _number(source)
        if not isinstance(number, int):
            raise _Fail
        return Date(number)
    if first == "%":
        return _display_string(source)
    raise _Fail


def _number(source: _Input) -> int | Decimal:
    sign = 1
    if source.peek() == "-":
        source.take()
        sign = -1
    if source.empty() or source.peek() not in _DIGIT:
        raise _Fail
    digits, decimal = "", False
    while not source.empty():
        char = source.peek()
        if char in _DIGIT:
            digits += source.take()
        elif char == "." and not decimal:
            if len(digits) > 12:
                raise _Fail
            digits += source.take()
            decimal = True
        else:
            break
        if len(digits) > (16 if decimal else 15):
            raise _Fail
    if not decimal:
        return sign * int(digits)
    if digits.endswith(".") or len(digits.split(".")[1]) > 3:
        raise _Fail
    return sign * Decimal(digits)


def _string(source: _Input) -> str:
    source.take()
    out = []
    while not source.empty():
        char = source.take()
        if char == "\\":
            escaped = source.take()
            if escaped not in ('"', "\\"):
                raise _Fail
            out.append(escaped)
        elif char == '"':
            return "".join(out)
        elif not " " <= char <= "~":
            raise _Fail
        else:
            out.append(char)
    raise _Fail  # no closing quote


def _token(source: _Input) -> Token:
    start = source.pos
    source.take()
    source.skip(_TOKEN_REST)
    return Token(source.text[start : source.pos])


def _bytes(source: _Input) -> bytes:
    source.take()
    start = source.pos
    source.skip(_BASE64)
    if source.take() != ":":
        raise _Fail
    encoded = source.text[start : source.pos - 1]
    try:
        # Section 4.2.7: parsers SHOULD NOT fail when the `=` padding is missing.
        return base64.b64decode(encoded + "=" * (-len(encoded) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise _Fail from None


def _boolean(source: _Input) -> bool:
    source.take()
    char = source.take()
    if char not in ("0", "1"):
        raise _Fail
    return char == "1"


def _display_string(source: _Input) -> DisplayString:
    source.take()
    if source.take() != '"':
        raise _Fail
    octets = bytearray()
    while not source.empty():
        char = source.take()
        if char == "%":
            pair = source.text[source.pos : source.pos + 2]
            source.pos += 2
            if len(pair) != 2 or any(c not in "0123456789abcdef" for c in pair):
                raise _Fail
            octets.append(int(pair, 16))
        elif char == '"':
            try:
                return DisplayString(octets.decode("utf-8"))
            except UnicodeDecodeError:
                raise _Fail from None
        elif not " " <= char <= "~":
            raise _Fail
        else:
            octets += char.encode("ascii")
    raise _Fail


def serialize_dictionary(members: dict[str, bool | Token]) -> str:
    """A Dictionary of tokens and booleans (what usage preferences hold), as RFC 9651, Section 4.1.2 writes it."""
    out = []
    for key, value in members.items():
        if not key or key[0] not in _KEY_FIRST or any(c not in _KEY_REST for c in key[1:]):
            raise ValueError(f"not a dictionary key: {key!r}")
        if value is True:
            out.append(key)
        elif isinstance(value, bool):
            out.append(f"{key}=?0")
        elif value and value[0] in _ALPHA + "*" and all(c in _TOKEN_REST for c in value[1:]):
            out.append(f"{key}={value}")
        else:
            raise ValueError(f"not a token: {value!r}")
    return ", ".join(out)


def serialize_member(member: Member) -> str:
    """A Dictionary member's value as RFC 9651, Section 4.1 writes it (4.1.1.1 Inner Lists, 4.1.3 Items).

    Raises ValueError for what no field can hold (a string outside printable ASCII, a number out of
    range, a key that is not one): a member the parser returned always serializes.
    """
    if isinstance(member, InnerList):
        inner = " ".join(_serialize_bare(item.value) + _serialize_params(item.params) for item in member.items)
        return f"({inner}){_serialize_params(member.params)}"
    return _serialize_bare(member.value) + _serialize_params(member.params)


def _serialize_params(params: Parameters) -> str:
    out = []
    for key, value in params.items():
        if not key or key[0] not in _KEY_FIRST or any(c not in _KEY_REST for c in key[1:]):
            raise ValueError(f"not a parameter key: {key!r}")
        out.append(f";{key}" if value is True else f";{key}={_serialize_bare(value)}")
    return "".join(out)


def _serialize_bare(value: BareItem) -> str:
    # Subclasses before their bases: bool and Date are ints, Token and DisplayString are strs.
    if isinstance(value, bool):
        return "?1" if value else "?0"
    if isinstance(value, Date):
        return "@" + _serialize_integer(value)
    if isinstance(value, int):
        return _serialize_integer(value)
    if isinstance(value, Decimal):
        return _serialize_decimal(value)
    if isinstance(value, Token):
        if not value or value[0] not in _ALPHA + "*" or any(c not in _TOKEN_REST for c in value[1:]):
            raise ValueError(f"not a token: {value!r}")
        return str(value)
    if isinstance(value, DisplayString):
        escaped = "".join(
            c if " " <= c <= "~" and c not in '%"' else "".join(f"%{b:02x}" for b in c.encode("utf-8")) for c in value
        )
        return f'%"{escaped}"'
    if isinstance(value, str):
        if any(not " " <= c <= "~" for c in value):
            raise ValueError(f"not an sf-string: {value!r}")
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return ":" + base64.b64encode(value).decode("ascii") + ":"


def _serialize_integer(value: int) -> str:
    if abs(value) > 999_999_999_999_999:
        raise ValueError(f"integer out of range: {value}")
    return str(value)


def _serialize_decimal(value: Decimal) -> str:
    # Section 4.1.5: rounded to three fractional digits (half to even), at least one written.
    rounded = value.quantize(Decimal("0.001"))
    if abs(rounded) >= Decimal(10) ** 12:
        raise ValueError(f"decimal out of range: {value}")
    text = f"{rounded:f}".rstrip("0")
    return text + "0" if text.endswith(".") else text
