"""nginx: one file for the `http` context that sets `$robotscope_deny`, non-empty to refuse.

Each group is three `map`s: the User-Agent (`~*`, case-insensitive) to `a`,
the request target as sent (`$request_uri`, which nginx keeps as the client
wrote it) to `d` where the group's first matching entry is a disallow (a
map tries its regexes in order), and the two (with `v` from a `geo` of each
list that verifies the group, with `--unverified-only`) to the group's
verdict: `ad` alone refuses. `$robotscope_deny` joins the groups' (through
maps of at most `_JOINED` groups each, when there are more). A
`server` refuses with `if ($robotscope_deny) { return 403; }`, which runs
before any `location` is chosen.
"""

from __future__ import annotations

from ...messages import Message, message
from .agents import agent_regexes
from .entries import Entry, Export, chunks, group_comment, header, list_id, said, sent
from .plan import Group, Plan
from .raw import TARGET

NAME = "nginx"
FILE = "robotscope.conf"
SERVER_RULE = "if ($robotscope_deny) { return 403; }"  # in each `server` block
_JOINED = 100  # group verdicts one map joins: nginx reads a parameter (the joined names) of at most 4 KiB


def _map(source: str, variable: str, lines: list[str]) -> list[str]:
    return [f"map {source} ${variable} {{", *(f"    {line}" for line in lines), "}"]


def _geo(name: str, networks: tuple[str, ...], lang: str) -> list[str]:
    about = said(message("enforce.comment.list", name=name, count=len(networks)), lang)
    body = [f"# {about}", 'default "";', *(f"{network} v;" for network in networks)]
    return [f"geo $robotscope_verified_{list_id(name)} {{", *(f"    {line}" for line in body), "}"]


def _group(plan: Plan, group: Group, left: dict[int, Message], lang: str) -> list[str]:
    number = group.number
    made = sent(plan, group, TARGET, NAME, left, lang)
    paths = ['default "";']
    for entry in made:
        paths += [f"# {entry.comment}", f'"~{entry.regex}" {_value(entry)};']
    claims = [f'"~*{regex}" a;' for regex in agent_regexes(group.tokens)]
    verified = "".join(f"$robotscope_verified_{list_id(name)}" for name in group.lists)
    return [
        f"# {group_comment(plan, group, lang)}",
        *_map("$http_user_agent", f"robotscope_agent_{number}", ['default "";', *claims]),
        *_map("$request_uri", f"robotscope_path_{number}", paths),
        *_map(
            f'"$robotscope_agent_{number}$robotscope_path_{number}{verified}"',
            f"robotscope_deny_{number}",
            ['default "";', "ad 1;"],
        ),
        "",
    ]


def _value(entry: Entry) -> str:
    return '""' if entry.allow else "d"


def render(plan: Plan, source: str, lang: str) -> Export:
    left: dict[int, Message] = {}
    usage = message("enforce.usage.nginx", snippet=SERVER_RULE)
    lines = [*header(NAME, source, plan, usage, lang), ""]
    for name, networks in plan.addresses.items():
        lines += [*_geo(name, networks, lang), ""]
    for group in plan.groups:
        lines += _group(plan, group, left, lang)
    names = [f"robotscope_deny_{group.number}" for group in plan.groups]
    level = 0
    while len(names) > _JOINED:  # a map per `_JOINED` names, then one joining those, ...
        level += 1
        parts = []
        for number, part in enumerate(chunks(tuple(names), _JOINED), 1):
            parts.append(f"robotscope_any_{level}_{number}")
            lines += _map(f'"{"".join(f"${name}" for name in part)}"', parts[-1], ["default 1;", '"" "";'])
        names = parts
    joined = "".join(f"${name}" for name in names)
    deny = ['default "";'] if not joined else ["default 1;", '"" "";']
    lines += _map(f'"{joined}"' if joined else "$request_uri", "robotscope_deny", deny)
    notes = (message("enforce.note.unusual", server=NAME),)
    return Export(NAME, ((FILE, "\n".join(lines) + "\n"),), tuple(left.values()), notes)
