"""`FetchResult`: what fetching an origin's robots.txt gave, what every policy concludes, and its verdicts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..access.engines.registry import DEFAULT, PROFILED
from ..access.policy import Action, Decision
from ..access.profiles import Answer
from ..access.robots import Robots, answer_after, verdict_after
from ..access.served import served_findings
from ..messages import DEFAULT_LANG
from ..syntax.model import Finding, Verdict

# The response headers a result keeps (lower-case names): how the file was served, its validators,
# the edge or CDN that answered, what X-Robots-Tag said of it, and whether a bot wall answered.
KEPT_HEADERS = (
    "content-type",
    "content-length",
    "content-encoding",
    "last-modified",
    "etag",
    "cache-control",
    "age",
    "server",
    "via",
    "cf-ray",
    "cf-cache-status",
    "x-cache",
    "x-served-by",
    "x-robots-tag",
    # A bot wall's own markers (`reports.watch.markers`; a test keeps the two lists together).
    "cf-mitigated",
    "x-datadome",
)
MAX_HEADER = 1024  # characters kept of one header's value


def kept_headers(headers: Mapping[str, str]) -> Mapping[str, str]:
    """The `KEPT_HEADERS` of a response (any case of their names), each value cut at MAX_HEADER, read-only."""
    lowered = {name.lower(): value for name, value in headers.items()}
    return MappingProxyType({name: lowered[name][:MAX_HEADER] for name in KEPT_HEADERS if name in lowered})


@dataclass(frozen=True)
class TransportFailure:
    """Why no complete answer came: `kind` is timeout, dns, connect, tls, network, decode or incomplete."""

    kind: str
    message: str


@dataclass(frozen=True)
class FetchResult:
    """What fetching an origin's robots.txt gave, and what every policy concludes from it.

    `hops` are every response of the redirect chain, (URL, status), in
    order; `status` the final one (None when none came); `headers` the
    final response's `KEPT_HEADERS`. `decision` and
    `explanation` are those of `policy`; `decisions` holds all four policies.
    `robots` is the parsed file the decision uses (the fetched body for
    `parse`, the last good copy for `cached-copy`), else None. `verdict`
    and `answer` say what a crawler may fetch of the origin, from all that.
    """

    robots_url: str
    hops: tuple[tuple[str, int], ...]
    status: int | None
    content_type: str | None
    bytes_received: int
    truncated: bool
    error: TransportFailure | None
    policy: str
    decision: Action  # `policy`'s; `decisions` has every policy's
    decisions: Mapping[str, Decision]
    from_cache: bool
    fetched_at: float | None = None  # POSIX time the response was received (a cache hit's: when it was fetched)
    body_size: int = 0  # the whole body's decoded size as far as it was counted past the cut
    body_lines: int = 0  # and its lines
    size_exact: bool = True  # False when counting stopped (body.COUNT_BYTES, COUNT_SECONDS): sizes are lower bounds
    robots: Robots | None = field(default=None, repr=False)
    body: bytes = field(default=b"", repr=False)
    warnings: tuple[str, ...] = ()
    headers: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def explanation(self) -> str:
        """Why `policy` decided as it did, in English (`decisions[policy].reason` is the message)."""
        return self.decisions[self.policy].explanation

    @property
    def served(self) -> tuple[Finding, ...]:
        """What the response's headers say about how the file was served (a Content-Type not text/plain)."""
        return served_findings(self.status, self.content_type)

    def verdict(self, agent: str, url: str, engine: str = DEFAULT) -> Verdict:
        """May `agent` fetch `url` of this origin? The file's verdict where its rules apply after the fetch
        (`Action.rules_apply`), else `policy`'s allow-all or disallow-all (`access.robots.verdict_after`)."""
        return verdict_after(self.decisions[self.policy], self.robots, agent, url, engine)

    def answer(self, agent: str, url: str, reading: str = PROFILED) -> Answer:
        """The answer front ends show for `agent` on `url` (`Robots.answer`, or the policy's when no rule applies)."""
        return answer_after(self.decisions[self.policy], self.robots, agent, url, reading)

    def as_dict(self, lang: str = DEFAULT_LANG) -> dict[str, Any]:
        return {
            "robots_url": self.robots_url,
            "hops": [{"url": url, "status": status} for url, status in self.hops],
            "status": self.status,
            "content_type": self.content_type,
            "headers": dict(self.headers),
            "bytes_received": self.bytes_received,
            "truncated": self.truncated,
            "body_size": self.body_size,
            "body_lines": self.body_lines,
            "size_exact": self.size_exact,
            "error": None if self.error is None else {"kind": self.error.kind, "message": self.error.message},
            "policy": self.policy,
            "decision": self.decision,
            "explanation": self.decisions[self.policy].reason.render(lang),
            "decisions": {name: d.as_dict(lang) for name, d in self.decisions.items()},
            "from_cache": self.from_cache,
            "warnings": list(self.warnings),
            "served": [finding.as_dict(lang) for finding in self.served],
        }
