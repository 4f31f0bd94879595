"""Operators' documented crawler behaviour, applied on top of RFC 9309: the one answer every front end gives.

Some operators document how their crawlers pick a group beyond RFC 9309:
Google's `Googlebot-Image` obeys a `Googlebot` group when no group names
it, and `AdsBot-Google` ignores the `*` group. The crawler catalogue
(`crawlers.csv`) holds these profiles; `ruleset_for` applies them, and
`answer` gives the verdict with the plain RFC 9309 verdict beside it and a
message whenever the profile chose the group. `check`, `matrix`, `diff`,
`bulk`, the web page and the library all answer through here, so they never
disagree on the same crawler, URL and file. Pure: it only calls the core.
"""

from __future__ import annotations

from typing import NamedTuple

from ..syntax.crawlers import recognise
from .matching.matcher import RuleSet
from ..messages import Message, message
from ..syntax.model import Verdict
from .preferences import Usage
from .robots import Robots
from ..syntax.tokens import product_token


class Answer(NamedTuple):
    """The verdict front ends show, the RFC 9309 verdict for the crawler's own token, and the profile used.

    `profile` says how the operator's documented behaviour chose the group
    (None when it did not apply, and then `verdict` is `rfc`).
    """

    verdict: Verdict
    rfc: Verdict
    profile: Message | None
    extra: tuple[Message, ...] = ()  # more for users to read (a matrix's split readings)
    engine: str = "rfc9309"  # the reading that gave `verdict` (`robotscope.engines`)

    @property
    def usage(self) -> Usage | None:
        """The AI usage preferences that apply (`robotscope.preferences`), if the file states any: the verdict's."""
        return self.verdict.usage

    @property
    def changed(self) -> bool:
        """Whether the profile changed the answer RFC 9309 alone gives."""
        return self.verdict.allowed != self.rfc.allowed

    @property
    def note(self) -> Message | None:
        """One line for users, when the profile changed the answer."""
        if self.profile is None or not self.changed:
            return None
        return message(
            "profile.changed",
            profile=self.profile,
            rfc=message("answer.allowed" if self.rfc.allowed else "answer.disallowed"),
        )


def named_tokens(robots: Robots) -> frozenset[str]:
    """Every product token a group of the file names (`*` included)."""
    return frozenset(token for group in robots.groups for token in group.agents)


def profile_for(agent: str, named: frozenset[str]) -> tuple[str | None, Message] | None:
    """How the operator's profile picks `agent`'s groups in a file naming `named`, or None (RFC 9309 alone).

    (token whose groups it obeys, the message saying so); the token is None
    when it obeys no group (it ignores `*` and no group names it). Cheap: no
    rules are looked at.
    """
    crawler = recognise(agent)
    if crawler is None or product_token(agent) in named or crawler.token.lower() in named:
        return None
    if crawler.fallback and crawler.fallback.lower() in named:
        return crawler.fallback, message("profile.fallback", token=crawler.token, operator=crawler.operator, fallback=crawler.fallback)
    if crawler.ignores_global and "*" in named:
        return None, message("profile.ignores-global", token=crawler.token, operator=crawler.operator)
    return None


def ruleset_for(robots: Robots, agent: str, named: frozenset[str] | None = None) -> tuple[RuleSet, Message | None]:
    """The rules `agent` obeys, its operator's profile applied, and the message saying how (None: RFC 9309 alone).

    `named` (from `named_tokens`) saves recomputing it for many calls.
    """
    profile = profile_for(agent, named_tokens(robots) if named is None else named)
    if profile is None:
        return robots.rules_for(agent), None
    fallback, note = profile
    token = product_token(agent)
    if fallback is None:
        return RuleSet(token, ()), note
    return robots.rules_for(fallback).with_token(token), note


def answer(robots: Robots, agent: str, url: str, named: frozenset[str] | None = None) -> Answer:
    """May `agent` fetch `url`? The verdict with the operator's profile applied, and the RFC 9309 one."""
    rfc = robots.rules_for(agent).verdict(url)  # the verdict alone: `engines.answer` adds its usage preferences once
    ruleset, profile = ruleset_for(robots, agent, named)
    if profile is None:
        return Answer(rfc, rfc, None)
    return Answer(ruleset.verdict(url), rfc, profile)
