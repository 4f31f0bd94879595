"""The answer an AI agent gets before it fetches a URL: `robotscope.agent.gate` and the MCP tool `may_fetch`.

One answer, built here from what fetching the origin's robots.txt gave (the
edge `gating` fetches): the verdict by the crawler's own reading of the
rules (`operator`: Googlebot's is Google's, an unknown agent's RFC 9309's),
with the deciding line; the fetch's evidence (the robots.txt URL, its status,
when it was fetched, the SHA-256 of the file the rules were read from); the
decision for an answer other than 2xx, always by RFC 9309's status policy,
so a 5xx, a 429 or an unreachable file disallows everything and is never read
as allow-all (RFC 9309, Section 2.3.1.4), whatever an operator documents
(Yandex reads a 5xx as allow-all); the AI usage preferences and RSL `License:`
URLs that apply to the URL; and whether the agent's operator says robots.txt
applies to this kind of fetch (`access.scope`). A target the SSRF guard
refuses is a refusal too: nothing was fetched, nothing is allowed. Pure.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from ..access.engines.registry import OPERATOR, resolve
from ..access.policy import Decision
from ..access.preferences import licenses_for
from ..access.profiles import Answer
from ..access.robots import Robots, answer_after
from ..access.scope import INITIATORS, Scope, fetch_scope
from ..messages import DEFAULT_LANG, Message, message
from ..syntax.model import Record
from ..syntax.urls import InvalidURL, robots_url
from .analysis import LIMITS
from .verification import utc_text
from .views import explanation, verdict_view

POLICY = "rfc9309"  # how the gate reads the HTTP outcome of every fetch of robots.txt
REFUSED = "refused-target"  # the reason of an answer whose robots.txt the SSRF guard would not fetch
MAX_FIELD = LIMITS["max_field"]  # characters of a URL or user agent read, as the web API reads them


class InvalidRequest(ValueError):
    """A question the gate cannot answer (a URL with no robots.txt, an empty user agent): `reason` says why."""

    def __init__(self, reason: Message) -> None:
        super().__init__(reason.render())
        self.reason = reason


def checked_length(what: str, value: str) -> str:
    """`value` if it is at most MAX_FIELD characters (`what`: `url` or `user-agent`), else InvalidRequest."""
    if len(value) > MAX_FIELD:  # said without quoting it: the value itself may be megabytes
        raise InvalidRequest(message(f"gate.too-long.{what}", length=len(value), limit=MAX_FIELD))
    return value


def checked_agent(user_agent: str) -> str:
    """`user_agent` if a group can name it and a header can carry it, else InvalidRequest."""
    checked_length("user-agent", user_agent)
    if not user_agent.strip():
        raise InvalidRequest(message("cli.empty-agent"))
    control = next((char for char in user_agent if ord(char) < 0x20 or ord(char) == 0x7F), None)
    if control is not None:
        raise InvalidRequest(message("gate.agent-control", char=f"{ord(control):04X}"))
    return user_agent


def checked_request(url: str, user_agent: str, initiated_by: str) -> str:
    """The robots.txt URL of `url`'s origin, once the question is one the gate can answer; else InvalidRequest.

    >>> checked_request("https://example.com/a?b", "MyAgent/1.0", "user")
    'https://example.com/robots.txt'
    >>> checked_request("ftp://example.com/", "MyAgent/1.0", "model")
    Traceback (most recent call last):
    ...
    robotscope.reports.gate.InvalidRequest: `ftp://example.com/` is not an http or https URL
    """
    checked_length("url", url)
    checked_agent(user_agent)
    if initiated_by not in INITIATORS:
        raise InvalidRequest(message("gate.initiated-by", value=initiated_by[:40], choices=list(INITIATORS)))
    try:
        return robots_url(url)
    except InvalidURL as error:
        raise InvalidRequest(error.reason) from None


@dataclass(frozen=True)
class Evidence:
    """What fetching robots.txt gave, for an agent to log: where, when, what came back, what it hashed to."""

    robots_url: str
    status: int | None = None  # the final response's; None when none came
    fetched_at: float | None = None  # POSIX time the response was received
    from_cache: bool = False
    hops: tuple[tuple[str, int], ...] = ()
    error: tuple[str, str] | None = None  # (kind, message) of a transport failure or a refusal
    sha256: str | None = None  # of the bytes of the file the rules were read from

    def as_dict(self) -> dict[str, Any]:
        return {
            "url": self.robots_url,
            "status": self.status,
            "fetched_at": None if self.fetched_at is None else utc_text(int(self.fetched_at)),
            "from_cache": self.from_cache,
            "sha256": self.sha256,
            "hops": [{"url": url, "status": status} for url, status in self.hops],
            "error": None if self.error is None else {"kind": self.error[0], "message": self.error[1]},
        }


def file_hash(robots: Robots | None) -> str | None:
    """The SHA-256 (hex) of the bytes the file was parsed from, None when there is no file."""
    if robots is None:
        return None
    source = robots.source
    data = source if isinstance(source, bytes) else source.encode("utf-8", "surrogateescape")
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class GateAnswer:
    """May `user_agent` fetch `url`? `allowed`, and everything an agent needs to log why.

    `answer` and `decision` are None when the fetch was refused (`refusal`
    says why); `licenses` are the `License:` lines that apply.
    """

    url: str
    user_agent: str
    scope: Scope
    evidence: Evidence
    decision: Decision | None = None
    answer: Answer | None = None
    licenses: tuple[Record, ...] = ()
    refusal: Message | None = None

    @property
    def allowed(self) -> bool:
        return self.answer is not None and self.answer.verdict.allowed

    @property
    def reason(self) -> str:
        """Why: a `Reason` value of the verdict (`rule`, `robots-txt-unreachable`, ...), or `refused-target`."""
        return REFUSED if self.answer is None else self.answer.verdict.reason.value

    @property
    def line(self) -> int | None:
        """The deciding line of robots.txt, None when no rule decided."""
        return None if self.answer is None else self.answer.verdict.line

    def why(self) -> Message:
        if self.answer is None:
            return self.refusal or message("gate.refused", url=self.evidence.robots_url)
        verdict = self.answer.verdict
        return explanation(verdict, self.answer.engine, self.answer.profile is not None)

    def as_dict(self, lang: str = DEFAULT_LANG) -> dict[str, Any]:
        view = None if self.answer is None else verdict_view(self.answer, lang)
        rule = None if self.answer is None or self.answer.verdict.rule is None else self.answer.verdict.rule.text
        return {
            "url": self.url,
            "user_agent": self.user_agent,
            "allowed": self.allowed,
            "reason": self.reason,
            "line": self.line,
            "rule": rule,
            "explanation": self.why().as_dict(lang),
            "reading": None if self.answer is None else self.answer.engine,
            "robots_txt": self.evidence.as_dict(),
            "policy": None
            if self.decision is None
            else {
                "name": self.decision.policy,
                "action": self.decision.action.value,
                "explanation": self.decision.reason.as_dict(lang),
            },
            "usage": None if view is None else view["usage"],
            "usage_text": None if view is None else view["usage_text"],
            "licenses": [{"url": record.value, "line": record.line} for record in self.licenses],
            "operator_scope": self.scope.as_dict(lang),
            "verdict": view,
        }


def gate_answer(
    url: str, user_agent: str, initiated_by: str, decision: Decision, robots: Robots | None, evidence: Evidence
) -> GateAnswer:
    """The answer from a fetch's `decision` (RFC 9309's) and the file it leaves, if any (`robots`).

    Raises ValueError when `initiated_by` is not `model` or `user` (`checked_request` says so first).
    """
    scope = fetch_scope(user_agent, initiated_by)
    answer = answer_after(decision, robots, user_agent, url, resolve(OPERATOR, user_agent))
    licenses = () if robots is None else licenses_for(robots, answer.verdict.group_lines)
    return GateAnswer(url, user_agent, scope, evidence, decision, answer, licenses)


def refused_answer(url: str, user_agent: str, initiated_by: str, evidence: Evidence, why: Message) -> GateAnswer:
    """The answer when robots.txt could not be fetched because the target is not one the fetch may reach."""
    return GateAnswer(url, user_agent, fetch_scope(user_agent, initiated_by), evidence, refusal=why)
