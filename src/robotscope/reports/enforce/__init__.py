"""Enforce: the server rules a robots.txt implies, for nginx, Apache, Caddy, HAProxy and lighttpd. Pure.

One model of "the rules the file implies" (`plan`), rendered per server:

- `agents`: which crawlers (`ai`, `all-named`, a list), the checks before
  export, and the one User-Agent match every server uses (`agent_regex`).
- `plan`: each crawler's rules, best first, grouped; IP lists for
  `--unverified-only`.
- `expressed`, `raw`, `decoded`: a rule as a server's regex, exact or made
  safe (narrowed, left out, widened) and said so; `raw` for servers that
  match the target as sent, `decoded` for lighttpd's decoded path.
- `entries`: the deciding order, comments, the `Export` every renderer gives.
- `nginx`, `apache`, `caddy`, `haproxy`, `lighttpd`: the renderers.
- `view`: an export as JSON-ready data, and whether it is `complete`.
- `configs`, `check`: an existing configuration read as its server reads it,
  and checked against the robots.txt (`export --check`).

`export(robots, target, agents=...)` does it all; docs/enforce.md shows
the layout per server.
"""

from __future__ import annotations

from ...access.robots import Robots
from . import apache, caddy, haproxy, lighttpd, nginx
from .agents import AI, ALL_NAMED, Choice, Chosen, NotAToken, agent_regex, choose, claims, collateral, token_problem
from .check import Report, check, check_view
from .entries import Export
from .plan import Group, Plan, plan
from .view import complete, export_view

TARGETS = ("nginx", "apache", "caddy", "haproxy", "lighttpd")


def render(made: Plan, target: str, source: str = "robots.txt", lang: str = "en", acl_dir: str = ".") -> Export:
    """A plan as `target`'s configuration: its files and what it leaves to robots.txt.

    `acl_dir` is where HAProxy's ACL files go, as its fragment names them.
    """
    if target == "haproxy":
        return haproxy.render(made, source, lang, acl_dir)
    renderers = {"nginx": nginx.render, "apache": apache.render, "caddy": caddy.render, "lighttpd": lighttpd.render}
    if target not in renderers:
        raise ValueError(f"unknown target {target!r}: choose one of {', '.join(TARGETS)}")
    return renderers[target](made, source, lang)


def export(
    robots: Robots,
    target: str,
    agents: str = AI,
    unverified_only: bool = False,
    source: str = "robots.txt",
    lang: str = "en",
    acl_dir: str = ".",
) -> tuple[Plan, Export]:
    """The plan for `agents` in `robots` and its rendering for `target`; raises `NotAToken` for a listed name
    that is no product token.

    >>> import robotscope
    >>> robots = robotscope.parse("User-agent: GPTBot\\nDisallow: /private/\\n")
    >>> made, result = export(robots, "nginx", agents="GPTBot")
    >>> [group.tokens for group in made.groups], result.files[0][0]
    ([('GPTBot',)], 'robotscope.conf')
    """
    made = plan(robots, choose(robots, agents), unverified_only)
    return made, render(made, target, source, lang, acl_dir)


__all__ = [
    "AI",
    "ALL_NAMED",
    "TARGETS",
    "Choice",
    "Chosen",
    "Export",
    "Group",
    "NotAToken",
    "Plan",
    "Report",
    "agent_regex",
    "check",
    "check_view",
    "choose",
    "claims",
    "collateral",
    "complete",
    "export",
    "export_view",
    "plan",
    "render",
    "token_problem",
]
