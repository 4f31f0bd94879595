"""`robotscope logs`: who obeyed robots.txt, who broke it, and who only claimed to be a crawler."""

from __future__ import annotations

import sys
from concurrent.futures.process import BrokenProcessPool
from contextlib import closing
from pathlib import Path
from typing import Any

import click
from rich.markup import escape
from rich.table import Table

from ..auditing.pieces import Counted, Rendering, Setup, pieces, results, settle
from ..integrations.records import Unreadable
from ..messages import Message, message
from ..reports.audit.html import document
from ..reports.audit.judge import COLUMNS, GRACE
from ..reports.audit.summary import Summary
from ..reports.audit.timeline import RobotsVersion
from ..reports.audit.views import CRAWLER_COLUMNS, crawler_rows, duration, summary_view, totals, within_grace
from ..reports.render import printable
from ..syntax.logformats import FORMATS, FormatError
from ..syntax.urls import InvalidURL, origin_of
from .history import open_store
from .options import json_option, lang_option, seconds_of, store_option
from .output import console, current_lang, echo_json, fail, interruptible, warn
from .parallel import cores
from .tables import RowsFile
from .verify import history_from

_SHOWN = 10  # bad lines listed one by one on stderr; all are counted
FAIL_ON = ("violation", "spoofed")  # in order: --fail-on violation fails on spoofs too


def _grace(context: click.Context, parameter: click.Parameter, value: str) -> float:
    """--grace in seconds; a value that is no duration stops the command (one line, exit 2)."""
    seconds = seconds_of(value)
    if seconds is None:
        fail(message("logs.error.grace", value=value))
    return seconds


def _told(source: str, name: str) -> None:
    said = message("logs.cli.detected", source=source, format=name).render(current_lang())
    click.echo(f"robotscope: {said}", err=True)


def _versions(
    robots: str | None,
    history: bool,
    store_path: str | None,
    robots_dir: str | None,
    robots_git: str | None,
    site: str | None,
) -> tuple[RobotsVersion, ...]:
    """The robots.txt versions of the one source given; each problem met is a warning, none at all an error."""
    from ..auditing import sources

    given = [robots is not None, history, robots_dir is not None, robots_git is not None]
    if sum(given) != 1:
        fail(message("logs.error.sources"))
    if robots is not None:
        loaded = sources.from_robots(robots, site)
    elif history:
        with open_store(store_path) as store:
            loaded = sources.from_history(store)  # each origin's: a log with hosts names several
    elif robots_dir is not None:
        loaded = sources.from_dir(robots_dir)
    else:
        assert robots_git is not None
        loaded = sources.from_git(robots_git, site)
    lang = current_lang()
    for problem in loaded.problems:
        warn(problem.render(lang))
    if not loaded.versions:
        fail(message("logs.error.no-versions"))
    return loaded.versions


_ARROW_TYPES = {str: "string", int: "int64", float: "float64", bool: "bool_"}  # pyarrow's type of each


def _open_rows(path: str, kind: str) -> tuple[RowsFile, RowsFile]:
    """The rows file and, beside it, the per-crawler summary (`audit.csv` and `audit.crawlers.csv`)."""
    out = Path(path)
    beside = out.with_name(f"{out.stem}.crawlers{out.suffix or kind}")
    opened: list[RowsFile] = []
    try:
        types = None
        if kind == ".parquet":
            import pyarrow as pa

            types = {name: getattr(pa, _ARROW_TYPES[made])() for name, made in CRAWLER_COLUMNS.items()}
        opened.append(RowsFile(out, COLUMNS, kind))
        opened.append(RowsFile(beside, list(CRAWLER_COLUMNS), kind, types))
    except ImportError:
        fail(message("logs.error.pyarrow"))
    except OSError as error:
        for file in opened:
            file.close(keep=False)
        fail(message("logs.error.write", path=path, problem=error.strerror or str(error)))
    return opened[0], opened[1]


def _open_page(path: str, files: tuple[RowsFile, RowsFile] | None) -> RowsFile:
    """The HTML report's file, written whole at the end (a temporary file until then)."""
    try:
        return RowsFile(Path(path), (), ".html")
    except OSError as error:
        for file in files or ():
            file.close(keep=False)
        fail(message("logs.error.write", path=path, problem=error.strerror or str(error)))


@click.command("logs")
@click.argument("logs", nargs=-1, required=True, metavar="LOG...")
@click.option(
    "--robots",
    metavar="FILE|URL",
    help="One robots.txt, in force at every moment: a file, or a site's URL (fetched now).",
)
@click.option("--history", is_flag=True, help="Every version the watch history store holds (see `robotscope watch`).")
@store_option
@click.option(
    "--robots-dir", metavar="DIR", help="Dated snapshots: DIR/HOST/2026-11-03T12:00Z.txt, each in force from its time."
)
@click.option(
    "--robots-git",
    metavar="PATH:FILE",
    help="A git repository's history of a robots.txt file, each commit in force from its time.",
)
@click.option(
    "--site",
    metavar="URL",
    help="The site the logs are of: the origin of requests logged without a host (default: --robots URL's).",
)
@click.option(
    "--format",
    "format_name",
    type=click.Choice(["auto", *FORMATS]),
    default="auto",
    show_default=True,
    help="The logs' format (auto: told from each log's first lines, and said on stderr).",
)
@click.option(
    "--log-format", metavar="STRING", help="nginx's log_format or Apache's LogFormat the logs were written with."
)
@click.option(
    "--map", "mapping", metavar="SPEC", help="For --format jsonl: which JSON field holds what (see docs/logs.md)."
)
@click.option(
    "--lists",
    "lists_dir",
    metavar="DIR",
    help="The operators' IP lists (default: the snapshots shipped, and the versions `verify --update` stored).",
)
@click.option("--no-dns", is_flag=True, help="Ask no DNS: crawlers checked by reverse DNS alone stay inconclusive.")
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Worker processes auditing chunks of the logs (default: every core); the answer is the same.",
)
@click.option(
    "--grace",
    default=duration(GRACE),
    show_default=True,
    metavar="DURATION",
    callback=_grace,
    help="A request the file in force disallows, made within DURATION (30m, 24h, 1d; 0: never) after that file "
    "came into force, is within grace, not a violation, when the file before allowed it: the crawler's cached copy.",
)
@json_option
@click.option(
    "--csv",
    "csv_out",
    metavar="OUT",
    help="Write a row per audited request to OUT, and each crawler's summary beside it.",
)
@click.option("--parquet", "parquet_out", metavar="OUT", help="The same rows as Parquet (needs pyarrow).")
@click.option(
    "--html",
    "html_out",
    metavar="OUT",
    help="Write the summary to OUT as one self-contained HTML page with charts (loads nothing from elsewhere).",
)
@click.option(
    "--fail-on",
    type=click.Choice(FAIL_ON),
    default=None,
    help="Exit code 1 when a request of this class or above is found (violation: violations and spoofs).",
)
@lang_option
@interruptible("logs.cli.interrupted")
def logs_command(
    logs: tuple[str, ...],
    robots: str | None,
    history: bool,
    store_path: str | None,
    robots_dir: str | None,
    robots_git: str | None,
    site: str | None,
    format_name: str,
    log_format: str | None,
    mapping: str | None,
    lists_dir: str | None,
    no_dns: bool,
    jobs: int | None,
    grace: float,
    as_json: bool,
    csv_out: str | None,
    parquet_out: str | None,
    html_out: str | None,
    fail_on: str | None,
    lang: str,
) -> None:
    """Audit server logs: each request of a known crawler judged against the robots.txt in force when it was made.

    Every request whose User-Agent names a crawler of the catalogue is
    judged: its claim verified by its operator's published IP lists (then
    reverse DNS, unless --no-dns), the robots.txt in force for its origin at
    its time (--robots, --history, --robots-dir or --robots-git), the verdict
    by its operator's reading with the deciding line, and one class:
    spoofed, exempt (robots.txt itself; a fetcher whose operator documents
    that robots.txt does not apply), unjudged (no file known in force),
    allowed, grace (disallowed by a file that came into force less than
    --grace before, allowed by the one before it, which the crawler may
    still have cached), unverified (disallowed, but the claim cannot be
    checked) or violation. Other requests (browsers, unknown bots) are counted, not
    judged. The summary gives the AI share by purpose, violators with the
    deciding line, spoofers by claimed crawler, crawlers that never read
    robots.txt, robots.txt read first in sessions, gaps against
    Crawl-delay and 403s to allowed requests; --html draws it as a page
    with charts (over time, the robots.txt versions marked). Logs may be gzip or bzip2,
    `-` is standard input. A line that is no request is counted and
    reported, never fatal. Exit code 1 at or above --fail-on, and when the
    answer is incomplete (requests no robots.txt judged, a log cut short,
    no line a request); 2 for bad usage. docs/logs.md says more.

    \b
    Examples:
      robotscope logs access.log --robots robots.txt --site https://example.com
      robotscope logs access.log.*.gz --robots-dir snapshots/ --csv audit.csv --fail-on violation
      robotscope logs caddy.json --history --json
      robotscope logs access.log --robots-dir snapshots/ --html audit.html --lang ko
    """
    if logs.count("-") > 1:
        fail(message("logs.error.stdin-twice"))
    if csv_out is not None and parquet_out is not None:
        fail(message("logs.error.one-rows-file"))
    if site is not None:
        try:
            site = origin_of(site)
        except InvalidURL as error:
            fail(message("logs.error.site", site=site, problem=error.reason))
    versions = _versions(robots, history, store_path, robots_dir, robots_git, site)
    if site is None and robots is not None:
        site = versions[0].origin  # `--robots URL` names the site of a log without hosts; a file names none
    # The lists of --lists alone, or the shipped snapshots and every version a history store keeps.
    lists = history_from(lists_dir, None if lists_dir is not None else store_path)
    kind = ".csv" if csv_out is not None else ".parquet" if parquet_out is not None else None
    files = None if kind is None else _open_rows(csv_out or parquet_out or "", kind)
    page = None if html_out is None else _open_page(html_out, files)
    rendering: Rendering = None if kind is None else "csv" if kind == ".csv" else "arrow"
    setup = Setup(versions, site, lists, not no_dns, rendering, grace)
    total, reading = Summary(), Summary()
    given = pieces(logs, Counted(reading), format_name, log_format, mapping, _told)
    written = [*(files or ()), *([page] if page is not None else [])]
    done = False
    settle()  # this process runs the audit to its end, or hands it to workers
    try:
        # Closed on the way out, whatever stops the loop: the workers end before the files are removed.
        with closing(results(setup, given, jobs or cores())) as audited:
            for summary, rendered in audited:
                total.then(summary)
                if files is not None:
                    files[0].write_rendered(rendered)
        total.then(reading)
        view = summary_view(total, lang, versions, grace)
        if files is not None:
            files[1].write(crawler_rows(view))
        if page is not None:
            page.write_rendered(document(view, lang))
        done = True
    except (Unreadable, FormatError) as error:
        fail(error.reason)
    except BrokenProcessPool:
        fail(message("logs.error.worker"))
    finally:
        for file in written:  # every file kept, or none (an interrupt until here leaves none)
            file.close(keep=done)
    _said_lines(view, lang)
    if as_json:
        echo_json(view)
    else:
        _terminal(view, lang)
    sys.exit(_exit_code(view, fail_on))


def _exit_code(view: dict[str, Any], fail_on: str | None) -> int:
    classes = view["classes"]
    if fail_on is not None and any(classes[kind] for kind in FAIL_ON[FAIL_ON.index(fail_on) :]):
        return 1
    return 1 if view["incomplete"] else 0


def _said_lines(view: dict[str, Any], lang: str) -> None:
    """The bad lines (the first few one by one, every one counted) and the logs cut short, on stderr."""
    bad = view["bad_lines"]
    for line in bad["first"][:_SHOWN]:
        warn(
            message("logs.cli.bad-line", source=line["source"], number=line["line"], reason=line["reason"]).render(lang)
        )
    if bad["count"]:
        reasons = [f"{reason['count']:,} × {reason['example']}" for reason in bad["reasons"]]
        warn(printable(message("logs.cli.bad", count=bad["count"], reasons=reasons).render(lang)))
    for stopped in view["stopped"]:
        warn(
            message(
                "logs.cli.stopped", source=stopped["source"], number=stopped["line"], reason=stopped["reason"]
            ).render(lang)
        )


def _terminal(view: dict[str, Any], lang: str) -> None:
    """The summary for people: totals, classes, versions, purposes, violators, spoofers, crawlers, what was never
    read. Each table under a line saying what it is (a title would wrap to the table's width)."""
    out = console()

    def show(said: Message) -> None:
        out.print(printable(said.render(lang)), markup=False, highlight=False)

    def say(code: str, **params: Any) -> None:
        show(message(code, **params))

    def table(title: str, *columns: str) -> Table:
        say(title)
        made = Table()
        for column in columns:
            made.add_column(message(f"logs.column.{column}").render(lang))
        return made

    show(totals(view))
    classes = view["classes"]
    say("logs.cli.classes", **{kind: classes[kind] for kind in classes})
    numbers = {found["ref"]: f"#{found['number']}" for found in view["versions"]}
    versions = table("logs.cli.versions", "number", "source", "since", "requests")
    for found in view["versions"]:
        if found["requests"]:
            since = found["since"] or message("logs.cli.always").render(lang)
            versions.add_row(numbers[found["ref"]], _shown(found["label"]), since, f"{found['requests']:,}")
    out.print(versions)
    purposes = table("logs.cli.purposes", "purpose", "requests", "share")
    for found in view["purposes"]:
        purposes.add_row(found["purpose"], f"{found['requests']:,}", f"{found['share']:.1%}")
    purposes.add_row(
        message("logs.cli.unaudited").render(lang), f"{view['unaudited']:,}", f"{view['unaudited_share']:.1%}"
    )
    out.print(purposes)
    say("logs.cli.ai", requests=view["ai"]["requests"], share=f"{view['ai']['share']:.1%}")
    if view["violators"]:
        violators = table("logs.cli.violators", "crawler", "requests", "number", "line", "rule")
        for found in view["violators"]:
            for at, line in enumerate(found["lines"][:3]):
                violators.add_row(
                    escape(found["token"]) if at == 0 else "",
                    f"{found['requests']:,}" if at == 0 else "",
                    numbers.get(line["robots_version"], "-"),
                    str(line["line"]) if line["line"] is not None else "-",
                    _shown(line["rule"] or "-") + f" (×{line['requests']:,})",
                )
        out.print(violators)
    else:
        say("logs.cli.no-violators")
    grace = within_grace(view)
    if grace is not None:
        show(grace)
    if view["spoofers"]:
        spoofers = table("logs.cli.spoofers", "crawler", "requests", "addresses", "top")
        for found in view["spoofers"]:
            top = ", ".join(f"{a['address']} (×{a['requests']:,})" for a in found["top"][:3])
            spoofers.add_row(escape(found["token"]), f"{found['requests']:,}", f"{found['addresses']:,}", _shown(top))
        out.print(spoofers)
    crawlers = table("logs.cli.crawlers", "crawler", "purpose", "requests", "verified", "robots", "delay", "blocked")
    for found in view["crawlers"]:
        sessions = found["sessions"]
        delay = "-"
        if sessions["delayed"]:
            said = message("logs.cli.delay", delay=sessions["delay"], short=sessions["short"], gaps=sessions["delayed"])
            delay = said.render(lang)
        crawlers.add_row(
            escape(found["token"]),
            found["purpose"],
            f"{found['requests']:,}",
            f"{found['verification'].get('verified', 0):,}",
            f"{sessions['robots_first']:,}/{sessions['sessions']:,} ({found['robots_fetches']:,})",
            delay,
            f"{found['blocked']:,}",
        )
    out.print(crawlers)
    if view["never_read_robots"]:
        say("logs.cli.never", crawlers=[found["token"] for found in view["never_read_robots"]])
    if view["blocked"]:
        say("logs.cli.blocked", crawlers=[f"{found['token']} ({found['requests']:,})" for found in view["blocked"]])
    if view["unjudged"]:
        origins = [found["origin"] or "-" for found in view["unjudged"][:5]]
        say("logs.cli.unjudged", count=classes["unjudged"], origins=origins)
        if any(found["origin"] is None for found in view["unjudged"]):
            say("logs.cli.no-host")


def _shown(text: str) -> str:
    """Text from a log or a file, as a table cell: control characters escaped, no Rich markup."""
    return escape(printable(text))
