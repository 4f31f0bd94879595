"""`robotscope check`: may this crawler fetch these URLs, and which line decides?"""

from __future__ import annotations

import sys

import click

from ..linter import lint
from ..model import Finding, Verdict
from ..render import render_verdict
from .common import echo_json, echo_text, fetch_options, is_url, json_option, load


def findings_for(verdict: Verdict, findings: list[Finding]) -> list[Finding]:
    """The findings about the lines a verdict involves: its rule, its group, its candidates."""
    involved = {verdict.line, *verdict.group_lines, *(c.line for c in verdict.candidates)}
    return [f for f in findings if involved.intersection(f.lines)]


@click.command()
@click.argument("robots_file", metavar="ROBOTS")
@click.argument("agent")
@click.argument("urls", nargs=-1, metavar="URL...")
@json_option
@fetch_options
def check(
    robots_file: str, agent: str, urls: tuple[str, ...], as_json: bool, policy: str, no_cache: bool, cache_path: str | None
) -> None:
    """Check URLs against a robots.txt: a file, `-` for standard input, or a site's URL.

    With an http(s) URL as ROBOTS, its origin's robots.txt is fetched
    (through the cache unless --no-cache), and with no URL given, that URL
    itself is checked. AGENT is a product token (Googlebot) or a full
    User-Agent string. Each URL may be a full URL or a path. Exit code 0
    when every URL is allowed, 1 when any is disallowed.

    \b
    Examples:
      robotscope check robots.txt Googlebot https://example.com/private/x /shop?id=1
      robotscope check https://example.com/private/x Googlebot --policy google
    """
    if not urls and not is_url(robots_file):
        raise click.UsageError("Missing argument 'URL...'.")
    source = load(robots_file, policy, no_cache, cache_path)
    urls = urls or (robots_file,)
    verdicts = [source.verdict(agent, url) for url in urls]
    if as_json:
        findings = lint(source.robots)
        data = [{**v.as_dict(), "findings": [f.as_dict() for f in findings_for(v, findings)]} for v in verdicts]
        if source.fetched is not None:
            data = [{**item, "robots_txt": source.fetched.decision.as_dict()} for item in data]
        echo_json(data)
    else:
        banner = source.banner()
        if banner is not None:
            click.echo(banner + "\n")
        echo_text("\n\n".join(render_verdict(source.robots, v, agent) for v in verdicts))
    sys.exit(0 if all(v.allowed for v in verdicts) else 1)
