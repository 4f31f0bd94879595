"""Which crawlers an export refuses, and the checks before it: product tokens, collateral, control tokens.

`--agents` names them: `ai` (the catalogue's AI crawlers), `all-named`
(every product token a group of the file names) or a comma-separated list.
A name that is no product token is refused with the reason (a list given on
the command line stops the export; a line of the file is left out and said
so); a control token that sends no requests (Google-Extended) is skipped
with a note; a name that also matches innocent agents is warned about, with
them as examples.

A request claims a crawler when its User-Agent has the crawler's product
token in a product's place: after the start, a space, `(`, `,` or `;`, and
before a `/` (its version), a space, `)`, `,`, `;` or the end, compared
case-insensitively (RFC 9309, Section 2.2.1). Neither `\\b` nor "any
non-token character" will do: `-` is part of a token (`Not-Cursor` is not
`Cursor`), and a URL in the string is no product (Baiduspider's
`+http://www.baidu.com/search/spider.html` does not name `Spider`).
"""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

from ...messages import Message, message
from ...syntax.crawlers import SELECTIONS, Crawler, catalogue, get
from ...syntax.model import LineKind
from ...syntax.parsed import ParsedFile
from ...syntax.tokens import group_token, is_product_token
from .expressed import MAX_REGEX
from .innocent import AGENTS, Agent

AI = "ai"
ALL_NAMED = "all-named"

# Written with escapes every server's regex engine and configuration syntax reads alike.
_BEFORE = r"(?:^|[\x09\x20(,;])"
_AFTER = r"(?:[\x09\x20),/;]|$)"
_SHOWN = 3  # examples of collateral shown
MAX_TOKEN = 1000  # characters: far past any crawler's name, and a User-Agent match stays within `MAX_REGEX`


class Chosen(NamedTuple):
    """A crawler to refuse: its token as written (by the catalogue, the file or the user), and its catalogue entry."""

    token: str
    crawler: Crawler | None


class Choice(NamedTuple):
    """The crawlers an export refuses, the names left out (with why) and the warnings about the rest."""

    chosen: tuple[Chosen, ...]
    skipped: tuple[Message, ...]
    warnings: tuple[Message, ...]


class NotAToken(ValueError):
    """A name given to refuse that is no product token; `reason` says why."""

    def __init__(self, reason: Message) -> None:
        super().__init__(reason.render())
        self.reason = reason


def token_problem(value: str) -> Message | None:
    """Why `value` is no product token (letters, digits, `-` and `_`), or None when it is one."""
    if is_product_token(value):
        return None if len(value) <= MAX_TOKEN else message("enforce.token.long", limit=MAX_TOKEN)
    if not value:
        return message("enforce.token.empty")
    if any(char.isspace() for char in value):
        return message("enforce.token.space")
    if "/" in value:
        return message("enforce.token.slash")
    if "." in value:
        return message("enforce.token.dot")
    first = next(char for char in value if not is_product_token(char))
    return message("enforce.token.character", character=first)


def agent_regex(tokens: tuple[str, ...]) -> str:
    """The regex (read case-insensitively) a User-Agent matches when it claims one of `tokens`."""
    return f"{_BEFORE}(?:{'|'.join(tokens)}){_AFTER}"


def agent_regexes(tokens: tuple[str, ...]) -> list[str]:
    """`agent_regex` of `tokens` split into as few regexes of at most `MAX_REGEX` characters as it takes."""
    room = MAX_REGEX - len(agent_regex(()))
    split: list[list[str]] = [[]]
    size = 0
    for token in tokens:
        if split[-1] and size + len(token) + 1 > room:
            split.append([])
            size = 0
        split[-1].append(token)
        size += len(token) + 1  # and its `|`
    return [agent_regex(tuple(part)) for part in split]


@cache
def _compiled(token: str) -> re.Pattern[str]:
    return re.compile(agent_regex((token,)), re.IGNORECASE)


def claims(user_agent: str, token: str) -> bool:
    """Whether a request with this User-Agent claims the crawler `token`, as every generated rule reads it."""
    return _compiled(token).search(user_agent) is not None


def collateral(token: str) -> tuple[Agent, ...]:
    """Real agents other than the crawler `token` whose User-Agent a rule refusing `token` would match."""
    known = [Agent(c.token, c.token, c.request_user_agent) for c in catalogue() if c.user_agent]
    lower = token.lower()
    return tuple(
        agent for agent in (*AGENTS, *known) if (agent.token or "").lower() != lower and claims(agent.user_agent, token)
    )


def _control(crawler: Crawler) -> bool:
    """A robots.txt control token that sends no requests of its own: nothing at the server to refuse."""
    return crawler.purpose == "ai-control-token" and not crawler.user_agent


def _named(parsed: ParsedFile) -> tuple[list[str], list[Message]]:
    """Every product token a group names, as first written, and a message for each line naming none."""
    tokens: dict[str, str] = {}
    refused = []
    for line in parsed.lines:
        if line.kind is not LineKind.USER_AGENT or line.value is None:
            continue
        value = line.value.strip()
        if value == "*":
            continue
        problem = token_problem(value)
        if problem is None:
            tokens.setdefault(value.lower(), value)
            continue
        read = group_token(value)
        code = "enforce.skipped.not-a-token" if read else "enforce.skipped.no-token"
        refused.append(message(code, line=line.number, value=value, reason=problem, read=read or ""))
    return list(tokens.values()), refused


def choose(parsed: ParsedFile, agents: str) -> Choice:
    """The crawlers `agents` names (`ai`, `all-named` or a comma-separated list), checked.

    Raises `NotAToken` for a listed name that is no product token.
    """
    skipped: list[Message] = []
    if agents == AI:
        tokens = [c.token for c in catalogue() if c.purpose in SELECTIONS[AI]]
    elif agents == ALL_NAMED:
        tokens, skipped = _named(parsed)
    else:
        tokens = [token.strip() for token in agents.split(",")]
        for token in tokens:
            problem = token_problem(token)
            if problem is not None:
                raise NotAToken(message("enforce.not-a-token", value=token, reason=problem))
    chosen, warnings, seen = [], [], set()
    for token in tokens:
        if token.lower() in seen:
            continue
        seen.add(token.lower())
        crawler = get(token)
        if crawler is not None and _control(crawler):
            skipped.append(message("enforce.skipped.control", token=token, operator=crawler.operator))
            continue
        chosen.append(Chosen(crawler.token if crawler else token, crawler))
        hits = collateral(token)
        if hits:
            examples = [f"{hit.name} ({hit.user_agent})" for hit in hits[:_SHOWN]]
            warnings.append(message("enforce.collateral", token=token, count=len(hits), examples=examples))
    return Choice(tuple(chosen), tuple(skipped), tuple(warnings))
