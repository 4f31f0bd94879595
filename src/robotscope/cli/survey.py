"""`robotscope survey`: which hosts block which crawlers, over many robots.txt files, locally or on Spark."""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import islice
from pathlib import Path
from typing import Any

import click
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..access.policy import POLICIES
from ..integrations.records import Tally, Unreadable
from ..reports.survey import CLASSIFICATIONS, SURVEY_COLUMNS, HostFile, summarise, survey_rows, tally
from ..syntax.crawlers import select
from . import records
from .options import agents_option, one_engine_option
from .output import console, current_lang, echo_json, fail
from .parallel import cores
from .tables import KINDS, RowsFile

_CHUNK = 64  # hosts per task of a worker process


def _hosts(sources: Iterable[str], tally: Tally) -> Iterator[HostFile]:
    from ..integrations.sources import UnknownSource, read

    for source in sources:
        try:
            yield from read(Path(source), tally)
        except UnknownSource as error:
            fail(str(error))
        except Unreadable as error:
            fail(error.reason)
        except OSError as error:
            fail(f"cannot read {source}: {error.strerror or error}")


def _survey_chunk(hosts: list[HostFile], agents: list[str], engine: str, policy: str) -> list[dict[str, Any]]:
    return [row for host in hosts for row in survey_rows(host, agents, engine, policy)]


def _local(
    hosts: Iterator[HostFile], agents: list[str], engine: str, policy: str, jobs: int
) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    """(hosts done, rows) per chunk, in input order; `jobs` worker processes, at most two chunks each in flight."""
    chunks = iter(lambda: list(islice(hosts, _CHUNK)), [])
    if jobs == 1:
        for chunk in chunks:
            yield len(chunk), _survey_chunk(chunk, agents, engine, policy)
        return
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        pending: deque[tuple[int, Future[list[dict[str, Any]]]]] = deque()
        for chunk in chunks:
            pending.append((len(chunk), pool.submit(_survey_chunk, chunk, agents, engine, policy)))
            if len(pending) >= 2 * jobs:
                count, future = pending.popleft()
                yield count, future.result()
        while pending:
            count, future = pending.popleft()
            yield count, future.result()


def _spark(
    hosts: Iterator[HostFile], agents: list[str], engine: str, policy: str, master: str
) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    """The same rows from `robotscope.integrations.spark.survey`, run by a Spark session at `master`."""

    from pyspark.sql import SparkSession

    from ..integrations.spark import survey

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    running = SparkSession.getActiveSession()  # a caller's session (a notebook, a test) is used, and left running
    spark = running or SparkSession.builder.master(master).appName("robotscope survey").getOrCreate()
    try:
        table = [
            (h.host, h.status, h.body if isinstance(h.body, bytes) else h.body.encode("utf-8", "surrogatepass"))
            for h in hosts
        ]
        frame = spark.createDataFrame(table, "host string, status int, body binary")
        rows = [row.asDict() for row in survey(frame, agents, engine, policy).collect()]
        order = {host: index for index, (host, _, _) in enumerate(table)}
        rows.sort(key=lambda row: order[row["host"]])  # Spark keeps no order: the local job's, host by host
        yield len(table), rows
    finally:
        if running is None:
            spark.stop()


@click.command("survey")
@click.argument("sources", nargs=-1, required=True, metavar="SOURCE...")
@agents_option("ai")
@click.option(
    "--out", "out", required=True, type=click.Path(dir_okay=False), help="The rows: .parquet, .csv or .jsonl."
)
@click.option(
    "--on",
    "where",
    type=click.Choice(["local", "spark"]),
    default="local",
    show_default=True,
    help="Every core of this machine, or Spark.",
)
@click.option("--master", default="local[*]", show_default=True, help="With --on spark: the Spark master URL.")
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="With --on local: worker processes (default: every core).",
)
@one_engine_option
@click.option(
    "--policy",
    type=click.Choice(list(POLICIES)),
    default="rfc9309",
    show_default=True,
    help="How a fetch's HTTP status is read.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON, with the records skipped and why.")
@click.option("--no-progress", is_flag=True, help="No progress bar on stderr.")
def survey_command(
    sources: tuple[str, ...],
    agents: str,
    out: str,
    where: str,
    master: str,
    jobs: int | None,
    engine: str,
    policy: str,
    as_json: bool,
    no_progress: bool,
) -> None:
    """Survey which hosts block which crawlers: one row per host and crawler, and a summary per crawler.

    SOURCE is a folder of robots.txt files named by host, WARC files (Common
    Crawl's robots.txt subset; redirects followed within the data) or a
    .parquet/.csv table with host, status and body columns. Each row says
    what the status policy concludes, the classification (blocked: `/` is
    disallowed; partial: `/` allowed but the crawler's groups disallow
    something; open; no-robots: 4xx; unreachable: 5xx and errors), the group
    used (named, `*`, none), the line and rule deciding `/`, and the file's
    lint codes. Verdicts are those of `robotscope check` (operator profiles
    applied). A bad record (a status `abc`, a row too long) is reported on
    stderr with its number and skipped, and a file cut short is read up to
    the cut: the survey then exits 1. --out is renamed into place at the end.
    --json prints the summary as `crawlers`, with what the answer lacks:
    `complete`, the counts `skipped` and `stopped`, the `reasons` counted,
    and the first 50 `records` reported (file, unit, number and reason).

    \b
    Examples:
      robotscope survey tests/corpus/robots --agents ai --out survey.parquet
      robotscope survey crawl.warc.gz --agents GPTBot,CCBot --out survey.csv --on spark
    """
    path = Path(out)
    if path.suffix.lower() not in KINDS:
        fail(f"--out must end in {', '.join(KINDS)}: {out}")
    crawlers = select(agents)
    if not crawlers:
        fail(f"no crawler matches --agents {agents!r}")
    tokens = [c.token for c in crawlers]
    try:
        writer = RowsFile(path, SURVEY_COLUMNS)  # before the work: a place that cannot be written fails at once
    except OSError as error:
        fail(f"cannot write {out!r}: {error.strerror or error}")
    skipped = records.tally()
    hosts = _hosts(sources, skipped)
    parts = (
        _spark(hosts, tokens, engine, policy, master)
        if where == "spark"
        else _local(hosts, tokens, engine, policy, jobs or cores())
    )
    progress = Progress(
        TextColumn("surveying"),
        BarColumn(),
        TextColumn("{task.completed:,} hosts"),
        TimeElapsedColumn(),
        console=console(stderr=True),
        disable=no_progress or not sys.stderr.isatty(),
        transient=True,
    )
    counts: Counter[tuple[str, str]] = Counter()
    done = False
    try:
        with progress:
            task = progress.add_task("hosts", total=None)
            for count, rows in parts:
                writer.write(rows)
                tally(rows, counts)
                progress.advance(task, count)
        done = True
    finally:
        writer.close(keep=done)
    table = summarise(counts, {c.token: c.purpose for c in crawlers})
    if as_json:  # what was skipped, as the text output says it on stderr
        echo_json({"crawlers": table, **skipped.as_dict(current_lang())})
    else:
        _print_summary(table)
    if records.incomplete(skipped):
        sys.exit(1)


def _print_summary(table: list[dict[str, Any]]) -> None:
    shown = Table(title="hosts per crawler", title_justify="left")
    for heading in ("crawler", "purpose", "hosts", *CLASSIFICATIONS):
        shown.add_column(heading, justify="left" if heading in ("crawler", "purpose") else "right")
    for entry in table:
        shares = [f"{entry[name]:,} ({entry[f'{name}_share']:.1%})" for name in CLASSIFICATIONS]
        shown.add_row(entry["agent"], entry["purpose"], f"{entry['hosts']:,}", *shares)
    console().print(shown)
