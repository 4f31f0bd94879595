"""The lint checks: one small function per finding code, registered in one table.

A check takes a parsed `Robots` and yields `Hit`s; `robotscope.lint` turns
them into `Finding`s with the check's code and severity. Checks read the
core model only: they never parse again. Modules are split by topic.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

from ...access.robots import Robots
from ...messages import Message, message
from ...syntax.model import Edit, Line, Severity


class Hit(NamedTuple):
    """What a check found; `severity` overrides the check's default where given.

    `message` and `fix` are catalogue messages, conventionally
    `lint.<code>[.<variant>]` and `fix.<code>[.<variant>]`. A fix that
    only rewrites lines carries them as `edit`, for the proof and `lint --fix`.
    """

    line: int | None
    message: Message
    fix: Message
    lines: tuple[int, ...] = ()
    severity: Severity | None = None
    edit: Edit | None = None  # the fix as a change of the text, where it is one; the proof may drop it


CheckFunction = Callable[[Robots], Iterable[Hit]]


class Check(NamedTuple):
    """A registered check; what it looks for is the message `summary.<code>`."""

    code: str
    severity: Severity
    run: CheckFunction

    @property
    def summary(self) -> Message:
        return message(f"summary.{self.code}")


CHECKS: list[Check] = []


def check(code: str, severity: Severity) -> Callable[[CheckFunction], CheckFunction]:
    """Register a check under its stable `code` with its default severity."""

    def register(function: CheckFunction) -> CheckFunction:
        CHECKS.append(Check(code, severity, function))
        return function

    return register


def rewritten(line: Line, value: str) -> str:
    """`line` as written, with its value replaced by `value` (its key, spacing and comment kept)."""
    start = line.raw.find(":") + 1
    at = line.raw.find(line.value or "", start) if start and line.value else -1
    if at < 0:
        return f"{line.key}: {value}"
    return line.raw[:at] + value + line.raw[at + len(line.value or "") :]


def replace_line(line: Line, *lines: str, toward: str | None = None) -> Edit:
    """The edit that writes `lines` (none: deletes it) where `line` stands."""
    return Edit(((line.number, lines),), toward)


# Steps a check that compares many things with many others (named groups with
# `*` rules, allows with earlier disallows) may take to be exact. Real files
# need far fewer (in the corpus at most 7,500); past it, on files built to be
# slow, a check looks at a few candidates each and says less.
EXACT_STEPS = 100_000


class Budget:
    """The steps a check may still take before it settles for less detail."""

    def __init__(self, steps: int | None = None) -> None:
        self.left = EXACT_STEPS if steps is None else steps

    def take(self, steps: int) -> bool:
        """Spend `steps` if that many are left and say so; spend nothing otherwise."""
        if steps > self.left:
            return False
        self.left -= steps
        return True


__all__ = ["CHECKS", "EXACT_STEPS", "Budget", "Check", "Hit", "check", "replace_line", "rewritten"]
