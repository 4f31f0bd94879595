"""lighttpd: conditional blocks to `include` where `mod_access` is loaded.

Each group is a `$HTTP["user-agent"]` block (PCRE2, `(?i)`) holding one
`else` chain, whose first matching condition decides: with
`--unverified-only` the verified networks (`$HTTP["remoteip"]`, one per
condition), then `/robots.txt`, then the rules over `$HTTP["url"]`, the
decoded path (`decoded`); a disallow sets `url.access-deny`, answered 403.
"""

from __future__ import annotations

from ...messages import Message, message
from .agents import agent_regex
from .decoded import SERVER
from .entries import Export, decoded_path, group_comment, header, said
from .plan import Group, Plan

NAME = SERVER
FILE = "robotscope.conf"
_DENY = '{ url.access-deny = ("") }'


def _group(plan: Plan, group: Group, left: dict[int, Message], lang: str) -> list[str]:
    chain: list[str] = []
    for name in group.lists:
        networks = plan.addresses[name]
        chain.append(f"# {said(message('enforce.comment.list', name=name, count=len(networks)), lang)}")
        chain += [f'$HTTP["remoteip"] == "{network}" {{ }}' for network in networks]
    for entry in decoded_path(plan, group, left, lang):
        test = f'$HTTP["url"] =~ "{entry.regex}"'
        chain += [f"# {entry.comment}", f"{test} {{ }}" if entry.allow else f"{test} {_DENY}"]
    # Every condition after the first is an `else` of the one before it.
    seen = False
    for at, line in enumerate(chain):
        if line.startswith("$"):
            chain[at] = f"else {line}" if seen else line
            seen = True
    return [
        f"# {group_comment(plan, group, lang)}",
        f'$HTTP["user-agent"] =~ "(?i){agent_regex(group.tokens)}" {{',
        *(f"    {line}" for line in chain),
        "}",
        "",
    ]


def render(plan: Plan, source: str, lang: str) -> Export:
    left: dict[int, Message] = {}
    lines = [*header(NAME, source, plan, message("enforce.usage.lighttpd"), lang), ""]
    for group in plan.groups:
        lines += _group(plan, group, left, lang)
    notes = (message("enforce.note.decoded", server=NAME),)
    return Export(NAME, ((FILE, "\n".join(lines) + "\n"),), tuple(left.values()), notes)
