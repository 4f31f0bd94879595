"""How each engine reads each line of one file: the lines engines read otherwise, with what each makes of them.

`differences(robots)` lists every line that some engine reads as a rule (or
as a user-agent line) differently from another, with each engine's
description of it. `robotscope readings`, the web page's readings view and
the linter's `readsDifferently` finding show it. Pure: it only calls the core.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from ...access.engines.registry import names
from ...access.robots import Robots


class LineReading(NamedTuple):
    """What engines make of one line: engine name -> a short description (`Disallow /x`, `user-agent`, `-`)."""

    line: int
    raw: str
    by_engine: dict[str, str]

    def as_dict(self) -> dict[str, Any]:
        return {"line": self.line, "raw": self.raw, "engines": dict(self.by_engine)}


def _descriptions(robots: Robots, name: str, rules_only: bool) -> dict[int, str]:
    parsed = robots.read_by(name)
    out: dict[int, str] = {}
    for group in () if rules_only else parsed.groups:
        for number in group.agent_lines:
            out[number] = "user-agent"
    for rule in parsed.every_rule():
        if rule.pattern:  # an empty rule is a line every engine reads alike; what it does shows in splits
            # The pattern as the engine reads it from the line, not its internal compared form.
            out[rule.line] = rule.text
    return out


def differences(robots: Robots, chosen: Sequence[str] | None = None, rules_only: bool = False) -> list[LineReading]:
    """The lines engines read differently (a rule for some, nothing or another rule for others), in file order.

    `rules_only` compares the rules alone, not which lines start groups.
    """
    engine_names = list(chosen or names())
    described = {name: _descriptions(robots, name, rules_only) for name in engine_names}
    lines = sorted({n for d in described.values() for n in d})
    # Read once, not per line; past the limit only up to the last line needed.
    raws = [line.raw for line in robots.lines]
    beyond = (lines[-1] if lines else 0) - len(raws)
    if beyond > 0:
        raws += robots.overflow_text.split("\n", beyond)[:beyond]
    out = []
    for number in lines:
        by_engine = {name: described[name].get(number, "-") for name in engine_names}
        if len(set(by_engine.values())) > 1:
            out.append(LineReading(number, raws[number - 1] if number <= len(raws) else "", by_engine))
    return out
