"""`robotscope history`: the versions of an origin's robots.txt a history store holds, and which was in force."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NoReturn

import click
from rich.markup import escape
from rich.table import Table

from ..access.robots import parse
from ..history import HistoryStore, Version, default_path, origin_of
from ..history.changes import alerts_of
from ..history.views import changed_view, fetch_view, iso, summary
from ..messages import message
from ..reports.views import parse_when
from ..reports.watch.alerts import Alert
from ..syntax.urls import InvalidURL
from .diff import report
from .options import json_option, lang_option, store_option
from .output import console, echo_json, fail, warn
from .sources import Source


def _table(rows: list[tuple[int, Version]], lang: str, alerts: Mapping[int | None, Sequence[Alert]]) -> Table:
    table = Table(title_justify="left")
    for column in ("number", "first-seen", "last-seen", "status", "size", "sha256", "agents", "changes"):
        table.add_column(message(f"history.column.{column}").render(lang))
    for number, v in rows:
        size = f"{v.size:,}" + ("+" if v.truncated else "")  # + : the fetcher cut a longer file
        agents, said = ", ".join(v.agents), summary(alerts.get(v.id, ()))
        cells = (str(number), iso(v.first_seen), iso(v.last_seen), str(v.status), size, v.short, agents, said)
        table.add_row(*(escape(cell) for cell in cells))
    return table


def _numbered(versions: list[Version], number: int, origin: str) -> Version:
    if not 1 <= number <= len(versions):
        fail(message("history.error.number", origin=origin, number=number, count=len(versions)))
    return versions[number - 1]


def open_store(store_path: str | None) -> HistoryStore:
    """The store to read: one that is not there is an error, never created empty."""
    path = Path(store_path) if store_path is not None else default_path()
    if not path.is_file():
        fail(message("history.error.no-store", path=str(path)))
    store = HistoryStore(path, read_only=True)  # a read-only command: never migrated, set aside or written
    for warning in store.take_warnings():
        if not store.readable:
            fail(warning)
        warn(warning)
    return store


@click.command("history")
@click.argument("url")
@store_option
@click.option(
    "--agent", metavar="LABEL", help="Only what this User-Agent label (browser, Googlebot, ...) got; numbers stay."
)
@click.option("--at", "when", metavar="WHEN", help="The version in force then: an ISO 8601 date or date and time.")
@click.option("--show", "show", type=int, metavar="N", help="Print version N's text, byte for byte.")
@click.option("--diff", "compare", type=(int, int), metavar="A B", help="Which verdicts flip from version A to B.")
@json_option
@lang_option
def history_command(
    url: str,
    store_path: str | None,
    agent: str | None,
    when: str | None,
    show: int | None,
    compare: tuple[int, int] | None,
    as_json: bool,
    lang: str,
) -> NoReturn:
    """The versions of URL's robots.txt a history store holds (`robotscope watch` records them).

    Lists each distinct version, numbered from the oldest: when it was first
    and last seen (UTC), its status, size (+ when the fetcher cut it at
    500 KiB), SHA-256 and the User-Agent labels that got it; failed fetches
    are counted after. --at WHEN gives the version in force then (the last
    one fetched at or before WHEN; a failed fetch leaves the one before in
    force; a date alone means 00:00 UTC): exit code 1 when none was.
    --show N prints version N as fetched; --diff A B runs `diff` between two
    versions (exit code 1 when a verdict flips).

    \b
    --json prints:
      list:    {"origin", "store", "versions": [VERSION], "failures": [{"at", "agent", "failure", "status"}]}
      --at:    {"origin", "at", "version": VERSION or null}
      --show:  {"origin", "version": VERSION + {"text"}}
      --diff:  diff's own JSON
    VERSION: {"number", "id", "sha256", "short", "status", "content_type", "size", "truncated",
    "final_url", "hops": [{"url", "status"}], "headers", "agents", "first_seen", "last_seen"}.
    failure: a transport failure's kind (timeout, dns, ...), or 5xx, 429, 4xx, redirect.

    \b
    Examples:
      robotscope history https://example.com/
      robotscope history https://example.com/ --at 2026-12-03T14:05:00Z --agent GPTBot
      robotscope history https://example.com/ --diff 3 4
    """
    if sum(x is not None for x in (when, show, compare)) > 1:
        fail(message("history.error.one"))
    moment = None
    if when is not None:
        moment = parse_when(when)
        if moment is None:
            fail(message("history.error.when", value=when))
    try:
        origin = origin_of(url)
    except InvalidURL as error:
        fail(str(error))
    with open_store(store_path) as store:
        # Numbered over every agent, so a number means one version whichever --agent is given.
        numbered = list(enumerate(store.versions(origin), 1))
        failures = [f for f in store.fetches(origin) if f.failure is not None]
        found = store.at(origin, moment, agent) if moment is not None else None
        path = str(store.path)
    if not numbered and not failures:
        fail(message("history.error.origin", path=path, origin=origin))
    versions = [v for _, v in numbered]
    if agent is not None:
        numbered = [(n, v) for n, v in numbered if agent in v.agents]
        failures = [f for f in failures if f.agent == agent]
    numbers = {v.id: n for n, v in enumerate(versions, 1)}
    if compare is not None:
        old, new = (_numbered(versions, n, origin) for n in compare)
        report(
            Source(f"{origin} #{compare[0]}", parse(old.body)),
            Source(f"{origin} #{compare[1]}", parse(new.body)),
            as_json=as_json,
            lang=lang,
        )
    # What each version changed: not needed by --diff, which has said more (and exited).
    changed = {v.id: found for v, found in zip(versions, alerts_of(versions), strict=True)}
    if show is not None:
        chosen = _numbered(versions, show, origin)
        if as_json:
            shown = changed_view(show, chosen, changed[chosen.id], lang)
            echo_json({"origin": origin, "version": {**shown, "text": chosen.text}})
        else:
            click.echo(chosen.body, nl=False)
        sys.exit(0)
    if moment is not None:
        number = None if found is None else numbers.get(found.id)
        if as_json:
            view = None if found is None or number is None else changed_view(number, found, changed[found.id], lang)
            echo_json({"origin": origin, "at": iso(moment), "version": view})
        elif found is None or number is None:
            click.echo(message("history.at.none", origin=origin, when=iso(moment)).render(lang))
        else:
            out = console()
            out.print(message("history.at", origin=origin, when=iso(moment), number=number).render(lang), markup=False)
            out.print(_table([(number, found)], lang, changed))
        sys.exit(1 if found is None else 0)
    if as_json:
        echo_json(
            {
                "origin": origin,
                "store": path,
                "versions": [changed_view(n, v, changed[v.id], lang) for n, v in numbered],
                "failures": [fetch_view(f) for f in failures],
            }
        )
    else:
        out = console()
        out.print(message("history.title", origin=origin, count=len(numbered)).render(lang), markup=False)
        out.print(_table(numbered, lang, changed))
        if failures:
            last = failures[-1]
            said = message(
                "history.failures",
                count=len(failures),
                at=iso(last.at),
                failure=last.failure if last.status is None else f"{last.failure} ({last.status})",
                agent=last.agent,
            )
            out.print(said.render(lang), markup=False)
    sys.exit(0)
