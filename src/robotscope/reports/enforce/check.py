"""`export --check`: an existing server configuration against the robots.txt, both ways, and against innocent agents.

The configuration is read as its server reads it (`configs`) and asked to
decide real requests: each crawler's User-Agent (the catalogue's, or, for a
name it has none for, one made up from the token), for each crawler chosen
also its token in another case, and the innocent agents of `innocent.py`
(with `BOUNDARY`'s made-up `Not-Cursor/1.0`),
on `/`, `/robots.txt` and a path each rule of the file covers. Each answer
is compared with the crawler's reading of the robots.txt (RFC 9309 with its
operator's documented profile, as `export` reads it):

- `let-through`: a chosen crawler the robots.txt disallows, which the
  server lets through (with the line that disallows);
- `refused`: a crawler the server refuses where the robots.txt allows it
  (with the line that allows, or that no group names it);
- `innocent`: an agent of the innocent list refused where robots.txt does
  not disallow it (a browser or a tool anywhere), with the User-Agent test
  that matched it;
- `robots-txt`: `/robots.txt` itself refused, so the crawler cannot read
  why.

Findings are grouped by agent and kind, with the paths. What the reader
could not evaluate is listed with its line; a report with findings or such
parts is not `consistent`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, NamedTuple

from ...access.engines.registry import PROFILED
from ...access.robots import Robots
from ...messages import Message, message
from ...syntax.crawlers import catalogue
from ...syntax.model import Reason, Verdict
from ...syntax.patterns import example_target
from .agents import AI, choose
from .configs import Config, Decision, Hit, OutOfWork, Request, Unreadable, Work, read_config
from .entries import safe
from .innocent import AGENTS, BOUNDARY

MAX_PATHS = 100
MAX_PATH = 256  # characters of a path probed: a regex is bounded on subjects this long
MAX_WORK = 2_000_000  # steps the configuration's server may take deciding all the requests (seconds of CPU)
_SHOWN = 3  # paths shown in a finding's text
_ORIGIN = "http://example.com"
_DELIMITERS = " \t(),;/"  # around a product token in a User-Agent: not shown as part of what a test matched


class Probe(NamedTuple):
    """One User-Agent sent: who it is, the token robots.txt reads it as (None: no crawler), and how it was made."""

    who: str
    token: str | None
    user_agent: str
    chosen: bool  # a crawler the check expects the server to refuse where robots.txt disallows it
    kind: str  # "crawler", "case" (its token in another case), "made-up" (from the token), "innocent"


class Finding(NamedTuple):
    kind: str  # "let-through", "refused", "innocent", "robots-txt"
    scope: str
    scope_line: int
    probe: Probe
    paths: tuple[str, ...]
    decision: Decision  # the server's, on the first path
    verdict: Verdict | None  # robots.txt's, on the first path (None: no crawler)
    message: Message


class Report(NamedTuple):
    server: str
    config: str
    source: str
    probes: tuple[Probe, ...]
    paths: tuple[str, ...]
    findings: tuple[Finding, ...]
    unreadable: tuple[Unreadable, ...]
    notes: tuple[Message, ...]
    requests: int  # the requests to decide, in every scope
    decided: int  # those decided before the work ran out

    @property
    def consistent(self) -> bool:
        return not self.findings and not self.unreadable and self.decided == self.requests

    @property
    def cut(self) -> Message | None:
        """What is said when the work ran out before every request was decided."""
        if self.decided == self.requests:
            return None
        return message("enforce.check.work", limit=MAX_WORK, decided=self.decided, requests=self.requests)


def _recased(user_agent: str, token: str, written: str) -> str:
    return re.sub(re.escape(token), lambda _: written, user_agent, flags=re.IGNORECASE)


def probes(robots: Robots, agents: str) -> list[Probe]:
    """The User-Agents sent: the chosen crawlers (and each in another case), the other catalogue crawlers, the
    innocent agents. Raises `NotAToken` as `choose` does."""
    known = {agent.token.lower(): agent for agent in AGENTS if agent.token}
    made: list[Probe] = []
    chosen: set[str] = set()
    for pick in choose(robots, agents).chosen:
        token = pick.token
        chosen.add(token.lower())
        innocent = known.get(token.lower())
        if pick.crawler is not None and pick.crawler.user_agent:
            made.append(Probe(token, token, pick.crawler.request_user_agent, True, "crawler"))
        elif innocent is not None:
            made.append(Probe(token, token, innocent.user_agent, True, "crawler"))
        else:
            made.append(Probe(token, token, f"Mozilla/5.0 (compatible; {token}/1.0)", True, "made-up"))
        written = token.lower() if token != token.lower() else token.upper()
        if written != token:
            made.append(Probe(token, token, _recased(made[-1].user_agent, token, written), True, "case"))
    listed = {agent.user_agent for agent in AGENTS}  # sent once, as the innocent agent it is listed as
    for crawler in catalogue():
        if crawler.user_agent and crawler.token.lower() not in chosen and crawler.request_user_agent not in listed:
            made.append(Probe(crawler.token, crawler.token, crawler.request_user_agent, False, "crawler"))
    for agent in (*AGENTS, *BOUNDARY):
        if (agent.token or "").lower() not in chosen:
            made.append(Probe(agent.name, agent.token, agent.user_agent, False, "innocent"))
    return made


def probe_paths(robots: Robots) -> tuple[list[str], int]:
    """`/`, `/robots.txt` and a path each rule covers (at most `MAX_PATHS`), and how many were left out."""
    found = {"/": None, "/robots.txt": None}
    left = 0
    for group in robots.groups:
        for rule in group.rules:
            if not rule.normalised:
                continue
            path = example_target(rule.normalised).replace(" ", "%20")
            if path in found:
                continue
            if len(found) >= MAX_PATHS or len(path) > MAX_PATH or not (path.isascii() and path.isprintable()):
                left += 1
                continue
            found[path] = None
    return list(found), left


def _paths(paths: list[str]) -> Message:
    if len(paths) <= _SHOWN:
        return message("enforce.check.paths", paths=paths)
    return message("enforce.check.paths.more", paths=paths[:_SHOWN], more=len(paths) - _SHOWN)


def _who(probe: Probe) -> Message:
    if probe.kind == "case":
        written = next((w for w in re.findall(re.escape(probe.who), probe.user_agent, re.IGNORECASE)), probe.who)
        return message("enforce.check.who.case", token=probe.who, written=written)
    if probe.kind == "made-up":
        return message("enforce.check.who.made-up", token=probe.who, user_agent=probe.user_agent)
    if probe.kind == "innocent":
        return message("enforce.check.who.agent", name=probe.who, user_agent=safe(probe.user_agent))
    return message("enforce.check.who.crawler", token=probe.who)


def _by(decision: Decision) -> Message:
    hit: Hit | None = decision.hits[0] if decision.hits else None
    if hit is None:
        return message("enforce.check.by.line" if decision.line else "enforce.check.by.implied", line=decision.line)
    matched = safe(hit.matched.strip(_DELIMITERS) or hit.matched)
    if decision.line is None:
        return message("enforce.check.by.implied-match", test=hit.line, matched=matched)
    if hit.file is not None:
        file = safe(hit.file)
        return message("enforce.check.by.match-file", line=decision.line, test=hit.line, file=file, matched=matched)
    return message("enforce.check.by.match", line=decision.line, test=hit.line, matched=matched)


def _allowed(verdict: Verdict, lines: dict[int, str]) -> Message:
    if verdict.line is not None:
        return message("enforce.check.allowed.rule", line=verdict.line, rule=safe(lines.get(verdict.line, "")))
    if verdict.reason is Reason.NO_GROUP:
        return message("enforce.check.allowed.no-group")
    return message("enforce.check.allowed.no-rule")


def _finding(
    kind: str, probe: Probe, paths: list[str], decision: Decision, verdict: Verdict | None, lines: dict[int, str]
) -> Message:
    where, who = _paths(paths), _who(probe)
    if kind == "let-through":
        assert verdict is not None and verdict.line is not None
        rule = safe(lines.get(verdict.line, ""))
        return message("enforce.check.let-through", who=who, paths=where, line=verdict.line, rule=rule)
    if kind == "robots-txt":
        return message("enforce.check.robots-txt", who=who, by=_by(decision))
    if kind == "innocent" and verdict is None:
        return message("enforce.check.innocent", who=who, paths=where, by=_by(decision))
    assert verdict is not None
    return message("enforce.check.refused", who=who, paths=where, by=_by(decision), allowed=_allowed(verdict, lines))


def check(
    robots: Robots,
    target: str,
    text: str,
    agents: str = AI,
    config: str = "",
    source: str = "robots.txt",
    load: Callable[[str], str | None] | None = None,
) -> Report:
    """`text`, a `target` configuration named `config`, checked against `robots` for the crawlers `agents` names;
    `load(name)` reads a file it names (HAProxy's `-f`).

    Raises `NotAToken` for a listed name that is no product token.

    >>> import robotscope
    >>> caddy = '@ai header_regexp User-Agent "GPTBot"\\nabort @ai\\n'
    >>> report = check(robotscope.parse("User-agent: GPTBot\\nDisallow: /\\n"), "caddy", caddy, agents="GPTBot")
    >>> sorted({(finding.kind, finding.probe.kind) for finding in report.findings})
    [('let-through', 'case'), ('robots-txt', 'crawler')]
    """
    sent = probes(robots, agents)
    paths, left = probe_paths(robots)
    read: Config = read_config(target, text, config, load)
    lines = {line.number: line.raw.strip() for line in robots.lines}
    verdicts: dict[tuple[str, str], Verdict] = {}
    grouped: dict[tuple[str, str, int, Probe, int | None], list[tuple[str, Decision, Verdict | None]]] = {}
    work, decided = Work(MAX_WORK), 0
    try:
        for scope in read.scopes:
            for probe in sent:
                for path in paths:
                    decision = scope.decide(Request(probe.user_agent, path), work)
                    decided += 1
                    verdict = None
                    if probe.token is not None:
                        key = (probe.token, path)
                        if key not in verdicts:
                            verdicts[key] = robots.verdict(probe.token, _ORIGIN + path, PROFILED)
                        verdict = verdicts[key]
                    kind = _kind(probe, path, decision, verdict)
                    if kind is not None:
                        # One finding per robots.txt line: the line its text names holds for each of its paths.
                        line = None if verdict is None else verdict.line
                        where = (kind, scope.name, scope.line, probe, line)
                        grouped.setdefault(where, []).append((path, decision, verdict))
    except OutOfWork:
        pass  # the report says how many requests were decided
    findings = []
    for (kind, scope_name, scope_line, probe, _), found in grouped.items():
        shown = [path for path, _, _ in found]
        _, decision, verdict = found[0]
        text_of = _finding(kind, probe, shown, decision, verdict, lines)
        if len(read.scopes) > 1:
            text_of = message("enforce.check.scope", scope=scope_name, line=scope_line, finding=text_of)
        findings.append(Finding(kind, scope_name, scope_line, probe, tuple(shown), decision, verdict, text_of))
    notes = list(read.notes)
    if left:
        notes.append(message("enforce.check.note.paths", count=left, limit=MAX_PATHS, length=MAX_PATH))
    if any(finding.probe.kind == "case" and finding.kind == "let-through" for finding in findings):
        notes.append(message("enforce.check.note.case"))
    requests = len(read.scopes) * len(sent) * len(paths)
    made = (tuple(sent), tuple(paths), tuple(findings), read.unreadable, tuple(notes), requests, decided)
    return Report(read.server, config, source, *made)


def _kind(probe: Probe, path: str, decision: Decision, verdict: Verdict | None) -> str | None:
    """What is wrong with the server's answer to this probe on this path, or None."""
    if decision.refused:
        if path == "/robots.txt" and probe.token is not None:
            return "robots-txt"
        if verdict is None or verdict.allowed:
            return "innocent" if probe.kind == "innocent" else "refused"
        return None
    if probe.chosen and verdict is not None and not verdict.allowed:
        return "let-through"
    return None


def check_view(report: Report, lang: str = "en") -> dict[str, Any]:
    """The report as JSON-ready data, every message as data and text."""
    return {
        "server": report.server,
        "config": report.config,
        "source": report.source,
        "consistent": report.consistent,
        "requests": report.requests,
        "decided": report.decided,
        "paths": list(report.paths),
        "agents": [probe._asdict() for probe in report.probes],
        "findings": [
            {
                "kind": finding.kind,
                "scope": finding.scope,
                "agent": finding.probe.who,
                "token": finding.probe.token,
                "user_agent": finding.probe.user_agent,
                "variant": finding.probe.kind,
                "paths": list(finding.paths),
                "config_line": finding.decision.line,
                "matched": [hit._asdict() for hit in finding.decision.hits],
                "robots_line": None if finding.verdict is None else finding.verdict.line,
                "message": finding.message.as_dict(lang),
            }
            for finding in report.findings
        ],
        "unreadable": [
            {"file": item.file or report.config, "line": item.line, "text": item.text, **item.reason.as_dict(lang)}
            for item in report.unreadable
        ],
        "notes": [note.as_dict(lang) for note in report.notes],
    }
