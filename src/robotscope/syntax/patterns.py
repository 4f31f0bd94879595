"""Rule patterns: their matching form, a linear-time matcher, and a safe regex.

RFC 9309, Section 2.2.3: `*` matches any sequence of characters and a final
`$` anchors the end; a `$` anywhere else is a literal character, compared as
`%24` like a `$` in a target. Matching is a case-sensitive prefix match.

A pattern is split at its `*`s into literal pieces. Taking each piece at its
leftmost occurrence after the previous one is optimal for `*`-only globs, so
matching never backtracks and `str.find` does the inner loops: a pattern
like `/*a*a*a*b` costs at most len(target) * len(pattern), never more.
Imports nothing from robotscope.
"""

from __future__ import annotations

from typing import NamedTuple


class Pattern(NamedTuple):
    """A normalised pattern split for matching.

    `pieces` are the literal strings between `*`s (the first is anchored at
    the start of the target); `anchored` is true when the pattern ended in `$`.
    """

    pieces: tuple[str, ...]
    anchored: bool


def compile_pattern(normalised: str) -> Pattern:
    """Split a normalised pattern into its literal pieces and end anchor."""
    if "*" not in normalised and "$" not in normalised:
        return _new_tuple(Pattern, ((normalised,), False))  # a plain prefix, most rules
    anchored = normalised.endswith("$")
    body = normalised[:-1] if anchored else normalised
    if "$" in body:
        body = body.replace("$", "%24")
    pieces = body.split("*")
    if not anchored:
        # A trailing `*` adds nothing to a prefix match: `/a*` means `/a`.
        while len(pieces) > 1 and pieces[-1] == "":
            pieces.pop()
    return _new_tuple(Pattern, (tuple(pieces), anchored))


# NamedTuple's generated __new__ costs twice as much, and a large file has thousands of patterns.
_new_tuple = tuple.__new__


def matches(pattern: Pattern, target: str) -> bool:
    """Tell whether `pattern` matches `target`, in O(len(target) * len(pattern)) at worst."""
    pieces = pattern.pieces
    first = pieces[0]
    if not target.startswith(first):
        return False
    last_index = len(pieces) - 1
    if last_index == 0:
        return target == first if pattern.anchored else True
    pos = len(first)
    for piece in pieces[1:last_index]:
        found = target.find(piece, pos)
        if found < 0:
            return False
        pos = found + len(piece)
    last = pieces[last_index]
    if pattern.anchored:
        return len(target) - len(last) >= pos and target.endswith(last)
    return target.find(last, pos) >= 0


def matches_every_target(normalised: str) -> bool:
    """True for `/`, `*`, `/*`, `*$`, `/*$` and the like: every target (which starts with `/`) matches.

    The one predicate for "this rule covers the whole site": the matcher keeps
    such a rule aside as the fallback, and the linter calls a disallow of this
    kind a block of everything.
    """
    if not normalised:
        return False  # an empty pattern matches nothing
    first, *rest = compile_pattern(normalised).pieces
    return first in ("", "/") and not any(rest) and (bool(rest) or not normalised.endswith("$"))


def example_target(normalised: str) -> str:
    """A target that a pattern starting with `/` or `*` matches: each `*` as `x`, no end anchor.

    Used to probe what a rule covers (the linter, effect diffs).
    """
    path = "x".join(compile_pattern(normalised).pieces)
    return path if path.startswith("/") else "/" + path
