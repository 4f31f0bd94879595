"""Operators' documented crawler profiles: how some crawlers pick their groups beyond RFC 9309.

Some operators document how their crawlers pick a group beyond RFC 9309:
Google's `Googlebot-Image` obeys a `Googlebot` group when no group names
it, and `AdsBot-Google` ignores the `*` group; Applebot obeys Googlebot's
group. The crawler catalogue (`crawlers.csv`) holds these profiles;
`profile_for` says which applies in a file. They are a layer of their own,
never part of `rfc9309`: the reading `rfc9309+profiles` applies them to
every crawler (what the front ends show by default, with a note whenever a
profile changes RFC 9309's answer, `Answer.note`), and an operator's engine
(`google`, `bing`, ...) to that operator's crawlers.
"""

from __future__ import annotations

from typing import NamedTuple

from ..messages import Message, message
from ..syntax.crawlers import recognise
from ..syntax.model import Usage, Verdict
from ..syntax.parsed import ParsedFile
from ..syntax.tokens import product_token
from .matching.ruleset import RuleSet
from .matching.rulesets import RuleSets


class Answer(NamedTuple):
    """The verdict front ends show, the verdict of the same reading without profiles, and the profile used.

    `profile` says how the operator's documented behaviour chose the group
    (None when it did not apply, and then `verdict` is `rfc`).
    """

    verdict: Verdict
    rfc: Verdict
    profile: Message | None
    extra: tuple[Message, ...] = ()  # more for users to read (a matrix's split readings)
    engine: str = "rfc9309+profiles"  # the reading that gave `verdict` (`access.engines.registry`)

    @property
    def usage(self) -> Usage | None:
        """The AI usage preferences that apply (`access.preferences`), if the file states any: the verdict's."""
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


def named_tokens(parsed: ParsedFile) -> frozenset[str]:
    """Every product token a group of the file names (`*` included)."""
    return frozenset(token for group in parsed.groups for token in group.agents)


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
        return crawler.fallback, message(
            "profile.fallback", token=crawler.token, operator=crawler.operator, fallback=crawler.fallback
        )
    if crawler.ignores_global and "*" in named:
        return None, message("profile.ignores-global", token=crawler.token, operator=crawler.operator)
    return None


def profiled_rules(rulesets: RuleSets, named: frozenset[str], agent: str) -> tuple[RuleSet, Message | None]:
    """The rules `agent` obeys with its operator's profile applied, and the message saying how (None: RFC 9309 alone).

    `rulesets` are the file's (`RuleSets`), `named` its tokens (`named_tokens`).
    """
    profile = profile_for(agent, named)
    if profile is None:
        return rulesets.of(agent), None
    fallback, note = profile
    token = product_token(agent)
    if fallback is None:
        return RuleSet(token, ()), note
    return rulesets.of(fallback).with_token(token), note
