"""What a change does to a repository's robots.txt files, said where a pull request is reviewed. Pure.

`robotscope ci` (and the GitHub Action around it) builds one `Change` per
file: its lint findings, the crawler/URL verdicts that flip against the base
revision (with the deciding line in each version) and the expectations that
fail. This module decides what fails the check (`fails`, by `--fail-on`) and
says it three ways: GitHub workflow commands (`workflow_commands`: `::error
file=...,line=...::...`, one line each), the Markdown of the one pull-request
comment (`comment`, whose first line is `MARKER`, by which the comment is
found and edited on the next push), and plain text (`text_lines`).

Every text a file, a crawler name or a URL brings in is escaped for where it
goes: workflow-command escapes in annotations (a newline in a rule cannot
start a command of its own), code spans and backslashes in Markdown (a `|`
cannot split a table row, `<!--` cannot hide the rest of the comment).
Output is bounded: `MAX_ANNOTATIONS` lines, `MAX_ROWS` flips and
`MAX_COMMENT` characters in the comment, with how many more were left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from ..access.robots import Robots
from ..messages import DEFAULT_LANG, Message, message
from ..syntax.model import Finding, Severity, Verdict
from .compare.diff import ANY_CRAWLER, Flip
from .render import printable
from .watch.alerts import Alert

# The first line of the pull-request comment: the comment is found by it and edited, never posted twice.
MARKER = "<!-- robotscope:ci -->"
# What `--fail-on` takes, from the fewest things that fail the check to the most. Failed expectations
# fail from `error` on; verdict flips from `flip` on; lint findings at or above the level named.
FAIL_ON = ("never", "error", "flip", "warning", "info")
MAX_ANNOTATIONS = 50  # GitHub shows 50 annotations of a job at most: the rest is counted in one notice
MAX_ROWS = 100  # flips listed in the comment, all files together
MAX_FINDINGS = 20  # lint findings listed in the comment for one file
MAX_COMMENT = 60_000  # characters of the comment (GitHub refuses more than 65,536)
_MAX_CELL = 300  # characters of one quoted line, URL or crawler name in the comment and annotations

_RANK = {Severity.INFO: 0, Severity.WARNING: 1, Severity.ERROR: 2}
_LINT_FLOOR = {"error": Severity.ERROR, "flip": Severity.ERROR, "warning": Severity.WARNING, "info": Severity.INFO}
_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


class Change(NamedTuple):
    """One robots.txt as the change leaves it, and what that does.

    `base` is the file at the base revision (an empty file where it had
    none: `new_file`), None when no base was given. `flips` are the first
    flips found (`more_flips`: there were more), `compared` the crawlers and
    URLs compared; `expectations` the failed statements of the expectation file. A file the change
    `removed` is an empty `robots`: no robots.txt.
    """

    path: str
    robots: Robots
    findings: tuple[Finding, ...] = ()
    base: Robots | None = None
    new_file: bool = False
    flips: tuple[Flip, ...] = ()
    more_flips: bool = False
    compared: tuple[int, int] = (0, 0)
    expectations: tuple[Alert, ...] = ()
    removed: bool = False


def lint_fails(finding: Finding, fail_on: str) -> bool:
    """Whether `finding` fails the check under `fail_on`."""
    return fail_on != "never" and _RANK[finding.severity] >= _RANK[_LINT_FLOOR[fail_on]]


def flips_fail(fail_on: str) -> bool:
    return fail_on in ("flip", "warning", "info")


def expectations_fail(fail_on: str) -> bool:
    return fail_on != "never"


def fails(changes: Iterable[Change], fail_on: str) -> bool:
    """Whether the check fails: anything at or above `fail_on` (one of `FAIL_ON`) in any file."""
    return any(
        (c.expectations and expectations_fail(fail_on))
        or (c.flips and flips_fail(fail_on))
        or any(lint_fails(f, fail_on) for f in c.findings)
        for c in changes
    )


def side(robots: Robots, verdict: Verdict) -> Message:
    """Why a verdict is what it is: `line 14: Disallow: /products/`, or the reason when no rule decided."""
    if verdict.line is None:
        return message(f"reason.{verdict.reason.value}")
    return message("watch.line", line=verdict.line, text=_cut(robots.line(verdict.line).raw.strip()))


def flip_message(change: Change, flip: Flip) -> Message:
    """`Googlebot may no longer fetch /products/: line 14: Disallow: /products/ (before: no rule matches)`."""
    assert change.base is not None  # a change has flips only where it has a base
    agent = message("diff.others") if flip.agent == ANY_CRAWLER else _cut(flip.agent)
    return message(
        "ci.flip.allowed" if flip.new.allowed else "ci.flip.blocked",
        agent=agent,
        url=_cut(flip.url),
        now=side(change.robots, flip.new),
        before=side(change.base, flip.old),
    )


# --- workflow commands --------------------------------------------------------------------------------------


def workflow_commands(
    changes: Sequence[Change], fail_on: str, *, lint: bool = True, lang: str = DEFAULT_LANG
) -> list[str]:
    """GitHub workflow commands, one a line: the failed expectations, the flips, then (unless `lint` is
    False: the findings went to code scanning as SARIF) the lint findings; `MAX_ANNOTATIONS` at most,
    then one notice saying how many more there were."""
    found: list[tuple[str, str, int | None, str, str]] = []  # level, file, line, title, text
    for change in changes:
        level = "error" if expectations_fail(fail_on) else "warning"
        for alert in change.expectations:
            line = alert.after[0].line if alert.after else None
            found.append((level, change.path, line, f"robotscope {alert.code}", alert.text(lang)))
    title = message("ci.annotation.flip").render(lang)
    for change in changes:
        level = "error" if flips_fail(fail_on) else "warning"
        for flip in change.flips:
            # The deciding line now, else the group now used (a group of its own can free a crawler).
            line = flip.new.line if flip.new.line is not None else next(iter(flip.new.group_lines), None)
            found.append((level, change.path, line, title, flip_message(change, flip).render(lang)))
    if lint:
        for change in changes:
            for f in change.findings:
                said = message("sarif.message", message=f.message, fix=f.fix).render(lang)
                found.append((_LEVEL[f.severity], change.path, f.line, f"robotscope {f.code}", said))
    lines = [_command(*item) for item in found[:MAX_ANNOTATIONS]]
    if len(found) > MAX_ANNOTATIONS:
        more = message("ci.annotation.more", count=len(found) - MAX_ANNOTATIONS).render(lang)
        lines.append(f"::notice::{_data(more)}")
    return lines


def _command(level: str, path: str, line: int | None, title: str, text: str) -> str:
    where = f"file={_property(path)}" + ("" if line is None else f",line={line}")
    return f"::{level} {where},title={_property(title)}::{_data(text)}"


def _data(text: str) -> str:
    """A workflow command's message, escaped as the runner reads it: `%`, CR and LF."""
    return printable(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    """A workflow command's property value: the message's escapes, and `:` and `,`, which end a value."""
    return _data(text).replace(":", "%3A").replace(",", "%2C")


# --- the pull-request comment -------------------------------------------------------------------------------


def comment(changes: Sequence[Change], fail_on: str, base: str | None, lang: str = DEFAULT_LANG) -> str:
    """The pull request comment, in Markdown: `MARKER`, then per file its flips (a table, with the deciding
    line on both sides), its failed expectations and its lint findings, then whether the check passes."""
    say = _Say(lang)
    out = [MARKER, f"### {say('ci.comment.title')}", ""]
    rows_left = MAX_ROWS
    for change in changes:
        out.append(f"#### {_code(change.path)}")
        out.append("")
        if change.base is None:
            out.append(_md(say("ci.no-base")))
        elif change.new_file:
            out.append(_md(say("ci.new-file", base=base or "")))
        elif change.removed:
            out.append(_md(say("ci.removed-file", base=base or "")))
        if change.base is not None and not change.flips:
            crawlers, urls = change.compared
            out.append(_md(say("ci.no-flips", base=base or "", agents=crawlers, urls=urls)))
        elif change.flips:
            count = len(change.flips)
            key = "ci.flips.more" if change.more_flips else "ci.flips"
            out.append(_md(say(key, count=count, base=base or "")))
            out.append("")
            columns = [say("diff.column.crawler"), say("diff.column.url"), say("ci.column.base"), say("ci.column.now")]
            out.append("| " + " | ".join(_md(c) for c in columns) + " |")
            out.append("|" + " --- |" * len(columns))
            shown = change.flips[: max(rows_left, 0)]
            rows_left -= len(shown)
            for flip in shown:
                assert change.base is not None
                agent = say("diff.others") if flip.agent == ANY_CRAWLER else flip.agent
                cells = [
                    _code(agent),
                    _code(flip.url),
                    _cell(change.base, flip.old, say),
                    _cell(change.robots, flip.new, say),
                ]
                out.append("| " + " | ".join(cells) + " |")
            if len(shown) < count:
                out.append("")
                out.append(_md(say("ci.rows.more", count=count - len(shown))))
        if change.expectations:
            out.append("")
            out.append(f"**{_md(say('ci.expectations', count=len(change.expectations)))}**")
            out.append("")
            out.extend(
                f"- {alert.severity.value} `{alert.code}`: {_md(alert.text(lang))}" for alert in change.expectations
            )
        out.append("")
        out.append(f"**{_md(say('ci.lint', summary=_counts(change.findings, lang)))}**")
        if change.findings:
            out.append("")
            for f in change.findings[:MAX_FINDINGS]:
                where = say("ci.line", line=f.line) if f.line is not None else say("ci.whole-file")
                out.append(f"- {_md(where)}: {f.severity.value} `{f.code}`: {_md(f.message.render(lang))}")
            if len(change.findings) > MAX_FINDINGS:
                out.append(f"- {_md(say('ci.findings.more', count=len(change.findings) - MAX_FINDINGS))}")
        out.append("")
    verdict = "ci.result.fails" if fails(changes, fail_on) else "ci.result.passes"
    out.append(f"**{_md(say(verdict, fail_on=fail_on))}**")
    text = "\n".join(out) + "\n"
    if len(text) > MAX_COMMENT:
        cut = text[:MAX_COMMENT].rpartition("\n")[0]
        text = f"{cut}\n\n{_md(say('ci.comment.cut', limit=MAX_COMMENT))}\n"
    return text


class _Say:
    """Messages rendered in one language: `say("ci.flips", count=2)`."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def __call__(self, code: str, **params: object) -> str:
        return message(code, **params).render(self.lang)


def _cell(robots: Robots, verdict: Verdict, say: _Say) -> str:
    """A table cell: the answer, in bold when disallowed, and the deciding line as code (or the reason)."""
    answer = say("answer.allowed") if verdict.allowed else f"**{_md(say('answer.disallowed'))}**"
    if verdict.line is None:
        return f"{answer}: {_md(say(f'reason.{verdict.reason.value}'))}"
    line = _cut(robots.line(verdict.line).raw.strip())
    return f"{answer}: {_md(say('ci.line', line=verdict.line))} {_code(line)}"


# What Markdown or GitHub reads in text: emphasis, links, HTML and entities, tables, strikethrough, mentions.
_MARKDOWN = re.compile(r"([\\`*_\[\]<>&|~#@])")


def _md(text: str) -> str:
    """Text as Markdown that shows as it is written: every character Markdown or HTML reads is escaped,
    line breaks are spaces (a line of its own could start a heading or end a table)."""
    return _MARKDOWN.sub(r"\\\1", printable(text).replace("\n", " ").replace("\r", " "))


def _code(text: str) -> str:
    """Text as a Markdown code span: fenced by more backticks than it holds; `|` escaped (GitHub reads the
    table's cells before the code spans in them)."""
    text = _cut(printable(text).replace("\n", " ").replace("\r", " ")).replace("|", "\\|")
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    pad = " " if not text.strip(" ") or text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _cut(text: str) -> str:
    return text if len(text) <= _MAX_CELL else text[: _MAX_CELL - 1] + "…"


def _counts(findings: Sequence[Finding], lang: str) -> str:
    """`1 error, 2 warnings`, or `no findings`."""
    counts = {s: sum(1 for f in findings if f.severity is s) for s in Severity}
    parts = [message(f"count.{s.value}", n=n).render(lang) for s, n in counts.items() if n]
    return ", ".join(parts) if parts else message("lint.summary.none").render(lang)


# --- plain text ---------------------------------------------------------------------------------------------


def text_lines(change: Change, base: str | None, lang: str = DEFAULT_LANG) -> list[str]:
    """A change in a terminal's terms: its flips and failed expectations, one line each (the caller prints
    the lint findings as `robotscope lint` does)."""
    out = []
    if change.removed:
        out.append(printable(f"{change.path}: {message('ci.removed-file', base=base or '').render(lang)}"))
    out.extend(printable(f"{change.path}: {flip_message(change, flip).render(lang)}") for flip in change.flips)
    if change.more_flips:
        out.append(
            printable(
                f"{change.path}: {message('ci.flips.more', count=len(change.flips), base=base or '').render(lang)}"
            )
        )
    out.extend(printable(f"{change.path}: {a.severity.value} {a.code}: {a.text(lang)}") for a in change.expectations)
    return out


def summary(changes: Sequence[Change], fail_on: str, lang: str = DEFAULT_LANG) -> Message:
    """One line: files checked, flips, failed expectations, lint findings, and whether the check passes."""
    findings = [f for c in changes for f in c.findings]
    return message(
        "ci.summary",
        files=len(changes),
        flips=sum(len(c.flips) for c in changes),
        failed=sum(len(c.expectations) for c in changes),
        lint=_counts(findings, lang),
        result=message("ci.result.fails" if fails(changes, fail_on) else "ci.result.passes", fail_on=fail_on),
    )
