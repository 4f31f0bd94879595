"""Does robots.txt apply to this fetch, by the agent's operator's own word? The second question an agent asks.

A robots.txt verdict says what the site allows; whether the crawler's
operator holds its agent to it depends on who started the fetch. The
operators that document user-triggered fetchers (OpenAI's ChatGPT-User,
Perplexity-User, Google's user-triggered fetchers) exempt, wholly or in
part, the fetches a user asked for; none exempts a fetch the model chose on
its own, and the reference MCP fetch server obeys robots.txt for exactly
those (docs/mcp.md). So: `model`, robots.txt applies; `user`, what the
crawler catalogue records of the operator's documentation (`obeys_robots`),
unknown for an agent the catalogue does not know.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..messages import DEFAULT_LANG, Message, message
from ..syntax.crawlers import obeys_text, recognise

INITIATORS = ("model", "user")  # who started the fetch: the model on its own, or a user who asked for the URL
# The catalogue's `obeys_robots` as an answer to "does robots.txt apply?" (`n/a`: it sends no requests).
_APPLIES = {"yes": "yes", "no": "no", "partial": "partial"}


class Scope(NamedTuple):
    """Whether robots.txt applies to one kind of fetch by one agent: `yes`, `no`, `partial` or `unknown`, and why."""

    initiated_by: str
    applies: str
    token: str | None  # the catalogue's crawler, when it knows the agent
    operator: str | None
    source: str | None  # where the operator documents it
    reason: Message

    def as_dict(self, lang: str = DEFAULT_LANG) -> dict[str, Any]:
        return {
            "initiated_by": self.initiated_by,
            "robots_txt_applies": self.applies,
            "crawler": self.token,
            "operator": self.operator,
            "source": self.source,
            "explanation": self.reason.as_dict(lang),
        }


def fetch_scope(agent: str, initiated_by: str) -> Scope:
    """What the operator of `agent` (a token or User-Agent string) says of robots.txt for a fetch `initiated_by`.

    Raises ValueError when `initiated_by` is not one of `INITIATORS`.

    >>> fetch_scope("ChatGPT-User", "user").applies, fetch_scope("ChatGPT-User", "model").applies
    ('partial', 'yes')
    >>> fetch_scope("Claude-User", "user").applies, fetch_scope("MyAgent/1.0", "user").applies
    ('yes', 'unknown')
    """
    if initiated_by not in INITIATORS:
        raise ValueError(f"initiated_by must be one of {', '.join(INITIATORS)}, not {initiated_by!r}")
    crawler = recognise(agent)
    if crawler is None:
        code = "scope.model" if initiated_by == "model" else "scope.user.unknown-agent"
        return Scope(initiated_by, "yes" if initiated_by == "model" else "unknown", None, None, None, message(code))
    token, operator, source = crawler.token, crawler.operator, crawler.source
    if initiated_by == "model":
        return Scope(initiated_by, "yes", token, operator, source, message("scope.model"))
    said = message("scope.user.documented", token=crawler.token, operator=crawler.operator, obeys=obeys_text(crawler))
    return Scope(initiated_by, _APPLIES.get(crawler.obeys_robots, "unknown"), token, operator, source, said)
