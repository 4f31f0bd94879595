"""The explain path: every rule that matches a target, and the full verdict built from them.

`RuleSet.winner` finds the deciding rule alone; a verdict also names every
other rule that matched and lost (RFC 9309's longest match, shown). The scan
here walks the same buckets, prefix index and literal filter as `winner`, so
only the rules that can match a target are tried, but every one of them is;
property tests keep `candidates(...)[0]` equal to `winner` and to a naive
matcher.
"""

from __future__ import annotations

from ...syntax.model import Rule, Verdict
from ...syntax.urls import plain_target
from ...syntax.urls import target as url_target
from ..verdicts import is_robots_txt, matched
from .entries import ENTRY_RULE, add_matching, entry_matches
from .precedence import priority
from .ruleset import RuleSet


def candidates(ruleset: RuleSet, target: str) -> tuple[Rule, ...]:
    """Every rule of `ruleset` that matches `target`, best first (the first decides)."""
    bucket = ruleset.bucket_for(target)
    found: list[Rule] = [*ruleset.everything] if ruleset.everything else []
    if target.startswith(bucket.starts):
        if bucket.lengths:
            size, prefixes = len(target), bucket.prefixes
            for length in bucket.lengths:
                if length <= size:
                    found.extend(prefixes.get(target[:length], ()))
        add_matching(bucket.others, target, found)
    literals = ruleset.literals
    if literals is not None:
        found += [ENTRY_RULE(entry) for entry in literals.entries(target) if entry_matches(entry, target)]
    elif ruleset.anywhere and (ruleset.keyless_filter is None or ruleset.keyless_filter(target)):
        add_matching(ruleset.anywhere, target, found)
    if len(found) > 1:
        found.sort(key=priority)
    return tuple(found)


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
