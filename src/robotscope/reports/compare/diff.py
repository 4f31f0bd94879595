"""`diff`: the crawler/URL pairs whose verdict flips between two versions of a file."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple, Protocol

from ...access.engines.registry import DEFAULT, PROFILED, resolve
from ...access.matching.explain import verdict as explained
from ...access.matching.rulebook import Rulebook, group_positions
from ...access.matching.ruleset import RuleSet
from ...access.profiles import named_tokens, profile_for
from ...access.robots import Robots
from ...access.verdicts import is_robots_txt
from ...syntax.model import Group, Verdict
from ...syntax.patterns import compile_pattern, example_target, matches
from ...syntax.tokens import product_token
from ...syntax.urls import target

# The crawler standing for "any crawler without a group of its own".
ANY_CRAWLER = "*"


class Flip(NamedTuple):
    """An agent/URL pair whose verdict differs between the old and the new file."""

    agent: str
    url: str
    old: Verdict
    new: Verdict
    engine: str = PROFILED  # the reading both verdicts are from

    def as_dict(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "url": self.url,
            "engine": self.engine,
            "old": self.old.as_dict(),
            "new": self.new.as_dict(),
        }


def agents_named(*files: Robots) -> list[str]:
    """Every product token the files name, then `*` for every other crawler."""
    tokens = dict.fromkeys(t for robots in files for g in robots.groups for t in g.agents if t != "*")
    return [*tokens, ANY_CRAWLER]


def probe_urls(*files: Robots) -> list[str]:
    """URLs derived from the files' rules: one example target per pattern, and `/`."""
    paths = dict.fromkeys(
        example_target(rule.normalised)
        for robots in files
        for group in robots.groups
        for rule in group.rules
        if rule.normalised[:1] in ("/", "*")
    )
    return ["/", *(p for p in paths if p != "/")]


class Answers(Protocol):
    """Anything that answers verdicts: a `Robots`, or a fetched file with its policy decision."""

    def verdict(self, agent: str, url: str) -> Verdict: ...


def diff(
    old: Answers,
    new: Answers,
    urls: Iterable[str],
    agents: Sequence[str],
    *,
    limit: int | None = None,
    engine: str = PROFILED,
) -> list[Flip]:
    """The agent/URL pairs whose verdict flips from `old` to `new`, in agent then URL order.

    Verdicts are those of `engine`, a reading as `Robots.answer` takes it
    (the default, `rfc9309+profiles`, is what every front end shows;
    `operator`: each crawler's own). For two parsed files,
    `probe_urls(old, new)` and `agents_named(old, new)` give the URLs their
    rules cover and every crawler they name, and RFC 9309's flips are found
    without asking every agent about every URL (see `_FileDiff`); an agent
    whose operator's profile picks its groups in either file, or another
    reading, is asked about every URL. Other answers (a fetch's decision)
    are asked about every pair. `limit` stops at that many flips: thousands
    of crawlers can each flip at thousands of URLs, and each flip carries two
    full verdicts.
    """
    url_list = list(urls)
    files = (old, new) if isinstance(old, Robots) and isinstance(new, Robots) else None
    fast = None if files is None else _FileDiff(files[0], files[1], url_list)
    named = None if files is None else (named_tokens(files[0]), named_tokens(files[1]))
    flips: list[Flip] = []
    for agent in agents:
        left = None if limit is None else limit - len(flips)
        if left == 0:
            break
        name = resolve(engine, agent)
        # RFC 9309's reading, where no profile chooses the groups in either file: the fast way.
        if (
            fast is not None
            and named is not None
            and (name == DEFAULT or (name == PROFILED and not _profiled(named, agent)))
        ):
            flips.extend(fast.flips([agent], left, name))
            continue
        for url in url_list:
            if len(flips) == limit:
                return flips
            before, after = _verdict(old, agent, url, name), _verdict(new, agent, url, name)
            if before.allowed != after.allowed:
                flips.append(Flip(agent, url, before, after, name))
    return flips


def _verdict(answers: Answers, agent: str, url: str, reading: str) -> Verdict:
    """A parsed file's answer as `reading` reads it; another source's own (a fetch's decision)."""
    return answers.answer(agent, url, reading).verdict if isinstance(answers, Robots) else answers.verdict(agent, url)


def _profiled(named: tuple[frozenset[str], frozenset[str]], agent: str) -> bool:
    """Whether the operator's profile picks `agent`'s groups in either file (then RFC 9309 alone is not its answer)."""
    return any(profile_for(agent, names) is not None for names in named)


class _FileDiff:
    """The flips between two parsed files, found in time near-linear in the files and the flips.

    Whether a URL is allowed depends only on which (allow, pattern) pairs of
    the crawler's groups match it. So crawlers that select the same groups in
    both files flip at the same URLs; groups that hold the same pairs in both
    files cancel out; and only URLs that a remaining pair matches can flip.
    Those are found from the URLs sorted (a pattern matches only URLs that begin
    with its literal start) and tested through each file's `Rulebook`; only the
    flips get full verdicts.
    """

    def __init__(self, old: Robots, new: Robots, urls: list[str]) -> None:
        self.books = Rulebook(old.group_index), Rulebook(new.group_index)
        self.urls = urls
        self.targets = [target(url) for url in urls]
        self._sorted = sorted(range(len(urls)), key=self.targets.__getitem__)
        self._sorted_targets = [self.targets[i] for i in self._sorted]
        self._matched: dict[str, list[int]] = {}
        self._blocks: dict[tuple[int, int], tuple[str, list[int]]] = {}  # runs of sorted targets, joined
        # Each group's (allow, pattern) pairs, as an id shared by every group of either file holding the same.
        self._kind_ids: dict[frozenset[tuple[bool, str]], int] = {}
        self._kinds: list[frozenset[tuple[bool, str]]] = []
        self._group_kinds: tuple[dict[int, int], dict[int, int]] = {}, {}

    def flips(self, agents: Sequence[str], limit: int | None, engine: str) -> list[Flip]:
        keys: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {}  # by product token
        flipping: dict[tuple[tuple[int, ...], tuple[int, ...]], list[int]] = {}  # by the groups' positions
        lines: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, ...], tuple[int, ...]]] = {}
        flips: list[Flip] = []
        for agent in agents:
            if len(flips) == limit:
                break
            token = product_token(agent)
            key = keys.get(token)
            if key is None:
                key = keys[token] = (
                    group_positions(self.books[0].groups(token)),
                    group_positions(self.books[1].groups(token)),
                )
            found = flipping.get(key)
            if found is None:
                found = flipping[key] = self._flipping(token)
            if found and key not in lines:
                lines[key] = (self._agent_lines(0, token), self._agent_lines(1, token))
            for index in found[: None if limit is None else limit - len(flips)]:
                url = self.urls[index]
                before, after = (self._verdict(side, lines[key][side], token, url) for side in (0, 1))
                flips.append(Flip(agent, url, before, after, engine))
        return flips

    def _agent_lines(self, side: int, token: str) -> tuple[int, ...]:
        return tuple(sorted(n for g in self.books[side].groups(token) for n in g.agent_lines))

    def _verdict(self, side: int, agent_lines: tuple[int, ...], token: str, url: str) -> Verdict:
        """The full verdict, from a `RuleSet` of just the rules that match (and the user-agent lines it reports)."""
        if not agent_lines:  # no group applies
            return explained(RuleSet(token, ()), url)
        matching = tuple(self.books[side].matching(token, target(url)))
        return explained(RuleSet(token, (Group(0, (), agent_lines, matching, ()),)), url)

    def _flipping(self, token: str) -> list[int]:
        """The indexes of the URLs whose verdict flips for `token`, in URL order."""
        patterns = {pattern for _, pattern in self._changed(token)}
        maybe = sorted({i for pattern in patterns for i in self._matching(pattern)})
        old, new = self.books
        return [
            i
            for i in maybe
            if (old.allows(token, self.targets[i]) != new.allows(token, self.targets[i]))
            and not is_robots_txt(self.targets[i])
        ]

    def _changed(self, token: str) -> frozenset[tuple[bool, str]]:
        """(allow, pattern) pairs only one file's groups for `token` hold, and maybe some both hold.

        Groups holding the same pairs in both files are left out first:
        (A | R) ^ (B | R) is within A ^ B.
        """
        held = [[self._kind_id(side, g) for g in self.books[side].groups(token)] for side in (0, 1)]
        both = Counter(held[0]) & Counter(held[1])
        unions = []
        for ids in held:
            left = Counter(ids) - both
            unions.append(frozenset().union(*(self._kinds[i] for i in left)))
        return unions[0] ^ unions[1]

    def _kind_id(self, side: int, group: Group) -> int:
        known = self._group_kinds[side].get(group.position)
        if known is None:
            kinds = frozenset((r.allow, r.normalised) for r in group.rules if r.normalised)
            known = self._kind_ids.setdefault(kinds, len(self._kinds))
            if known == len(self._kinds):
                self._kinds.append(kinds)
            self._group_kinds[side][group.position] = known
        return known

    def _matching(self, normalised: str) -> list[int]:
        """The indexes of the URLs a pattern matches."""
        found = self._matched.get(normalised)
        if found is None:
            pattern = compile_pattern(normalised)
            start = pattern.pieces[0]
            low = bisect_left(self._sorted_targets, start)
            high = bisect_left(self._sorted_targets, start + "\U0010ffff", low)
            if "*" not in normalised and "$" not in normalised:  # it matches every URL it begins
                found = [self._sorted[k] for k in range(low, high)]
            else:
                begun = self._containing(low, high, max(pattern.pieces[1:], key=len, default=""))
                found = [self._sorted[k] for k in begun if matches(pattern, self._sorted_targets[k])]
            self._matched[normalised] = found
        return found

    def _containing(self, low: int, high: int, literal: str) -> Iterable[int]:
        """The positions among the sorted URLs `low` to `high` whose target contains `literal`.

        Many wildcard rules with the same start (`/a*b1`, `/a*b2`, ...) each
        meet every URL that begins with it: one `str.find` over those URLs
        joined finds the few that hold the rest of the pattern.
        """
        if not literal or high - low < 2:
            return range(low, high)
        block = self._blocks.get((low, high))
        if block is None:
            text = "\n".join(self._sorted_targets[low:high])  # targets never hold a line break
            starts = [0]
            for t in self._sorted_targets[low : high - 1]:
                starts.append(starts[-1] + len(t) + 1)
            block = self._blocks[(low, high)] = (text, starts)
        text, starts = block
        found = []
        at = text.find(literal)
        while at >= 0:
            k = bisect_right(starts, at) - 1
            found.append(low + k)
            at = text.find(literal, starts[k + 1]) if k + 1 < len(starts) else -1
        return found
