"""JSON-ready views of verdicts, findings and decisions, built once for every front end.

The CLI (`--json` and its text), the web API and the in-browser build all
show the same data through these functions: the core's values plus, for
each text, its message (`code`, `params`) and that message rendered in the
requested language. Pure: it only calls the core.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from ..access.engines.base import FIRST
from ..access.engines.registry import DEFAULT, PROFILED
from ..access.engines.registry import engine as get_engine
from ..access.profiles import Answer
from ..access.robots import Robots
from ..messages import DEFAULT_LANG, Message, message
from ..syntax.model import Finding, Reason, Rule, Usage, Verdict
from ..syntax.parser import MAX_BYTES
from ..syntax.urls import InvalidURL, robots_url


def iso(moment: float) -> str:
    """A time in UTC, ISO 8601, to the second: 2026-12-03T14:00:00Z."""
    return datetime.fromtimestamp(moment, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def parse_when(value: str) -> float | None:
    """An ISO 8601 date and time (UTC unless it says otherwise), or a date (its first moment, UTC); None if neither."""
    try:
        moment = datetime.fromisoformat(value.strip())
        seconds = (moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)).timestamp()
        datetime.fromtimestamp(seconds, UTC)  # shown back in UTC (`iso`): 9999-12-31T23:59-01:00 is past year 9999
    except (ValueError, OverflowError):
        return None
    return seconds


def rule_text(rule: Rule) -> str:
    """A rule as written in the file: `Disallow: /private/`."""
    return rule.text


def explanation(verdict: Verdict, engine: str = DEFAULT, profiled: bool = False) -> Message:
    """Why the verdict came out as it did under `engine`'s reading: the deciding rule and what it beat, or why
    no rule decided (`profiled`: the operator's profile chose the groups, so no group means it ignores `*`)."""
    if verdict.reason is Reason.ROBOTS_TXT:
        return message("explain.robots-txt")
    if verdict.reason is Reason.UNAVAILABLE:
        return message("explain.unavailable")
    if verdict.reason is Reason.UNREACHABLE:
        return message("explain.unreachable")
    if verdict.reason is Reason.NO_GROUP:
        code = "explain.no-group.ignores-star" if profiled else "explain.no-group"
        return message(code, token=verdict.agent_token or "(no token)")
    if verdict.reason is Reason.NO_MATCH:
        return message("explain.no-match", target=verdict.target)
    rule = verdict.rule
    assert rule is not None  # Reason.RULE always names its rule
    about = {"line": rule.line, "rule": rule_text(rule), "target": verdict.target, "length": rule.length}
    if get_engine(engine).precedence == FIRST:
        return _first_match(verdict, rule, about)
    others = verdict.candidates[1:]
    if not others:
        return message("explain.only", **about)
    runner_up = others[0]
    if runner_up.length == rule.length:
        tie = "explain.tie-allow" if rule.allow != runner_up.allow else "explain.tie-same"
        return message(tie, **about, other=runner_up.line, other_rule=rule_text(runner_up))
    return message("explain.longest", **about, count=len(verdict.candidates))


def _first_match(verdict: Verdict, rule: Rule, about: dict[str, Any]) -> Message:
    """A first-match reading's explanation: position in the group decides, not length."""
    del about["length"]
    if verdict.allowed != rule.allow:
        return message("explain.first-empty", **about)
    if len(verdict.candidates) == 1:
        return message("explain.first-only", **about)
    return message("explain.first", **about, count=len(verdict.candidates))


def verdict_view(answer: Answer, lang: str = DEFAULT_LANG, notes: tuple[Message, ...] = ()) -> dict[str, Any]:
    """A verdict as shown everywhere: `Verdict.as_dict()`, its explanation, and notes (profile, origin, ...)."""
    verdict = answer.verdict
    every_note = (*((answer.note,) if answer.note is not None else ()), *answer.extra, *notes)
    return {
        **verdict.as_dict(),
        "engine": answer.engine,
        "explanation": explanation(verdict, answer.engine, answer.profile is not None).as_dict(lang),
        "notes": [note.as_dict(lang) for note in every_note],
        "rfc": {"allowed": answer.rfc.allowed, "line": answer.rfc.line, "reason": answer.rfc.reason.value},
        "profile": None if answer.profile is None else answer.profile.as_dict(lang),
        "usage": None if answer.usage is None else answer.usage.as_dict(),
        "usage_text": None if answer.usage is None else usage_text(answer.usage.as_dict(), lang),
    }


def usage_text(usage: Mapping[str, Any], lang: str = DEFAULT_LANG) -> str:
    """A verdict view's `usage` in one line: each Content-Usage category and Content-Signal use, with its lines."""
    if not usage["applies"]:
        return message("usage.not-applicable").render(lang)
    parts = []
    for kind, stated in (("Content-Usage", usage["content_usage"]), ("Content-Signal", usage["content_signal"])):
        if not stated:
            continue
        items = [
            message("usage.unknown", key=key).render(lang)
            if found["value"] == "unknown"
            else message("usage.value", key=key, value=found["value"], lines=found["lines"]).render(lang)
            for key, found in stated.items()
        ]
        parts.append(message("usage.parts", kind=kind, items=items).render(lang))
    return "; ".join(parts)


def finding_view(finding: Finding, lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """A lint finding, its message and fix rendered in `lang`."""
    return finding.as_dict(lang)


def origin_note(url: str, home: str | None) -> Message | None:
    """A note when `url` is on another origin than the robots.txt at `home` (a robots.txt URL), else None.

    RFC 9309, Section 2.3: a robots.txt applies to the scheme, host and
    port it was fetched from, and to nothing else.
    """
    if home is None or url[:1] == "/":
        return None
    try:
        own = robots_url(url)
    except InvalidURL:
        return None
    if own == home:
        return None
    return message("note.other-origin", url=url, home=home, applies=own)


def past_limit(robots: Robots, agent: str, url: str, reading: str = DEFAULT) -> Verdict | None:
    """The verdict a rule past the 500 KiB limit would have given `url`, had crawlers read that far; else None.

    `reading` is RFC 9309's (`rfc9309`) or with the crawler's profile
    (`rfc9309+profiles`). Only what the input holds is known: a fetched file
    cut short (`Robots.cut_short`) holds little past the limit.
    """
    whole = robots.without_limit()
    if whole is None:
        return None
    verdict = whole.verdict(agent, url, reading)
    rule = verdict.rule
    if rule is None or rule.line <= len(robots.lines) or verdict.reason is not Reason.RULE:
        return None
    return verdict


def overflow_note(robots: Robots, answer: Answer, agent: str, url: str) -> Message | None:
    """A note when a rule past the 500 KiB limit would have decided `url`, had crawlers read that far."""
    verdict = past_limit(robots, agent, url, PROFILED if answer.profile is not None else DEFAULT)
    if verdict is None or verdict.rule is None:
        return None
    rule = verdict.rule
    would = message("answer.allowed" if rule.allow else "answer.disallowed")
    code = "note.overflow-same" if verdict.allowed == answer.verdict.allowed else "note.overflow-flips"
    return message(code, line=rule.line, rule=rule_text(rule), would=would, limit=MAX_BYTES)


def split_note(robots: Robots, agent: str, url: str, shown: Verdict, reading: str) -> Message | None:
    """One line when the crawler's operator reads `url` otherwise than `shown` (the verdict of `reading`), else None.

    "Google reads line 2 `Disallow /oops` as a rule, so googlebot is blocked
    from /oops; RFC 9309 ignores that line."
    """
    found = robots.reads_otherwise(agent, url, shown.allowed, reading)
    if found is None:
        return None
    own, theirs = found
    title = get_engine(own).title
    # `rfc9309+profiles` is RFC 9309 itself where no profile chose the groups.
    plain = reading == PROFILED and robots.profile(agent) is None
    shown_title = get_engine(DEFAULT if plain else reading).title
    ours = {r.line for g in robots.groups for r in g.rules} if reading in (DEFAULT, PROFILED) else None
    if theirs.line is not None and ours is not None and theirs.line not in ours:
        # The deciding line is no rule at all for the reading shown: say that first.
        raw = robots.line(theirs.line).raw.strip()
        code = "engine.split.reads-allow" if theirs.allowed else "engine.split.reads-disallow"
        return message(
            code, engine=title, shown=shown_title, token=theirs.agent_token, url=url, line=theirs.line, raw=raw
        )
    return message("engine.split", engine=title, theirs=_side(theirs, url), shown=shown_title, ours=_side(shown, url))


def _side(found: Verdict, url: str) -> Message:
    """How one reading decides `url`: by which line, or for want of a matching rule."""
    if found.line is None:
        return message(
            "engine.side.allowed-none" if found.allowed else "engine.side.blocked-none",
            token=found.agent_token,
            url=url,
        )
    code = "engine.side.allowed" if found.allowed else "engine.side.blocked"
    return message(code, token=found.agent_token, url=url, line=found.line)


def readings_view(
    url: str, verdicts: Mapping[str, Verdict], lang: str = DEFAULT_LANG, usage: Usage | None = None
) -> dict[str, Any]:
    """Every engine's verdict on one URL, side by side: whether they split, and each one's deciding line.

    `usage` is the default reading's usage preferences for the URL, shown beside the verdicts.
    """
    return {
        "url": url,
        "usage_text": None if usage is None else usage_text(usage.as_dict(), lang),
        "split": len({v.allowed for v in verdicts.values()}) > 1,
        "readings": {
            name: {
                "allowed": v.allowed,
                "line": v.line,
                "reason": v.reason.value,
                "rule": None if v.rule is None else rule_text(v.rule),
                "agent_token": v.agent_token,
                "explanation": explanation(v, name).as_dict(lang),
            }
            for name, v in verdicts.items()
        },
    }
