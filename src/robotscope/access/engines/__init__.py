"""Readings: how each engine reads the same file, side by side.

`ENGINES` holds one `Engine` per reading (`rfc9309`, the default, and
`google`, `bing`, `naver`, `yandex`, `legacy`, `protego`); `verdict(robots,
agent, url, engine)` is one engine's answer as a `Verdict`, `readings`
every engine's, and `operator_engine(agent)` names the engine of the
crawler's own operator (Googlebot: google; Yeti: naver; unknown crawlers:
rfc9309). Each engine's module documents its sources behaviour by
behaviour; `tests/engines/` proves each against the real engine it names.
Pure: stdlib only.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...syntax.crawlers import recognise
from ..matching.matcher import is_robots_txt
from ...messages import Message, message
from ...syntax.model import Verdict
from ..preferences import usage_for
from ..profiles import Answer, ruleset_for
from ..profiles import answer as default_answer
from ..robots import Robots
from ...syntax.urls import plain_target, target
from .base import FIRST, LONGEST, Engine, Match, Parsed, Selection, assemble

DEFAULT = "rfc9309"
ALL = "all"
OPERATOR = "operator"

# The engine of each operator whose own reading is modelled (the crawler catalogue's `operator`).
_OPERATORS = {"Google": "google", "Microsoft": "bing", "Naver": "naver", "Yandex": "yandex"}


def _registry() -> dict[str, Engine]:
    from . import documented, google, legacy, protego, rfc9309 as rfc

    engines = [rfc.ENGINE, google.ENGINE, documented.BING, documented.NAVER, documented.YANDEX, legacy.ENGINE, protego.ENGINE]
    return {e.name: e for e in engines}


_ENGINES: dict[str, Engine] = {}


def engines() -> dict[str, Engine]:
    """Every engine, by name, in the order readings are shown."""
    if not _ENGINES:
        _ENGINES.update(_registry())
    return _ENGINES


def names() -> list[str]:
    return list(engines())


def engine(name: str) -> Engine:
    """The engine called `name`; ValueError (with the names to choose from) for any other."""
    found = engines().get(name)
    if found is None:
        raise ValueError(f"unknown engine {name!r}: choose one of {', '.join(engines())}, or {OPERATOR} (the crawler's operator's)")
    return found


def operator_engine(agent: str) -> str:
    """The engine of the crawler's own operator: Googlebot is read by `google`, Yeti by `naver`, others by `rfc9309`."""
    crawler = recognise(agent)
    return _OPERATORS.get(crawler.operator, DEFAULT) if crawler is not None else DEFAULT


def resolve(choice: str, agent: str) -> str:
    """The engine a `--engine` choice means for `agent` (`operator` names the crawler's own)."""
    if choice == ALL:
        raise ValueError(f"{ALL!r} means every engine, which one verdict cannot give: ask for readings(), or choose one engine")
    return operator_engine(agent) if choice == OPERATOR else engine(choice).name


def fetch_policy(choice: str, agent: str | None = None) -> str:
    """The HTTP status policy that goes with a `--engine` choice: the engine's own (`google` for Google's
    reading), the crawler's operator's for `operator` with one crawler, else RFC 9309's."""
    if choice == ALL or (choice == OPERATOR and agent is None):
        return engine(DEFAULT).policy
    return engine(resolve(choice, agent or "")).policy


def verdict(robots: Robots, agent: str, url: str, name: str = DEFAULT) -> Verdict:
    """May `agent` fetch `url`, as engine `name` reads the file? (`operator`: the crawler's operator's engine.)"""
    return run(engine(resolve(name, agent)), robots, agent, url)


def answer(robots: Robots, agent: str, url: str, name: str = DEFAULT, named: frozenset[str] | None = None) -> Answer:
    """The answer front ends show for engine `name`: the default reading's comes with the operator's profile
    (`named`: the tokens the file names, when the caller has them), any other engine's is its own reading."""
    if name == DEFAULT:
        shown = default_answer(robots, agent, url, named)
    else:
        found = verdict(robots, agent, url, name)
        shown = Answer(found, found, None, engine=name)
    return shown._replace(verdict=shown.verdict._replace(usage=usage_for(robots, shown.verdict)))


def run(chosen: Engine, robots: Robots, agent: str, url: str) -> Verdict:
    """One engine's verdict: its parse of the file (kept on `robots` for the next question), selection and match."""
    if chosen.name == DEFAULT:
        # The default reading is robotscope's own indexed matcher with the catalogue's profiles;
        # the rfc engine's generic steps give the same answers (a property test says so).
        return default_answer(robots, agent, url).verdict
    selection = _selection(robots, chosen, agent)
    target = chosen.target(url)
    return assemble(selection, chosen.match(selection, target), url, target)


def _selection(robots: Robots, chosen: Engine, agent: str) -> Selection:
    """The engine's choice of groups for `agent` in its parse of the file, made once per crawler.

    A bulk run asks one file about many URLs for few crawlers. Kept by the selecting
    function: two engines of one name may choose differently (a test's variant).
    """
    parsed = robots.reading(chosen.name, chosen.read)
    return robots.remembered(chosen.select, agent, lambda: chosen.select(parsed, agent))


def readings(robots: Robots, agent: str, url: str, chosen: Iterable[str] | None = None) -> dict[str, Verdict]:
    """Every engine's verdict (or those named), by engine name."""
    return {name: verdict(robots, agent, url, name) for name in (chosen or names())}


def split_note(robots: Robots, agent: str, url: str, shown: Verdict, shown_engine: str = DEFAULT) -> Message | None:
    """One line when the crawler's operator reads `url` differently from the verdict shown, else None.

    "Google reads line 2 `Disallow /oops` as a rule, so googlebot is blocked
    from /oops; RFC 9309 ignores that line."
    """
    split = split_filter(robots, agent, shown_engine)
    if not split.may_split(url):  # never, when the operator's engine is the one shown
        return None
    own = split.engine
    theirs = verdict(robots, agent, url, own)
    if theirs.allowed == shown.allowed:
        return None
    title, shown_title = engine(own).title, engine(shown_engine).title
    ours = {r.line for g in robots.groups for r in g.rules} if shown_engine == DEFAULT else None
    if theirs.line is not None and ours is not None and theirs.line not in ours:
        # The deciding line is no rule at all for the reading shown: say that first.
        raw = robots.line(theirs.line).raw.strip()
        code = "engine.split.reads-allow" if theirs.allowed else "engine.split.reads-disallow"
        return message(code, engine=title, shown=shown_title, token=theirs.agent_token, url=url, line=theirs.line, raw=raw)
    return message(
        "engine.split", engine=title, theirs=_side(theirs, url), shown=shown_title, ours=_side(shown, url)
    )


class SplitFilter:
    """Which URLs the crawler's operator's engine might answer otherwise than the engine shown, told cheaply.

    When both readings choose the same rules (by kind and compared form) and
    decide alike (both by the longest match), a URL that both turn into the
    same target, other than /robots.txt (implicitly allowed by some), gets
    the same verdict from both: only the other URLs need the operator's
    full verdict. Made once per file, crawler and engine shown.
    """

    def __init__(self, robots: Robots, agent: str, shown: str = DEFAULT) -> None:
        self.engine = operator_engine(agent)
        self._same = self.engine == shown
        if self._same:
            return
        self._shown, self._theirs = engine(shown), engine(self.engine)
        theirs = _chosen_rules(robots, agent, self._theirs)
        self._same_rules = self._shown.precedence == self._theirs.precedence == LONGEST and theirs == _chosen_rules(
            robots, agent, self._shown
        )

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


def _chosen_rules(robots: Robots, agent: str, chosen: Engine) -> frozenset[tuple[bool, str]]:
    """The rules (kind and compared form) an engine chooses for `agent`: the default reading's with its profile."""
    if chosen.name == DEFAULT:
        return frozenset((r.allow, r.normalised) for r in ruleset_for(robots, agent)[0].rules)
    return frozenset((r.allow, r.normalised) for g in _selection(robots, chosen, agent).groups for r in g.rules if r.normalised)


def split_filter(robots: Robots, agent: str, shown: str = DEFAULT) -> SplitFilter:
    """The file's `SplitFilter` for `agent` and the engine shown, made once (a bounded number per file)."""
    return robots.remembered(SplitFilter, (agent, shown), lambda: SplitFilter(robots, agent, shown))


def _side(found: Verdict, url: str) -> Message:
    """How one reading decides `url`: by which line, or for want of a matching rule."""
    if found.line is None:
        return message("engine.side.allowed-none" if found.allowed else "engine.side.blocked-none", token=found.agent_token, url=url)
    code = "engine.side.allowed" if found.allowed else "engine.side.blocked"
    return message(code, token=found.agent_token, url=url, line=found.line)


__all__ = [
    "ALL",
    "DEFAULT",
    "FIRST",
    "LONGEST",
    "OPERATOR",
    "Engine",
    "Match",
    "Parsed",
    "Selection",
    "SplitFilter",
    "answer",
    "engine",
    "engines",
    "fetch_policy",
    "names",
    "operator_engine",
    "readings",
    "resolve",
    "run",
    "split_filter",
    "split_note",
    "verdict",
]
