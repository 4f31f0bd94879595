"""`lint(robots)`: every silent mistake in a robots.txt, with its line and its fix."""

from __future__ import annotations

from collections.abc import Collection

from ...access.engines.registry import engine
from ...access.robots import Robots
from ...messages import Message, message
from ...syntax.model import Edit, Finding

# Importing the topic modules registers their checks, in this order.
from . import agents, differences, effects, file, keys, preferences, rules  # noqa: F401
from .proof import Settled, settle
from .registry import CHECKS, Hit


def _finding(code: str, default: object, hit: Hit, settled: Settled | None) -> Finding:
    lines = hit.lines or (() if hit.line is None else (hit.line,))
    severity = hit.severity or default
    fix, edit = (hit.fix, None) if hit.edit is None or settled is None else _proven(settled, hit.fix, hit.edit)
    return Finding(code, severity, hit.line, hit.message, fix, tuple(sorted(set(lines))), edit)  # type: ignore[arg-type]


def _proven(settled: Settled, fix: Message, edit: Edit) -> tuple[Message, Edit | None]:
    """The fix as shown and the edit kept: dropped, with the reason in the fix, unless proven."""
    change = settled.dropped.get(edit)
    if change is not None:
        allowed = {True: message("answer.allowed"), False: message("answer.disallowed")}
        shown = message(
            "fix.unproven",
            fix=fix,
            engine=engine(change.reading).title,
            agent=change.agent,
            url=change.url,
            before=allowed[change.before],
            after=allowed[change.after],
        )
        return shown, None
    if edit not in settled.kept:
        return message("fix.unchecked", fix=fix), None
    if settled.limited:
        return message("fix.sample", fix=fix), edit._replace(limited=True)
    return fix, edit


def lint(robots: Robots, only: Collection[str] | None = None, prove: bool = True) -> list[Finding]:
    """Run every registered check (or those whose codes are in `only`); findings come sorted by line
    (whole-file ones first).

    A fix that is a change of lines is applied to the file and kept only when
    no verdict changes (`proof`); otherwise the finding says what would change.
    With `prove=False` (a caller that reads the codes alone) no fix is proven
    and no finding carries an edit: the proofs are most of lint's time.
    """
    chosen = CHECKS if only is None else [c for c in CHECKS if c.code in only]
    hits = [(c, hit) for c in chosen for hit in c.run(robots)]
    edits = [hit.edit for _, hit in hits if hit.edit is not None]
    settled = settle(robots, edits) if edits and prove else None
    findings = [_finding(c.code, c.severity, hit, settled) for c, hit in hits]
    findings.sort(key=lambda f: (-1 if f.line is None else f.line, f.code))
    return findings
