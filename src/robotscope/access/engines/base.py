"""What an engine is: one crawler's whole reading of a robots.txt, as data plus small strategy functions.

An `Engine` reads a file in four steps, each a function it names, so two
engines differ exactly where their functions do:

1. `read(parsed) -> Parsed`: the line dialect (which key spellings count,
   lines without a colon, a line length cut) and group formation (what ends
   a run of user-agent lines, whether a blank line ends a record), on the
   part of the file the engine reads (`limit` bytes).
2. `select(parsed, agent) -> Selection`: agent matching (exact product
   token, Google's token extraction, substring) and whether the first
   matching group is used or all matching groups are merged.
3. the operator profile (`profiled`): the catalogue's documented fallbacks
   and `*`-ignoring (`access.profiles`), applied by an operator's engine to
   that operator's crawlers, and by `rfc9309+profiles` to every crawler.
4. `match(selection, target) -> Match`: longest match with Allow on ties, or
   first match; wildcards or literal characters; how a pattern's length is
   counted; percent-encoding; whether `/robots.txt` is implicit.

`assemble` makes the result a `Verdict` through `access.verdicts`, the one
builder of every answer, so every front end shows every reading the same
way. Engines read a `ParsedFile` and know nothing of the `Robots` façade,
which alone calls them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import chain
from typing import Any, NamedTuple

from ...messages import DEFAULT_LANG, message
from ...syntax.crawlers import recognise
from ...syntax.model import Group, Rule, Verdict
from ...syntax.parsed import ParsedFile
from ...syntax.tokens import product_token
from ..matching.selection import GroupIndex, select_groups
from ..matching.tuning import INDEX_GROUPS_FROM
from ..profiles import profile_for
from ..verdicts import matched

LONGEST, FIRST = "longest", "first"


class Parsed(NamedTuple):
    """A file as one engine reads it: its groups (rules with their lines) and its size.

    An engine whose groups would copy the same rules many times (Protego
    gives every name of a run of user-agent lines its own copy) keeps them
    once instead: `rules` are then every rule read, in file order, and the
    groups' `rules` are empty. `prepared` is what the engine's `select`
    keeps besides the groups: Protego's shared rule blocks and the groups it
    built from them, Google's rule filters by the groups chosen.
    """

    groups: tuple[Group, ...]
    size: int  # bytes of the input
    rules: tuple[Rule, ...] | None = None
    prepared: Any = None
    named: GroupIndex | None = None  # the groups by the tokens they name, for a file of many (`named_groups`)

    def every_rule(self) -> Iterator[Rule]:
        """Every rule the engine read (a rule that several groups share, once or once per group)."""
        if self.rules is not None:
            return iter(self.rules)
        return (rule for group in self.groups for rule in group.rules)


def named_groups(groups: tuple[Group, ...]) -> GroupIndex | None:
    """The groups filed by token when there are many: each crawler then finds its own in one lookup,
    not a scan (a file naming thousands of crawlers, each asked about, was crawlers x groups)."""
    return GroupIndex(groups) if len(groups) >= INDEX_GROUPS_FROM else None


def applying(parsed: Parsed, token: str) -> tuple[Group, ...]:
    """RFC 9309's choice of groups for `token` in the engine's reading: those naming it, else `*`."""
    return select_groups(parsed.groups, token) if parsed.named is None else parsed.named.select(token)


class Selection(NamedTuple):
    """The groups that apply to one crawler under one engine, and its token as that engine reads it."""

    token: str
    groups: tuple[Group, ...]
    prepared: Any = None  # what the engine's `match` builds from the groups once (an index), if anything
    lines: tuple[int, ...] | None = None  # the groups' user-agent lines, sorted (`group_lines`), once made


def group_lines(selection: Selection) -> tuple[int, ...]:
    """The user-agent lines of the groups chosen, in order: a verdict's `group_lines`."""
    if selection.lines is not None:
        return selection.lines
    return tuple(sorted(chain.from_iterable(g.agent_lines for g in selection.groups)))


class Match(NamedTuple):
    """What an engine's matching makes of one target: the deciding rule and the others that matched."""

    rule: Rule | None
    candidates: tuple[Rule, ...]
    implicit: bool = False  # decided without a rule: `/robots.txt` is always allowed
    allowed: bool | None = None  # the answer when it is not the deciding rule's kind (legacy: an empty Disallow allows)


Reader = Callable[[ParsedFile], Parsed]
Selector = Callable[[Parsed, str], Selection]
Matcher = Callable[[Selection, str], Match]
Targeter = Callable[[str], str]
Regrouper = Callable[[Parsed, tuple[Group, ...]], Selection]


def scanned(parsed: Parsed, groups: tuple[Group, ...]) -> Selection:
    """A selection of exactly `groups`, their rules tried in turn."""
    return Selection("", groups)


@dataclass(frozen=True)
class Engine:
    """One engine's reading: its steps, the fetch policy it applies, and where each behaviour is documented.

    `sources` are the documents its behaviour comes from; `notes` are
    message codes for what is inferred rather than documented.
    `operator` is the crawler operator whose profiles (fallbacks, `*`
    ignored) it applies, None for none. `precedence` says how its `match`
    orders candidates, for explanations: `longest` (RFC 9309) or `first`.
    """

    name: str
    title: str
    sources: tuple[str, ...]
    policy: str
    read: Reader
    select: Selector
    match: Matcher
    target: Targeter
    operator: str | None = None
    notes: tuple[str, ...] = ()
    precedence: str = LONGEST  # which matching rule decides: the longest, or the first in file order
    # A selection of some of the groups `select` chose (their order kept), prepared for `match` as
    # `select` prepares its own; the caller gives it the crawler's token and lines. `readings` asks
    # each engine about the groups that can reach a URL alone (`access.classes`).
    regroup: Regrouper = scanned

    def as_dict(self, lang: str = DEFAULT_LANG) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "sources": list(self.sources),
            "policy": self.policy,
            "precedence": self.precedence,
            "summary": message(f"engine.{self.name}.summary").render(lang),
            "notes": [message(code).render(lang) for code in self.notes],
        }


def assemble(selection: Selection, found: Match, url: str, target: str) -> Verdict:
    """The verdict of one engine's match: the one reading of "which rule decided" shared by every engine."""
    lines = group_lines(selection)
    return matched(
        found.rule,
        found.candidates,
        selection.token,
        lines,
        url,
        target,
        grouped=bool(selection.groups),
        implicit=found.implicit,
        allowed=found.allowed,
    )


def profiled(select: Selector, operator: str | None = None) -> Selector:
    """`select` with the crawler catalogue's documented profiles (`access.profiles`) applied on top.

    A crawler with a profile whose groups the file does not name obeys its
    fallback's groups as `select` chooses them (Googlebot-Image: Googlebot's),
    or none when it ignores `*` (AdsBot-Google). With `operator`, only that
    operator's crawlers: an operator's engine applies its own crawlers'
    documented behaviour, not another operator's.
    """

    def chosen(parsed: Parsed, agent: str) -> Selection:
        crawler = recognise(agent)
        if crawler is None or (operator is not None and crawler.operator != operator):
            return select(parsed, agent)
        profile = profile_for(agent, frozenset(name for group in parsed.groups for name in group.agents))
        if profile is None:
            return select(parsed, agent)
        fallback, _ = profile
        token = product_token(agent)
        if fallback is None:
            return Selection(token, ())
        return select(parsed, fallback)._replace(token=token)

    return chosen
