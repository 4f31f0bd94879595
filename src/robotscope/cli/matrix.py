"""`robotscope matrix`: known crawlers (rows) by paths (columns), grouped by purpose."""

from __future__ import annotations

import click
from rich.markup import escape
from rich.table import Table

from ..access.engines.registry import ALL, PROFILED, resolve
from ..access.profiles import Answer
from ..messages import message
from ..reports.compare.matrix import MatrixRow
from ..reports.views import usage_text
from ..syntax import crawlers
from ..syntax.crawlers import Crawler
from .options import (
    FetchSettings,
    agents_option,
    engine_option,
    fetch_options,
    json_option,
    lang_option,
    require_checkable,
)
from .output import console, echo_json
from .sources import Source, load


def cell_of(source: Source, crawler: Crawler, path: str, engine: str = PROFILED) -> Answer:
    """One matrix cell: the answer `check --engine` gives for the crawler, or the fetch decision.

    For `--engine all` the cell is the default reading's, with a note naming the engines that read it otherwise.
    """
    if engine != ALL:
        name = resolve(engine, crawler.token)
        shown = source.answer(crawler.token, path, name)
        # What `check` says besides the verdict: the operator's engine reading it otherwise, a rule past the limit.
        return shown._replace(extra=(*shown.extra, *source.notes(crawler.token, path, shown, name)))
    shown = source.answer(crawler.token, path)
    if not source.rules_apply:
        return shown
    others = [
        f"{n} L{v.line}" if v.line is not None else n
        for n, v in source.robots.readings(crawler.token, path).items()
        if v.allowed != shown.verdict.allowed
    ]
    if not others:
        return shown
    return shown._replace(extra=(message("matrix.engines-differ", engines=others),))


def _cell_text(cell: Answer, marks: dict[str, int], lang: str) -> str:
    verdict = cell.verdict
    word = message("matrix.allowed" if verdict.allowed else "matrix.blocked").render(lang)
    text = f"[green]{word}[/]" if verdict.allowed else f"[red]{word}[/]"
    if verdict.line is not None:
        text += f" L{verdict.line}"
    said = [note.render(lang) for note in (cell.note, *cell.extra) if note is not None]
    if cell.usage is not None and cell.usage.applies:
        # The usage preferences that apply, as a numbered note: cells that share them share the number.
        said.append(f"{message('label.usage').render(lang)}: {usage_text(cell.usage.as_dict(), lang)}")
    for note in said:
        number = marks.setdefault(note, len(marks) + 1)
        text += f" [yellow]({number})[/]"
    return text


def _summary(rows: list[MatrixRow], paths: tuple[str, ...], lang: str) -> list[str]:
    lines = []
    for purpose in crawlers.PURPOSES:
        group = [r for r in rows if r.crawler.purpose == purpose]
        if group:
            blocked = sum(1 for r in group if not r.cells[0].verdict.allowed)
            if blocked == len(group):
                state = message("matrix.all-blocked", path=paths[0])
            elif blocked == 0:
                state = message("matrix.all-allowed", path=paths[0])
            else:
                state = message("matrix.some-blocked", blocked=blocked, count=len(group), path=paths[0])
            lines.append(f"{purpose}: {state.render(lang)}")
    return lines


@click.command()
@click.argument("robots_file", metavar="ROBOTS")
@click.argument("paths", nargs=-1, metavar="[PATH...]")
@agents_option("all")
@engine_option
@json_option
@lang_option
@fetch_options
def matrix(
    robots_file: str,
    paths: tuple[str, ...],
    agents: str,
    engine: str,
    as_json: bool,
    lang: str,
    fetching: FetchSettings,
) -> None:
    """Which known crawlers may fetch which paths, grouped by purpose.

    Rows are crawlers from the catalogue (`robotscope explain TOKEN` tells
    more of each), columns are PATHs (default `/`); each cell says allowed or
    blocked and the deciding line, as `check` would. Where an operator
    documents a fallback (Googlebot-Image obeys a Googlebot group) or that a
    crawler ignores the `*` group (AdsBot-Google), the cell follows that
    profile and a note says when it changed the answer.

    \b
    Examples:
      robotscope matrix robots.txt / /products/ --agents ai
      robotscope matrix https://example.com/ --agents GPTBot,Googlebot,CCBot --json
    """
    require_checkable(paths)
    source = load(robots_file, fetching)
    paths = paths or ("/",)
    chosen = crawlers.select(agents)
    rows = [MatrixRow(c, tuple(cell_of(source, c, p, engine) for p in paths)) for c in chosen]
    rows.sort(key=lambda r: crawlers.PURPOSES.index(r.crawler.purpose))
    if as_json:
        echo_json({"robots": source.name, "paths": list(paths), "rows": [r.as_dict(lang) for r in rows]})
        return
    out = console()
    banner = source.banner(lang)
    if banner is not None:
        out.print(banner, markup=False)
    title = message("matrix.title", name=source.name).render(lang)
    table = Table(title=escape(title), title_justify="left")
    for column in ("crawler", "operator", "obeys"):
        table.add_column(message(f"matrix.column.{column}").render(lang))
    for path in paths:
        table.add_column(escape(path))
    marks: dict[str, int] = {}
    current = None
    for row in rows:
        if row.crawler.purpose != current:
            current = row.crawler.purpose
            table.add_section()
            table.add_row(f"[bold]{current}[/]", *[""] * (len(paths) + 2))
        cells = (_cell_text(c, marks, lang) for c in row.cells)
        table.add_row(escape(row.crawler.token), escape(row.crawler.operator), row.crawler.obeys_robots, *cells)
    out.print(table)
    for note, number in marks.items():
        out.print(f"({number}) {note}", markup=False)
    for line in _summary(rows, paths, lang):
        out.print(line, markup=False)
