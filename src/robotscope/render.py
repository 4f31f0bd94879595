"""Plain views of verdicts and findings: text with the deciding line quoted, SARIF.

Returns strings and dicts and prints nothing; the CLI and other front ends
decide where output goes. Imports only the core.
"""

from __future__ import annotations

from typing import Any

from .checks import CHECKS
from .model import Finding, Reason, Severity, Verdict
from .robots import Robots

_CONTEXT = 2  # lines shown before and after the deciding line


def quote_lines(robots: Robots, focus: int, context: int = _CONTEXT) -> list[str]:
    """The lines around `focus`, numbered, with `>` marking `focus`."""
    last = len(robots.lines) + robots.overflow_line_count
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
    if verdict.reason is Reason.UNAVAILABLE:
        return "There is no usable robots.txt (a 4xx, or redirects that lead nowhere), so every URL is allowed."
    if verdict.reason is Reason.UNREACHABLE:
        return "robots.txt is unreachable (a server error, 429, timeout or network error), so every URL is disallowed."
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


_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def render_findings(robots: Robots, findings: list[Finding], name: str) -> str:
    """Findings as text: code, severity, the line quoted, what happens, the fix; then a summary."""
    out = []
    for f in findings:
        where = f"{name}:{f.line}" if f.line is not None else name
        out.append(f"{where}: {f.severity.value} {f.code}")
        if f.line is not None:
            out.append(f"  {f.line} | {robots.line(f.line).raw}")
        out.append(f"  {f.message}")
        out.append(f"  fix: {f.fix}")
    out.append(summary(findings, name))
    return "\n".join(out)


def summary(findings: list[Finding], name: str) -> str:
    counts = {s: sum(1 for f in findings if f.severity is s) for s in Severity}
    if not findings:
        return f"{name}: no findings"
    parts = [f"{n} {s.value}{'s' if n != 1 and s is not Severity.INFO else ''}" for s, n in counts.items() if n]
    return f"{name}: " + ", ".join(parts)


def sarif(findings: list[Finding], uri: str, version: str) -> dict[str, Any]:
    """Findings as a SARIF 2.1.0 log, one result per finding, for code scanning."""
    rules = [
        {
            "id": c.code,
            "shortDescription": {"text": c.summary},
            "defaultConfiguration": {"level": _SARIF_LEVEL[c.severity]},
        }
        for c in CHECKS
    ]
    index = {c.code: i for i, c in enumerate(CHECKS)}
    results = [
        {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": _SARIF_LEVEL[f.severity],
            "message": {"text": f"{f.message}. Fix: {f.fix}."},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": uri},
                        # Whole-file findings are shown on the first line.
                        "region": {"startLine": f.line or 1},
                    }
                }
            ],
        }
        for f in findings
    ]
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "robotscope", "version": version, "rules": rules}}, "results": results}],
    }
