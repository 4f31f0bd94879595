"""Verdicts: the one place a `Verdict` is made, and the one reading of a match.

Every answer robotscope gives is built here: the RFC 9309 matcher's, each
engine's (`engines.base.assemble`), the fetch policies' allow-all and
disallow-all (`blanket`), and the façade's, which adds the usage preferences
(`with_usage`). `outcome` says what a match means: RFC 9309, Section 2.2.2,
an allow or disallow rule decides; no matching rule allows (no group applied
at all, when none did); and /robots.txt itself is implicitly allowed where
the reading says so. `allows` is the same reading without its reason, for
`can_fetch`, so both answers come from one function.
"""

from __future__ import annotations

from ..syntax.model import Reason, Rule, Usage, Verdict

_ROBOTS_TXT = "/robots.txt"


def is_robots_txt(target: str) -> bool:
    """RFC 9309, Section 2.2.2: the /robots.txt URI is implicitly allowed (its query aside)."""
    return target.startswith(_ROBOTS_TXT) and (len(target) == 11 or target[11] == "?")


def allows(rule: Rule | None, target: str) -> bool:
    """Whether RFC 9309's reading allows `target` when `rule` is the best matching rule (None: none matches).

    `outcome`'s answer without its reason: `can_fetch` asks only this.
    """
    return rule is None or rule.allow or is_robots_txt(target)


def outcome(rule: Rule | None, target: str, grouped: bool) -> tuple[bool, Reason]:
    """RFC 9309's reading of a match: whether `target` is allowed, and why, given the best matching `rule`.

    `/robots.txt` is always allowed; no matching rule means allowed (no group
    applied at all when `grouped` is false); otherwise the rule decides.
    """
    if is_robots_txt(target):
        return True, _BY_ROBOTS_TXT
    if rule is None:
        return True, _NO_MATCH if grouped else _NO_GROUP
    return rule.allow, _BY_RULE


# An Enum member looked up on its class costs more than the rest of `outcome`.
_BY_RULE, _BY_ROBOTS_TXT, _NO_MATCH, _NO_GROUP = Reason.RULE, Reason.ROBOTS_TXT, Reason.NO_MATCH, Reason.NO_GROUP


def matched(
    rule: Rule | None,
    candidates: tuple[Rule, ...],
    token: str,
    group_lines: tuple[int, ...],
    url: str,
    target: str,
    *,
    grouped: bool,
    implicit: bool,
    allowed: bool | None = None,
) -> Verdict:
    """The verdict of a match: `rule` is the deciding rule of `candidates` (None: none matched).

    `implicit` says the reading allows `target` without a rule (RFC 9309's
    /robots.txt); `grouped` that some group applied; `allowed` overrides the
    rule's kind where a reading answers otherwise (a first-match parser's
    empty Disallow allows everything).
    """
    # One tuple.__new__ here, not a call of `_verdict`: this runs on every verdict.
    if implicit:
        allowed, rule, reason = True, None, _BY_ROBOTS_TXT
    elif rule is None:
        allowed, reason = True, (_NO_MATCH if grouped else _NO_GROUP)
    else:
        allowed, reason = (rule.allow if allowed is None else allowed), _BY_RULE
    line = None if rule is None else rule.line
    result: Verdict = _new_tuple(
        Verdict, (allowed, rule, line, reason, token, group_lines, candidates, url, target, None)
    )
    return result


def blanket(allowed: bool, token: str, url: str, target: str) -> Verdict:
    """The verdict when no rule of a file applies: what a fetch's outcome decided for the whole origin.

    `allowed` is the policy's allow-all (the file is unavailable) or
    disallow-all (it is unreachable); /robots.txt itself stays allowed
    (RFC 9309, Section 2.2.2).
    """
    if is_robots_txt(target):
        return _verdict(True, None, None, _BY_ROBOTS_TXT, token, (), (), url, target)
    reason = Reason.UNAVAILABLE if allowed else Reason.UNREACHABLE
    return _verdict(allowed, None, None, reason, token, (), (), url, target)


def with_usage(verdict: Verdict, usage: Usage | None) -> Verdict:
    """The verdict with the AI usage preferences that apply to it (`access.preferences.usage_for`)."""
    return verdict if usage is None else verdict._replace(usage=usage)


# The order `_verdict` builds a Verdict in: checked at import, so a field added to Verdict fails
# here at once rather than shifting every value by one.
_FIELDS = ("allowed", "rule", "line", "reason", "agent_token", "group_lines", "candidates", "url", "target", "usage")
if Verdict._fields != _FIELDS:  # pragma: no cover - fails only when the model changes
    raise ImportError(f"Verdict's fields changed to {Verdict._fields}: update access.verdicts._verdict")

_new_tuple = tuple.__new__


def _verdict(
    allowed: bool,
    rule: Rule | None,
    line: int | None,
    reason: Reason,
    token: str,
    group_lines: tuple[int, ...],
    candidates: tuple[Rule, ...],
    url: str,
    target: str,
) -> Verdict:
    # tuple.__new__: NamedTuple's generated __new__ costs twice as much, on every verdict.
    result: Verdict = _new_tuple(
        Verdict, (allowed, rule, line, reason, token, group_lines, candidates, url, target, None)
    )
    return result
