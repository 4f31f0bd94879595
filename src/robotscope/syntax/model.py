"""The vocabulary of robotscope: lines, rules, groups and verdicts as plain data.

Everything here is immutable, holds no references back into a parser, and
turns into JSON-ready dicts with ``as_dict()``, so the matcher, the linter and
every front end can pass decisions around as data: the file's own
vocabulary (lines, rules, groups), the answers the access layer gives about
it (verdicts with their usage preferences) and the reports' findings. Imports
nothing from robotscope but its messages (texts as data).
"""

from __future__ import annotations

import enum
from typing import Any, NamedTuple

from ..messages import Message


class LineKind(enum.StrEnum):
    """What one line of a robots.txt file is."""

    USER_AGENT = "user-agent"
    ALLOW = "allow"
    DISALLOW = "disallow"
    SITEMAP = "sitemap"
    OTHER = "other"  # a `key: value` record robots.txt matching does not use
    BLANK = "blank"  # empty, whitespace or comment only
    INVALID = "invalid"  # content without a colon: ignored under RFC 9309


class Reason(enum.StrEnum):
    """Why a verdict came out the way it did."""

    RULE = "rule"  # the longest matching rule decided
    NO_MATCH = "no-matching-rule"  # a group applies but none of its rules match
    NO_GROUP = "no-group"  # no group names the crawler and there is no `*` group
    ROBOTS_TXT = "robots-txt"  # RFC 9309, Section 2.2.2: /robots.txt is implicitly allowed
    UNAVAILABLE = "robots-txt-unavailable"  # no usable robots.txt (4xx, too many redirects): all allowed
    UNREACHABLE = "robots-txt-unreachable"  # 5xx, 429, timeout or network error: all disallowed


class Line(NamedTuple):
    """One physical line of the file, exactly as written.

    `key`, `value` and `comment` are None where the line has none; `key` is
    as written (stripped), so `kind` is where the case-folded meaning lives.
    `group` is the index of the group a rule or record line belongs to.
    """

    number: int
    raw: str
    kind: LineKind
    key: str | None
    value: str | None
    comment: str | None
    group: int | None

    def as_dict(self) -> dict[str, Any]:
        d = self._asdict()
        d["kind"] = self.kind.value
        return d


class Rule(NamedTuple):
    """An allow or disallow rule of a group.

    `pattern` is the value as written; `normalised` is the form it is matched
    in (percent-encoding normalised) and `length` its priority for the
    longest-match rule, with `*` and `$` counting one each.
    """

    allow: bool
    pattern: str
    line: int
    normalised: str

    @property
    def length(self) -> int:
        # Derived, not stored: a parsed file holds every rule, and a field costs 8 bytes each.
        return len(self.normalised)

    @property
    def kind(self) -> LineKind:
        return LineKind.ALLOW if self.allow else LineKind.DISALLOW

    @property
    def text(self) -> str:
        """The rule as a line of a file: `Disallow: /private/`."""
        return f"{'Allow' if self.allow else 'Disallow'}: {self.pattern}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "pattern": self.pattern,
            "line": self.line,
            "normalised": self.normalised,
            "length": self.length,
        }


class Record(NamedTuple):
    """A `key: value` line other than user-agent, allow and disallow.

    Sitemaps and other records such as crawl-delay; `key` is lower-cased.
    `group` is the index of the group it stands in, if any; `agents` are the
    tokens of the run of user-agent lines right above it, the crawlers a
    record such as crawl-delay is for (a rule or another record ends a run;
    the group goes on).
    """

    key: str
    value: str
    line: int
    group: int | None
    agents: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {**self._asdict(), "agents": list(self.agents)}


class Group(NamedTuple):
    """A group: one or more user-agent lines and the rules under them.

    `agents` are the product tokens the group names, lower-cased (`*` for the
    global group); a user-agent value with no valid token contributes none.
    """

    position: int  # 0-based, in file order; what `Line.group` and `Record.group` refer to
    agents: tuple[str, ...]
    agent_lines: tuple[int, ...]
    rules: tuple[Rule, ...]
    records: tuple[Record, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "agents": list(self.agents),
            "agent_lines": list(self.agent_lines),
            "rules": [r.as_dict() for r in self.rules],
            "records": [r.as_dict() for r in self.records],
        }


class Preference(NamedTuple):
    """One category's answer: `y`, `n` or `unknown`, and the lines that gave it."""

    value: str
    lines: tuple[int, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"value": self.value, "lines": list(self.lines)}


class Usage(NamedTuple):
    """The usage preferences for one crawler and URL.

    `applies` is False when the crawler may not fetch the URL: then no
    preference applies (attach §3), and both maps are empty. `usage` holds
    every Content-Usage category once any Content-Usage rule of the groups
    used matches; `signals` the Content-Signal uses the groups state.
    """

    applies: bool
    usage: dict[str, Preference]
    signals: dict[str, Preference]

    def as_dict(self) -> dict[str, Any]:
        return {
            "applies": self.applies,
            "content_usage": {k: v.as_dict() for k, v in self.usage.items()},
            "content_signal": {k: v.as_dict() for k, v in self.signals.items()},
        }


class Verdict(NamedTuple):
    """The answer to "may `agent` fetch `url`?", with its proof.

    `rule` and `line` name the deciding rule (None when no rule decided);
    `group_lines` are the user-agent lines of the group(s) used; `candidates`
    are every matching rule of those groups, best first (each rule carries the
    length it competes with). `target` is the normalised path and query that
    was matched. `usage` holds the AI usage preferences (Content-Usage,
    Content-Signal) that apply, when the groups used state any.
    """

    allowed: bool
    rule: Rule | None
    line: int | None
    reason: Reason
    agent_token: str
    group_lines: tuple[int, ...]
    candidates: tuple[Rule, ...]
    url: str
    target: str
    usage: Usage | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "allowed": self.allowed,
            "rule": None if self.rule is None else self.rule.as_dict(),
            "line": self.line,
            "reason": self.reason.value,
            "agent_token": self.agent_token,
            "group_lines": list(self.group_lines),
            "candidates": [c.as_dict() for c in self.candidates],
            "url": self.url,
            "target": self.target,
            "usage": None if self.usage is None else self.usage.as_dict(),
        }


class Severity(enum.StrEnum):
    """How bad a lint finding is."""

    ERROR = "error"  # a line is ignored, or does something other than it says
    WARNING = "warning"  # very likely a mistake
    INFO = "info"  # worth knowing


class Edit(NamedTuple):
    """A fix as a change of the file's text: each line given by its number is replaced by `lines` (none: deleted).

    `toward` names the reading a repair brings the others to (`Disallow /x`
    read as a rule by Google alone becomes `Disallow: /x`): verdicts of that
    reading must not change, those of the others only to its own. None: no
    verdict may change. `limited` says the proof checked a capped sample.
    """

    changes: tuple[tuple[int, tuple[str, ...]], ...]
    toward: str | None = None
    limited: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "changes": [{"line": number, "lines": list(lines)} for number, lines in self.changes],
            "toward": self.toward,
            "limited": self.limited,
        }


class Finding(NamedTuple):
    """A lint finding: what is wrong, where, what happens, and how to fix it.

    `line` is the line the finding is about (None for the whole file);
    `lines` are every line involved, `line` included. `message` and `fix`
    are texts as data (`robotscope.messages.Message`: a code and its
    parameters), rendered in the user's language by the front ends.
    `edit` is the fix as a change of the text where one can be applied as
    it is, and only once the linter has proven that it changes no verdict
    (`reports.linter.proof`).
    """

    code: str
    severity: Severity
    line: int | None
    message: Message
    fix: Message
    lines: tuple[int, ...]
    edit: Edit | None = None

    def as_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "line": self.line,
            "message": self.message.as_dict(lang),
            "fix": self.fix.as_dict(lang),
            "lines": list(self.lines),
            "edit": None if self.edit is None else self.edit.as_dict(),
        }
