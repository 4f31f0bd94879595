"""The literal index: every literal a rule needs of a target, filed once, and which of them a target has.

A rule can match only a target that starts with its first piece, contains
each later piece and, when anchored, ends with its last (`keys_of`). Those
literals are keys (one for one literal of one kind, however many rules need
it), and a target's are found in time that grows with the target, not with
the number of literals (building the index costs a slice or two per literal):

- starts (filed by `candidates.Candidates`) and ends: one lookup per
  length they come in;
- contained literals: each is filed under its first `GRAM`-character piece
  (a large group of them filed again, on first use, by the rarest of their
  other pieces), and the target's own pieces meet those. The target's
  pieces are read from its distinct segments and distinct joins of two
  segments, so a long URL of repeated segments costs what one copy of them
  costs; a literal without a `/` is confirmed in the distinct segments
  alone. Literals shorter than a piece are tested one by one while they are
  few, else through the target's pieces of their own length.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import pairwise

from ...syntax.patterns import Pattern
from . import tuning
from .tuning import GRAM

END = "\x00"  # marks "at the end of the target" in a literal (normalised patterns hold none)


def keys_of(pattern: Pattern) -> list[str]:
    """The literals a target must contain for `pattern` to match it, besides its start (`pieces[0]`).

    Each later piece, and its last piece marked text + END when anchored (the
    target must end with it; `/a$`: be it).
    """
    pieces, anchored = pattern
    if len(pieces) == 1:
        return [pieces[0] + END] if anchored else []  # a plain prefix (most rules) needs its start alone
    keys = list(filter(None, pieces[1:]))
    if anchored and pieces[-1]:
        keys[-1] += END  # `/*.pdf$` (`/*a*$` ends anyhow)
    return keys


def _pieces(text: str) -> Iterable[str]:
    return (text[i : i + GRAM] for i in range(len(text) - GRAM + 1))


class Target:
    """What a target is read as, once per question: its distinct segments, and its pieces when asked."""

    __slots__ = ("_parts", "_pieces", "segments", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._pieces: set[str] | None = None
        self._parts = text.split("/")
        # Every literal without a `/` that the target contains lies in one of these.
        self.segments = "/".join(set(self._parts))

    def contains(self, literal: str) -> bool:
        return literal in (self.text if "/" in literal else self.segments)

    @property
    def pieces(self) -> set[str]:
        """Every `GRAM`-character piece of the target, read from its distinct segments and joins."""
        if self._pieces is None:
            text, parts = self.text, self._parts
            if len(text) <= 2 * len(self.segments):  # few repeats: reading it whole costs less
                self._pieces = {text[i : i + GRAM] for i in range(len(text) - GRAM + 1)}
                return self._pieces
            found = {piece for part in set(parts) for piece in _pieces(part)}
            reach = GRAM - 1  # a piece across a `/` holds at most this much of either side
            if len(parts) > 1 and min(map(len, parts[1:-1]), default=reach) >= reach:
                joins = {a[-reach:] + "/" + b[:reach] for a, b in set(pairwise(parts))}
            else:  # a short segment between two `/`: a piece may cross both, so read every join in place
                at = [i for i, char in enumerate(text) if char == "/"]
                joins = {text[max(0, i - reach) : i + GRAM] for i in at}
            found.update(piece for join in joins for piece in _pieces(join))
            self._pieces = found
        return self._pieces


class _Refined:
    """Literals that share their first piece, filed again by the rarest of their pieces."""

    __slots__ = ("filed",)

    def __init__(self, literals: list[str]) -> None:
        pieces = [set(_pieces(text)) for text in literals]
        counts = Counter(piece for found in pieces for piece in found)
        self.filed: dict[str, list[str]] = {}
        for text, found in zip(literals, pieces, strict=True):
            self.filed.setdefault(min(found, key=counts.__getitem__), []).append(text)

    def present(self, target: Target) -> list[str]:
        filed = self.filed
        pieces = target.pieces
        groups = (
            (filed[p] for p in pieces if p in filed)
            if len(pieces) < len(filed)
            else (group for p, group in filed.items() if p in pieces)
        )
        return [text for group in groups for text in group if target.contains(text)]


class Literals:
    """The literals rules need of a target besides their starts, filed for `present`."""

    __slots__ = ("_direct", "_ends", "_filed", "_lengths_end", "_refined", "_short", "_short_lengths")

    def __init__(self, keys: Iterable[str]) -> None:
        """File each distinct key."""
        self._ends: set[str] = set()
        self._filed: dict[str, list[str]] = {}  # contained literals, by their first piece
        self._refined: dict[str, _Refined] = {}  # a large group of those, filed again on first use
        short: list[str] = []
        for key in keys:
            if key[-1] == END:
                self._ends.add(key[:-1])
            elif len(key) < GRAM:
                short.append(key)
            else:
                self._filed.setdefault(key[:GRAM], []).append(key)
        self._lengths_end = sorted({len(text) for text in self._ends})
        # Few literals are each tested with `in` (cheaper than reading the target's pieces); so are
        # short ones while they are few.
        self._direct: list[str] = []
        if len(short) + sum(map(len, self._filed.values())) <= tuning.FEW_DIRECT:
            self._direct = [*short, *(literal for group in self._filed.values() for literal in group)]
            short, self._filed = [], {}
        elif len(short) <= tuning.FEW_SHORT:
            self._direct, short = short, []
        self._short = set(short)
        self._short_lengths = sorted({len(literal) for literal in short})

    def present(self, text: str) -> list[str]:
        """The keys of the literals `text` (a target) contains or ends with, each once."""
        size, ends = len(text), self._ends
        found = []
        for length in self._lengths_end:
            if length > size:
                break
            if text[size - length :] in ends:
                found.append(text[size - length :] + END)
        direct = self._direct
        target = Target(text) if self._short or self._filed or (direct and size > tuning.LONG_TARGET) else None
        if direct:
            if target is None:
                found += [literal for literal in direct if literal in text]
            else:
                found += [literal for literal in direct if target.contains(literal)]
        if target is None:
            return found
        short = self._short
        if short:  # many (a hostile file): the target's pieces of their lengths, each looked up
            for length in self._short_lengths:
                found += [p for p in {text[i : i + length] for i in range(size - length + 1)} if p in short]
        filed = self._filed
        for piece in target.pieces if filed else ():  # not `intersection(filed)`: that walks the whole dict
            group = filed.get(piece)
            if group is None:
                continue
            if len(group) <= tuning.REFINE_FROM:
                found += [literal for literal in group if target.contains(literal)]
                continue
            refined = self._refined.get(piece)
            if refined is None:
                refined = self._refined[piece] = _Refined(group)
            found += refined.present(target)
        return found
