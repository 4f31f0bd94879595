"""Where engines' verdicts on one file split: the crawler/URL pairs they answer otherwise.

`splits(robots, agents, urls)` lists the crawler/URL pairs whose verdicts
differ between engines, each engine's verdict and deciding line beside it;
`default_agents` and `probes` choose what to ask when the user names
nothing. The lines engines read otherwise are `compare.lines`.
`robotscope readings` and the web page's readings view come from here.
Pure: it only calls the core.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
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
UNNAMED_CRAWLER = "somebot"
MAX_URLS = 2_000  # URLs asked about at most: a 500 KiB file yields tens of thousands of probes


def default_agents(robots: Robots) -> list[str]:
    """Every crawler the file names, each operator's main crawler, and one crawler no file names."""
    named = [a for a in agents_named(robots) if a != "*"]
    extra = [a for a in OPERATOR_CRAWLERS if a.lower() not in named]
    return [*named, *extra, UNNAMED_CRAWLER]


class Split(NamedTuple):
    """A crawler/URL pair whose verdicts differ between engines."""

    agent: str
    url: str
    verdicts: dict[str, Verdict]
    usage: Usage | None = None  # the default reading's usage preferences for the URL, shown beside the verdicts

    def as_dict(self, lang: str = DEFAULT_LANG) -> dict[str, Any]:
        return {"agent": self.agent, **readings_view(self.url, self.verdicts, lang, self.usage)}


def splits(
    robots: Robots,
    agents: Sequence[str],
    urls: Sequence[str],
    progress: Callable[[int, int], object] | None = None,
) -> list[Split]:
    """Every crawler/URL pair where the engines disagree, in agent then URL order.

    Crawlers that share the groups reaching a URL are asked about it once
    (`Robots.disagreements`): asking every pair made the work grow with
    crawlers times URLs. `progress(done, total)` is told after each URL.
    """
    found = sorted(robots.disagreements(agents, urls, progress), key=lambda pair: pair[:2])
    usage = robots.states_preferences  # else no usage to show, and none asked for (it costs a rule set per crawler)
    return [
        Split(agents[crawler], urls[url], verdicts, robots.answer(agents[crawler], urls[url]).usage if usage else None)
        for crawler, url, verdicts in found
    ]


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
