"""RFC 9309, Section 2.2.1: which groups apply to a crawler.

Every group naming the crawler's product token is merged; only when none
does are the `*` groups used; with neither, no group applies (all is
allowed). `select_groups` scans the groups, `GroupIndex` files them by
token once for files of many groups; a property test keeps the two equal.
"""

from __future__ import annotations

from ...syntax.model import Group


class GroupIndex:
    """A file's groups by the tokens they name: `select` is RFC 9309's choice of groups, made in one lookup.

    Built in one pass over the groups, so a file of thousands of groups
    asked about many crawlers finds each crawler's at once.
    """

    __slots__ = ("named",)

    def __init__(self, groups: tuple[Group, ...]) -> None:
        named: dict[str, list[Group]] = {}
        for group in groups:
            for agent in dict.fromkeys(group.agents):
                named.setdefault(agent, []).append(group)
        # Every token named (`*` too), in order of first mention, with the groups naming it.
        self.named = {agent: tuple(found) for agent, found in named.items()}

    def select(self, token: str) -> tuple[Group, ...]:
        """The groups that apply to `token`: those naming it, else the `*` groups (in file order)."""
        return self.named.get(token) or self.named.get("*", ())


def select_groups(groups: tuple[Group, ...], token: str) -> tuple[Group, ...]:
    """Return the groups that apply to `token`: those naming it, else the `*` groups (in file order).

    A scan: for the few groups of most files it costs less than building a
    `GroupIndex`, which makes the same choice (a property test says so).
    """
    return tuple(g for g in groups if token in g.agents) or tuple(g for g in groups if "*" in g.agents)
