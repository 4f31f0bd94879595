"""What every server's rendering shares: a group's rules in deciding order, the comments, the output.

Each group's entries are tried in order and the first that matches decides
(an allow: not refused; a disallow: refused), as the longest match does:
`/robots.txt` first, then what the server must leave to robots.txt, then the
rules best first. Every entry carries a comment naming the robots.txt line
it comes from, made safe for any configuration's comment syntax.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from ...messages import Message, message
from ...syntax.model import Rule
from . import decoded, raw
from .expressed import Expressed
from .plan import Group, Plan

_MAX_COMMENT = 200


class Entry(NamedTuple):
    """One test in a group's order: an allow or a disallow, its regex, and its comment."""

    allow: bool
    regex: str
    comment: str


class Export(NamedTuple):
    """A server's rendering of a plan: its files (the main one first), and what it leaves to robots.txt."""

    target: str
    files: tuple[tuple[str, str], ...]
    left: tuple[Message, ...]  # rules the server expresses only in part, or not at all
    notes: tuple[Message, ...]  # requests the server leaves to robots.txt, whatever the rules


def _shown(char: str) -> str:
    """A character as itself when printable, else as an escape: no line end or control, no byte that is not
    UTF-8 (a lone surrogate), no `\\` (which continues an Apache line)."""
    if char.isprintable() and char != "\\":
        return char
    number = ord(char)
    return f"\\x{number:02x}" if number < 0x100 else f"\\u{number:04x}"


def safe(text: str) -> str:
    """`text` as one line of printable UTF-8 any configuration reads as a comment's text, at most
    `_MAX_COMMENT` characters."""
    shown = text if text.isprintable() and "\\" not in text else "".join(map(_shown, text))
    return shown if len(shown) <= _MAX_COMMENT else shown[: _MAX_COMMENT - 1] + "…"


def said(text: Message, lang: str) -> str:
    return safe(text.render(lang))


def group_comment(plan: Plan, group: Group, lang: str) -> str:
    """`GPTBot, ClaudeBot: robots.txt lines 1, 2 (User-agent: GPTBot; User-agent: ClaudeBot)`."""
    written = [plan.lines.get(number, "") for number in group.agent_lines]
    return said(
        message(
            "enforce.comment.group",
            tokens=list(group.tokens),
            lines=list(group.agent_lines),
            count=len(group.agent_lines),
            written=[text.strip() for text in written],
        ),
        lang,
    )


def rule_comment(plan: Plan, rule: Rule, lang: str) -> str:
    written = plan.lines.get(rule.line, rule.text).strip()
    return said(message("enforce.comment.rule", line=rule.line, text=written), lang)


def entries(
    plan: Plan,
    group: Group,
    first: list[Entry],
    translate: Callable[[Rule], Expressed],
    left: dict[int, Message],
    lang: str,
) -> list[Entry]:
    """The group's entries in deciding order: `first` (the exemptions), then its rules as `translate` makes them.

    What a rule leaves to robots.txt is kept in `left`, by line, once. A
    regex already tried decides nothing the second time, and Caddy (a map's
    duplicate input) and lighttpd (an unreachable `else`) refuse the
    configuration that repeats it: it is written once.
    """
    made = list(first)
    seen = {entry.regex for entry in first}
    for rule in group.rules:
        found = translate(rule)
        if found.why is not None:
            left.setdefault(rule.line, found.why)
        if found.regex is not None and found.regex not in seen:
            seen.add(found.regex)
            made.append(Entry(rule.allow, found.regex, rule_comment(plan, rule, lang)))
    return made


def exemption(regex: str, code: str, lang: str) -> Entry:
    """An allow that comes before every rule."""
    return Entry(True, regex, said(message(code), lang))


def sent(
    plan: Plan, group: Group, subject: raw.Subject, server: str, left: dict[int, Message], lang: str
) -> list[Entry]:
    """The entries of a server that matches the target as sent (`raw`): `/robots.txt`, targets it cannot read
    exactly, then the rules."""
    first = [
        exemption(raw.robots_txt(subject), "enforce.comment.robots-txt", lang),
        exemption(raw.unusual(subject), "enforce.comment.unusual", lang),
    ]
    return entries(plan, group, first, lambda rule: raw.expressed(rule, subject, server), left, lang)


def decoded_path(plan: Plan, group: Group, left: dict[int, Message], lang: str) -> list[Entry]:
    """The entries of lighttpd, which matches the decoded path (`decoded`): `/robots.txt`, then the rules."""
    first = [exemption(decoded.robots_txt(), "enforce.comment.robots-txt", lang)]
    return entries(plan, group, first, decoded.expressed, left, lang)


def header(target: str, source: str, plan: Plan, usage: Message, lang: str) -> list[str]:
    """The comment lines a file starts with: what it is, where it comes from, how to use it."""
    tokens = [token for group in plan.groups for token in group.tokens]
    lines = [
        message("enforce.comment.made", target=target, source=source),
        message("enforce.comment.crawlers", tokens=tokens, count=len(tokens))
        if tokens
        else message("enforce.comment.no-crawlers"),
        usage,
    ]
    if plan.unverified_only:
        lines.append(message("enforce.comment.unverified-only"))
    return [f"# {said(line, lang)}" for line in lines]


def list_id(name: str) -> str:
    """An IP list's registry name as a configuration name: `openai-gptbot.json` -> `openai_gptbot`."""
    return re.sub(r"[^A-Za-z0-9]+", "_", name.removesuffix(".json")).strip("_")


def chunks(items: tuple[str, ...], size: int) -> list[tuple[str, ...]]:
    return [items[at : at + size] for at in range(0, len(items), size)]
