"""The explain path: every rule that matches a target, and the full verdict built from them.

`RuleSet.winner` finds the deciding rule alone; a verdict also names every
other rule that matched and lost (RFC 9309's longest match, shown), found
from the same list or index as `winner` (`RuleSet.matching`): only the rules
that can match a target are tried, but every one of them is; property tests
keep `candidates(...)[0]` equal to `winner` and to a naive matcher.
"""

from __future__ import annotations

from ...syntax.model import Rule, Verdict
from ...syntax.urls import plain_target
from ...syntax.urls import target as url_target
from ..verdicts import is_robots_txt, matched
from .ruleset import RuleSet


def candidates(ruleset: RuleSet, target: str) -> tuple[Rule, ...]:
    """Every rule of `ruleset` that matches `target`, best first (the first decides)."""
    return tuple(ruleset.matching(target))


def verdict(ruleset: RuleSet, url: str) -> Verdict:
    """The full verdict for `url` under RFC 9309, with every matching rule."""
    plain = plain_target(url)  # url_target(url), its fast path inlined
    target = url_target(url) if plain is None else plain[1]
    found = candidates(ruleset, target) if ruleset.has_rules else ()
    return matched(
        found[0] if found else None,
        found,
        ruleset.token,
        ruleset.group_lines,
        url,
        target,
        grouped=bool(ruleset.groups),
        implicit=is_robots_txt(target),
    )
