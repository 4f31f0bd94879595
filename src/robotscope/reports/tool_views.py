"""What the MCP tools besides `may_fetch` answer (`robotscope mcp`): explain, lint and diff, as JSON-ready data.

Each takes a file given as text (`decision` None) or what a fetch left:
the policy's decision and the file, if any (`robots` None when no rule
applies: allow-all or disallow-all). The verdicts, findings and flips are
those `check`, `lint` and `diff` print; the MCP layer only fetches and
adapts. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..access.engines.registry import names, resolve
from ..access.policy import Decision
from ..access.robots import Robots, answer_after, parse, verdict_after
from ..messages import DEFAULT_LANG, message
from ..syntax.crawlers import recognise
from ..syntax.model import Finding, Severity
from ..syntax.urls import InvalidURL, checked_url
from .compare.diff import agents_named, diff, probe_urls
from .gate import InvalidRequest, checked_agent, checked_length
from .linter import lint
from .views import overflow_note, readings_view, split_note, verdict_view

MAX_FLIPS = 500  # flips one answer lists: each carries two verdicts, and a model reads all of it


def checked_target(url: str) -> str:
    """`url` if a verdict can be given for it (a path starting with /, or an http(s) URL), else InvalidRequest."""
    try:
        return checked_url(checked_length("url", url))
    except InvalidURL as error:
        raise InvalidRequest(error.reason) from None


def decision_view(decision: Decision | None, lang: str = DEFAULT_LANG) -> dict[str, Any] | None:
    """The fetch policy's decision (None for a file given as text)."""
    if decision is None:
        return None
    return {"name": decision.policy, "action": decision.action.value, "explanation": decision.reason.as_dict(lang)}


def explain_view(
    robots: Robots | None, decision: Decision | None, agent: str, url: str, engine: str, lang: str = DEFAULT_LANG
) -> dict[str, Any]:
    """Why `agent` may or may not fetch `url`: the verdict of `engine` with its deciding line, what it beat,
    the notes `check` prints, every engine's reading side by side, and what the catalogue knows of the crawler.

    Raises InvalidRequest for an empty agent or a URL that is no path and no http(s) URL.
    """
    checked_agent(agent)
    checked_target(url)
    reading = resolve(engine, agent)
    if decision is None:
        robots = robots or parse("")
        answer = robots.answer(agent, url, reading)
        found = robots.readings(agent, url)
    else:
        answer = answer_after(decision, robots, agent, url, reading)
        found = {name: verdict_after(decision, robots, agent, url, name) for name in names()}
    rules_apply = robots is not None and (decision is None or decision.action.rules_apply)
    notes = (
        ()
        if not rules_apply or robots is None
        else (
            overflow_note(robots, answer, agent, url),
            split_note(robots, agent, url, answer.verdict, reading),
        )
    )
    crawler = recognise(agent)
    return {
        "url": url,
        "user_agent": agent,
        "engine": reading,
        "policy": decision_view(decision, lang),
        "verdict": verdict_view(answer, lang, tuple(note for note in notes if note is not None)),
        "readings": readings_view(url, found, lang, answer.usage),
        "crawler": None if crawler is None else crawler.as_dict(),
    }


def lint_view(
    robots: Robots | None, served: tuple[Finding, ...], decision: Decision | None, lang: str = DEFAULT_LANG
) -> dict[str, Any]:
    """Every finding of the file, after those of how a fetched file was `served`, with counts per severity.

    A fetch that left no file (allow-all, disallow-all) has nothing to lint: `linted` is False.
    """
    findings = [] if robots is None else [*served, *lint(robots)]  # as `robotscope lint` says them
    return {
        "policy": decision_view(decision, lang),
        "linted": robots is not None,
        "findings": [finding.as_dict(lang) for finding in findings],
        "counts": {severity.value: sum(1 for f in findings if f.severity is severity) for severity in Severity},
    }


def diff_view(
    old: Robots, new: Robots, urls: Sequence[str] | None, agents: Sequence[str] | None, lang: str = DEFAULT_LANG
) -> dict[str, Any]:
    """The crawler/URL pairs whose verdict flips from `old` to `new`, each with the deciding line on both sides.

    `urls` default to those the files' rules cover, `agents` to every
    crawler either file names and `*`; at most MAX_FLIPS are listed.
    Raises InvalidRequest for a URL no verdict can be given for, or an empty agent.
    """
    chosen_urls = [checked_target(url) for url in urls] if urls else probe_urls(old, new)
    chosen_agents = [checked_agent(agent) for agent in agents] if agents else agents_named(old, new)
    flips = diff(old, new, chosen_urls, chosen_agents, limit=MAX_FLIPS + 1)
    truncated = len(flips) > MAX_FLIPS
    if not flips:
        summary = message("diff.none", agents=len(chosen_agents), urls=len(chosen_urls))
    elif truncated:
        summary = message("diff.title.truncated", limit=MAX_FLIPS, old="old", new="new")
    else:
        summary = message("diff.title", count=len(flips), old="old", new="new")
    return {
        "urls": len(chosen_urls),
        "agents": chosen_agents,
        "flips": [flip.as_dict() for flip in flips[:MAX_FLIPS]],
        "truncated": truncated,
        "summary": summary.as_dict(lang),
    }
