"""Rules as regexes over the request target as sent (nginx, Apache, Caddy, HAProxy): exact on plain targets.

RFC 9309 matches a rule against the crawler's target, normalised
(`syntax.urls.target`: escapes of letters, digits and `-._~` decoded, hex
digits upper-cased, `*` and `$` written `%2A` and `%24`). These servers
show a rule the target as sent. On a *plain* target (printable ASCII, every
`%` starting an escape, no escape of a letter, digit or `-._~`, no `#`) the two
differ only in the case of hex digits and in `*` and `$`, so a regex over
the sent target says exactly what the rule says: each unit of the pattern
becomes the sent forms that normalise to it, a `*` any run of whole sent
units (a character or an escape), and a piece after a `*` may also begin
inside an escape of the target (`/*2F` matches `/a%2F`), so its
alternatives say that too. Every other target is left to robots.txt:
`unusual` matches them, and the rule lists put it first, as an allow.

A `Subject` says what surrounds the target in the string the server
matches: nothing (nginx `$request_uri`, Caddy `{http.request.orig_uri}`,
HAProxy `pathq`), or the method and protocol of Apache's `THE_REQUEST`.
A pattern with more than `MAX_STARS` `*` is not expressed (a backtracking
engine (PCRE) could spend seconds on one long URL), nor one whose regex is
longer than `MAX_REGEX` (servers refuse a configuration that holds it).
"""

from __future__ import annotations

from typing import NamedTuple

from ...messages import message
from ...syntax.model import Rule
from .expressed import GROWTH, HEX, MAX_REGEX, NOTHING, WRITTEN, Expressed, brief, cut, kept, literal, shape, units

MAX_STARS = 3


class Subject(NamedTuple):
    """What the string a server matches holds before and after the target (as regexes)."""

    start: str
    end: str


TARGET = Subject("^", "$")
REQUEST_LINE = Subject(r"^[^\x20]+\x20", r"(?:\x20|$)")  # `GET /path?query HTTP/1.1`

# Any run of whole sent units: a character, or a `%` with its two hex digits.
ANY = r"(?:[^%\x20]|%[0-9A-Fa-f][0-9A-Fa-f])*"


def _digits(chosen: list[str]) -> str:
    """Hex digits as a class of both cases (`[0-289A-Fa-f]`), or the one digit itself."""
    found = sorted({*chosen, *(d.lower() for d in chosen)})
    if len(found) == 1:
        return found[0]
    runs: list[list[str]] = []
    for char in found:
        if runs and ord(char) == ord(runs[-1][-1]) + 1:
            runs[-1].append(char)
        else:
            runs.append([char])
    return "[" + "".join(f"{run[0]}-{run[-1]}" if len(run) > 2 else "".join(run) for run in runs) + "]"


def _escapes(firsts: list[str], seconds: list[str]) -> str:
    """The sent forms of the kept escapes `%XY`, X in `firsts`, Y in `seconds` (one of the two is one digit)."""
    forms = [f"%{_digits(firsts)}{_digits(seconds)}"]
    forms += [literal(char) for code, char in WRITTEN.items() if code[0] in firsts and code[1] in seconds]
    return forms[0] if len(forms) == 1 else f"(?:{'|'.join(forms)})"


def _piece(text: str) -> str:
    """The sent forms of a piece read from a unit's start."""
    return "".join(_escapes([unit[1]], [unit[2]]) if len(unit) == 3 else literal(unit) for unit in units(text))


def _after_star(text: str, at_end: bool) -> str:
    """A piece after a `*`: from a unit's start, or from inside an escape of the target (`at_end`: it ends it)."""
    forms = [_piece(text)]
    first, second = text[:1], text[1:2]
    if first and first in HEX:
        # The piece starts at the escape's second digit, or at its first.
        forms.append(_escapes([d for d in HEX if kept(d + first)], [first]) + _piece(text[1:]))
        if not second and not at_end:
            forms.append(_escapes([first], [d for d in HEX if kept(first + d)]))
        elif second and second in HEX and kept(first + second):
            forms.append(_escapes([first], [second]) + _piece(text[2:]))
    return forms[0] if len(forms) == 1 else f"(?:{'|'.join(forms)})"


def regex(normalised: str, subject: Subject) -> str | None:
    """The regex a sent target matches exactly when the rule's pattern matches its normalised form (None: never)."""
    found = shape(normalised)
    if found is None:
        return None
    (first, *rest), anchored = found
    if first:
        text = subject.start + _piece(first)
    elif not rest:
        return subject.start + "/"  # `*`: every target
    else:
        # A leading `*`: the target's own `/` is in the `*`, or starts the next piece.
        head = rest.pop(0)
        lead = f"(?:/{ANY})?" if head.startswith("/") else f"/{ANY}"
        text = subject.start + lead + _after_star(head, anchored and not rest)
    for number, piece in enumerate(rest, 1):
        text += ANY + _after_star(piece, anchored and number == len(rest))
    return text + subject.end if anchored else text


def expressed(rule: Rule, subject: Subject, server: str) -> Expressed:
    """The rule on a server that matches the sent target: exact, unless it has too many `*` or is too long."""
    found = shape(rule.normalised)
    if found is None:
        return NOTHING
    pieces = found[0]
    why = {"server": server, "line": rule.line, "rule": brief(rule.text)}
    if len(pieces) - 1 > MAX_STARS:  # the `*` that count: not a trailing one, nor one of `**`
        code, why["stars"] = "stars", MAX_STARS
    else:
        text = regex(rule.normalised, subject)
        if text is None or len(text) <= MAX_REGEX:
            return Expressed(text, True)
        code, why["limit"] = "long", MAX_REGEX
    if not rule.allow:
        return Expressed(None, False, message(f"enforce.left.{code}", **why))
    prefix = cut(pieces[0], MAX_REGEX // GROWTH)
    widened = subject.start + (_piece(prefix) if prefix else "/")
    return Expressed(widened, False, message(f"enforce.widened.{code}", prefix=brief(prefix or "/"), **why))


def robots_txt(subject: Subject) -> str:
    """`/robots.txt` with or without a query: always allowed (RFC 9309, Section 2.2.2)."""
    return subject.start + rf"/robots\.txt(?:\?|{subject.end})"


def unusual(subject: Subject) -> str:
    """A target that is not plain: an escape of a letter, digit or `-._~`, a `%` that starts no escape, a byte
    outside printable ASCII, a `#` (a fragment, which no client sends and a target never has)."""
    lone = rf"%[0-9A-Fa-f]?(?:[^0-9A-Fa-f]|{subject.end})"
    decoded = "%(?:3[0-9]|[46][1-9A-Fa-f]|[57][0-9Aa]|2[DEde]|5[Ff]|7[Ee])"
    return subject.start + rf"[^\x20]*(?:{lone}|{decoded}|[^\x20-\x22\x24-\x7e])"
