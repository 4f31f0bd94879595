"""Rules as regexes over lighttpd's decoded path: exact for rules that look only at the path.

lighttpd's conditions see `$HTTP["url"]`: the path without its query
string, every escape decoded (as UTF-8 text), `.` and `..` segments removed
and `//` merged. On a request whose path has none of those and no escape of
a character that can also be sent as itself (`%3D` for `=`), that is the
normalised target's path with the escapes of what is never sent as itself
(controls, space, `#`, `%`, `?`, `*`, `$`, UTF-8 text) decoded, so a rule
that looks only at the path is expressed exactly: one piece, no `?`, no
end anchor. Every other rule may look past the path, which lighttpd does
not show alongside it: a `?`, a `$` (a path with a query string does not
end where the path does), a `*` (it may reach into the query string, or
begin inside an escape). Such a disallow is narrowed to its matches within
the path when those are matches (a `*`, no `?` or `$`), or left out; such
an allow is widened to every path its first piece starts (or, before a `?`,
is). An escape lighttpd decodes ambiguously leaves a disallow out and is
widened to its character in an allow. A rule whose regex would be longer
than `MAX_REGEX` is left out, or widened to the start of it that fits.
"""

from __future__ import annotations

import re

from ...messages import message
from ...syntax.model import Rule
from .expressed import GROWTH, MAX_REGEX, NOTHING, WRITTEN, Expressed, brief, cut, literal, shape, units

SERVER = "lighttpd"
_LEAD = re.compile(r"%(?:[C-F][0-9A-F])(?:%[89AB][0-9A-F])*$")  # a UTF-8 character's escaped bytes, at the end


def _byte(code: str) -> bool:
    """Whether the decoded path holds this byte only where it was sent escaped (never as itself)."""
    number = int(code, 16)
    return number <= 0x20 or number in (0x23, 0x25, 0x3F) or number >= 0x7F


def _text(piece: str, widen: bool) -> str | None:
    """A piece as a regex over the decoded path; None when an escape in it is decoded ambiguously (unless
    `widen`, which takes the character itself, sent either way)."""
    out: list[str] = []
    encoded = bytearray()  # a run of escaped bytes from 0x80, read as UTF-8 text
    for unit in [*units(piece), ""]:
        code = unit[1:] if len(unit) == 3 else ""
        if code and int(code, 16) >= 0x80:
            encoded.append(int(code, 16))
            continue
        if encoded:
            try:
                out.append("".join(f"\\x{{{ord(char):x}}}" for char in encoded.decode("utf-8")))
            except UnicodeDecodeError:
                return None  # bytes that are not UTF-8 text: lighttpd's regex reads text
            encoded.clear()
        if not code:
            out.append(literal(unit) if unit else "")
        elif code in WRITTEN:
            out.append(literal(WRITTEN[code]))
        elif _byte(code):
            out.append(f"\\x{code.lower()}")
        elif widen:
            out.append(literal(chr(int(code, 16))))
        else:
            return None
    return "".join(out)


def _whole_characters(piece: str) -> str:
    """`piece` without the bytes of a UTF-8 character its end cuts in two."""
    found = _LEAD.search(piece)
    if found is None:
        return piece
    try:
        bytes.fromhex(found.group().replace("%", "")).decode("utf-8")
    except UnicodeDecodeError:
        return piece[: found.start()]
    return piece


def expressed(rule: Rule) -> Expressed:
    """The rule as lighttpd's condition on the decoded path: exact, narrowed, left out or widened."""
    found = shape(rule.normalised)
    if found is None:
        return NOTHING
    pieces, anchored = found
    why = {"server": SERVER, "line": rule.line, "rule": brief(rule.text)}
    past_path = anchored or any("?" in piece for piece in pieces)
    parts = [_text(piece, widen=False) for piece in pieces]
    plain = None not in parts
    if not rule.allow:
        if past_path:
            return Expressed(None, False, message("enforce.left.query", **why))
        if not plain:
            return Expressed(None, False, message("enforce.left.decoded", **why))
        text = "^" + ".*".join(part or "" for part in parts)
        if len(text) > MAX_REGEX:
            return Expressed(None, False, message("enforce.left.long", limit=MAX_REGEX, **why))
        if len(pieces) == 1:
            return Expressed(text, True)
        return Expressed(text, False, message("enforce.narrowed.path", **why))
    if plain and not past_path and len(pieces) == 1 and len(parts[0] or "") < MAX_REGEX:
        return Expressed("^" + (parts[0] or ""), True)
    head = pieces[0]
    cut_at = head.find("?")
    whole = cut_at >= 0 or (anchored and len(pieces) == 1)  # the path is this, not only starts with it
    start = head[:cut_at] if cut_at >= 0 else head
    code = "enforce.widened.equal" if whole else "enforce.widened.path"
    if len(start) > MAX_REGEX // GROWTH:
        # Too long to write: every path that starts with as much of it as fits, whole characters only.
        start = _whole_characters(cut(start, MAX_REGEX // GROWTH))
        whole, code, why["limit"] = False, "enforce.widened.long", MAX_REGEX
    widened = _text(start, widen=True)
    if widened is None:  # bytes that are not UTF-8 text: every path
        whole, start, widened = False, "", ""
    text = "^" + widened + ("$" if whole else "")
    return Expressed(text, False, message(code, prefix=brief(start or "/"), **why))


def robots_txt() -> str:
    """`/robots.txt` (its query string is not in the decoded path)."""
    return r"^/robots\.txt$"
