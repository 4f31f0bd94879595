"""`RuleSets`: one file's rule sets, by the crawler asked about, made once and shared.

A crawler asks by product token or by its full User-Agent string; every
string of one crawler shares its token's rule set, and every crawler that
selects the same groups (all those the file does not name get the `*`
groups) shares one index. Bounded: a log of distinct User-Agent strings
drops the strings, never the indexes.
"""

from __future__ import annotations

from ...syntax.model import Group
from ...syntax.tokens import product_token
from .ruleset import RuleSet
from .selection import GroupIndex, select_groups
from .tuning import INDEX_GROUPS_FROM, MAX_CACHED_AGENTS


class RuleSets:
    """The rule sets of one file's groups, by agent string, by product token and by the groups selected."""

    __slots__ = ("_groups", "_index", "_shared", "by_agent")

    def __init__(self, groups: tuple[Group, ...]) -> None:
        self._groups = groups
        self.by_agent: dict[str, RuleSet] = {}  # as asked: the fast path looks here first
        # By product token and by the positions of the groups selected (one dict: the keys never collide).
        self._shared: dict[str | tuple[int, ...], RuleSet] = {}
        self._index: GroupIndex | None = None  # the groups by the tokens they name, built on first use

    @property
    def index(self) -> GroupIndex:
        """The file's groups by the tokens they name (one per file, built on first use)."""
        if self._index is None:
            self._index = GroupIndex(self._groups)
        return self._index

    def of(self, agent: str) -> RuleSet:
        """The merged, sorted rules that apply to `agent` (a token or User-Agent string) under RFC 9309."""
        ruleset = self.by_agent.get(agent)
        if ruleset is None:
            token = product_token(agent)
            ruleset = self._shared.get(token)
            if ruleset is None:
                ruleset = self._shared[token] = self._made(token)
            # Only the strings are dropped; the indexes stay, kept by token and by selected groups.
            if len(self.by_agent) >= MAX_CACHED_AGENTS:
                self.by_agent.clear()
            self.by_agent[agent] = ruleset
        return ruleset

    def _made(self, token: str) -> RuleSet:
        """A new RuleSet for `token`, sharing the index of any crawler that selects the same groups."""
        if len(self._groups) <= INDEX_GROUPS_FROM:
            groups = select_groups(self._groups, token)
        else:
            groups = self.index.select(token)
        positions = tuple(group.position for group in groups)
        if len(self._shared) >= 2 * MAX_CACHED_AGENTS:
            self._shared.clear()
        shared = self._shared.get(positions)
        if shared is None:
            shared = self._shared[positions] = RuleSet(token, groups)
        return shared if shared.token == token else shared.with_token(token)
