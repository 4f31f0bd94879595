"""`robotscope bulk`: verdicts for millions of URLs, streamed, in constant memory."""

from __future__ import annotations

import csv
import io
import json
import multiprocessing
import os
import sys
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from itertools import islice
from typing import IO

import click
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

from ..access.engines.registry import ALL, DEFAULT, PROFILED, names, resolve
from ..access.matching.ruleset import RuleSet
from ..access.robots import Robots
from ..integrations.records import Tally, lines, skip_reason
from ..reports.compare.bulk import BulkRow, bulk_row, verdict_row
from ..reports.views import origin_note, past_limit
from ..syntax.urls import is_checkable
from . import records
from .options import FetchSettings, engine_option, fetch_options, require_agents
from .output import console, fail
from .parallel import cores
from .sources import Origins, Source, load, open_cache

_FIELDS = ["url", "agent_token", "allowed", "reason", "line", "rule", "engine", "note", "robots_url"]
# URLs a worker process checks per task: large enough that sending them costs little
# next to checking them, small enough that memory stays flat (at most two per worker wait).
_CHUNK = 4096


# Bytes of one line of --urls: a longer line is skipped (and reported), never held whole. 8 KiB is the
# longest request line Apache (8,190 bytes) and nginx (8 KiB) accept by default, so no server
# answers a longer URL anyway; 4,096 such lines are a chunk of at most 32 MiB.
MAX_LINE = 8192


def _lines(stream: IO[bytes], name: str, skipped: Tally) -> Iterator[tuple[str, int]]:
    """(URL, bytes) per line of --urls that holds one; blank lines and `#` comments are no URLs."""
    for number, raw in enumerate(lines(stream, MAX_LINE), 1):
        if raw is None:
            skipped.skip(name, "line", number, skip_reason("too-long", limit=MAX_LINE))
            continue
        try:
            url = raw.decode("utf-8").strip()
        except UnicodeDecodeError:
            skipped.skip(name, "line", number, skip_reason("not-utf8"))
            continue
        if url and not url.startswith("#"):
            yield url, len(raw)


class _Checked:
    """A robots.txt to check URLs against, the crawler's rules looked up once for RFC 9309's readings."""

    def __init__(self, source: Source, agent: str, engine: str = PROFILED, home: str | None = None) -> None:
        self.source = source
        self.agent = agent
        self.engine = engine
        # Where the given robots.txt came from, if fetched: a URL of another origin is noted. Not for
        # --fetch, whose files are each the URL's own origin's (nothing to note, no URL parsed again).
        self.home = home
        self.engines = names() if engine == ALL else [resolve(engine, agent)]
        # RFC 9309's readings answer from the crawler's rule set, looked up once: the matcher's fast path.
        fast = source.rules_apply and self.engines in ([DEFAULT], [PROFILED])
        self.ruleset: RuleSet | None = None
        self.own: RuleSet | None = None  # the crawler's own RFC 9309 rules, when its profile chose others
        if fast:
            robots = source.robots
            profiled = self.engines == [PROFILED]
            self.ruleset = robots.rules_for(agent, profiles=profiled)
            self.own = robots.rules_for(agent) if profiled and robots.profile(agent) is not None else None

    def rows(self, url: str) -> list[BulkRow]:
        if self.ruleset is not None:
            row = bulk_row(self.ruleset, url, self.engines[0])
            notes = self._notes(url, row)
            return [row._replace(note=notes) if notes else row]
        # Another engine's reading, or a fetch that decided allow-all or disallow-all.
        notes = "other-origin" if self._elsewhere(url) else ""
        return [
            verdict_row(self.source.answer(self.agent, url, name).verdict, name)._replace(note=notes)
            for name in self.engines
        ]

    def _notes(self, url: str, row: BulkRow) -> str:
        """What `check` would say besides the verdict, as `BulkRow.note` codes."""
        found = ["other-origin"] if self._elsewhere(url) else []
        if self.own is not None and bulk_row(self.own, url, DEFAULT).allowed != row.allowed:
            found.append("profile")
        # `row` is the answer shown: where the operator's reading answers the URL otherwise, say which.
        otherwise = self.source.robots.reads_otherwise(self.agent, url, row.allowed, self.engines[0])
        if otherwise is not None:
            found.append(f"read-otherwise:{otherwise[0]}")
        # A rule past the 500 KiB limit would have decided the URL (`check`'s overflow note).
        past = past_limit(self.source.robots, self.agent, url, self.engines[0])
        if past is not None and past.line is not None:
            found.append(f"past-limit:{past.line}")
        return ";".join(found)

    def _elsewhere(self, url: str) -> bool:
        return self.home is not None and origin_note(url, self.home) is not None


def _checked(source: Source, agent: str, engine: str, home: str | None = None) -> _Checked:
    """`_Checked`, once the file's whole-file findings (served, unreadable, cut) are said on stderr:
    rows cannot carry them."""
    source.warn_findings()
    return _Checked(source, agent, engine, home)


def _rows(checked: _Checked | None, url: str) -> list[BulkRow]:
    """The rows for one URL: its verdicts, or one `invalid-url` row."""
    if checked is None or not is_checkable(url):
        return [BulkRow(url, "", False, "invalid-url", None, None, "")]
    return checked.rows(url)


def _render(rows: Iterable[tuple[BulkRow, str]], output_format: str) -> str:
    """Rows (each with the robots.txt URL it was checked against, or "") as CSV or JSON lines."""
    if output_format == "csv":
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerows([*row, origin] for row, origin in rows)
        return out.getvalue()
    return "".join(
        json.dumps({**row.as_dict(), "robots_url": origin or None}, ensure_ascii=False) + "\n" for row, origin in rows
    )


# The worker side of `--jobs`: each worker process answers from its own copy of the file.
_worker: tuple[_Checked, str] | None = None


def _start_worker(name: str, robots: Robots, agent: str, engine: str, home: str | None, output_format: str) -> None:
    global _worker  # one per worker process, set once by the pool's initializer
    _worker = (_Checked(Source(name, robots), agent, engine, home), output_format)


def _check_chunk(urls: list[str]) -> tuple[str, int]:
    """The chunk's output, and how many of its rows are not allowed."""
    assert _worker is not None  # set by _start_worker
    checked, output_format = _worker
    rows = [(row, "") for url in urls for row in _rows(checked, url)]
    return _render(rows, output_format), _refused(rows)


def _refused(rows: list[tuple[BulkRow, str]]) -> int:
    """Rows that are not allowed: disallowed, or no URL (`invalid-url`)."""
    return sum(not row.allowed for row, _ in rows)


def _parallel(
    checked: _Checked, chunks: Iterator[list[tuple[str, int]]], jobs: int, output_format: str
) -> Iterator[tuple[tuple[str, int], int, int]]:
    """Each chunk's output and refused rows, URL count and bytes, in input order, checked by `jobs` workers.

    At most two chunks per worker are in flight, so memory stays flat
    whatever the input's length; output order is input order.
    """
    # spawn: a fresh interpreter per worker, never a fork of this (threaded) process.
    context = multiprocessing.get_context("spawn")
    source = checked.source
    with ProcessPoolExecutor(
        jobs,
        mp_context=context,
        initializer=_start_worker,
        initargs=(source.name, source.robots, checked.agent, checked.engine, checked.home, output_format),
    ) as pool:
        pending: deque[tuple[Future[tuple[str, int]], int, int]] = deque()
        for chunk in chunks:
            pending.append(
                (pool.submit(_check_chunk, [url for url, _ in chunk]), len(chunk), sum(size for _, size in chunk))
            )
            if len(pending) >= 2 * jobs:
                future, count, size = pending.popleft()
                yield future.result(), count, size
        while pending:
            future, count, size = pending.popleft()
            yield future.result(), count, size


@click.command()
@click.argument("robots_file", metavar="[ROBOTS]", required=False)
@click.option(
    "--urls", "urls_file", required=True, metavar="FILE|-", help="URLs to check, one a line (`-` for standard input)."
)
@click.option("--agent", default="*", show_default=True, help="Product token or User-Agent string of the crawler.")
@click.option("--format", "output_format", type=click.Choice(["csv", "jsonl"]), default="csv", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Same as --format jsonl: one JSON object a line.")
@click.option(
    "--fetch",
    "fetch",
    is_flag=True,
    help="Fetch each URL's own origin's robots.txt (once per origin, through the cache).",
)
@click.option("--no-progress", is_flag=True, help="No progress bar on stderr.")
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Worker processes checking URLs against ROBOTS (default: every core); output order is input order. "
    "With --fetch, one process.",
)
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
    jobs: int | None,
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
    Googlebot group) is applied, as in every command. The `note` column
    holds codes for what `check` would say besides the verdict:
    `other-origin`, `profile` (the profile changed the RFC 9309 answer),
    `read-otherwise:ENGINE` (the crawler's operator's engine answers
    otherwise: see --engine operator), `past-limit:LINE` (a rule past the
    500 KiB limit, which crawlers ignore, would have decided). What
    concerns the whole file (cut at the limit, not UTF-8, an HTML page, a
    Content-Type other than text/plain) is said once on stderr. Against ROBOTS, --jobs
    worker processes (default: every core) share the URLs, in chunks of
    4,096, and rows still come out in input order. A line longer than 8 KiB
    or not UTF-8 is reported on stderr with its number and skipped. Exit
    code 0 when every row is allowed, 1 when any is not or a line was
    skipped, 2 for bad usage or an unreadable file.

    \b
    Examples:
      robotscope bulk robots.txt --urls urls.txt --agent Googlebot > verdicts.csv
      robotscope bulk robots.txt --urls urls.txt --agent Googlebot --jobs 1
      robotscope bulk --fetch --urls urls.txt --agent GPTBot --format jsonl
    """
    if (robots_file is None) == (not fetch):
        raise click.UsageError("give either ROBOTS or --fetch")
    if robots_file == "-" and urls_file == "-":
        raise click.UsageError("ROBOTS and --urls cannot both be standard input")
    require_agents([agent])
    if as_json:
        output_format = "jsonl"
    given = load(robots_file, fetching) if robots_file is not None else None
    fixed = _checked(given, agent, engine, given.robots_url) if given is not None else None
    cache = None if fixed is not None else open_cache(fetching)
    origins: Origins[_Checked] = Origins(fetching, cache, lambda source: _checked(source, agent, engine))
    try:
        stream = sys.stdin.buffer if urls_file == "-" else open(urls_file, "rb")  # noqa: SIM115 - closed below
    except OSError as error:
        fail(f"cannot read {urls_file!r}: {error.strerror or error}")
    total = None if urls_file == "-" else os.fstat(stream.fileno()).st_size
    out = sys.stdout
    if output_format == "csv":
        out.write(",".join(_FIELDS) + "\n")
    progress = Progress(
        TextColumn("checking"),
        BarColumn(),
        TaskProgressColumn(),
        TextColumn("{task.fields[count]:,} URLs"),
        TimeElapsedColumn(),
        console=console(stderr=True),
        disable=no_progress or not sys.stderr.isatty(),
        transient=True,
    )
    workers = jobs or cores()
    count = done = refused = 0
    skipped = records.tally()
    try:
        with progress:
            task = progress.add_task("urls", total=total, count=0)
            chunks = _chunked(_lines(stream, "-" if urls_file == "-" else urls_file, skipped))
            first = next(chunks, [])
            if fixed is not None and fixed.ruleset is not None and workers > 1 and len(first) == _CHUNK:
                # Worth the workers' start-up: more than one chunk, on the matcher's fast path.
                outputs = _parallel(fixed, _prepend(first, chunks), workers, output_format)
            else:
                outputs = (_in_process(chunk, fixed, origins, output_format) for chunk in _prepend(first, chunks))
            for (text, no), urls, size in outputs:
                out.write(text)
                refused += no
                count += urls
                done += size
                progress.update(task, completed=done, count=count)
    except BrokenProcessPool:
        fail("a worker process stopped unexpectedly; try --jobs 1")
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
        if hasattr(cache, "close"):
            cache.close()  # type: ignore[union-attr]
    out.flush()
    if records.incomplete(skipped) or refused:
        sys.exit(1)


def _chunked(lines: Iterator[tuple[str, int]]) -> Iterator[list[tuple[str, int]]]:
    while chunk := list(islice(lines, _CHUNK)):
        yield chunk


def _prepend(first: list[tuple[str, int]], rest: Iterator[list[tuple[str, int]]]) -> Iterator[list[tuple[str, int]]]:
    if first:
        yield first
    yield from rest


def _in_process(
    chunk: list[tuple[str, int]], fixed: _Checked | None, origins: Origins[_Checked], output_format: str
) -> tuple[tuple[str, int], int, int]:
    """One chunk's output and refused rows, URL count and bytes, checked here (against ROBOTS, or each origin's)."""
    rows: list[tuple[BulkRow, str]] = []
    for url, _ in chunk:
        checked = fixed if fixed is not None else (origins.of(url) if is_checkable(url) else None)
        origin = "" if fixed is not None or checked is None else checked.source.name
        rows.extend((row, origin) for row in _rows(checked, url))
    return (_render(rows, output_format), _refused(rows)), len(chunk), sum(size for _, size in chunk)
