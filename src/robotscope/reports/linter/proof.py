"""The proof of a lint fix: applied to the file, it changes no crawler's verdict.

A check that can state its fix as a change of lines (an `Edit`) hands it
here before it is shown. The proof applies the edit to the text, parses
both versions and compares, under RFC 9309 and Google's reading, the
verdicts of every crawler either version names (and a few it does not) on
URLs derived from the rules of both versions: each pattern with its `*`
as nothing and as a character, without its `$`, then that path plus a
character, plus `/` and cut by one. The URLs of the rules that differ and
the crawlers of the groups the edit touches come first, then a few others;
past the caps the proof is of a sample, and says so. A reading that makes
the same groups and rules of both versions is not asked. It asks `Robots`
only, so it knows nothing of why the check thought the fix safe.

`settle` proves a file's edits together (what `lint --fix` applies) and
splits a set that changes a verdict until the edits that do are found.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import NamedTuple

from ...access.robots import Robots, parse
from ...syntax.model import Edit, Group
from ...syntax.parser import MAX_BYTES, split_lines

READINGS = ("rfc9309", "google")
# Crawlers asked besides those the files name: one no group names (the `*` group's),
# and those whose operators document a fallback to another group.
UNNAMED = ("robotscope-probe", "googlebot", "googlebot-image", "bingbot")
# Probes of the rules and groups the edits change, at most; and of the others, up to the padding.
MAX_URLS = 400
MAX_AGENTS = 32
PADDING_URLS = 24
PADDING_AGENTS = 4
# Work one lint may spend on its proofs, in verdicts of a fixed version (reading a line
# of it, in the two readings, counts as `_LINE_COST`): a file with hundreds of fixes,
# or a huge one, stays near-linear, and the fixes past the budget are dropped, saying so.
BUDGET = 50_000
_LINE_COST = 3
ALONE = 8  # a file with at most this many edits has each proven alone too
_RULES_PER_VERDICT = 20


class Change(NamedTuple):
    """A verdict the fix would change: `reading`'s answer for `agent` on `url`, before and after."""

    reading: str
    agent: str
    url: str
    before: bool
    after: bool


class Proof(NamedTuple):
    """What the proof found: the first verdict that changes (None: none), and whether it checked a sample."""

    change: Change | None
    limited: bool


def apply(text: str, edits: Iterable[Edit]) -> str:
    """`text` (lines ended by LF, as `Robots.text` holds it) with the edits applied; line numbers are the original's.

    The edits must touch distinct lines (`settle` sees to it).
    """
    lines: list[list[str]] = [[line] for line in split_lines(text)]
    for edit in edits:
        for number, new in edit.changes:
            lines[number - 1] = list(new)
    joined = "\n".join(line for group in lines for line in group)
    return joined + "\n" if text.endswith("\n") and joined else joined


class Settled(NamedTuple):
    """What the proof made of a file's edits: those kept (proven applied together; `limited`: on a sample),
    those dropped with the verdict each would change, and those left unproven (another edit's lines, or the
    budget spent)."""

    kept: dict[Edit, None]  # an ordered set
    limited: bool
    dropped: dict[Edit, Change]
    unproven: tuple[Edit, ...]


def settle(robots: Robots, edits: Iterable[Edit], budget: int = BUDGET) -> Settled:
    """Prove `edits` of `robots`'s text: keep the largest set found that, applied together, changes no verdict.

    Up to `ALONE` edits are each proven alone first. Then all are tried
    together; a set that changes a verdict is split in halves, each tried
    with what is kept so far, until each edit that changes one is found
    alone and dropped. So the kept set was itself proven (`lint --fix`
    applies exactly it), at one proof when every edit holds.
    """
    prover = Prover(robots, budget)
    lines = len(robots.lines)
    distinct: list[Edit] = []
    unproven: list[Edit] = []
    touched: set[int] = set()
    for edit in dict.fromkeys(edits):
        numbers = {number for number, _ in edit.changes}
        if numbers & touched or not all(1 <= n <= lines for n in numbers):
            unproven.append(edit)  # one change of a line at a time: lint again after the first
        else:
            touched |= numbers
            distinct.append(edit)
    kept: list[Edit] = []
    dropped: dict[Edit, Change] = {}
    limited = False
    if len(distinct) <= ALONE:
        # Two edits can undo each other's change: where there are few, each is proven alone first.
        alone = distinct
        distinct = []
        for edit in alone:
            proof = prover.prove([edit])
            if proof is None:
                unproven.append(edit)
            elif proof.change is not None:
                dropped[edit] = proof.change
            else:
                distinct.append(edit)
    # Repairs toward a reading are proven after the strict edits, which may then not move any verdict.
    repairs = [edit for edit in distinct if edit.toward is not None]
    pending = [batch for batch in (repairs, [e for e in distinct if e.toward is None]) if batch]
    while pending:
        batch = pending.pop()
        proof = prover.prove([*kept, *batch])
        if proof is None:
            unproven.extend(batch)
        elif proof.change is None:
            kept.extend(batch)
            limited = limited or proof.limited
        elif len(batch) == 1:
            dropped[batch[0]] = proof.change
        else:
            half = len(batch) // 2
            pending += [batch[half:], batch[:half]]  # the first half is tried first
    return Settled(dict.fromkeys(kept), limited, dropped, tuple(unproven))


def paths(normalised: str) -> Iterator[str]:
    """URLs that probe what `normalised` matches: its `*` as nothing and as `x`, then nearby paths."""
    body = normalised[:-1] if normalised.endswith("$") else normalised
    for fill in ("", "x"):
        path = body.replace("*", fill)
        path = path if path.startswith("/") else "/" + path
        yield from (path, path + "x", path + "/", path[:-1] or "/")


class Prover:
    """Proves the edits of one file, each against the original, within one budget of verdicts."""

    def __init__(self, robots: Robots, budget: int = BUDGET) -> None:
        self.text = robots.text
        # A UTF-16 or cut file is compared as the text it was read as, like its fixed version.
        self.original = robots if robots.encoding is None and not robots.truncated else parse(self.text)
        self.left = budget
        self._lines = len(robots.lines)
        self._rules = sum(len(g.rules) for g in robots.groups)
        self._patterns = _patterns(self.original)
        self._read = {name: _read(self.original, name) for name in READINGS}
        self._crawlers = {name: _crawlers(self.original, name) for name in READINGS}
        self._before: dict[tuple[str, str, str], bool] = {}

    def prove(self, edits: Sequence[Edit]) -> Proof | None:
        """Apply `edits` together and compare the verdicts; None when the budget is spent, or when
        crawlers change groups in a file with more URLs to probe than the cap."""
        if self._lines * _LINE_COST > self.left:
            return None
        self.left -= self._lines * _LINE_COST
        fixed = parse(apply(self.text, edits))
        edited = {number for edit in edits for number, _ in edit.changes}
        # A reading that makes the same groups and rules of both versions gives the same verdicts.
        readings = [name for name in READINGS if _read(fixed, name) != self._read[name]]
        if not readings:
            return Proof(None, False)
        # Where crawlers change groups, every rule may decide otherwise for them: all are probed first.
        moved = any(_crawlers(fixed, name) != self._crawlers[name] for name in readings)
        patterns = _patterns(fixed)
        urls, more_urls = _probes(*_urls(self._patterns, patterns, edited, moved), MAX_URLS, PADDING_URLS)
        if moved and more_urls:
            return None  # a sample of the rules says too little of crawlers that changed groups
        agents, more_agents = _probes(*_agents(self.original, fixed, edited), MAX_AGENTS, PADDING_AGENTS)
        agents += [a for a in UNNAMED if a not in agents]
        # Google's reading looks at every rule of the groups for each URL.
        cost = len(urls) * len(agents) * (1 + ("google" in readings) * (1 + self._rules // _RULES_PER_VERDICT))
        if cost > self.left:
            return None
        self.left -= cost
        toward = {edit.toward for edit in edits} - {None}
        target = toward.pop() if len(toward) == 1 else None
        for agent in agents:
            for url in urls:
                for reading in readings:
                    before = self._verdict(reading, agent, url)
                    after = fixed.can_fetch(agent, url, engine=reading)
                    if after == before:
                        continue
                    # A repair may bring a reading to the one it names, never change that one.
                    if target is None or reading == target or after != self._verdict(target, agent, url):
                        return Proof(Change(reading, agent, url, before, after), more_urls or more_agents)
        return Proof(None, more_urls or more_agents)

    def _verdict(self, reading: str, agent: str, url: str) -> bool:
        key = (reading, agent, url)
        found = self._before.get(key)
        if found is None:
            found = self._before[key] = self.original.can_fetch(agent, url, engine=reading)
        return found


def _read(robots: Robots, name: str) -> object:
    """What a reading's verdicts depend on: its groups' crawlers and rules, in order, and whether it is cut."""
    parsed = robots.read_by(name)
    groups = tuple((g.agents, tuple((r.allow, r.normalised) for r in g.rules)) for g in parsed.groups)
    shared = tuple((r.allow, r.normalised) for r in parsed.rules or ())
    return groups, shared, parsed.size > MAX_BYTES


def _crawlers(robots: Robots, name: str) -> tuple[tuple[str, ...], ...]:
    """The crawlers each group of a reading names, in order."""
    return tuple(group.agents for group in robots.read_by(name).groups)


def _patterns(robots: Robots) -> dict[str, set[int]]:
    """Every pattern a compared reading reads as a rule, with the lines of its rules."""
    found: dict[str, set[int]] = {}
    for name in READINGS:
        for rule in robots.read_by(name).every_rule():
            found.setdefault(rule.normalised, set()).add(rule.line)
    return found


def _urls(
    before: dict[str, set[int]], after: dict[str, set[int]], edited: set[int], moved: bool
) -> tuple[list[str], Iterator[str]]:
    """Probe URLs: of the patterns only one version has or an edited line holds (of all, where crawlers
    moved between groups); then of every other."""
    changed = [p for p, lines in before.items() if moved or p not in after or lines & edited]
    changed += [p for p in after if moved or p not in before]
    first = list(dict.fromkeys(url for pattern in changed if pattern for url in paths(pattern)))
    seen = set(first)

    def rest() -> Iterator[str]:
        for pattern in ("/", *before, *after):
            for url in paths(pattern) if pattern else ():
                if url not in seen:
                    seen.add(url)
                    yield url

    return first, rest()


def _agents(original: Robots, fixed: Robots, edited: set[int]) -> tuple[list[str], Iterator[str]]:
    """The crawlers either version names in a compared reading, one for each set of groups naming them in
    every reading of both: of the groups the edits touch, then every other.

    Crawlers named by the same groups get the same verdicts (a token with a
    digit is asked alone: Google's parser reads it only up to the digit).
    A crawler only one reading sees (`UserAgent: baiduspider` is Google's
    alone) is asked too.
    """
    groups = [g for robots in (original, fixed) for name in READINGS for g in robots.read_by(name).groups]
    naming = [_naming(robots, name) for robots in (original, fixed) for name in READINGS]
    seen: set[object] = {"*"}

    def new(groups: Iterable[Group]) -> Iterator[str]:
        for group in groups:
            for agent in group.agents:
                digit = any(c.isdigit() for c in agent)
                alike = agent if digit else tuple(named.get(agent, ()) for named in naming)
                if agent not in seen and alike not in seen:
                    seen.update((agent, alike))
                    yield agent

    # First those whose groups the edits change (a user-agent line written otherwise), then those of
    # the groups the edits touch.
    moved = [a for a in dict.fromkeys(a for g in groups for a in g.agents) if _moved(naming, a)]
    touched = (g for g in groups if edited.intersection(g.agent_lines) or any(r.line in edited for r in g.rules))
    first = list(new((Group(-1, tuple(moved), (), (), ()), *touched)))
    return first, new(groups)


def _moved(naming: list[dict[str, tuple[int, ...]]], agent: str) -> bool:
    """Whether a reading names `agent` in other groups in the fixed version than in the original."""
    half = len(naming) // 2
    return any(
        len(b.get(agent, ())) != len(a.get(agent, ())) for b, a in zip(naming[:half], naming[half:], strict=True)
    )


def _naming(robots: Robots, reading: str) -> dict[str, tuple[int, ...]]:
    """The positions of the groups of `reading` that name each crawler."""
    found: dict[str, list[int]] = {}
    for position, group in enumerate(robots.read_by(reading).groups):
        for agent in dict.fromkeys(group.agents):
            found.setdefault(agent, []).append(position)
    return {agent: tuple(positions) for agent, positions in found.items()}


def _probes(first: list[str], rest: Iterator[str], cap: int, padding: int) -> tuple[list[str], bool]:
    """`first` up to `cap` (True when more), then others up to `padding` in all."""
    return first[:cap] + list(islice(rest, max(0, padding - len(first)))), len(first) > cap


__all__ = [
    "ALONE",
    "BUDGET",
    "MAX_AGENTS",
    "MAX_URLS",
    "PADDING_AGENTS",
    "PADDING_URLS",
    "READINGS",
    "UNNAMED",
    "Change",
    "Proof",
    "Prover",
    "Settled",
    "apply",
    "paths",
    "settle",
]
