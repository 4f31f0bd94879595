"""Caddy 2: directives to `import` in a site block.

Each group is two `map`s (Caddy tries a map's regexes in order; Go's RE2,
`(?i)` for the User-Agent): the User-Agent to `a`, and
`{http.request.orig_uri}`, the request target as the client sent it, to
`deny` where the group's first matching entry is a disallow; a named matcher
joins them (`not remote_ip` of each list that verifies the group, with
`--unverified-only`), and `respond` answers 403. Caddy runs `respond` after
`handle` and `route` blocks: a site that uses them imports the file inside
each (docs/enforce.md).
"""

from __future__ import annotations

from ...messages import Message, message
from .agents import agent_regexes
from .entries import Export, chunks, group_comment, header, said, sent
from .plan import Group, Plan
from .raw import TARGET

NAME = "caddy"
FILE = "robotscope.caddy"
_PER_LINE = 20  # prefixes per `remote_ip` line


def _group(plan: Plan, group: Group, left: dict[int, Message], lang: str) -> list[str]:
    number = group.number
    paths = []
    for entry in sent(plan, group, TARGET, NAME, left, lang):
        paths += [f"\t# {entry.comment}", f"\t~{entry.regex} {'allow' if entry.allow else 'deny'}"]
    lines = [
        f"# {group_comment(plan, group, lang)}",
        f"map {{http.request.header.User-Agent}} {{robotscope_agent_{number}}} {{",
        *(f"\t~(?i){regex} a" for regex in agent_regexes(group.tokens)),
        '\tdefault ""',
        "}",
        f"map {{http.request.orig_uri}} {{robotscope_path_{number}}} {{",
        *paths,
        "\tdefault allow",
        "}",
        f"@robotscope_deny_{number} {{",
        f'\texpression `{{robotscope_agent_{number}}} == "a" && {{robotscope_path_{number}}} == "deny"`',
    ]
    for name in group.lists:
        networks = plan.addresses[name]
        lines += [f"\t# {said(message('enforce.comment.list', name=name, count=len(networks)), lang)}", "\tnot {"]
        lines += [f"\t\tremote_ip {' '.join(part)}" for part in chunks(networks, _PER_LINE)]
        lines.append("\t}")
    return [*lines, "}", f"respond @robotscope_deny_{number} 403", ""]


def render(plan: Plan, source: str, lang: str) -> Export:
    left: dict[int, Message] = {}
    lines = [*header(NAME, source, plan, message("enforce.usage.caddy"), lang), ""]
    for group in plan.groups:
        lines += _group(plan, group, left, lang)
    notes = (message("enforce.note.unusual", server=NAME), message("enforce.note.absolute", server=NAME))
    return Export(NAME, ((FILE, "\n".join(lines) + "\n"),), tuple(left.values()), notes)
