"""`check`: the statements of an expectation file that a robots.txt breaks, each an alert naming the deciding line.

The subject is an `Observation` (a fetch: its status and Content-Type are
checked too, and where the fetch leaves no rules the policy's allow-all or
disallow-all answers) or a parsed `Robots` (a local file: `[served]` status
and Content-Type cannot be checked, and an `expectUnchecked` info alert says so).
Verdicts are `Robots.answer`'s, read by each statement's engine, else the
file's, else `engine`.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...access.engines.registry import PROFILED, fetch_policy
from ...access.robots import Robots, verdict_after
from ...access.served import media_type
from ...messages import Message, message
from ...syntax.model import Preference, Verdict
from ..watch.alerts import Alert, Evidence, Severity
from ..watch.observation import FAILURES, Observation, Reading, read
from .load import ALERT_CODES, Expectations, Statement


def check(expectations: Expectations, subject: Observation | Robots, engine: str = PROFILED) -> list[Alert]:
    """Every failed statement as an alert (file order); empty when all hold."""
    reading = read(subject) if isinstance(subject, Observation) else None
    robots = subject if reading is None else reading.robots
    assert isinstance(robots, Robots)
    found: list[Alert] = []
    for statement in expectations.statements:
        chosen = statement.engine or expectations.engine or engine
        if statement.kind in ("allow", "block"):
            found.extend(_verdicts(statement, robots, reading, chosen))
        elif statement.kind in ("usage", "signal"):
            found.extend(_preferences(statement, robots, reading, chosen))
        elif statement.kind == "sitemap":
            listed = {record.value for record in robots.sitemaps}
            found.extend(
                _failed(statement, message("expect.sitemap", url=url, at=statement.line), url=url)
                for url in statement.urls
                if url not in listed
            )
        else:
            found.extend(_served(statement, robots, reading))
    return found


def _failed(
    statement: Statement,
    said: Message,
    agent: str | None = None,
    url: str | None = None,
    lines: tuple[Evidence, ...] = (),
) -> Alert:
    """The alert of a failed statement: about one crawler and URL where it names them, with the deciding lines."""
    agents, urls = (() if agent is None else (agent,)), (() if url is None else (url,))
    return Alert(ALERT_CODES[statement.kind], statement.severity, said, agents, urls, len(urls), after=lines)


def _verdict(robots: Robots, reading: Reading | None, agent: str, url: str, engine: str) -> Verdict:
    """What `check` answers: the file's verdict, or the fetch policy's where the fetch leaves no rules."""
    if reading is not None:
        decision = reading.decisions[fetch_policy(engine, agent)]
        if not decision.action.rules_apply:
            return verdict_after(decision, None, agent, url)
    return robots.answer(agent, url, engine).verdict


def _decided(robots: Robots, verdict: Verdict) -> tuple[Message, tuple[Evidence, ...]]:
    """The deciding line as a message and as evidence, or the reason no line decided."""
    if verdict.line is None:
        return message(f"reason.{verdict.reason.value}"), ()
    text = robots.line(verdict.line).raw.strip()
    return message("watch.line", line=verdict.line, text=text), (Evidence(verdict.line, text),)


def _verdicts(statement: Statement, robots: Robots, reading: Reading | None, engine: str) -> Iterator[Alert]:
    wanted = statement.kind == "allow"
    for agent in statement.agents:
        for url in statement.urls:
            verdict = _verdict(robots, reading, agent, url, engine)
            if verdict.allowed == wanted:
                continue
            decided, lines = _decided(robots, verdict)
            said = message(f"expect.{statement.kind}", agent=agent, url=url, at=statement.line, decided=decided)
            yield _failed(statement, said, agent, url, lines)


def _preferences(statement: Statement, robots: Robots, reading: Reading | None, engine: str) -> Iterator[Alert]:
    for agent in statement.agents:
        for url in statement.urls:
            verdict = _verdict(robots, reading, agent, url, engine)
            usage = verdict.usage
            stated: dict[str, Preference] = {}
            if usage is not None and usage.applies:
                stated = usage.usage if statement.kind == "usage" else usage.signals
            for key, wanted in statement.values:
                found = stated.get(key)
                if found is not None and found.value == wanted:
                    continue
                lines = tuple(Evidence(n, robots.line(n).raw.strip()) for n in (found.lines if found else ()))
                if not verdict.allowed:
                    actual: str | Message = message("expect.preference.disallowed")
                else:
                    actual = found.value if found is not None else message("watch.preferences.none")
                said = message(
                    f"expect.{statement.kind}",
                    agent=agent,
                    url=url,
                    key=key,
                    wanted=wanted,
                    actual=actual,
                    at=statement.line,
                )
                yield _failed(statement, said, agent, url, lines)


def _served(statement: Statement, robots: Robots, reading: Reading | None) -> Iterator[Alert]:
    for key, wanted in statement.values:
        if key == "max_size":
            size = max(robots.size, len(reading.seen.body) if reading is not None else 0)
            if size > wanted or (reading is not None and reading.seen.truncated):
                yield _failed(statement, message("expect.served.size", size=size, wanted=wanted, at=statement.line))
            continue
        if reading is None:
            said = message("expect.unchecked", key=key, at=statement.line)
            yield Alert("expectUnchecked", Severity.INFO, said)
            continue
        seen = reading.seen
        if key == "status" and seen.status != wanted:
            failure = seen.failure if seen.failure in FAILURES else "network"
            actual = seen.status if seen.status is not None else message(f"error.{failure}")
            yield _failed(statement, message("expect.served.status", status=actual, wanted=wanted, at=statement.line))
        if key == "content_type" and media_type(seen.content_type) != media_type(wanted):
            shown = (seen.content_type or "").strip()[:100] or message("watch.preferences.none")
            yield _failed(statement, message("expect.served.type", type=shown, wanted=wanted, at=statement.line))
