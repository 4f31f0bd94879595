"""HAProxy: a fragment for a `frontend` section, and the ACL files it reads.

Each group's crawlers are a file of regexes (`-m reg -i`, one per token) over
the whole User-Agent header (`req.fhdr`: `req.hdr` would split it at its
commas); `http-request set-var` rules, run in order, set the group's verdict
from its first matching entry over `pathq`, the path and query as the
client sent them (each rule only while the verdict is unset); with
`--unverified-only`, each list that verifies the group is a file of
networks for `src -f`. `http-request deny` answers 403. The fragment names
the ACL files by the directory they were written to (`acl_dir`).
"""

from __future__ import annotations

import posixpath
import re

from ...messages import Message, message
from .agents import agent_regex
from .entries import Export, group_comment, header, list_id, said, sent
from .plan import Group, Plan
from .raw import TARGET

NAME = "haproxy"
FILE = "robotscope.cfg"


def _quoted(path: str) -> str:
    """A file's path as one word of HAProxy's configuration."""
    if re.fullmatch(r"[A-Za-z0-9/_.+-]+", path):
        return path
    if "'" not in path:
        return f"'{path}'"  # nothing is read inside single quotes
    return '"' + re.sub(r'([\\"$])', r"\\\1", path) + '"'


def _agents_file(number: int) -> str:
    return f"robotscope-agents-{number}.regex"


def _list_file(name: str) -> str:
    return f"robotscope-{list_id(name)}.acl"


def _group(plan: Plan, group: Group, acl_dir: str, left: dict[int, Message], lang: str) -> list[str]:
    number = group.number
    agent, verdict = f"robotscope_agent_{number}", f"txn.robotscope_{number}"
    path = _quoted(posixpath.join(acl_dir, _agents_file(number)))
    lines = [f"# {group_comment(plan, group, lang)}", f"acl {agent} req.fhdr(user-agent) -m reg -i -f {path}"]
    unset = f"!{{ var({verdict}) -m found }}"
    for entry in sent(plan, group, TARGET, NAME, left, lang):
        value = "allow" if entry.allow else "deny"
        test = f"{agent} {unset} {{ pathq -m reg '{entry.regex}' }}"
        lines += [f"# {entry.comment}", f"http-request set-var({verdict}) str({value}) if {test}"]
    unverified = "".join(f" !robotscope_verified_{list_id(name)}" for name in group.lists)
    lines.append(f"http-request deny deny_status 403 if {{ var({verdict}) -m str deny }}{unverified}")
    return [*lines, ""]


def render(plan: Plan, source: str, lang: str, acl_dir: str) -> Export:
    left: dict[int, Message] = {}
    lines = [*header(NAME, source, plan, message("enforce.usage.haproxy"), lang), ""]
    files: list[tuple[str, str]] = []
    for name, networks in plan.addresses.items():
        about = said(message("enforce.comment.list", name=name, count=len(networks)), lang)
        files.append((_list_file(name), "\n".join([f"# {about}", *networks]) + "\n"))
        where = _quoted(posixpath.join(acl_dir, _list_file(name)))
        lines.append(f"acl robotscope_verified_{list_id(name)} src -f {where}")
    if plan.addresses:
        lines.append("")
    for group in plan.groups:
        lines += _group(plan, group, acl_dir, left, lang)
        regexes = [f"# {group_comment(plan, group, lang)}", *(agent_regex((token,)) for token in group.tokens)]
        files.append((_agents_file(group.number), "\n".join(regexes) + "\n"))
    notes = (message("enforce.note.unusual", server=NAME),)
    return Export(NAME, ((FILE, "\n".join(lines) + "\n"), *files), tuple(left.values()), notes)
