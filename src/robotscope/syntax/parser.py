"""Turn robots.txt bytes or text into groups and lines, losslessly; never raise.

The grammar is RFC 9309, Section 2.2: lines end at LF, CRLF or CR; `#`
starts a comment; a record is `key: value` with a case-insensitive key; a
group is one or more `user-agent` lines followed by rules, and a
`user-agent` line after a rule starts a new group. The rules are Allow,
Disallow and the usage preferences (`directives.GROUP_RULE_KEYS`:
Content-Usage, a rule by the aipref attach draft, and Content-Signal);
other records (sitemap, crawl-delay, ...) do not end a run of `user-agent`
lines.

One generator, `records`, says what a record line is: `scan` uses it to
read the groups at parse time, and `read_lines` to build the lossless
per-line view on demand, so both read the same records by construction.
`str.partition` does the work: a regex, or a function call per line, is
several times slower here, and parsing is a hot path.

Problems in the content are data: every line keeps its kind, so a missing
colon or a rule outside any group is visible to the linter, never an error.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Mapping
from operator import itemgetter
from typing import NamedTuple

from .directives import GROUP_RULE_KEYS
from .model import Group, Line, LineKind, Record, Rule
from .tokens import group_token
from .urls import normalise

# RFC 9309, Section 2.5: crawlers must parse at least the first 500 KiB.
MAX_BYTES = 512_000

_BOM = "\ufeff"
_WS = " \t\x0b\x0c"
_KINDS = {
    "user-agent": LineKind.USER_AGENT,
    "allow": LineKind.ALLOW,
    "disallow": LineKind.DISALLOW,
    "sitemap": LineKind.SITEMAP,
}


class Decoded(NamedTuple):
    """Input decoded to text, with what `parse` needs to know about the bytes."""

    text: str  # the part that is parsed, line ends normalised to LF
    overflow: str  # the part past MAX_BYTES, line ends normalised to LF
    size: int  # bytes in the whole input
    invalid_utf8: bool  # some bytes were not UTF-8 (see `decode` for what they became)
    bom: bool
    encoding: str | None = None  # a UTF-16 or UTF-32 file, read (as crawlers read it) as UTF-8


# Byte order marks of the encodings crawlers do not read (RFC 9309, Section 2.3: UTF-8).
# UTF-32 first: its little-endian mark begins with UTF-16's.
_WIDE_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)


def wide_encoding(data: bytes) -> str | None:
    """The UTF-16/UTF-32 encoding `data` is saved in (by its BOM, or by its NUL bytes), else None.

    Without a BOM, ASCII text saved as UTF-16 has a NUL in every other
    byte: at odd positions for little-endian, even for big-endian (UTF-32:
    three of every four).
    """
    for bom, name in _WIDE_BOMS:
        if data.startswith(bom):
            return name
    sample = data[:512]
    if len(sample) < 4 or b"\x00" not in sample:
        return None
    quarter = len(sample) // 4
    for name, offset in (("utf-32-le", 1), ("utf-32-be", 0)):
        if all(sample[i : i + 2] == b"\x00\x00" for i in range(offset * 2, quarter * 4, 4)):
            return name
    half = len(sample) // 2
    odd = sum(1 for i in range(1, half * 2, 2) if sample[i] == 0)
    even = sum(1 for i in range(0, half * 2, 2) if sample[i] == 0)
    if odd >= half * 0.9 and even < half * 0.1:
        return "utf-16-le"
    if even >= half * 0.9 and odd < half * 0.1:
        return "utf-16-be"
    return None


def decode(data: str | bytes, errors: str = "replace", limit: int = MAX_BYTES) -> Decoded:
    """Decode input as UTF-8 and apply the parse limit.

    Bytes that are not UTF-8 become U+FFFD (`errors="replace"`, the text
    users see) or lone surrogates that keep each octet (`"surrogateescape"`,
    what rules are read from, so `/caf\xe9` is compared as `/caf%E9`). Only
    the first `limit` bytes (MAX_BYTES) are parsed, and a line cut by that
    limit is dropped whole: it goes to the overflow with everything after it.
    """
    if isinstance(data, str):
        if len(data) * 4 <= limit:
            # Cannot exceed the limit: no decoding round trip needed. A UTF-16 file that a
            # page decoded as UTF-8 (its BOM as U+FFFD, NULs kept) is still told by its NULs.
            start = data[:514].lstrip("\ufffd")  # the BOM's bytes, replaced
            wide = wide_encoding(start[:512].encode("utf-8", "surrogatepass")) if "\x00" in start else None
            return _finish(data, "", len(data.encode("utf-8", "surrogatepass")), False, wide)
        data = data.encode("utf-8", "surrogatepass")
    size = len(data)
    head, tail = data, b""
    if size > limit:
        head = data[:limit]
        cut = max(head.rfind(b"\n"), head.rfind(b"\r")) + 1
        if head.endswith(b"\r") and data[limit : limit + 1] == b"\n":
            cut += 1  # the CRLF ending the last kept line straddles the limit
        head, tail = data[:cut], data[cut:]
    try:
        text = head.decode("utf-8")
        invalid = False
    except UnicodeDecodeError:
        text = head.decode("utf-8", errors)
        invalid = True
    return _finish(text, tail.decode("utf-8", "replace"), size, invalid, wide_encoding(data))


def _finish(text: str, overflow: str, size: int, invalid: bool, encoding: str | None = None) -> Decoded:
    bom = text.startswith(_BOM)
    if bom:
        text = text[1:]
    return Decoded(_lf(text), _lf(overflow), size, invalid, bom, encoding)


def shown(value: str) -> str:
    """`value` as users see it: octets kept as lone surrogates (see `decode`) shown as U+FFFD."""
    if value.isascii():
        return value
    return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _lf(text: str) -> str:
    # LF, CRLF and CR end lines; the other breaks `str.splitlines` knows do not.
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def split_lines(text: str) -> list[str]:
    """Split LF-normalised text into lines; a final line end starts no new line."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def count_lines(text: str) -> int:
    """How many lines `split_lines(text)` would give, without building them."""
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


def records(lines: Iterable[str], first_number: int = 1, drop_empty: bool = False) -> Iterator[tuple[int, str, str]]:
    """Yield (number, key, value) of each record line: a colon before any `#`.

    Key and value are stripped, and the value ends at the first `#`.
    `drop_empty`: skip empty lines in C first (a gain only where most lines
    are empty, a loss on ordinary files).
    """
    numbered = enumerate(lines, first_number)
    for number, raw in filter(_RAW, numbered) if drop_empty else numbered:
        key, colon, rest = raw.partition(":")
        if colon and "#" not in key:
            yield number, key.strip(_WS), rest.partition("#")[0].strip(_WS)


_RAW = itemgetter(1)

# NamedTuple's generated __new__ costs twice as much, and rules are built by the
# hundred thousand when parsing a large file.
_new_tuple = tuple.__new__


class Scanned(NamedTuple):
    """The structure `scan` reads from the parsed text."""

    groups: tuple[Group, ...]
    sitemaps: tuple[Record, ...]
    records: tuple[Record, ...]


class GroupBuilder:
    """A group being read: its agents and user-agent lines, rules and records (every engine's parser fills these)."""

    __slots__ = ("agent_lines", "agents", "records", "rules")

    def __init__(self) -> None:
        self.agents: list[str] = []
        self.agent_lines: list[int] = []
        self.rules: list[Rule] = []
        self.records: list[Record] = []


def scan(text: str, octets: bool = False) -> Scanned:
    """Read the groups, sitemaps and other records of LF-normalised text.

    `octets`: the text was decoded with "surrogateescape" and may hold bytes
    that are not UTF-8; patterns are then matched by those octets while the
    values kept for display show U+FFFD.
    """
    builders: list[GroupBuilder] = []
    sitemaps: list[Record] = []
    others: list[Record] = []
    current: GroupBuilder | None = None
    seen_rule = False
    # The user-agent lines right above a record (crawl-delay, ...) are the crawlers it is
    # for, as in the standard library, Protego and the 1996 draft: any rule or record ends
    # that run, while the group (for Allow/Disallow) goes on under RFC 9309.
    run: tuple[str, ...] = ()
    in_run = False
    # Locals: an Enum member looked up on its class costs as much as the rest of a line.
    user_agent, sitemap, allow = LineKind.USER_AGENT, LineKind.SITEMAP, LineKind.ALLOW
    patterns: dict[str, str] = {}
    # Only a text past the parse limit (`Robots.without_limit`) is this large: a padded
    # hostile file's millions of empty lines are then dropped in C.
    for number, key, value in records(split_lines(text), drop_empty=len(text) > MAX_BYTES):
        kind = _KINDS.get(key.lower())
        if kind is user_agent:
            if current is None or seen_rule:
                current = GroupBuilder()
                builders.append(current)
                seen_rule = False
            token = group_token(value)
            if token is not None:
                current.agents.append(token)
            current.agent_lines.append(number)
            if not in_run:
                run, in_run = (), True
            if token is not None:
                run += (token,)
        elif kind is sitemap:
            # Sitemaps belong to the file, not to the group they stand in.
            sitemaps.append(Record("sitemap", shown(value) if octets else value, number, None))
        elif kind is None:
            # Interned: a few keys (crawl-delay, host, ...) recur in thousands of lines.
            in_run = False
            if octets:
                key, value = shown(key), shown(value)
            other = Record(sys.intern(key.lower()), value, number, None if current is None else len(builders) - 1, run)
            others.append(other)
            if current is not None:
                current.records.append(other)
                if other.key in GROUP_RULE_KEYS:
                    seen_rule = True  # a usage preference is a rule of the group: the next user-agent starts one
        elif current is not None:
            # RFC 9309, Section 2.1: a rule before any user-agent line belongs to no group.
            seen_rule = True
            in_run = False
            # normalise(value), with its fast path inlined: most patterns are plain ASCII.
            plain = value.isascii() and value.isprintable() and " " not in value and "%" not in value
            # One string per distinct pattern: bad-bot lists repeat the same rules in every group.
            value = patterns.setdefault(value, value)
            normalised = value if plain else normalise(value)
            if octets and not plain:
                value = shown(value)  # the octets live on in `normalised` (%F0, not %EF%BF%BD)
            current.rules.append(_new_tuple(Rule, (kind is allow, value, number, normalised)))
    groups = tuple(
        Group(i, tuple(b.agents), tuple(b.agent_lines), tuple(b.rules), tuple(b.records))
        for i, b in enumerate(builders)
    )
    return Scanned(groups, tuple(sitemaps), tuple(others))


_BLANK: tuple[LineKind, None, None, None] = (LineKind.BLANK, None, None, None)


def classify(raw: str) -> tuple[LineKind, str | None, str | None, str | None]:
    """Return one line's (kind, key, value, comment).

    Without a colon, `key` and `value` are the line's first word and the
    rest, so the linter can show what the line would have meant.
    """
    if not raw or raw.isspace():
        return _BLANK  # most lines of a padded or hostile file: no work, no new tuple
    hash_pos = raw.find("#")
    comment = None if hash_pos < 0 else raw[hash_pos + 1 :]
    for _, key, value in records((raw,)):
        return _KINDS.get(key.lower(), LineKind.OTHER), key, value, comment
    words = (raw if hash_pos < 0 else raw[:hash_pos]).split(None, 1)
    if not words:
        return LineKind.BLANK, None, None, comment
    return LineKind.INVALID, words[0], words[1].strip(_WS) if len(words) > 1 else "", comment


def read_lines(text: str, first_number: int, group_of: Mapping[int, int]) -> tuple[Line, ...]:
    """Build the lossless per-line view of LF-normalised text.

    `group_of` maps the numbers of lines that belong to a group to its index.
    """
    return tuple(
        Line(number, raw, *classify(raw), group_of.get(number))
        for number, raw in enumerate(split_lines(text), start=first_number)
    )
