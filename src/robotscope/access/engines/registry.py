"""The readings, by name: the seven engines, `rfc9309+profiles`, and the `operator` and `all` choices.

`engines()` holds the seven readings `readings()` compares, in the order they
are shown: `rfc9309` (RFC 9309 exactly), `google`, `bing`, `naver`,
`yandex`, `legacy`, `protego`. `engine(name)` also knows `rfc9309+profiles`,
RFC 9309 with each crawler's documented profile: the reading every front end
shows by default. A choice is one of those names or `operator` (each
crawler by its operator's reading: Googlebot by `google`, Yeti by `naver`,
a catalogue crawler of another operator by `rfc9309+profiles`, an unknown
crawler by `rfc9309`); `resolve` turns a choice into a name. `run` is one
engine's verdict, through its steps (`engines.base`); the `Robots` façade
alone calls it.
"""

from __future__ import annotations

from ...syntax.crawlers import recognise
from ...syntax.model import Verdict
from ...syntax.parsed import ParsedFile
from . import bing, google, legacy, naver, protego, rfc9309, yandex
from .base import Engine, Selection, assemble, group_lines

DEFAULT = rfc9309.NAME  # what `Robots.verdict` and `can_fetch` answer without `engine=`
PROFILED = rfc9309.PROFILED_NAME  # what the front ends show without `--engine`
ALL = "all"
FEW_LINES = 64  # user-agent lines of a selection sorted when it is made
OPERATOR = "operator"

_ENGINES: dict[str, Engine] = {
    e.name: e
    for e in (rfc9309.ENGINE, google.ENGINE, bing.ENGINE, naver.ENGINE, yandex.ENGINE, legacy.ENGINE, protego.ENGINE)
}
_KNOWN: dict[str, Engine] = {**_ENGINES, PROFILED: rfc9309.PROFILED}

# The engine of each operator whose own reading is modelled (the crawler catalogue's `operator`).
_OPERATORS = {
    "Google": google.ENGINE.name,
    "Microsoft": bing.ENGINE.name,
    "Naver": naver.ENGINE.name,
    "Yandex": yandex.ENGINE.name,
}


def engines() -> dict[str, Engine]:
    """The seven readings `readings()` compares, by name, in the order they are shown."""
    return _ENGINES


def names() -> list[str]:
    return list(_ENGINES)


def choices(side_by_side: bool = True) -> list[str]:
    """Every choice a front end offers: the default reading first, the engines, `operator` (and `all`)."""
    return [PROFILED, *_ENGINES, OPERATOR, *([ALL] if side_by_side else [])]


def engine(name: str) -> Engine:
    """The engine called `name` (`rfc9309+profiles` included); ValueError, naming the choices, for any other."""
    found = _KNOWN.get(name)
    if found is None:
        raise ValueError(
            f"unknown engine {name!r}: choose one of {', '.join(_KNOWN)}, or {OPERATOR} (the crawler's operator's)"
        )
    return found


def operator_engine(agent: str) -> str:
    """The reading of the crawler's own operator: Googlebot's is `google`, Yeti's `naver`, Applebot's
    `rfc9309+profiles` (Apple documents its fallback, no engine of its own), an unknown crawler's `rfc9309`."""
    crawler = recognise(agent)
    if crawler is None:
        return DEFAULT
    return _OPERATORS.get(crawler.operator, PROFILED)


def resolve(choice: str, agent: str) -> str:
    """The engine a choice means for `agent` (`operator` names the crawler's own)."""
    if choice == ALL:
        raise ValueError(
            f"{ALL!r} means every engine, which one verdict cannot give: ask for readings(), or choose one engine"
        )
    return operator_engine(agent) if choice == OPERATOR else engine(choice).name


def fetch_policy(choice: str, agent: str | None = None) -> str:
    """The HTTP status policy that goes with a choice: the engine's own (`google` for Google's reading),
    the crawler's operator's for `operator` with one crawler, else RFC 9309's."""
    if choice == ALL or (choice == OPERATOR and agent is None):
        return rfc9309.ENGINE.policy
    return engine(resolve(choice, agent or "")).policy


def selection(parsed: ParsedFile, chosen: Engine, agent: str) -> Selection:
    """The engine's choice of groups for `agent` in its reading of the file, made once per crawler.

    A bulk run asks one file about many URLs for few crawlers. Kept by the selecting
    function: two engines of one name may choose differently (a test's variant).
    """
    read = parsed.reading(chosen.name, chosen.read)

    def make() -> Selection:
        made = chosen.select(read, agent)
        if sum(len(group.agent_lines) for group in made.groups) > FEW_LINES:
            # A group naming thousands of crawlers, each asked about (`readings`): its lines are
            # sorted for a verdict when one is made, not for every crawler chosen.
            return made
        return made._replace(lines=group_lines(made))  # sorted once, not on every verdict

    return parsed.remembered(chosen.select, agent, make)


def run(chosen: Engine, parsed: ParsedFile, agent: str, url: str, selected: Selection | None = None) -> Verdict:
    """One engine's verdict through its steps: its reading of the file (kept on `parsed` for the next
    question), its choice of groups (`selected`, when the caller made it already), its target and its match."""
    chosen_groups = selection(parsed, chosen, agent) if selected is None else selected
    target = chosen.target(url)
    return assemble(chosen_groups, chosen.match(chosen_groups, target), url, target)
