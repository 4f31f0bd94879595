"""`robotscope readings`: how each engine reads the same file, and where their verdicts split."""

from __future__ import annotations

import sys
from collections.abc import Callable

import click

from ..messages import message
from ..reports.compare.lines import differences
from ..reports.compare.readings import default_agents, probes, splits
from ..reports.render import printable, render_readings
from .options import FetchSettings, fetch_options, json_option, lang_option, require_checkable
from .output import echo_json, echo_text
from .sources import load

# Crawler/URL pairs from which a long comparison shows its progress (a terminal only).
PROGRESS_FROM = 20_000


def progress_bar(lang: str) -> Callable[[int, int], None] | None:
    """A progress line on standard error, redrawn in place, when it is a terminal (None otherwise)."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        text = message("readings.progress", done=done, total=total).render(lang)
        sys.stderr.write(f"\r{text}" + ("\n" if done == total else ""))
        sys.stderr.flush()

    return show


@click.command("readings")
@click.argument("robots_file", metavar="ROBOTS")
@click.argument("agents", nargs=-1, metavar="[AGENT...]")
@click.option(
    "--url",
    "urls",
    multiple=True,
    metavar="URL",
    help="A URL to compare too (repeatable); URLs from the file's rules are always compared.",
)
@json_option
@lang_option
@fetch_options
def readings_command(
    robots_file: str, agents: tuple[str, ...], urls: tuple[str, ...], as_json: bool, lang: str, fetching: FetchSettings
) -> None:
    """How RFC 9309, Google, Bing, Naver, Yandex, legacy first-match parsers and Protego read the same file.

    Lists every line that engines read differently (a rule for one, nothing
    for another) and what each makes of it, then the crawler/URL pairs whose
    verdicts split, with each engine's verdict and deciding line. AGENTs
    default to every crawler the file names, each operator's main crawler
    and one crawler no file names. Exit code 1 when the readings disagree
    for those agents, for CI.

    \b
    Examples:
      robotscope readings robots.txt
      robotscope readings robots.txt Googlebot GPTBot --url /private/x --json
    """
    require_checkable(urls)
    source = load(robots_file, fetching)
    robots = source.robots
    lines = differences(robots)
    asked = list(agents) or default_agents(robots)
    probe, capped = probes(robots, urls)
    found = splits(robots, asked, probe, progress_bar(lang) if len(asked) * len(probe) >= PROGRESS_FROM else None)
    if as_json:
        echo_json(
            {
                "robots": source.name,
                "lines": [line.as_dict() for line in lines],
                "agents": asked,
                "urls": len(probe),
                "urls_capped": capped,
                "splits": [split.as_dict(lang) for split in found],
            }
        )
    else:
        out = []
        if lines:
            out.append(message("readings.lines", count=len(lines)).render(lang))
            for line in lines:
                out.append(f"  {line.line} | {printable(line.raw)}")
                width = max(len(name) for name in line.by_engine)
                out.extend(f"      {name:<{width}}  {printable(seen)}" for name, seen in line.by_engine.items())
        else:
            out.append(message("readings.no-lines").render(lang))
        if found:
            out.append(message("readings.splits", count=len(found), agents=len(asked), urls=len(probe)).render(lang))
            for split in found:
                out.append(f"{split.agent}: " + render_readings(split.as_dict(lang), lang))
        else:
            out.append(message("readings.no-splits", agents=len(asked), urls=len(probe)).render(lang))
        if capped:
            out.append(message("readings.capped", urls=len(probe)).render(lang))
        echo_text("\n".join(out))
    sys.exit(1 if found else 0)
