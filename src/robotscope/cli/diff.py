"""`robotscope diff`: what changed between two robots.txt files, by effect."""

from __future__ import annotations

import sys
from typing import NoReturn

import click
from rich.markup import escape
from rich.table import Table

from ..access.engines.registry import ALL, DEFAULT, OPERATOR, PROFILED, names, operator_engine
from ..messages import Message, message
from ..reports.compare.diff import ANY_CRAWLER, Answers, Flip, agents_named, diff, probe_urls
from ..syntax import crawlers
from ..syntax.model import Verdict
from .options import (
    FetchSettings,
    agents_option,
    engine_option,
    fetch_options,
    json_option,
    lang_option,
    require_checkable,
)
from .output import console, echo_json, fail
from .sources import Source, load

# Flips shown at most: a hostile pair of files can flip thousands of crawlers at
# thousands of URLs each.
MAX_FLIPS = 10_000


def _side(verdict: Verdict, lang: str) -> str:
    if verdict.allowed:
        state = f"[green]{message('answer.allowed').render(lang)}[/]"
    else:
        state = f"[red]{message('answer.disallowed').render(lang)}[/]"
    if verdict.line is not None:
        return state + " " + escape(message("diff.line", line=verdict.line).render(lang))
    return state + " (" + escape(message(f"reason.{verdict.reason.value}").render(lang)) + ")"


def _answers(source: Source) -> Answers:
    """What `diff` asks: the parsed file where its rules decide (read by the engine asked for), else the
    source itself, which answers with the fetch's decision."""
    return source.robots if source.rules_apply else source


def _notes(new: Source, flip: Flip) -> tuple[Message, ...]:
    """What `check` says besides the new verdict.

    The profile that changed it, and the operator's engine reading it otherwise.
    """
    if flip.engine not in (DEFAULT, PROFILED) or flip.agent == ANY_CRAWLER:
        return ()
    shown = new.answer(flip.agent, flip.url, flip.engine)
    return tuple(n for n in (shown.note, *shown.extra) if n is not None) + new.notes(
        flip.agent, flip.url, shown, flip.engine
    )


def _read_urls(path: str) -> list[str]:
    try:
        stream = click.open_file(path, encoding="utf-8", errors="replace")
        with stream:
            urls = [line.strip() for line in stream if line.strip() and not line.startswith("#")]
    except OSError as error:
        fail(f"cannot read {path!r}: {error.strerror or error}")
    require_checkable(urls)
    return urls


@click.command("diff")
@click.argument("old_file", metavar="OLD")
@click.argument("new_file", metavar="NEW")
@click.option(
    "--urls", "urls_file", metavar="FILE", help="URLs to compare, one a line (default: derived from both files' rules)."
)
@agents_option("named")
@engine_option
@json_option
@lang_option
@fetch_options
def diff_command(
    old_file: str,
    new_file: str,
    urls_file: str | None,
    agents: str,
    engine: str,
    as_json: bool,
    lang: str,
    fetching: FetchSettings,
) -> None:
    """Which crawler/URL pairs flip between allowed and disallowed from OLD to NEW.

    Compares by effect, not by text: for the given URLs (or URLs derived from
    both files' rules) and crawlers (by default every crawler either file
    names, plus `*` for all others), it lists each pair whose verdict flips,
    with the deciding line in each version. Verdicts are those `check` and
    `matrix` give (operators' profiles applied). Exit code 1 when anything
    flips: run it in CI before a deploy.

    \b
    Examples:
      robotscope diff robots.txt new/robots.txt
      robotscope diff https://example.com/ build/robots.txt --agents search --urls urls.txt
    """
    old = load(old_file, fetching)
    new = load(new_file, fetching)
    urls = _read_urls(urls_file) if urls_file else None
    report(old, new, urls=urls, agents=agents, engine=engine, as_json=as_json, lang=lang)


def report(
    old: Source,
    new: Source,
    *,
    urls: list[str] | None = None,
    agents: str = "named",
    engine: str = PROFILED,
    as_json: bool = False,
    lang: str = "en",
) -> NoReturn:
    """Print the pairs that flip from `old` to `new` (table or JSON) and exit 1 if any does, else 0.

    `urls`: the URLs to compare (default: derived from both files' rules);
    `agents`: `named` (every crawler either file names) or a `crawlers.select`
    choice. `diff` and `history --diff` print through it.
    """
    urls = urls if urls is not None else probe_urls(old.robots, new.robots)
    tokens = agents_named(old.robots, new.robots) if agents == "named" else [c.token for c in crawlers.select(agents)]
    chosen = names() if engine == ALL else [engine]
    flips: list[Flip] = []
    for name in chosen:
        flips.extend(diff(_answers(old), _answers(new), urls, tokens, limit=MAX_FLIPS + 1 - len(flips), engine=name))
    truncated = len(flips) > MAX_FLIPS
    flips = flips[:MAX_FLIPS]
    notes = [_notes(new, flip) for flip in flips]
    # Pairs that flip only as the crawlers' own operators read the files: counted, as `check` would note each.
    hidden = 0
    operated = [
        t for t in tokens if operator_engine(t) not in (DEFAULT, PROFILED)
    ]  # the crawlers an operator's engine reads
    if engine in (DEFAULT, PROFILED) and operated and not truncated:
        shown = {(f.agent, f.url) for f in flips}
        theirs = diff(_answers(old), _answers(new), urls, operated, limit=MAX_FLIPS, engine=OPERATOR)
        hidden = sum(1 for f in theirs if (f.agent, f.url) not in shown)
    if as_json:
        echo_json(
            {
                "old": old.name,
                "new": new.name,
                "urls": len(urls),
                "agents": tokens,
                "flips": [
                    {**f.as_dict(), "notes": [n.as_dict(lang) for n in said]}
                    for f, said in zip(flips, notes, strict=True)
                ],
                "truncated": truncated,
                "operator_only_flips": hidden,
            }
        )
    else:
        out = console()
        if not flips:
            out.print(message("diff.none", agents=len(tokens), urls=len(urls)).render(lang), markup=False)
            if hidden:
                out.print(message("diff.operator-flips", count=hidden).render(lang), markup=False)
        else:
            if truncated:
                title = message("diff.title.truncated", limit=MAX_FLIPS, old=old.name, new=new.name)
            else:
                title = message("diff.title", count=len(flips), old=old.name, new=new.name)
            table = Table(title=escape(title.render(lang)), title_justify="left")
            columns = ("engine", "crawler", "url", "old", "new") if engine == ALL else ("crawler", "url", "old", "new")
            for column in columns:
                table.add_column(message(f"diff.column.{column}").render(lang))
            others = message("diff.others").render(lang)
            marks: dict[str, int] = {}
            for flip, said in zip(flips, notes, strict=True):
                agent = others if flip.agent == ANY_CRAWLER else flip.agent
                new_side = _side(flip.new, lang) + "".join(
                    f" [yellow]({marks.setdefault(note.render(lang), len(marks) + 1)})[/]" for note in said
                )
                cells = [escape(agent), escape(flip.url), _side(flip.old, lang), new_side]
                table.add_row(*([flip.engine] if engine == ALL else []), *cells)
            out.print(table)
            for text, number in marks.items():
                out.print(f"({number}) {text}", markup=False)
            if hidden:
                out.print(message("diff.operator-flips", count=hidden).render(lang), markup=False)
    sys.exit(1 if flips else 0)
