"""Plain views of verdicts and findings: text with the deciding line quoted, SARIF.

Returns strings and dicts and prints nothing; the CLI and other front ends
decide where output goes. Imports only the core.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import quote

from ..access import served
from ..access.engines.registry import PROFILED as DEFAULT_ENGINE
from ..access.engines.registry import engine
from ..access.robots import Robots
from ..messages import DEFAULT_LANG, message
from ..syntax.model import Finding, Severity
from .linter.registry import CHECKS

_CONTEXT = 2  # lines shown before and after the deciding line


def quote_lines(robots: Robots, focus: int, context: int = _CONTEXT) -> list[str]:
    """The lines around `focus`, numbered, with `>` marking `focus`."""
    last = len(robots.lines) + robots.overflow_line_count
    first_shown, last_shown = max(1, focus - context), min(last, focus + context)
    width = len(str(last_shown))
    out = []
    for n in range(first_shown, last_shown + 1):
        try:
            raw = robots.line(n).raw
        except IndexError:
            break  # a fetched file cut at the limit: later lines were counted, not kept
        out.append(f"  {'>' if n == focus else ' '} {n:>{width}} | {raw}")
    return out


def printable(text: str) -> str:
    """`text` safe to print on a terminal: control characters (NUL, ESC, ...) shown as \\xNN escapes."""
    if text.isprintable():
        return text
    return _CONTROL.sub(
        lambda m: "".join(f"\\x{ord(c):02x}" if ord(c) < 256 else f"\\u{ord(c):04x}" for c in m.group()), text
    )


# C0 and C1 controls, DEL, and the bidirectional overrides that can hide text on a terminal.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]+")


def render_verdict(robots: Robots, view: Mapping[str, Any], agent: str, lang: str = DEFAULT_LANG) -> str:
    """A verdict view (`views.verdict_view`) as text: the answer, why, notes, token and group, the deciding line."""

    def text(code: str, **params: Any) -> str:
        return message(code, **params).render(lang)

    answer = text("verdict.allowed" if view["allowed"] else "verdict.disallowed")
    width = max(len(text("verdict.allowed")), len(text("verdict.disallowed")))
    out = [f"{answer:<{width}} {printable(view['url'])}", f"  {printable(view['explanation']['text'])}"]
    out.extend(f"  {text('label.note')}: {printable(note['text'])}" for note in view["notes"])
    if view["engine"] != DEFAULT_ENGINE:
        out.append(f"  {text('label.reading')}: {engine(view['engine']).title}")
    if view.get("usage_text") is not None:
        out.append(f"  {text('label.usage')}: {printable(view['usage_text'])}")
    token = view["agent_token"] or text("label.no-token")
    source = (
        "" if view["agent_token"] == agent.strip().lower() else f" ({text('label.agent-from', agent=printable(agent))})"
    )
    out.append(f"  {text('label.agent-token')}: {token}{source}")
    lines = view["group_lines"]
    used = text("label.group-lines", count=len(lines), lines=lines) if lines else text("label.no-group")
    out.append(f"  {text('label.group-used')}: {used}")
    if view["line"] is not None:
        out.extend(printable(line) for line in quote_lines(robots, view["line"]))
    candidates = view["candidates"]
    if len(candidates) > 1 or (candidates and view["rule"] is None):
        out.append(f"  {text('label.candidates')}:")
        out.extend(
            "    "
            + printable(
                text(
                    "label.candidate",
                    line=c["line"],
                    rule=f"{c['kind'].capitalize()}: {c['pattern']}",
                    length=c["length"],
                )
            )
            for c in candidates
        )
    return "\n".join(out)


def render_readings(view: Mapping[str, Any], lang: str = DEFAULT_LANG) -> str:
    """A readings view (`views.readings_view`) as text: one line per engine, the split marked."""

    def text(code: str, **params: Any) -> str:
        return message(code, **params).render(lang)

    head = text("readings.split" if view["split"] else "readings.agree", url=printable(view["url"]))
    out = [head]
    width = max(len(name) for name in view["readings"])
    for name, reading in view["readings"].items():
        answer = text("verdict.allowed" if reading["allowed"] else "verdict.disallowed")
        if reading["line"]:
            where = text("readings.line", line=reading["line"], rule=printable(reading["rule"]))
        else:
            where = text(f"reason.{reading['reason']}")
        out.append(f"  {name:<{width}}  {answer:<10} {where}")
    if view.get("usage_text") is not None:
        out.append(f"  {text('label.usage')}: {printable(view['usage_text'])}")
    return "\n".join(out)


_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def render_findings(robots: Robots, findings: list[Finding], name: str, lang: str = DEFAULT_LANG) -> str:
    """Findings as text: code, severity, the line quoted, what happens, the fix; then a summary."""
    return "\n".join([*finding_lines(robots, findings, name, lang), summary(findings, name, lang)])


def finding_lines(robots: Robots, findings: list[Finding], name: str, lang: str = DEFAULT_LANG) -> list[str]:
    """Each finding as lines of text: code and severity, the line quoted, what happens, the fix."""
    out = []
    fix = message("label.fix").render(lang)
    for f in findings:
        where = f"{name}:{f.line}" if f.line is not None else name
        out.append(printable(f"{where}: {f.severity.value} {f.code}"))
        if f.line is not None:
            out.append(printable(f"  {f.line} | {robots.line(f.line).raw}"))
        out.append(printable(f"  {f.message.render(lang)}"))
        out.append(printable(f"  {fix}: {f.fix.render(lang)}"))
    return out


def summary(findings: list[Finding], name: str, lang: str = DEFAULT_LANG) -> str:
    """`name: 2 errors, 1 info`, or `name: no findings`."""
    if not findings:
        return f"{name}: {message('lint.summary.none').render(lang)}"
    counts = {s: sum(1 for f in findings if f.severity is s) for s in Severity}
    parts = [message(f"count.{s.value}", n=n).render(lang) for s, n in counts.items() if n]
    return f"{name}: " + ", ".join(parts)


def file_uri(path: str) -> str:
    """A relative file path as SARIF's `artifactLocation.uri` wants it: a URI reference, so percent-encoded
    (a space, `%`, `#` or `?` in a name would otherwise be read as something else or be invalid).

    >>> file_uri("site pages/100%/robots.txt")
    'site%20pages/100%25/robots.txt'
    """
    return quote(path, safe="/")


def sarif(findings: list[Finding], uri: str, version: str, lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """Findings as a SARIF 2.1.0 log, one result per finding, for code scanning."""
    return sarif_log([(uri, findings)], version, lang)


def sarif_log(files: Sequence[tuple[str, Sequence[Finding]]], version: str, lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """The findings of several files (each `(uri, findings)`) as one SARIF 2.1.0 log: one run, one result
    per finding, located in its file (a URI relative to the repository's root, for code scanning)."""
    # Every code a finding may carry: the lint checks', then a fetch's about how the file was served.
    codes = [(c.code, c.severity) for c in CHECKS] + [(served.CODE, served.SEVERITY)]
    rules = [
        {
            "id": code,
            "shortDescription": {"text": message(f"summary.{code}").render(lang)},
            "defaultConfiguration": {"level": _SARIF_LEVEL[severity]},
        }
        for code, severity in codes
    ]
    index = {code: i for i, (code, _) in enumerate(codes)}
    results = [
        {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": _SARIF_LEVEL[f.severity],
            "message": {"text": message("sarif.message", message=f.message, fix=f.fix).render(lang)},
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
        for uri, findings in files
        for f in findings
    ]
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "robotscope", "version": version, "rules": rules}}, "results": results}],
    }
