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

from ..compare import BulkRow, bulk_row
from ..urls import InvalidURL, robots_url
from .common import Source, console, fail, fetch_options, load, open_cache

_FIELDS = ["url", "agent_token", "allowed", "reason", "line", "rule", "robots_url"]
# Origins whose robots.txt is kept in memory at once when fetching; the cache keeps the rest.
_MAX_ORIGINS = 1024


def _lines(stream: IO[bytes]) -> Iterator[tuple[str, int]]:
    for raw in stream:
        url = raw.decode("utf-8", "replace").strip()
        if url and not url.startswith("#"):
            yield url, len(raw)


class _Origins:
    """The robots.txt of each origin, fetched once each through the cache (most recently used kept)."""

    def __init__(self, policy: str, cache: object) -> None:
        self.policy, self.cache = policy, cache
        self.sources: OrderedDict[str, Source] = OrderedDict()

    def source_for(self, url: str) -> Source | None:
        try:
            origin = robots_url(url)
        except InvalidURL:
            return None
        source = self.sources.get(origin)
        if source is None:
            from .common import Fetched

            fetched = Fetched(origin, self.policy, self.cache)
            source = Source(origin, fetched.robots, fetched)
            if len(self.sources) >= _MAX_ORIGINS:
                self.sources.popitem(last=False)
            self.sources[origin] = source
        self.sources.move_to_end(origin)
        return source


def _row(source: Source, agent: str, url: str) -> BulkRow:
    if source.rules_apply:
        return bulk_row(source.robots, agent, url)
    verdict = source.verdict(agent, url)
    return BulkRow(url, verdict.agent_token, verdict.allowed, verdict.reason.value, None, None)


@click.command()
@click.argument("robots_file", metavar="[ROBOTS]", required=False)
@click.option("--urls", "urls_file", required=True, metavar="FILE|-", help="URLs to check, one a line (`-` for standard input).")
@click.option("--agent", default="*", show_default=True, help="Product token or User-Agent string of the crawler.")
@click.option("--format", "output_format", type=click.Choice(["csv", "jsonl"]), default="csv", show_default=True)
@click.option("--fetch", "fetch", is_flag=True, help="Fetch each URL's own origin's robots.txt (once per origin, through the cache).")
@click.option("--no-progress", is_flag=True, help="No progress bar on stderr.")
@fetch_options
def bulk(
    robots_file: str | None,
    urls_file: str,
    agent: str,
    output_format: str,
    fetch: bool,
    no_progress: bool,
    policy: str,
    no_cache: bool,
    cache_path: str | None,
) -> None:
    """Stream verdicts for many URLs as CSV or JSON lines, in constant memory.

    Checks every URL of --urls against ROBOTS (a file, `-` or a URL), or,
    with --fetch, against the robots.txt of each URL's own origin, fetched
    once per origin through the cache. Rows go to standard output as they
    are decided; a progress bar goes to standard error.

    \b
    Examples:
      robotscope bulk robots.txt --urls urls.txt --agent Googlebot > verdicts.csv
      robotscope bulk --fetch --urls urls.txt --agent GPTBot --format jsonl
    """
    if (robots_file is None) == (not fetch):
        raise click.UsageError("give either ROBOTS or --fetch")
    if robots_file == "-" and urls_file == "-":
        raise click.UsageError("ROBOTS and --urls cannot both be standard input")
    fixed = load(robots_file, policy, no_cache, cache_path) if robots_file is not None else None
    cache = None if fixed is not None else open_cache(no_cache, cache_path)
    origins = _Origins(policy, cache)
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
                source = fixed or origins.source_for(url)
                if source is None:
                    row, origin = BulkRow(url, "", False, "invalid-url", None, None), ""
                else:
                    row, origin = _row(source, agent, url), source.name
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
