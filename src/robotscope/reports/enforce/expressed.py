"""What a server's rule makes of one robots.txt rule: a regex, and whether it says exactly what the rule says.

A rule a server cannot express exactly is made safe, never broader: a
disallow is narrowed or left out (the server refuses no more than robots.txt
disallows), an allow widened (it lets through at least what robots.txt
allows), and `why` says what is left to robots.txt. First-match in the
rules' order then refuses only what the crawler's reading disallows.
"""

from __future__ import annotations

from string import ascii_letters, digits
from typing import NamedTuple

from ...messages import Message
from ...syntax.patterns import Pattern, compile_pattern

UNRESERVED = frozenset(ascii_letters + digits + "-._~")
HEX = "0123456789ABCDEF"
# Sent characters a normalised target writes as escapes (`syntax.urls.target`).
WRITTEN = {"2A": "*", "24": "$"}
# Characters every server's regex engine and configuration syntax reads as themselves.
_PLAIN = frozenset(ascii_letters + digits + "/_-")
_ESCAPED = {".": r"\.", "?": r"\?"}
# The longest regex a rule or a User-Agent match is written as: nginx reads a parameter of at most 4 KiB
# ("too long parameter"), Apache an expression's regex of about 8 KiB, HAProxy one of about 32 KiB.
MAX_REGEX = 4000
# A piece's regex is at most this many times as long as the piece (`%2A` is `(?:%2[Aa]|\x2a)`).
GROWTH = 5
_BRIEF = 120


class Expressed(NamedTuple):
    """A rule as a server's regex (None: left out, or a rule that matches no target), and how faithfully."""

    regex: str | None
    exact: bool
    why: Message | None = None  # what is left to robots.txt, when not exact


NOTHING = Expressed(None, True)  # a rule no target can match: nothing to express


def literal(char: str) -> str:
    """One character as a regex literal that reads alike in PCRE, RE2 and every server's configuration."""
    if char in _PLAIN:
        return char
    return _ESCAPED.get(char) or f"\\x{ord(char):02x}"


def kept(code: str) -> bool:
    """Whether the escape `%` + `code` (upper-case hex) stays an escape in a normalised target."""
    return chr(int(code, 16)) not in UNRESERVED


def units(text: str) -> list[str]:
    """A normalised pattern piece as its units: one character, or one `%HH` escape."""
    found, at = [], 0
    while at < len(text):
        size = 3 if text[at] == "%" and len(text) - at >= 3 and all(d in HEX for d in text[at + 1 : at + 3]) else 1
        found.append(text[at : at + size])
        at += size
    return found


def brief(text: str) -> str:
    """A rule's text as a message shows it: at most `_BRIEF` characters, so that what is said stays readable."""
    return text if len(text) <= _BRIEF else text[: _BRIEF - 1] + "…"


def cut(piece: str, size: int) -> str:
    """The longest start of a normalised piece, in whole units (a character or an escape), of at most `size`
    characters."""
    head = piece[:size]
    split = head.find("%", max(0, len(head) - 2)) if len(head) < len(piece) else -1  # an escape cut in two
    return head[:split] if split >= 0 else head


def shape(normalised: str) -> tuple[list[str], bool] | None:
    """A rule's pieces and end anchor as matching reads them, tidied; None when it can match no target.

    Every target starts with `/`, so a pattern whose literal start does not
    can match none; `a**b` is `a*b`, and `a*$` is the prefix `a`.
    """
    pattern: Pattern = compile_pattern(normalised)
    pieces, anchored = list(pattern.pieces), pattern.anchored
    if (pieces[0] and not pieces[0].startswith("/")) or (anchored and pieces == [""]):
        return None  # `$` alone matches only an empty target
    if anchored and len(pieces) > 1 and pieces[-1] == "":
        pieces.pop()
        anchored = False
    return [pieces[0], *(piece for piece in pieces[1:] if piece)], anchored
