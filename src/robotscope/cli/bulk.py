"""`robotscope bulk`: verdicts for millions of URLs, streamed, in constant memory."""

from __future__ import annotations

import csv
import json
import os
import sys
from collections import OrderedDict
from collections.abc import Iterator
from typing import IO

import click
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

from ..compare import BulkRow, bulk_row, verdict_row
from ..engines import ALL, DEFAULT, names, resolve
from ..matcher import RuleSet
from ..profiles import ruleset_for
from ..urls import InvalidURL, checked_url, robots_url
from .common import FetchSettings, Source, console, engine_option, fail, fetch_options, load, open_cache

_FIELDS = ["url", "agent_token", "allowed", "reason", "line", "rule", "engine", "robots_url"]
# Origins whose robots.txt is kept in memory at once when fetching; the cache keeps the rest.
_MAX_ORIGINS = 1024


def _lines(stream: IO[bytes]) -> Iterator[tuple[str, int]]:
    for raw in stream:
        url = raw.decode("utf-8", "replace").strip()
        if url and not url.startswith("#"):
            yield url, len(raw)


class _Checked:
    """A robots.txt to check URLs against, the crawler's rules looked up once (its profile applied) for the default reading."""

    def __init__(self, source: Source, agent: str, engine: str = DEFAULT) -> None:
        self.source = source
        self.agent = agent
        self.engines = names() if engine == ALL else [resolve(engine, agent)]
        fast = source.rules_apply and self.engines == [DEFAULT]
        self.ruleset: RuleSet | None = ruleset_for(source.robots, agent)[0] if fast else None

    def rows(self, url: str) -> list[BulkRow]:
        if self.ruleset is not None:
            return [bulk_row(self.ruleset, url)]
        # Another engine's reading, or a fetch that decided allow-all or disallow-all.
        return [verdict_row(self.source.answer(self.agent, url, name).verdict, name) for name in self.engines]


class _Origins:
    """The robots.txt of each origin, fetched once each through the cache (most recently used kept)."""

    def __init__(self, settings: FetchSettings, cache: object, agent: str, engine: str) -> None:
        self.settings, self.cache, self.agent, self.engine = settings, cache, agent, engine
        self.checked: OrderedDict[str, _Checked] = OrderedDict()

    def checked_for(self, url: str) -> _Checked | None:
        try:
            origin = robots_url(url)
        except InvalidURL:
            return None
        checked = self.checked.get(origin)
        if checked is None:
            from .common import Fetched

            fetched = Fetched(origin, self.settings, self.cache)
            checked = _Checked(Source(origin, fetched.robots, fetched), self.agent, self.engine)
            if len(self.checked) >= _MAX_ORIGINS:
                self.checked.popitem(last=False)
            self.checked[origin] = checked
        self.checked.move_to_end(origin)
        return checked


def _valid(url: str) -> bool:
    try:
        checked_url(url)
    except InvalidURL:
        return False
    return True


@click.command()
@click.argument("robots_file", metavar="[ROBOTS]", required=False)
@click.option("--urls", "urls_file", required=True, metavar="FILE|-", help="URLs to check, one a line (`-` for standard input).")
@click.option("--agent", default="*", show_default=True, help="Product token or User-Agent string of the crawler.")
@click.option("--format", "output_format", type=click.Choice(["csv", "jsonl"]), default="csv", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Same as --format jsonl: one JSON object a line.")
@click.option("--fetch", "fetch", is_flag=True, help="Fetch each URL's own origin's robots.txt (once per origin, through the cache).")
@click.option("--no-progress", is_flag=True, help="No progress bar on stderr.")
@engine_option
@fetch_options
def bulk(
    robots_file: str | None,
    urls_file: str,
    agent: str,
    output_format: str,
    as_json: bool,
    fetch: bool,
    no_progress: bool,
    engine: str,
    fetching: FetchSettings,
) -> None:
    """Stream verdicts for many URLs as CSV or JSON lines, in constant memory.

    Checks every URL of --urls against ROBOTS (a file, `-` or a URL), or,
    with --fetch, against the robots.txt of each URL's own origin, fetched
    once per origin through the cache. Rows go to standard output as they
    are decided; a progress bar goes to standard error. A line that is
    neither a path starting with / nor an http(s) URL gets the reason
    `invalid-url`. The crawler's operator profile (Googlebot-Image obeys the
    Googlebot group) is applied, as in every command.

    \b
    Examples:
      robotscope bulk robots.txt --urls urls.txt --agent Googlebot > verdicts.csv
      robotscope bulk --fetch --urls urls.txt --agent GPTBot --format jsonl
    """
    if (robots_file is None) == (not fetch):
        raise click.UsageError("give either ROBOTS or --fetch")
    if robots_file == "-" and urls_file == "-":
        raise click.UsageError("ROBOTS and --urls cannot both be standard input")
    if as_json:
        output_format = "jsonl"
    fixed = _Checked(load(robots_file, fetching), agent, engine) if robots_file is not None else None
    cache = None if fixed is not None else open_cache(fetching)
    origins = _Origins(fetching, cache, agent, engine)
    try:
        stream = sys.stdin.buffer if urls_file == "-" else open(urls_file, "rb")  # noqa: SIM115 - closed below
    except OSError as error:
        fail(f"cannot read {urls_file!r}: {error.strerror or error}")
    total = None if urls_file == "-" else os.fstat(stream.fileno()).st_size
    out = sys.stdout
    writer = csv.writer(out, lineterminator="\n") if output_format == "csv" else None
    if writer is not None:
        writer.writerow(_FIELDS)
    progress = Progress(
        TextColumn("checking"), BarColumn(), TaskProgressColumn(), TextColumn("{task.fields[count]:,} URLs"), TimeElapsedColumn(),
        console=console(stderr=True), disable=no_progress or not sys.stderr.isatty(), transient=True,
    )
    count = done = 0
    try:
        with progress:
            task = progress.add_task("urls", total=total, count=0)
            for url, size in _lines(stream):
                checked = _valid(url) and (fixed or origins.checked_for(url))
                if not checked:
                    rows, origin = [BulkRow(url, "", False, "invalid-url", None, None, "")], ""
                else:
                    rows, origin = checked.rows(url), checked.source.name
                for row in rows:
                    if writer is not None:
                        writer.writerow([*row, origin if fixed is None else ""])
                    else:
                        out.write(json.dumps({**row.as_dict(), "robots_url": origin or None}, ensure_ascii=False) + "\n")
                count += 1
                done += size
                if count % 4096 == 0:
                    progress.update(task, completed=done, count=count)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
        if hasattr(cache, "close"):
            cache.close()  # type: ignore[union-attr]
