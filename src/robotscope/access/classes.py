"""Crawlers every engine must answer alike at a URL, found from the groups they share, for `readings`.

An engine's verdict on a URL depends on the rules of the groups it chose
for the crawler that can match the URL, and on nothing else the crawler
brings but its token and group lines (shown, not decisive). So at one URL,
crawlers whose chosen groups *that can reach it* (`matching.reach`, a
superset for every engine) are the same, engine by engine, get the same
answers: one question per such class tells whether the engines split
there. Comparing every crawler with every URL made `readings` quadratic on
a file where many crawlers share a large group; here the work is each
group's reach (once, whichever crawlers chose it) plus one question per
class and URL, and a crawler is asked on its own only where its class
splits, which the answer lists pair by pair anyway.

A group with an empty rule reaches every URL (the legacy reading's empty
Disallow allows everything), and so does one led by `*`; a class none of
whose groups has a Disallow that can reach the URL is allowed by every
engine and never asked. What else a verdict says of the crawler (whether
any group applied, which user-agent lines) does not change whether it is
allowed, and each crawler of a class that splits is asked on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import NamedTuple

from ..syntax.model import Group
from .matching.reach import UrlIndex

# One engine's choice for each crawler, by the crawler's position in the list asked about.
Choices = Mapping[str, Sequence[tuple[Group, ...]]]


class Question(NamedTuple):
    """Crawlers that every engine answers alike at one URL, and each engine's groups that can reach it."""

    url: int  # its position among the URLs
    agents: tuple[int, ...]  # positions among the crawlers, ascending
    groups: dict[str, tuple[Group, ...]]  # by engine, in the order the engine chose them


class _Reach(NamedTuple):
    engine: str
    group: Group
    crawlers: frozenset[int]  # those whose choice under `engine` includes the group
    disallows: frozenset[int]  # the URLs a Disallow of the group may match


def _intern(sets: dict[frozenset[int], frozenset[int]], found: frozenset[int]) -> frozenset[int]:
    """One object for equal sets: classes are then refined by distinct sets, and cached by their identity."""
    return sets.setdefault(found, found)


def _reaches(choices: Choices, index: UrlIndex) -> list[list[_Reach]]:
    """For each URL, the (engine, group) pairs that can reach it."""
    sets: dict[frozenset[int], frozenset[int]] = {}
    chosen: dict[tuple[str, int], tuple[Group, list[int]]] = {}
    for engine, per_crawler in choices.items():
        for crawler, groups in enumerate(per_crawler):
            for group in groups:
                if group.rules:
                    chosen.setdefault((engine, id(group)), (group, []))[1].append(crawler)
    by_url: list[list[_Reach]] = [[] for _ in index.urls]
    reach_of: dict[int, tuple[list[int], frozenset[int]]] = {}  # a group two engines share is reached once
    for (engine, key), (group, crawlers) in chosen.items():
        if key not in reach_of:
            patterns = [rule.pattern for rule in group.rules]
            blocking = [rule.pattern for rule in group.rules if not rule.allow and rule.pattern]
            every = index.reached(patterns)
            # Most groups are all Disallow rules: one search serves both.
            blocked = every if len(blocking) == len(patterns) else index.reached(blocking) if blocking else []
            reach_of[key] = (every, frozenset(blocked))
        reached, disallows = reach_of[key]
        reach = _Reach(engine, group, _intern(sets, frozenset(crawlers)), disallows)
        for url in reached:
            by_url[url].append(reach)
    return by_url


def _classes(reaching: list[_Reach]) -> list[tuple[frozenset[int], frozenset[int]]]:
    """The crawlers of some reaching group split by which groups they chose: (crawlers, ids of their sets)."""
    anyone = frozenset().union(*(reach.crawlers for reach in reaching))
    classes = [(anyone, frozenset[int]())]
    for crawlers in {id(reach.crawlers): reach.crawlers for reach in reaching}.values():
        refined = []
        for members, inside in classes:
            both = members & crawlers
            if both:
                refined.append((both, inside | {id(crawlers)}))
            if len(both) < len(members):
                refined.append((members - crawlers, inside))
        classes = refined
    return classes


def questions(
    choices: Choices, urls: Sequence[str], progress: Callable[[int, int], object] | None = None
) -> Iterator[Question]:
    """For each URL in turn, the classes of crawlers the engines may disallow it for, one question each;
    `progress(done, total)` is told after each URL.

    A crawler absent from every question at a URL is allowed there by every engine.
    """
    index = UrlIndex(urls)
    by_url = _reaches(choices, index)
    known: dict[frozenset[int], list[tuple[frozenset[int], frozenset[int]]]] = {}
    for url, reaching in enumerate(by_url):
        if progress is not None and url:
            progress(url, len(by_url))
        if not any(url in reach.disallows for reach in reaching):
            continue
        # URLs reached by the same groups have the same classes: most URLs of a file.
        key = frozenset(id(reach.crawlers) for reach in reaching)
        classes = known.get(key)
        if classes is None:
            classes = known[key] = _classes(reaching)
        for members, inside in classes:
            mine = [reach for reach in reaching if id(reach.crawlers) in inside]
            if not any(url in reach.disallows for reach in mine):
                continue
            groups = {
                engine: tuple(sorted((r.group for r in mine if r.engine == engine), key=_position))
                for engine in choices
            }
            yield Question(url, tuple(sorted(members)), groups)
    if progress is not None:
        progress(len(by_url), len(by_url))


def _position(group: Group) -> int:
    return group.position
