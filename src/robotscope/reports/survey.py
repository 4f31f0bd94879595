"""Verdicts and a research survey for many hosts, as plain rows: one home for the local, Spark and DuckDB jobs.

A host's robots.txt comes as a `HostFile` (its host, the final HTTP status
or a transport error, the redirects followed, the body). `outcome_decision`
reads the fetch the way a status policy does (`robotscope.access.policy`: 5xx is
disallow all, 4xx allow all); `verdict_row` is one URL's verdict for one
crawler, with the deciding line; `survey_rows` is the survey's row per host
and crawler; `summarise` counts them per crawler. Every verdict is the one
every front end gives (`Robots.answer`, by default `rfc9309+profiles`: the
operator's profile applied), so a survey and `robotscope check` never disagree. Pure: the I/O
(reading directories, WARC files and tables; Spark; DuckDB) is at the edges.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from ..access.engines.registry import PROFILED, resolve
from ..access.policy import Action, Decision, Outcome, decide
from ..access.robots import Robots, answer_after, parse
from ..syntax.model import Verdict
from .linter import lint

# What a survey says of a host for one crawler: `/` disallowed; `/` allowed but a rule of the groups
# used disallows something; nothing disallowed; no robots.txt (a 4xx, or a redirect that cannot be
# followed); unreachable (5xx, 429, errors: disallow all).
CLASSIFICATIONS = ("blocked", "partial", "open", "no-robots", "unreachable")
HOME = "/"


class HostFile(NamedTuple):
    """One host's robots.txt as it was fetched: status None with `error` when no response came."""

    host: str
    status: int | None
    body: bytes | str = b""
    error: str | None = None
    redirects: int = 0
    loop: bool = False


def outcome_decision(host: HostFile, policy: str) -> Decision:
    """What `policy` concludes from the host's fetch (a 3xx left here could not be followed within the data)."""
    outcome = Outcome(status=host.status, error=host.error, redirects=host.redirects, loop=host.loop)
    return decide(outcome, policy)


def parsed(host: HostFile, decision: Decision) -> Robots | None:
    """The host's file, parsed, when the decision is to follow its rules."""
    return parse(host.body) if decision.action.rules_apply else None


def verdict(robots: Robots | None, decision: Decision, agent: str, url: str, engine: str = PROFILED) -> Verdict:
    """One URL's verdict for one crawler: the reading's answer from the file, or the fetch decision's."""
    return answer_after(decision, robots, agent, url, engine).verdict


# The columns of `verdict_row`, in order (the Spark and DuckDB adapters build their schemas from them).
VERDICT_COLUMNS = ("origin", "url", "agent", "token", "allowed", "reason", "line", "rule", "engine", "decision")


def verdict_row(origin: str, url: str, agent: str, found: Verdict, engine: str, decision: Decision) -> dict[str, Any]:
    """A verdict as a row of VERDICT_COLUMNS."""
    return {
        "origin": origin,
        "url": url,
        "agent": agent,
        "token": found.agent_token,
        "allowed": found.allowed,
        "reason": found.reason.value,
        "line": found.line,
        "rule": None if found.rule is None else found.rule.text,
        "engine": resolve(engine, agent),
        "decision": decision.action.value,
    }


def verdict_rows(
    host: HostFile, urls: Iterable[str], agents: Sequence[str], engine: str = PROFILED, policy: str = "rfc9309"
) -> list[dict[str, Any]]:
    """Every URL's verdict for every agent against one host's robots.txt, the file parsed once."""
    decision = outcome_decision(host, policy)
    robots = parsed(host, decision)
    return [
        verdict_row(host.host, url, agent, verdict(robots, decision, agent, url, engine), engine, decision)
        for url in urls
        for agent in agents
    ]


# The columns of `survey_rows`, in order.
SURVEY_COLUMNS = ("host", "agent", "status", "decision", "classification", "group", "line", "rule", "lint")


def survey_rows(
    host: HostFile, agents: Sequence[str], engine: str = PROFILED, policy: str = "rfc9309"
) -> list[dict[str, Any]]:
    """The survey's rows for one host: per crawler, what it may do at `/` and with the rest of the site.

    `group` is `named` when a group names the crawler (or the token its
    operator documents it obeys), `*` when only `*` groups apply, `none`
    when no group does; `line` and `rule` decide `/`; `lint` is the file's
    lint codes, sorted, separated by spaces.
    """
    decision = outcome_decision(host, policy)
    robots = parsed(host, decision)
    codes = " ".join(sorted({f.code for f in lint(robots, prove=False)})) if robots is not None else ""
    rows = []
    for agent in agents:
        found = verdict(robots, decision, agent, HOME, engine)
        group, classification = _classify(robots, decision, found)
        rows.append(
            {
                "host": host.host,
                "agent": agent,
                "status": host.status,
                "decision": decision.action.value,
                "classification": classification,
                "group": group,
                "line": found.line,
                "rule": None if found.rule is None else found.rule.text,
                "lint": codes,
            }
        )
    return rows


def _classify(robots: Robots | None, decision: Decision, home: Verdict) -> tuple[str, str]:
    if robots is None:
        return "none", "unreachable" if decision.action is Action.DISALLOW_ALL else "no-robots"
    used = robots.groups_at(home.group_lines)
    # `*` groups apply only when no group names the crawler (or the token its operator documents).
    starred = all("*" in g.agents for g in used) and not any(home.agent_token in g.agents for g in used)
    group = "none" if not used else "*" if starred else "named"
    if not home.allowed:
        return group, "blocked"
    disallows = any(not rule.allow and rule.normalised for g in used for rule in g.rules)
    return group, "partial" if disallows else "open"


def tally(rows: Iterable[dict[str, Any]], counts: Counter[tuple[str, str]] | None = None) -> Counter[tuple[str, str]]:
    """How many rows there are of each (agent, classification), added to `counts`."""
    counts = Counter() if counts is None else counts
    counts.update((row["agent"], row["classification"]) for row in rows)
    return counts


def summarise(counts: Counter[tuple[str, str]], purposes: dict[str, str]) -> list[dict[str, Any]]:
    """Per crawler (in first-seen order): its purpose, the hosts surveyed, and each classification's count and share."""
    agents = list(dict.fromkeys(agent for agent, _ in counts))
    table = []
    for agent in agents:
        hosts = sum(counts[(agent, name)] for name in CLASSIFICATIONS)
        entry: dict[str, Any] = {"agent": agent, "purpose": purposes.get(agent, "other"), "hosts": hosts}
        for name in CLASSIFICATIONS:
            entry[name] = counts[(agent, name)]
            entry[f"{name}_share"] = counts[(agent, name)] / hosts if hosts else 0.0
        table.append(entry)
    return table
