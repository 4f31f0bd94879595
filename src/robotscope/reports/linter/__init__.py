"""`lint(robots)`: every silent mistake in a robots.txt, with its line and its fix."""

from __future__ import annotations

from collections.abc import Collection

from ...access.robots import Robots
from ...syntax.model import Finding

# Importing the topic modules registers their checks, in this order.
from . import agents, differences, effects, file, keys, preferences, rules  # noqa: F401
from .registry import CHECKS, Hit


def _finding(code: str, default: object, hit: Hit) -> Finding:
    lines = hit.lines or (() if hit.line is None else (hit.line,))
    severity = hit.severity or default
    return Finding(code, severity, hit.line, hit.message, hit.fix, tuple(sorted(set(lines))))  # type: ignore[arg-type]


def lint(robots: Robots, only: Collection[str] | None = None) -> list[Finding]:
    """Run every registered check (or those whose codes are in `only`); findings come sorted by line
    (whole-file ones first)."""
    chosen = CHECKS if only is None else [c for c in CHECKS if c.code in only]
    findings = [_finding(c.code, c.severity, hit) for c in chosen for hit in c.run(robots)]
    findings.sort(key=lambda f: (-1 if f.line is None else f.line, f.code))
    return findings
