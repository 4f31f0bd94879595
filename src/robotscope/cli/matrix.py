"""`robotscope matrix`: known crawlers (rows) by paths (columns), grouped by purpose."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click
from rich.table import Table

from .. import crawlers
from ..compare import MatrixRow, ProfiledVerdict, apply_profile
from ..crawlers import Crawler
from .common import Source, console, echo_json, fetch_options, json_option, load

_F = TypeVar("_F", bound=Callable[..., Any])


def agents_option(default: str) -> Callable[[_F], _F]:
    return click.option(
        "--agents",
        default=default,
        show_default=True,
        metavar="search|ai|all|LIST",
        help="Which crawlers: search engines, AI crawlers, the whole catalogue, or tokens separated by commas.",
    )


def cell_of(source: Source, crawler: Crawler, path: str) -> ProfiledVerdict:
    """One matrix cell: the crawler's verdict with its operator profile, or the fetch decision."""
    if source.rules_apply:
        return apply_profile(source.robots, crawler, path)
    verdict = source.verdict(crawler.token, path)
    return ProfiledVerdict(verdict, verdict, None)


def _cell_text(cell: ProfiledVerdict, marks: dict[str, int]) -> str:
    verdict = cell.verdict
    text = "[green]allowed[/]" if verdict.allowed else "[red]blocked[/]"
    if verdict.line is not None:
        text += f" L{verdict.line}"
    if cell.profile is not None and cell.changed:
        number = marks.setdefault(cell.profile, len(marks) + 1)
        text += f" [yellow]({number})[/]"
    return text


def _summary(rows: list[MatrixRow], paths: tuple[str, ...]) -> list[str]:
    lines = []
    for purpose in crawlers.PURPOSES:
        group = [r for r in rows if r.crawler.purpose == purpose]
        if group:
            blocked = sum(1 for r in group if not r.cells[0].verdict.allowed)
            state = "all blocked" if blocked == len(group) else "all allowed" if blocked == 0 else f"{blocked} of {len(group)} blocked"
            lines.append(f"{purpose}: {state} at {paths[0]}")
    return lines


@click.command()
@click.argument("robots_file", metavar="ROBOTS")
@click.argument("paths", nargs=-1, metavar="[PATH...]")
@agents_option("all")
@json_option
@fetch_options
def matrix(
    robots_file: str, paths: tuple[str, ...], agents: str, as_json: bool, policy: str, no_cache: bool, cache_path: str | None
) -> None:
    """Which known crawlers may fetch which paths, grouped by purpose.

    Rows are crawlers from the catalogue (`robotscope explain TOKEN` tells
    more of each), columns are PATHs (default `/`); each cell says allowed or
    blocked and the deciding line. Where an operator documents a fallback
    (Googlebot-Image obeys a Googlebot group) or that a crawler ignores the
    `*` group (AdsBot-Google), the cell follows that profile and a note says
    when it changed the answer.

    \b
    Examples:
      robotscope matrix robots.txt / /products/ --agents ai
      robotscope matrix https://example.com/ --agents GPTBot,Googlebot,CCBot --json
    """
    source = load(robots_file, policy, no_cache, cache_path)
    paths = paths or ("/",)
    chosen = crawlers.select(agents)
    rows = [MatrixRow(c, tuple(cell_of(source, c, p) for p in paths)) for c in chosen]
    rows.sort(key=lambda r: crawlers.PURPOSES.index(r.crawler.purpose))
    if as_json:
        echo_json({"robots": source.name, "paths": list(paths), "rows": [r.as_dict() for r in rows]})
        return
    out = console()
    banner = source.banner()
    if banner is not None:
        out.print(banner, markup=False)
    table = Table(title=f"{source.name}: who may fetch what", title_justify="left")
    table.add_column("crawler")
    table.add_column("operator")
    table.add_column("obeys robots.txt")
    for path in paths:
        table.add_column(path)
    marks: dict[str, int] = {}
    current = None
    for row in rows:
        if row.crawler.purpose != current:
            current = row.crawler.purpose
            table.add_section()
            table.add_row(f"[bold]{current}[/]", *[""] * (len(paths) + 2))
        cells = (_cell_text(c, marks) for c in row.cells)
        table.add_row(row.crawler.token, row.crawler.operator, row.crawler.obeys_robots, *cells)
    out.print(table)
    for note, number in marks.items():
        out.print(f"({number}) {note}; without that profile RFC 9309 gives the other answer", markup=False)
    for line in _summary(rows, paths):
        out.print(line, markup=False)
