"""RFC 9309, Section 2.2.2: which of several matching rules decides.

The longest pattern wins (its length as normalised, `*` and `$` counting
one each); an allow wins a tie with a disallow; among equals the earliest
line comes first, so an order is total. `priority` is the sort key,
`best_first` the same order for many rules at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from operator import add, itemgetter, mul

from ...syntax.model import Rule


def priority(rule: Rule) -> tuple[int, bool, int]:
    """Sort key putting the rule that wins first: longest, then allow, then earliest."""
    return (-len(rule.normalised), not rule.allow, rule.line)  # len(): `length` is a property


# A rule's fields, read in C (rules are NamedTuples: allow, pattern, line, normalised).
ALLOW = itemgetter(0)
LINE = itemgetter(2)
NORMALISED = itemgetter(3)


def best_first(rules: Sequence[Rule]) -> list[Rule]:
    """`sorted(rules, key=priority)` for rules given in file order, with the keys computed in C.

    Twice the length plus one for an allow orders longest first, allow before
    disallow; the stable sort keeps file order among equals.
    """
    keys = list(map(add, map(mul, map(len, map(NORMALISED, rules)), repeat(2)), map(ALLOW, rules)))
    return list(map(rules.__getitem__, sorted(range(len(rules)), key=keys.__getitem__, reverse=True)))
