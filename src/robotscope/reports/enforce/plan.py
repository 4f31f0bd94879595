"""The rules a robots.txt implies for the crawlers chosen: one model every server's rendering reads.

For each crawler, the rules it obeys (RFC 9309 with its operator's
documented profile, as the front ends read it: `Robots.rules_for`), best
first, so that the first that matches decides, as the longest match does;
allows after the last disallow are dropped (no match allows too). Crawlers
that obey the same rules (and, with `--unverified-only`, are verified by the
same IP lists) share a `Group`. With `--unverified-only` a request is
refused only when it also comes from outside the crawler's operator's
published lists (`syntax.verification`, the snapshots `syntax.iplists`
ships); a crawler whose operator publishes none, or some of whose lists do
not ship, cannot be refused that way, and the plan says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from ...access.robots import Robots
from ...messages import Message, message
from ...syntax.iplists import shipped, snapshot
from ...syntax.model import Rule
from ...syntax.verification import method
from .agents import Choice


class Group(NamedTuple):
    """Crawlers refused alike: their tokens, the user-agent lines they obey, their rules best first, their lists."""

    number: int
    tokens: tuple[str, ...]
    agent_lines: tuple[int, ...]
    rules: tuple[Rule, ...]
    lists: tuple[str, ...] = ()  # --unverified-only: addresses in these are verified, never refused


class Plan(NamedTuple):
    """What an export refuses, and everything said about it before any server's syntax."""

    groups: tuple[Group, ...]
    unverified_only: bool
    lines: Mapping[int, str]  # the robots.txt lines rules and groups come from, as written
    addresses: Mapping[str, tuple[str, ...]]  # each list's networks, as text
    skipped: tuple[Message, ...]  # names left out, and why
    warnings: tuple[Message, ...]  # names that also refuse innocent agents
    notes: tuple[Message, ...]  # crawlers with nothing to refuse, profiles, lists


def _refusing(rules: tuple[Rule, ...]) -> tuple[Rule, ...]:
    """The rules up to the last disallow: an allow after it decides nothing no match would not."""
    last = max((at for at, rule in enumerate(rules) if not rule.allow), default=-1)
    return rules[: last + 1]


def _lists(token: str, notes: list[Message]) -> tuple[str, ...] | None:
    """The shipped lists that verify `token`; None (with a note) when it cannot be refused by address."""
    found = method(token)
    published = found.lists if found is not None else ()
    if not published:
        notes.append(message("enforce.unverifiable", token=token))
        return None
    missing = [name for name in published if name not in shipped()]
    if missing:
        # The crawler itself may send from a list that does not ship: refusing outside the others would refuse it.
        code = "enforce.lists-partly-shipped" if len(missing) < len(published) else "enforce.lists-not-shipped"
        notes.append(message(code, token=token, lists=missing, count=len(missing)))
        return None
    return published


def plan(robots: Robots, choice: Choice, unverified_only: bool = False) -> Plan:
    """The plan for the crawlers `choice` names, read from `robots`."""
    notes: list[Message] = []
    free: list[str] = []
    groups: dict[tuple[tuple[Rule, ...], tuple[int, ...], tuple[str, ...]], list[str]] = {}
    for chosen in choice.chosen:
        token = chosen.token
        ruleset = robots.rules_for(token, profiles=True)
        rules = _refusing(ruleset.rules)
        if not rules:
            free.append(token)
            continue
        lists: tuple[str, ...] = ()
        if unverified_only:
            verified = _lists(token, notes)
            if verified is None:
                continue
            lists = verified
        profile = robots.profile(token)
        if profile is not None:
            notes.append(profile)
        groups.setdefault((rules, ruleset.group_lines, lists), []).append(token)
    if free:
        notes.insert(0, message("enforce.nothing-to-refuse", tokens=free, count=len(free)))
    made = tuple(
        Group(number, tuple(tokens), agent_lines, rules, lists)
        for number, ((rules, agent_lines, lists), tokens) in enumerate(groups.items(), 1)
    )
    used = {n for group in made for n in (*group.agent_lines, *(rule.line for rule in group.rules))}
    lines = {line.number: line.raw for line in robots.lines if line.number in used}
    names = sorted({name for group in made for name in group.lists})
    addresses = {name: tuple(str(network) for network in snapshot(name).networks) for name in names}
    return Plan(made, unverified_only, lines, addresses, choice.skipped, choice.warnings, tuple(notes))
