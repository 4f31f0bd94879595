"""Where engines read one file differently: the lines they read otherwise, and the URLs where verdicts split.

`differences(robots)` lists every line that some engine reads as a rule (or
as a user-agent line) differently from another, with what each makes of it;
`splits(robots, agents, urls)` lists the crawler/URL pairs whose verdicts
differ between engines, each engine's verdict and deciding line beside it.
`robotscope readings`, the web page's readings view and the linter's
`readsDifferently` finding all come from here. Pure: it only calls the core.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from ...access.engines.registry import names
from ...access.robots import Robots
from ...messages import DEFAULT_LANG
from ...syntax.model import Usage, Verdict
from ...syntax.patterns import example_target
from ..views import readings_view
from .diff import agents_named, probe_urls

# Crawlers always asked about besides those the file names: each operator's main one.
OPERATOR_CRAWLERS = ("Googlebot", "bingbot", "Yeti", "YandexBot")
# A crawler no file names, standing for "every other crawler" (the `*` groups).
ANY_CRAWLER = "somebot"
MAX_URLS = 2_000  # URLs asked about at most: a 500 KiB file yields tens of thousands of probes


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
    raws = [
        line.raw for line in robots.lines
    ]  # read once, not per line; past the limit only up to the last line needed
    beyond = (lines[-1] if lines else 0) - len(raws)
    if beyond > 0:
        raws += robots.overflow_text.split("\n", beyond)[:beyond]
    out = []
    for number in lines:
        by_engine = {name: described[name].get(number, "-") for name in engine_names}
        if len(set(by_engine.values())) > 1:
            out.append(LineReading(number, raws[number - 1] if number <= len(raws) else "", by_engine))
    return out


def default_agents(robots: Robots) -> list[str]:
    """Every crawler the file names, each operator's main crawler, and one crawler no file names."""
    named = [a for a in agents_named(robots) if a != "*"]
    extra = [a for a in OPERATOR_CRAWLERS if a.lower() not in named]
    return [*named, *extra, ANY_CRAWLER]


class Split(NamedTuple):
    """A crawler/URL pair whose verdicts differ between engines."""

    agent: str
    url: str
    verdicts: dict[str, Verdict]
    usage: Usage | None = None  # the default reading's usage preferences for the URL, shown beside the verdicts

    def as_dict(self, lang: str = DEFAULT_LANG) -> dict[str, Any]:
        return {"agent": self.agent, **readings_view(self.url, self.verdicts, lang, self.usage)}


def splits(robots: Robots, agents: Iterable[str], urls: Sequence[str]) -> list[Split]:
    """Every crawler/URL pair where the engines disagree, in agent then URL order."""
    found = []
    for agent in agents:
        for url in urls:
            verdicts = robots.readings(agent, url)
            if len({v.allowed for v in verdicts.values()}) > 1:
                found.append(Split(agent, url, verdicts, robots.answer(agent, url).usage))
    return found


def probes(robots: Robots, extra: Sequence[str] = ()) -> tuple[list[str], bool]:
    """URLs to ask about: those given, then one for each rule any engine reads; capped (True when capped)."""
    derived = [
        example_target(rule.normalised)
        for name in names()
        for rule in robots.read_by(name).every_rule()
        if rule.normalised[:1] in ("/", "*")
    ]
    urls = list(dict.fromkeys([*extra, *probe_urls(robots), *derived]))
    return urls[:MAX_URLS], len(urls) > MAX_URLS
