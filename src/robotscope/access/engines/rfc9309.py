"""`rfc9309`: RFC 9309 exactly, with the crawler catalogue's documented operator profiles (the default).

Every behaviour is RFC 9309's (https://www.rfc-editor.org/rfc/rfc9309.html),
as README's "What robotscope implements" states it: Section 2.2 (records,
case-insensitive keys, a line without a colon ignored), 2.2.1 (groups,
exact product tokens, merged groups, `*` otherwise), 2.2.2 (longest match,
Allow on ties, percent-encoding, /robots.txt implicitly allowed), 2.2.3
(`*` and `$`), 2.5 (the first 500 KiB). Product tokens keep digits
(`MJ12bot`), as every crawler's own name does. The catalogue's operator
profiles (Googlebot-Image obeys a Googlebot group; AdsBot-Google ignores
`*`) are applied as every front end applies them. These steps are the
generic form of `Robots.verdict` plus `profiles.answer`, which `engines.run`
calls instead for speed; a property test keeps the two equal.
"""

from __future__ import annotations

from ...syntax.crawlers import recognise
from ..matching.matcher import RuleSet, is_robots_txt, select_groups
from ...syntax.model import Group
from ..profiles import named_tokens, profile_for
from ..robots import Robots
from ...syntax.urls import target
from ...syntax.tokens import product_token
from .base import Engine, Match, Parsed, Selection, Selector


def read(robots: Robots) -> Parsed:
    return Parsed(robots.groups, robots.size)


def selection(token: str, groups: tuple[Group, ...]) -> Selection:
    """The groups chosen for `token`, their rules indexed once for `match`."""
    return Selection(token, groups, RuleSet(token, groups))


def plain(parsed: Parsed, agent: str) -> Selection:
    """RFC 9309's choice alone, no operator profile: the groups naming the crawler's token, else `*`."""
    token = product_token(agent)
    return selection(token, select_groups(parsed.groups, token))


def select(parsed: Parsed, agent: str) -> Selection:
    """RFC 9309's choice with the catalogue's operator profile, when the crawler has one."""
    named = frozenset(t for g in parsed.groups for t in g.agents)
    profile = profile_for(agent, named)
    if profile is None:
        return plain(parsed, agent)
    fallback, _ = profile
    return selection(product_token(agent), () if fallback is None else select_groups(parsed.groups, fallback.lower()))


def operator_select(operator: str) -> Selector:
    """`select` for one operator's engine: the catalogue's profiles for its own crawlers, RFC 9309's choice
    alone for every other crawler (another operator's profile is not this engine's to apply)."""

    def chosen(parsed: Parsed, agent: str) -> Selection:
        crawler = recognise(agent)
        if crawler is None or crawler.operator != operator:
            return plain(parsed, agent)
        return select(parsed, agent)

    return chosen


def match(selection: Selection, path: str) -> Match:
    ruleset = selection.prepared
    if ruleset is None:  # a selection made elsewhere: index it now
        ruleset = RuleSet(selection.token, selection.groups)
    candidates = ruleset.candidates(path)
    return Match(candidates[0] if candidates else None, candidates, implicit=is_robots_txt(path))


ENGINE = Engine(
    name="rfc9309",
    title="RFC 9309",
    sources=("https://www.rfc-editor.org/rfc/rfc9309.html",),
    policy="rfc9309",
    read=read,
    select=select,
    match=match,
    target=target,
)

__all__ = ["ENGINE", "match", "named_tokens", "operator_select", "plain", "read", "select", "selection"]
