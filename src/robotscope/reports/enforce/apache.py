"""Apache httpd 2.4: a file to `Include` in a `<VirtualHost>` (mod_setenvif; `<If>` and `Require` are core).

`SetEnvIfNoCase User-Agent` marks a group's crawlers; `SetEnvIfExpr`
directives, run in the order written, set the group's verdict from its first
matching entry (each applies only while the verdict is unset), matching
`THE_REQUEST`, the request line as the client sent it (`%{REQUEST_URI}`
is decoded). With `--unverified-only`, `-R` marks the addresses of each
list. A request any group refuses gets `robotscope_deny`, and `<If>` with
`Require all denied` answers 403. Nothing here is for `.htaccess`: the
directives run before the request is mapped to a directory.
"""

from __future__ import annotations

from ...messages import Message, message
from .agents import agent_regexes
from .entries import Export, chunks, group_comment, header, list_id, said, sent
from .plan import Group, Plan
from .raw import REQUEST_LINE

NAME = "apache"
FILE = "robotscope.conf"
_PER_LINE = 40  # prefixes per directive: Apache reads a line of at most 8 KiB


def _lists(plan: Plan, lang: str) -> list[str]:
    lines = []
    for name, networks in plan.addresses.items():
        lines.append(f"# {said(message('enforce.comment.list', name=name, count=len(networks)), lang)}")
        for part in chunks(networks, _PER_LINE):
            test = " || ".join(f"-R '{network}'" for network in part)
            lines.append(f'SetEnvIfExpr "{test}" robotscope_verified_{list_id(name)}')
    return [*lines, ""] if lines else []


def _group(plan: Plan, group: Group, left: dict[int, Message], lang: str) -> list[str]:
    agent, verdict = f"robotscope_agent_{group.number}", f"robotscope_path_{group.number}"
    claims = [f'SetEnvIfNoCase User-Agent "{regex}" {agent}' for regex in agent_regexes(group.tokens)]
    lines = [f"# {group_comment(plan, group, lang)}", *claims]
    for entry in sent(plan, group, REQUEST_LINE, NAME, left, lang):
        test = f"-n reqenv('{agent}') && -z reqenv('{verdict}') && %{{THE_REQUEST}} =~ m#{entry.regex}#"
        lines += [f"# {entry.comment}", f'SetEnvIfExpr "{test}" {verdict}={"allow" if entry.allow else "deny"}']
    unverified = "".join(f" && -z reqenv('robotscope_verified_{list_id(name)}')" for name in group.lists)
    lines.append(f"SetEnvIfExpr \"reqenv('{verdict}') == 'deny'{unverified}\" robotscope_deny")
    return [*lines, ""]


def render(plan: Plan, source: str, lang: str) -> Export:
    left: dict[int, Message] = {}
    lines = [*header(NAME, source, plan, message("enforce.usage.apache"), lang), "", *_lists(plan, lang)]
    for group in plan.groups:
        lines += _group(plan, group, left, lang)
    lines += ["<If \"-n reqenv('robotscope_deny')\">", "    Require all denied", "</If>"]
    notes = (message("enforce.note.unusual", server=NAME), message("enforce.note.absolute", server=NAME))
    return Export(NAME, ((FILE, "\n".join(lines) + "\n"),), tuple(left.values()), notes)
