"""Plain-text views of verdicts: the deciding line quoted in context.

Returns strings and prints nothing; the CLI and other front ends decide
where text goes. Imports only the core model and `Robots`.
"""

from __future__ import annotations

from .model import Reason, Verdict
from .robots import Robots

_CONTEXT = 2  # lines shown before and after the deciding line


def quote_lines(robots: Robots, focus: int, context: int = _CONTEXT) -> list[str]:
    """The lines around `focus`, numbered, with `>` marking `focus`."""
    last = len(robots.lines) + len(robots.overflow)
    first_shown, last_shown = max(1, focus - context), min(last, focus + context)
    width = len(str(last_shown))
    return [
        f"  {'>' if n == focus else ' '} {n:>{width}} | {robots.line(n).raw}"
        for n in range(first_shown, last_shown + 1)
    ]


def explain(verdict: Verdict) -> str:
    """One sentence saying why the verdict came out as it did."""
    token = verdict.agent_token or "(no token)"
    if verdict.reason is Reason.ROBOTS_TXT:
        return "/robots.txt itself is always allowed (RFC 9309, Section 2.2.2)."
    if verdict.reason is Reason.NO_GROUP:
        return f"No group names {token} and there is no `*` group, so every URL is allowed."
    if verdict.reason is Reason.NO_MATCH:
        return f"No rule of the group used matches {verdict.target}, so it is allowed."
    rule = verdict.rule
    assert rule is not None  # Reason.RULE always names its rule
    others = len(verdict.candidates) - 1
    contest = f", the longest of {others + 1} matching rules" if others else ""
    kind = "Allow" if rule.allow else "Disallow"
    return f"Line {rule.line} ({kind}: {rule.pattern}) decides: it matches {verdict.target} with length {rule.length}{contest}."


def render_verdict(robots: Robots, verdict: Verdict, agent: str) -> str:
    """A verdict as text: the answer, why, the token and group used, and the deciding line in context."""
    answer = "ALLOWED   " if verdict.allowed else "DISALLOWED"
    out = [f"{answer} {verdict.url}", f"  {explain(verdict)}"]
    source = "" if verdict.agent_token == agent.strip().lower() else f' (from "{agent}")'
    out.append(f"  agent token: {verdict.agent_token or '(none)'}{source}")
    if verdict.group_lines:
        numbers = ", ".join(str(n) for n in verdict.group_lines)
        out.append(f"  group used: user-agent line{'s' if len(verdict.group_lines) > 1 else ''} {numbers}")
    else:
        out.append("  group used: none")
    if verdict.line is not None:
        out.extend(quote_lines(robots, verdict.line))
    if len(verdict.candidates) > 1 or (verdict.candidates and verdict.rule is None):
        out.append("  matching rules, best first:")
        out.extend(
            f"    line {c.line}: {'Allow' if c.allow else 'Disallow'}: {c.pattern} (length {c.length})"
            for c in verdict.candidates
        )
    return "\n".join(out)
