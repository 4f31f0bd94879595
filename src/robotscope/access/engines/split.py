"""Which URLs the crawler's operator's reading might answer otherwise than the reading shown, told cheaply.

Every front end notes, beside a verdict, when the crawler's own operator
reads the URL otherwise ("Google reads line 2 `Disallow /oops` as a rule").
Asking the operator's engine about every URL of a bulk run would double its
cost, so `SplitFilter` tells first which URLs cannot split.
"""

from __future__ import annotations

from ...syntax.parsed import ParsedFile
from ...syntax.urls import plain_target, target
from ..verdicts import is_robots_txt
from .base import LONGEST, Engine
from .registry import engine, operator_engine, selection


class SplitFilter:
    """Whether the operator's reading of a crawler might answer a URL otherwise than the reading shown.

    When both readings choose the same rules (by kind and compared form) and
    decide alike (both by the longest match), a URL that both turn into the
    same target, other than /robots.txt (implicitly allowed by some), gets
    the same verdict from both: only the other URLs need the operator's
    full verdict. Made once per file, crawler and reading shown.
    """

    def __init__(self, parsed: ParsedFile, agent: str, shown: str) -> None:
        self.engine = operator_engine(agent)
        self._same = self.engine == shown
        if self._same:
            return
        self._shown, self._theirs = engine(shown), engine(self.engine)
        self._same_rules = self._shown.precedence == self._theirs.precedence == LONGEST and _chosen_rules(
            parsed, agent, self._theirs
        ) == _chosen_rules(parsed, agent, self._shown)

    def may_split(self, url: str) -> bool:
        """Whether the operator's engine might answer `url` otherwise (False: it answers alike)."""
        if self._same:
            return False
        if not self._same_rules:
            return True
        plain = plain_target(url) if self._shown.target is target else None  # `target`'s own fast path
        shown = self._shown.target(url) if plain is None else plain[1]
        if is_robots_txt(shown):
            return True
        if plain is not None:
            # A URL that normalising leaves alone is every operator's target as it stands (most
            # URLs; for Google's reading, a test checks it on the corpus's URLs).
            return False
        return self._theirs.target(url) != shown


def _chosen_rules(parsed: ParsedFile, agent: str, chosen: Engine) -> frozenset[tuple[bool, str]]:
    """The rules (kind and compared form) an engine chooses for `agent`."""
    groups = selection(parsed, chosen, agent).groups
    return frozenset((r.allow, r.normalised) for g in groups for r in g.rules if r.normalised)


def split_filter(parsed: ParsedFile, agent: str, shown: str) -> SplitFilter:
    """The file's `SplitFilter` for `agent` and the reading shown, made once (a bounded number per file)."""
    return parsed.remembered(SplitFilter, (agent, shown), lambda: SplitFilter(parsed, agent, shown))
