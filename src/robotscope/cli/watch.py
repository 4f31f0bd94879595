"""`robotscope watch`: fetch sites' robots.txt as a browser and as crawlers, keep every version, alert on changes."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..history import HistoryStore, default_path, origin_of
from ..history.views import iso
from ..messages import Message, message
from ..reports.verification import OwnFetch, own_fetches
from ..reports.watch.alerts import Alert, Severity
from ..reports.watch.payload import json_payload, slack_payload
from ..syntax.urls import InvalidURL
from ..watching.agents import DEFAULT_AGENTS, user_agent
from .expect import read_expectations
from .options import lang_option, seconds_of, store_option, timeout_option
from .output import echo_text, fail, warn

if TYPE_CHECKING:  # the fetching modules need httpx, imported when a watch runs, not for every command
    from ..watching.run import OriginWatch, Seen

WEBHOOK_FORMATS = ("json", "slack")

FAIL_ON = ("critical", "major", "minor", "info", "never")
SHORTEST_EVERY = 10.0  # seconds: a site is not fetched more often than this by --every


def _fetch_line(seen: Seen, fresh: set[str]) -> Message:
    fetch, version = seen.recorded.fetch, seen.recorded.version
    status = fetch.status if fetch.status is not None else "-"
    if version is None:
        return message("watch.cli.fetch.failed", agent=seen.agent, status=status, failure=fetch.failure or "")
    # First seen in this run (by any agent), an older version back, or the same as before.
    kind = "new" if version.sha256 in fresh else "changed" if seen.changed else "same"
    return message(f"watch.cli.fetch.{kind}", agent=seen.agent, status=status, version=version.short)


def _alert_lines(alert: Alert, lang: str, indent: str = "  ") -> list[str]:
    lines = [f"{indent}{alert.severity.value} {alert.code}: {alert.text(lang)}"]
    for side, evidence in (("before", alert.before), ("after", alert.after)):
        for each in evidence:
            said = message("watch.line", line=each.line, text=each.text).render(lang)
            lines.append(f"{indent}    {message(f'watch.cli.{side}').render(lang)}: {said}")
    for detail in alert.details:
        lines.extend(_alert_lines(detail, lang, indent + "    "))
    return lines


def render(found: Sequence[OriginWatch], lang: str) -> str:
    """The run as text: each origin, what each agent got, its alerts worst first."""
    lines = []
    for origin in found:
        fresh = {s.recorded.version.sha256 for s in origin.seen if s.recorded.new and s.recorded.version is not None}
        fetches = "; ".join(_fetch_line(seen, fresh).render(lang) for seen in origin.seen)
        lines.append(f"{origin.origin}: {fetches}")
        if not origin.alerts:
            lines.append(f"  {message('watch.cli.quiet').render(lang)}")
        for alert in origin.alerts:
            lines.extend(_alert_lines(alert, lang))
    return "\n".join(lines)


def worst(found: Sequence[OriginWatch]) -> Severity | None:
    ranks = [origin.worst for origin in found if origin.worst is not None]
    return min(ranks, key=lambda severity: severity.rank) if ranks else None


def fails(found: Sequence[OriginWatch], fail_on: str) -> bool:
    """Whether an alert at or above `fail_on` fired (never, for `never`)."""
    top = worst(found)
    return fail_on != "never" and top is not None and top.at_least(Severity(fail_on))


def notify(found: Sequence[OriginWatch], url: str, shape: str, lang: str, timeout: float) -> list[str]:
    """POST each origin's alerts (origins with none are not sent); the reasons of the posts that failed."""
    from ..fetch import run
    from ..watching.webhook import post

    failed = []
    for origin in found:
        if not origin.alerts:
            continue
        make = slack_payload if shape == "slack" else json_payload
        reason = run(post(url, make(list(origin.alerts), origin.origin, lang), timeout=timeout))
        if reason is not None:
            failed.append(message("watch.cli.webhook.failed", origin=origin.origin, reason=reason).render(lang))
    return failed


@click.command("watch")
@click.argument("urls", nargs=-1, required=True, metavar="URL...")
@click.option("--once", is_flag=True, help="Watch once and exit (the default without --every).")
@click.option("--every", metavar="DURATION", help="Watch again every DURATION (30s, 15m, 1h, 1d) until Ctrl-C.")
@click.option(
    "--agents",
    default=",".join(DEFAULT_AGENTS),
    show_default=True,
    metavar="LIST",
    help="Whom to fetch as, comma-separated: `browser`, catalogue crawlers (Googlebot, GPTBot, ...) or "
    "User-Agent strings. The first is the reference the others are compared with.",
)
@store_option
@click.option("--url", "asked", multiple=True, metavar="URL", help="A URL whose verdicts to compare too (repeatable).")
@click.option("--expect", "expect_file", metavar="FILE", help="An expectation file (TOML) checked at every watch.")
@click.option("--webhook", metavar="URL", help="POST the alerts there, one request per origin with alerts.")
@click.option(
    "--webhook-format",
    type=click.Choice(WEBHOOK_FORMATS),
    default="json",
    show_default=True,
    help="json: {origin, count, worst, alerts}; slack: a Slack-compatible message.",
)
@click.option(
    "--fail-on",
    type=click.Choice(FAIL_ON),
    default="major",
    show_default=True,
    help="Exit code 1 when an alert at or above this severity fires.",
)
@click.option("--jobs", type=click.IntRange(1, 256), default=8, show_default=True, help="Origins fetched at once.")
@timeout_option
@click.option("--json", "as_json", is_flag=True, help="Print each run as one JSON document (one line per run).")
@lang_option
def watch_command(
    urls: tuple[str, ...],
    once: bool,
    every: str | None,
    agents: str,
    store_path: str | None,
    asked: tuple[str, ...],
    expect_file: str | None,
    webhook: str | None,
    webhook_format: str,
    fail_on: str,
    jobs: int,
    timeout: float,
    as_json: bool,
    lang: str,
) -> None:
    """Fetch each URL's robots.txt as a browser and as crawlers, keep every version, and alert on what changed.

    Each origin is fetched once per agent and run, one request at a time to
    a site. Every fetch goes to the history store (`robotscope history`
    reads it). The alerts say what a change does, worst first: verdict
    flips per crawler with the deciding line in each version, a failed
    fetch and what each engine then does, HTML or a bot challenge served
    as robots.txt, a file served differently to crawlers, an edge-injected
    block (Cloudflare's managed robots.txt), a file past 500 KiB, sitemap
    and usage-preference changes, failed expectations; docs/watch-alerts.md
    lists the codes. A run that finds nothing new says so. Exit code 1 when
    an alert at or above --fail-on fires or the webhook did not take the
    alerts, 2 for bad usage. The first run also says, per agent, whether a
    site that verifies crawlers would take the fetches for the crawler
    they claim (they come from this machine); --json says it every run.

    \b
    Examples:
      robotscope watch https://example.com/ --once
      robotscope watch https://example.com/ https://shop.example/ --every 15m --webhook https://hooks.example/x
      robotscope watch https://example.com/ --agents browser,Googlebot,GPTBot,ClaudeBot --expect robots-expect.toml
    """
    from ..fetch import run
    from ..watching.run import watch_once

    labels = [label.strip() for label in agents.split(",") if label.strip()]
    if not labels:
        fail(message("cli.empty-agent"))
    for url in urls:
        try:
            origin_of(url)
        except InvalidURL as error:
            fail(message("watch.cli.error.url", url=url, reason=str(error)))
    if once and every is not None:
        fail(message("watch.cli.error.once"))
    interval = None if every is None else seconds_of(every)
    if every is not None and (interval is None or interval < SHORTEST_EVERY):
        fail(message("watch.cli.error.every", value=every, shortest=int(SHORTEST_EVERY)))
    expectations = None if expect_file is None else read_expectations(expect_file)
    fetched_as = own_fetches((label, user_agent(label)) for label in labels)
    store = HistoryStore(Path(store_path) if store_path is not None else default_path())
    runs = 0
    code = 0
    try:
        while True:
            started = time.monotonic()
            found = run(
                watch_once(
                    urls, store, agents=labels, jobs=jobs, timeout=timeout, asked=asked, expectations=expectations
                )
            )
            runs += 1
            for warning in store.take_warnings():
                warn(warning)
            undelivered = notify(found, webhook, webhook_format, lang, timeout) if webhook else []
            _show(found, fetched_as, undelivered, runs, as_json, lang)
            code = 1 if fails(found, fail_on) or undelivered else 0
            if interval is None:
                break
            time.sleep(max(0.0, interval - (time.monotonic() - started)))
    except KeyboardInterrupt:
        click.echo(message("watch.cli.stopped", runs=runs).render(lang), err=True)
    finally:
        store.close()
    sys.exit(code)


def _show(
    found: Sequence[OriginWatch],
    fetched_as: Sequence[OwnFetch],
    undelivered: list[str],
    runs: int,
    as_json: bool,
    lang: str,
) -> None:
    for reason in undelivered:
        warn(reason)
    top = worst(found)
    if as_json:
        document: dict[str, Any] = {
            "run": runs,
            "at": iso(time.time()),
            "worst": None if top is None else top.value,
            "origins": [origin.as_dict(lang) for origin in found],
            "fetched_as": [fetch.as_dict(lang) for fetch in fetched_as],
            "webhook_failures": undelivered,
        }
        click.echo(json.dumps(document, ensure_ascii=False))
        return
    alerts = sum(len(origin.alerts) for origin in found)
    summary = message(
        "watch.cli.summary",
        origins=len(found),
        alerts=alerts,
        worst=message("watch.cli.none") if top is None else top.value,
    )
    lines = [render(found, lang), summary.render(lang)]
    if runs == 1:  # what the agents claim does not change between runs: said once
        lines.append(message("verify.own.heading").render(lang))
        lines.extend(f"  {fetch.agent}: {fetch.reason.render(lang)}" for fetch in fetched_as)
    echo_text("\n".join(lines))
