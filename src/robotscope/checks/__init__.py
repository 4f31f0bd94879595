"""The lint checks: one small function per finding code, registered in one table.

A check takes a parsed `Robots` and yields `Hit`s; `robotscope.lint` turns
them into `Finding`s with the check's code and severity. Checks read the
core model only: they never parse again. Modules are split by topic.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

from ..model import Severity
from ..robots import Robots


class Hit(NamedTuple):
    """What a check found; `severity` overrides the check's default where given."""

    line: int | None
    message: str
    fix: str
    lines: tuple[int, ...] = ()
    severity: Severity | None = None


CheckFunction = Callable[[Robots], Iterable[Hit]]


class Check(NamedTuple):
    code: str
    severity: Severity
    summary: str
    run: CheckFunction


CHECKS: list[Check] = []


def check(code: str, severity: Severity, summary: str) -> Callable[[CheckFunction], CheckFunction]:
    """Register a check under its stable `code` with its default severity."""

    def register(function: CheckFunction) -> CheckFunction:
        CHECKS.append(Check(code, severity, summary, function))
        return function

    return register


# Importing the topic modules registers their checks, in this order.
from . import agents, content, effects, rules  # noqa: F401

__all__ = ["CHECKS", "Check", "Hit", "check"]
