"""Verdicts side by side: across crawlers (`matrix`) and across file versions (`diff`).

`matrix` applies each crawler's documented operator behaviour (its profile:
a fallback group, or ignoring the `*` group) on top of the RFC 9309 verdict
and says when that changed the answer. `diff` answers "which crawler/URL
pairs flip between allowed and disallowed?", not "which lines changed?":
reordering, comments and equivalent rewrites flip nothing. Pure: it only
calls the core.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple, Protocol

from .crawlers import PURPOSES, Crawler
from .matcher import RuleSet, is_robots_txt
from .model import Reason, Verdict
from .patterns import example_target
from .robots import Robots
from .urls import target

# The crawler standing for "any crawler without a group of its own".
ANY_CRAWLER = "*"


class Flip(NamedTuple):
    """An agent/URL pair whose verdict differs between the old and the new file."""

    agent: str
    url: str
    old: Verdict
    new: Verdict

    def as_dict(self) -> dict[str, Any]:
        return {"agent": self.agent, "url": self.url, "old": self.old.as_dict(), "new": self.new.as_dict()}


class ProfiledVerdict(NamedTuple):
    """A crawler's verdict with its operator's documented behaviour applied.

    `rfc` is the plain RFC 9309 verdict for its token; `profile` says how the
    profile chose the group used (None when it did not apply), and `changed`
    whether that changed the answer.
    """

    verdict: Verdict
    rfc: Verdict
    profile: str | None

    @property
    def changed(self) -> bool:
        return self.verdict.allowed != self.rfc.allowed

    def as_dict(self) -> dict[str, Any]:
        return {**self.verdict.as_dict(), "rfc_allowed": self.rfc.allowed, "profile": self.profile, "changed": self.changed}


def apply_profile(robots: Robots, crawler: Crawler, url: str) -> ProfiledVerdict:
    """The verdict for `crawler`, with its documented fallback or `*`-group behaviour applied."""
    rfc = robots.verdict(crawler.token, url)
    named = {t for g in robots.groups for t in g.agents}
    token = crawler.token.lower()
    if token in named:
        return ProfiledVerdict(rfc, rfc, None)
    if crawler.fallback and crawler.fallback.lower() in named:
        note = f"no group names {crawler.token}; {crawler.operator} documents that it then obeys the {crawler.fallback} group"
        return ProfiledVerdict(robots.verdict(crawler.fallback, url), rfc, note)
    if crawler.ignores_global and "*" in named:
        note = f"{crawler.operator} documents that {crawler.token} ignores the `*` group and obeys only groups naming it"
        return ProfiledVerdict(RuleSet(token, ()).verdict(url), rfc, note)
    return ProfiledVerdict(rfc, rfc, None)


class MatrixRow(NamedTuple):
    """One crawler's verdicts for each path of a matrix."""

    crawler: Crawler
    cells: tuple[ProfiledVerdict, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"crawler": self.crawler.as_dict(), "cells": [c.as_dict() for c in self.cells]}


def matrix(robots: Robots, crawlers: Iterable[Crawler], paths: Sequence[str]) -> list[MatrixRow]:
    """Crawlers (rows, grouped by purpose) by paths (columns), profiles applied."""
    rows = [MatrixRow(c, tuple(apply_profile(robots, c, p) for p in paths)) for c in crawlers]
    rows.sort(key=lambda r: PURPOSES.index(r.crawler.purpose) if r.crawler.purpose in PURPOSES else len(PURPOSES))
    return rows


def agents_named(*files: Robots) -> list[str]:
    """Every product token the files name, then `*` for every other crawler."""
    tokens = dict.fromkeys(t for robots in files for g in robots.groups for t in g.agents if t != "*")
    return [*tokens, ANY_CRAWLER]


def probe_urls(*files: Robots) -> list[str]:
    """URLs derived from the files' rules: one example target per pattern, and `/`."""
    paths = dict.fromkeys(
        example_target(rule.normalised)
        for robots in files
        for group in robots.groups
        for rule in group.rules
        if rule.normalised[:1] in ("/", "*")
    )
    return ["/", *(p for p in paths if p != "/")]


class Answers(Protocol):
    """Anything that answers verdicts: a `Robots`, or a fetched file with its policy decision."""

    def verdict(self, agent: str, url: str) -> Verdict: ...


def diff(old: Answers, new: Answers, urls: Iterable[str], agents: Sequence[str]) -> list[Flip]:
    """The agent/URL pairs whose verdict flips from `old` to `new`, in agent then URL order.

    For two parsed files, `probe_urls(old, new)` and `agents_named(old, new)`
    give the URLs their rules cover and every crawler they name.
    """
    url_list = list(urls)
    flips = []
    for agent in agents:
        for url in url_list:
            before, after = old.verdict(agent, url), new.verdict(agent, url)
            if before.allowed != after.allowed:
                flips.append(Flip(agent, url, before, after))
    return flips


class BulkRow(NamedTuple):
    """The verdict for one URL of a bulk check, without the candidate list (the fast path)."""

    url: str
    agent_token: str
    allowed: bool
    reason: str
    line: int | None
    rule: str | None  # the deciding rule as written, e.g. `Disallow: /private/`

    def as_dict(self) -> dict[str, Any]:
        return self._asdict()


def bulk_row(robots: Robots, agent: str, url: str) -> BulkRow:
    """The fast verdict for one URL: the deciding rule found on the matcher's fast path."""
    ruleset = robots.rules_for(agent)
    path = target(url)
    rule = ruleset.winner(path)
    if is_robots_txt(path):
        return BulkRow(url, ruleset.token, True, Reason.ROBOTS_TXT.value, None, None)
    if rule is None:
        reason = Reason.NO_MATCH if ruleset.groups else Reason.NO_GROUP
        return BulkRow(url, ruleset.token, True, reason.value, None, None)
    written = f"{'Allow' if rule.allow else 'Disallow'}: {rule.pattern}"
    return BulkRow(url, ruleset.token, rule.allow, Reason.RULE.value, rule.line, written)
