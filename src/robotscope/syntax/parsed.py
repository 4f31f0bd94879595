"""`ParsedFile`: a robots.txt file read once, losslessly; it answers no question.

It keeps every line of the file with its number and kind, the groups with
their rules, the sitemaps and other records, and a bounded memo in which the
layers above keep what they derive from the file (an engine's reading of it,
a crawler's rule set), so that nothing is read twice. Deciding access is the
access layer's (`robotscope.access.robots.Robots` is a `ParsedFile` that
answers); nothing here knows of engines, crawlers' profiles or verdicts.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from .model import Group, Line, LineKind
from .parser import MAX_BYTES, count_lines, decode, read_lines, scan

_T = TypeVar("_T")
_P = TypeVar("_P", bound="ParsedFile")

# Items the memo keeps per key (crawlers' selections, sets of groups, ...): whatever a caller asks,
# a file's memory stays bounded. Its keys are the code's own (one per kind of reading), never input.
MAX_REMEMBERED = 256
# Lines past the parse limit kept as `Line`s; the rest are only counted, so 10 MB of
# line ends cost a count, not ten million objects.
MAX_OVERFLOW_LINES = 1_000
# The largest input `without_limit` parses whole (20x the limit: a file past that says enough).
MAX_WHOLE = 20 * MAX_BYTES


class ParsedFile:
    """A parsed robots.txt file.

    `groups`, `sitemaps` and `records` are read at parse time. The input
    itself is kept, not a decoded copy (the caller usually holds it anyway,
    and bytes are the smallest lossless form): `text`, `overflow_text` and
    the per-line views `lines` and `overflow` are derived from it on demand.
    """

    __slots__ = (
        "_cut_lines",
        "_limit",
        "_lines",
        "_memo",
        "_overflow",
        "_overflow_count",
        "_source",
        "_whole",
        "bom",
        "cut_short",
        "encoding",
        "groups",
        "invalid_utf8",
        "records",
        "sitemaps",
        "size",
    )

    def __init__(
        self,
        data: str | bytes | bytearray | memoryview = "",
        limit: int = MAX_BYTES,
        cut_from: tuple[int, int] | None = None,
    ) -> None:
        if not isinstance(data, str | bytes):
            data = bytes(data)  # a bytearray or memoryview could change after parsing
        self._source = data
        self._limit = limit
        self._whole: Any = None  # the same input parsed past the limit (`without_limit`), made on first use
        decoded = decode(data, "surrogateescape", limit)  # rules keep the octets that are not UTF-8
        # `cut_from`: the input is the start of a larger file of (bytes, lines), as a fetcher
        # that stops reading past the limit knows it; `size` and the overflow count say so.
        self._cut_lines = 0 if cut_from is None else cut_from[1]
        self.size = decoded.size if cut_from is None else max(decoded.size, cut_from[0])
        # True when the input is only the start of the file: what lies past it was never read here.
        self.cut_short = self.size > decoded.size
        self.invalid_utf8 = decoded.invalid_utf8
        self.bom = decoded.bom
        self.encoding = decoded.encoding
        self.groups, self.sitemaps, self.records = scan(decoded.text, octets=decoded.invalid_utf8)
        self._lines: tuple[Line, ...] | None = None
        self._overflow: tuple[Line, ...] | None = None
        self._overflow_count: int | None = None
        self._memo: dict[Hashable, Any] = {}

    @property
    def text(self) -> str:
        """The parsed part of the input as text: decoded, BOM dropped, line ends normalised to LF."""
        return decode(self._source, limit=self._limit).text

    @property
    def overflow_text(self) -> str:
        """The part of the input past the 500 KiB limit, as text (empty when there is none)."""
        return decode(self._source, limit=self._limit).overflow

    @property
    def lines(self) -> tuple[Line, ...]:
        """Every parsed line, in order: its number, raw text, kind, key, value, comment and group."""
        if self._lines is None:
            group_of = {
                number: group.position
                for group in self.groups
                for number in (
                    *group.agent_lines,
                    *(rule.line for rule in group.rules),
                    *(record.line for record in group.records),
                )
            }
            self._lines = read_lines(self.text, 1, group_of)
        return self._lines

    @property
    def overflow(self) -> tuple[Line, ...]:
        """The first `MAX_OVERFLOW_LINES` lines past the 500 KiB limit: kept for the record, never applied.

        `overflow_line_count` says how many there are in all.
        """
        if self._overflow is None:
            overflow_text = self.overflow_text if self.truncated else ""  # no decoding when there is none
            end = -1
            for _ in range(MAX_OVERFLOW_LINES):
                end = overflow_text.find("\n", end + 1)
                if end < 0:
                    break
            head = overflow_text if end < 0 else overflow_text[: end + 1]
            self._overflow = read_lines(head, len(self.lines) + 1, {})
        return self._overflow

    @property
    def overflow_line_count(self) -> int:
        """How many lines stand past the 500 KiB limit (all of them, not only those in `overflow`)."""
        if self._overflow_count is None:
            counted = count_lines(self.overflow_text) if self.truncated else 0
            self._overflow_count = max(counted, self._cut_lines - len(self.lines))
        return self._overflow_count

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {len(self.lines)} lines, {len(self.groups)} groups>"

    def _identity(self) -> tuple[str | bytes, int, int, int]:
        return self._source, self._limit, self.size, self._cut_lines

    def __eq__(self, other: object) -> bool:
        """Two parses of the same input (with the same limit) are equal: everything else is derived from it."""
        return isinstance(other, ParsedFile) and self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    def __reduce__(self) -> tuple[type[ParsedFile], tuple[str | bytes, int, tuple[int, int]]]:
        # The input alone crosses a process boundary: a few kilobytes, parsed again on
        # arrival (faster than unpickling groups); the memo is rebuilt on use.
        return type(self), (self._source, self._limit, (self.size, self._cut_lines))

    @property
    def truncated(self) -> bool:
        """True when the input was over the 500 KiB parse limit and its end was ignored."""
        return self.size > self._limit

    @property
    def source(self) -> str | bytes:
        """The input exactly as given: engines read it each in their own way."""
        return self._source

    def reading(self: _P, key: Hashable, read: Callable[[_P], _T]) -> _T:
        """What `read(self)` gives, made on first use and kept under `key` (an engine's reading of this file)."""
        kept: _T | None = self._memo.get(key)
        if kept is None:
            kept = self._memo[key] = read(self)
        return kept

    def remembered(self, key: Hashable, item: Hashable, make: Callable[[], _T]) -> _T:
        """What `make()` gives for `item`, kept under `key` (a crawler's selection, ...): at most
        `MAX_REMEMBERED` items per key, whatever a caller asks."""
        kept: dict[Hashable, _T] = self.reading(key, lambda _: {})
        found = kept.get(item)
        if found is None:
            found = make()
            if len(kept) < MAX_REMEMBERED:
                kept[item] = found
        return found

    def without_limit(self: _P) -> _P | None:
        """The same input parsed whole, past the 500 KiB limit (what crawlers ignore), for saying what it
        would have changed; None when there is no overflow, or the input is over `MAX_WHOLE` bytes."""
        if not self.truncated or self.size > MAX_WHOLE:
            return None
        if self._whole is None:
            self._whole = type(self)(self._source, limit=MAX_WHOLE)
        whole: _P = self._whole
        return whole

    def groups_at(self, agent_lines: tuple[int, ...]) -> list[Group]:
        """The groups whose user-agent lines are among `agent_lines` (a verdict's `group_lines`): the groups used."""
        wanted = set(agent_lines)
        return [group for group in self.groups if group.agent_lines and wanted.issuperset(group.agent_lines)]

    def line(self, number: int) -> Line:
        """The line with 1-based `number`, including lines past the parse limit."""
        index = number - 1
        if not 0 <= index < len(self.lines) + self.overflow_line_count:
            raise IndexError(f"no line {number}")
        if index < len(self.lines):
            return self.lines[index]
        index -= len(self.lines)
        if index < len(self.overflow):
            return self.overflow[index]
        # Past the lines kept as objects: read this one from the text.
        pieces = self.overflow_text.split("\n", index + 1)
        if index >= len(pieces):
            raise IndexError(f"line {number} is past what was read of the file")  # counted, not kept
        raw = pieces[index]
        return read_lines(raw, number, {})[0] if raw else Line(number, "", LineKind.BLANK, None, None, None, None)

    def as_dict(self) -> dict[str, Any]:
        return {
            "lines": [line.as_dict() for line in self.lines],
            "groups": [g.as_dict() for g in self.groups],
            "sitemaps": [s.as_dict() for s in self.sitemaps],
            "records": [r.as_dict() for r in self.records],
            "overflow": [line.as_dict() for line in self.overflow],
            "size": self.size,
            "truncated": self.truncated,
            "invalid_utf8": self.invalid_utf8,
            "bom": self.bom,
            "encoding": self.encoding,
        }
