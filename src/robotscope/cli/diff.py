"""`robotscope diff`: what changed between two robots.txt files, by effect."""

from __future__ import annotations

import sys

import click
from rich.table import Table

from .. import crawlers
from ..compare import ANY_CRAWLER, agents_named, diff, probe_urls
from ..model import Verdict
from .common import console, echo_json, fail, fetch_options, json_option, load
from .matrix import agents_option


def _side(verdict: Verdict) -> str:
    state = "[green]allowed[/]" if verdict.allowed else "[red]disallowed[/]"
    return state + (f" (line {verdict.line})" if verdict.line is not None else f" ({verdict.reason.value})")


def _read_urls(path: str) -> list[str]:
    try:
        stream = click.open_file(path, encoding="utf-8", errors="replace")
        with stream:
            return [line.strip() for line in stream if line.strip() and not line.startswith("#")]
    except OSError as error:
        fail(f"cannot read {path!r}: {error.strerror or error}")


@click.command("diff")
@click.argument("old_file", metavar="OLD")
@click.argument("new_file", metavar="NEW")
@click.option("--urls", "urls_file", metavar="FILE", help="URLs to compare, one a line (default: derived from both files' rules).")
@agents_option("named")
@json_option
@fetch_options
def diff_command(
    old_file: str, new_file: str, urls_file: str | None, agents: str, as_json: bool, policy: str, no_cache: bool, cache_path: str | None
) -> None:
    """Which crawler/URL pairs flip between allowed and disallowed from OLD to NEW.

    Compares by effect, not by text: for the given URLs (or URLs derived from
    both files' rules) and crawlers (by default every crawler either file
    names, plus `*` for all others), it lists each pair whose verdict flips,
    with the deciding line in each version. Exit code 1 when anything flips:
    run it in CI before a deploy.

    \b
    Examples:
      robotscope diff robots.txt new/robots.txt
      robotscope diff https://example.com/ build/robots.txt --agents search --urls urls.txt
    """
    old = load(old_file, policy, no_cache, cache_path)
    new = load(new_file, policy, no_cache, cache_path)
    urls = _read_urls(urls_file) if urls_file else probe_urls(old.robots, new.robots)
    tokens = agents_named(old.robots, new.robots) if agents == "named" else [c.token for c in crawlers.select(agents)]
    flips = diff(old, new, urls, tokens)
    if as_json:
        echo_json({"old": old.name, "new": new.name, "urls": len(urls), "agents": tokens, "flips": [f.as_dict() for f in flips]})
    else:
        out = console()
        if not flips:
            out.print(f"no change: {len(tokens)} crawlers x {len(urls)} URLs get the same verdicts", markup=False)
        else:
            table = Table(title=f"{len(flips)} verdicts flip from {old.name} to {new.name}", title_justify="left")
            for column in ("crawler", "URL", "old", "new"):
                table.add_column(column)
            for flip in flips:
                table.add_row("* (others)" if flip.agent == ANY_CRAWLER else flip.agent, flip.url, _side(flip.old), _side(flip.new))
            out.print(table)
    sys.exit(1 if flips else 0)
