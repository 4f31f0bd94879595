"""`Robots`, the façade every question about one file goes through, and `parse`, the way to get one.

A `Robots` is a `ParsedFile` (every line, group and record, read once) that
answers: `verdict(agent, url)` and `can_fetch(agent, url)` under RFC 9309,
or under any reading (`engine="google"`, `"rfc9309+profiles"`, `"operator"`;
see `access.engines.registry`), `readings(agent, url)` for every engine side
by side, and `answer(...)`, the verdict front ends show with the profile
that chose it. It alone calls the engines, and nothing below it imports it.
`verdict_after` and `answer_after` answer for an origin whose robots.txt was
fetched: the file's rules where they apply after the fetch, else the
policy's allow-all or disallow-all.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence

from ..messages import Message
from ..syntax.model import Group, Record, Verdict
from ..syntax.parsed import ParsedFile
from ..syntax.parser import MAX_BYTES
from ..syntax.tokens import product_token
from ..syntax.urls import plain_target, target
from .classes import questions
from .engines.base import Parsed, Selection, group_lines
from .engines.registry import DEFAULT, PROFILED, names, resolve, run, selection
from .engines.registry import engine as engine_named
from .engines.split import split_filter
from .matching.explain import verdict as explained
from .matching.ruleset import RuleSet
from .matching.rulesets import RuleSets
from .matching.selection import GroupIndex
from .policy import Action, Decision
from .preferences import states_preferences, usage_for
from .profiles import Answer, named_tokens, profiled_rules
from .verdicts import allows, blanket, with_usage


class Robots(ParsedFile):
    """A parsed robots.txt file that answers who may fetch what, with the deciding line.

    The rule sets of the crawlers asked about are made on first use and
    kept (bounded: see `RuleSets`).
    """

    __slots__ = ("_preferences", "_rulesets")

    def __init__(
        self,
        data: str | bytes | bytearray | memoryview = "",
        limit: int = MAX_BYTES,
        cut_from: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(data, limit, cut_from)
        self._rulesets: RuleSets | None = None
        self._preferences: bool | None = None  # whether any group states usage preferences, found on first verdict

    def _sets(self) -> RuleSets:
        sets = self._rulesets
        if sets is None:
            sets = self._rulesets = RuleSets(self.groups)
        return sets

    @property
    def group_index(self) -> GroupIndex:
        """The groups by the tokens they name, built on first use."""
        return self._sets().index

    def rules_for(self, agent: str, profiles: bool = False) -> RuleSet:
        """The merged, sorted rules that apply to `agent` (a token or User-Agent string) under RFC 9309;
        with `profiles`, those its operator's documented profile chooses (`rfc9309+profiles`)."""
        if profiles:
            return profiled_rules(self._sets(), self._named(), agent)[0]
        return self._sets().of(agent)

    def profile(self, agent: str) -> Message | None:
        """How `agent`'s operator's documented profile chooses its groups in this file, or None (RFC 9309 alone)."""
        return profiled_rules(self._sets(), self._named(), agent)[1]

    def _named(self) -> frozenset[str]:
        return self.reading(named_tokens, named_tokens)

    def verdict(self, agent: str, url: str, engine: str = DEFAULT) -> Verdict:
        """Decide whether `agent` may fetch `url`, with the deciding line and every candidate rule.

        `agent` is a product token or a full User-Agent string; `url` a full
        URL or a path, with or without query. `engine` names the reading:
        `rfc9309` (the default: RFC 9309 exactly), `rfc9309+profiles` (with
        the crawler's documented profile, as the front ends show), an
        operator's or parser's engine (`google`, `legacy`, ...), or
        `operator` (the crawler's operator's reading).
        """
        if engine == DEFAULT:  # the common case, without a call of `_plain_verdict`
            sets = self._rulesets or self._sets()
            found = explained(sets.by_agent.get(agent) or sets.of(agent), url)
        else:
            found = self._plain_verdict(agent, url, engine)
        return self._with_preferences(found)

    def _with_preferences(self, found: Verdict) -> Verdict:
        """The verdict with the usage preferences that apply to it, if the file states any."""
        if not self.states_preferences:
            return found  # most files: no Content-Usage or Content-Signal line
        return with_usage(found, usage_for(self, found))

    def _plain_verdict(self, agent: str, url: str, engine: str) -> Verdict:
        """The verdict without usage preferences."""
        name = resolve(engine, agent)
        if name == DEFAULT:
            return explained(self._sets().of(agent), url)
        if name == PROFILED:
            return explained(self.rules_for(agent, profiles=True), url)
        return run(engine_named(name), self, agent, url)

    def can_fetch(self, agent: str, url: str, engine: str = DEFAULT) -> bool:
        """Tell whether `agent` may fetch `url`: `verdict(agent, url, engine).allowed`, faster.

        Under RFC 9309 both ask `verdicts.allows` of the deciding rule, found
        on the matcher's fast path here; other readings ask their verdict.
        """
        if engine == DEFAULT:
            sets = self._rulesets or self._sets()
            ruleset = sets.by_agent.get(agent) or sets.of(agent)
        elif engine == PROFILED:
            ruleset = self.rules_for(agent, profiles=True)
        else:
            return self._plain_verdict(agent, url, engine).allowed
        if not ruleset.has_rules:
            return True  # no group applies, or its rules are all empty
        plain = plain_target(url)  # target(url), its fast path inlined
        path = target(url) if plain is None else plain[1]
        return allows(ruleset.winner(path), path)

    def read_by(self, engine: str) -> Parsed:
        """The file as `engine` reads it (its groups, and rules with their lines), made once and kept."""
        chosen = engine_named(engine)
        return self.reading(chosen.name, chosen.read)

    def readings(self, agent: str, url: str) -> dict[str, Verdict]:
        """Every engine's verdict for `agent` on `url`, by engine name, in the order they are shown."""
        return {name: self.verdict(agent, url, name) for name in names()}

    def disagreements(
        self, agents: Sequence[str], urls: Sequence[str], progress: Callable[[int, int], object] | None = None
    ) -> Iterator[tuple[int, int, dict[str, Verdict]]]:
        """Every crawler/URL pair (positions in `agents` and `urls`) whose verdicts differ between engines, with
        `readings(agent, url)`, URL by URL. Each class of crawlers the engines must answer alike at a URL
        (`access.classes`) is asked once, on the groups that can reach the URL; its crawlers one by one
        only where the engines split. `progress(done, total)` is told after each URL."""
        engines = {name: engine_named(name) for name in names()}
        chosen = {name: [selection(self, found, agent) for agent in agents] for name, found in engines.items()}
        prepared: dict[tuple[str, tuple[int, ...]], Selection] = {}

        lines: dict[tuple[str, int], tuple[int, ...]] = {}

        def lines_of(name: str, crawler: int) -> tuple[int, ...]:
            """The crawler's user-agent lines, sorted once (a crawler merging thousands of groups is asked often)."""
            found = lines.get((name, crawler))
            if found is None:
                found = lines[name, crawler] = group_lines(chosen[name][crawler])
            return found

        def asked(name: str, crawler: int, url: str, groups: tuple[Group, ...]) -> Verdict:
            full = chosen[name][crawler]
            if groups:
                key = (name, tuple(map(id, groups)))
                made = prepared.get(key)
                if made is None:
                    made = prepared[key] = engines[name].regroup(self.read_by(name), groups)
                selected = made._replace(token=full.token, lines=lines_of(name, crawler))
            else:  # none of the crawler's groups can reach the URL; whether it has any still shows
                selected = Selection(
                    full.token, tuple(g._replace(rules=()) for g in full.groups[:1]), None, lines_of(name, crawler)
                )
            return self._with_preferences(run(engines[name], self, agents[crawler], url, selected))

        choices = {name: [made.groups for made in per_crawler] for name, per_crawler in chosen.items()}
        for question in questions(choices, urls, progress):
            url = urls[question.url]
            first, *others = question.agents
            found = {name: asked(name, first, url, groups) for name, groups in question.groups.items()}
            if len({verdict.allowed for verdict in found.values()}) < 2:
                continue
            yield first, question.url, found
            for crawler in others:
                yield crawler, question.url, {name: asked(name, crawler, url, g) for name, g in question.groups.items()}

    def agent_record(self, agent: str, key: str) -> Record | None:
        """The first `key` record (e.g. crawl-delay) for `agent`: of the user-agent lines right above it.

        The runs of user-agent lines that apply are chosen as RFC 9309 chooses
        groups: those naming the crawler's token when any line names it (with
        or without such a record: then there is none), else those of `*`. So
        `User-agent: a / Crawl-delay: 5 / User-agent: b / Crawl-delay: 10` gives
        a 5 and b 10, and `User-agent: * / Crawl-delay: 5 / User-agent: c /
        Disallow: /x` gives c none, as the standard library and Protego read
        them, although RFC 9309 makes each pair one group for its rules.
        """
        token = product_token(agent)
        # Every token some user-agent line names: a run naming it is the crawler's own.
        wanted = token if token in self.group_index.named else "*"
        return next((record for record in self.records if record.key == key and wanted in record.agents), None)

    def crawl_delay(self, agent: str) -> int | float | None:
        """The Crawl-delay for `agent` in seconds, or None when unset, not a number, negative or not finite."""
        record = self.agent_record(agent, "crawl-delay")
        if record is None:
            return None
        try:
            value = float(record.value)
        except ValueError:
            return None
        if not math.isfinite(value) or value < 0:
            return None  # as the standard library and Protego: -5, inf and nan are no delay
        return int(value) if value.is_integer() else value

    @property
    def states_preferences(self) -> bool:
        """Whether any group states usage preferences (Content-Usage, Content-Signal): most files do not."""
        if self._preferences is None:
            self._preferences = states_preferences(self)
        return self._preferences

    def answer(self, agent: str, url: str, reading: str = PROFILED) -> Answer:
        """The answer front ends show for a reading: its verdict (with usage preferences), the same reading's
        verdict without profiles, and the profile that chose the groups (`rfc9309+profiles`' note)."""
        name = resolve(reading, agent)
        if name != PROFILED:
            found = self.verdict(agent, url, name)
            return Answer(found, found, None, engine=name)
        rfc = explained(self._sets().of(agent), url)
        ruleset, profile = profiled_rules(self._sets(), self._named(), agent)
        shown = rfc if profile is None else explained(ruleset, url)
        return Answer(with_usage(shown, usage_for(self, shown)), rfc, profile, engine=PROFILED)

    def reads_otherwise(self, agent: str, url: str, allowed: bool, reading: str) -> tuple[str, Verdict] | None:
        """The crawler's operator's reading and its verdict, when it answers `url` otherwise than `reading`
        (an engine name) did (`allowed`); None when it answers alike."""
        split = split_filter(self, agent, reading)
        if not split.may_split(url):  # never, when the operator's reading is the one shown
            return None
        theirs = self._plain_verdict(agent, url, split.engine)
        return None if theirs.allowed == allowed else (split.engine, theirs)


def parse(text: str | bytes | bytearray | memoryview) -> Robots:
    """Parse robots.txt content; never raises, whatever the bytes.

    Bytes are decoded as UTF-8 (invalid bytes replaced), a leading BOM is
    dropped, and only the first 512,000 bytes are applied.

    >>> parse("User-agent: *\\nDisallow: /private/\\n").can_fetch("Googlebot", "/private/x")
    False
    """
    return Robots(text)


def verdict_after(decision: Decision, robots: Robots | None, agent: str, url: str, engine: str = DEFAULT) -> Verdict:
    """May `agent` fetch `url`, once a fetch of its origin's robots.txt ended in `decision`?

    `robots` is the file the decision leaves (the fetched one for `parse`,
    the last good copy for `cached-copy`): its rules answer, read by
    `engine`. Otherwise no rule applies: allow-all or disallow-all, and
    /robots.txt itself stays allowed (RFC 9309, Section 2.2.2).
    """
    if decision.action.rules_apply and robots is not None:
        return robots.verdict(agent, url, engine)
    return blanket(decision.action is not Action.DISALLOW_ALL, product_token(agent), url, target(url))


def answer_after(decision: Decision, robots: Robots | None, agent: str, url: str, reading: str = PROFILED) -> Answer:
    """`Robots.answer` for an origin whose robots.txt was fetched (see `verdict_after`)."""
    if decision.action.rules_apply and robots is not None:
        return robots.answer(agent, url, reading)
    found = verdict_after(decision, None, agent, url)
    return Answer(found, found, None, engine=resolve(reading, agent))
