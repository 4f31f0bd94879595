"""`robotscope check`: may this crawler fetch these URLs, and which line decides?"""

from __future__ import annotations

import sys
from typing import Any

import click

from ..access.engines.registry import ALL, names, resolve
from ..reports.linter import lint
from ..reports.render import finding_lines, render_readings, render_verdict
from ..reports.views import readings_view, verdict_view
from ..syntax.model import Finding
from ..syntax.urls import InvalidURL, robots_url
from .options import (
    FetchSettings,
    engine_option,
    fetch_options,
    json_option,
    lang_option,
    require_agents,
    require_checkable,
)
from .output import echo_json, echo_text, fail
from .sources import Source, is_url, load


def findings_for(view: dict[str, Any], findings: list[Finding]) -> list[Finding]:
    """The findings about the lines a verdict involves: its rule, its group, its candidates (the whole
    file's are `Source.findings`)."""
    involved = {view["line"], *view["group_lines"], *(c["line"] for c in view["candidates"])}
    return [f for f in findings if f.line is not None and involved.intersection(f.lines)]


@click.command()
@click.argument("robots_file", metavar="ROBOTS")
@click.argument("agent")
@click.argument("urls", nargs=-1, metavar="URL...")
@click.option(
    "--origin",
    metavar="URL",
    help="The site the robots.txt file belongs to (e.g. https://www.example.com), "
    "so URLs on other origins are flagged.",
)
@engine_option
@json_option
@lang_option
@fetch_options
def check(
    robots_file: str,
    agent: str,
    urls: tuple[str, ...],
    origin: str | None,
    engine: str,
    as_json: bool,
    lang: str,
    fetching: FetchSettings,
) -> None:
    """Check URLs against a robots.txt: a file, `-` for standard input, or a site's URL.

    With an http(s) URL as ROBOTS, its origin's robots.txt is fetched
    (through the cache unless --no-cache), and with no URL given, that URL
    itself is checked. AGENT is a product token (Googlebot) or a full
    User-Agent string. Each URL is a path starting with / or a full http(s)
    URL. Where the crawler's operator documents how it picks a group
    (Googlebot-Image obeys the Googlebot group), that is applied, with a
    note when it changes the RFC 9309 answer. Exit code 0 when every URL is
    allowed, 1 when any is disallowed, 2 for a bad URL or agent.

    --engine reads the file as one engine does (rfc9309: RFC 9309 alone,
    google, bing, naver, yandex, legacy, protego; the default,
    rfc9309+profiles, is RFC 9309 with the crawler's documented profile),
    `all` shows every engine side by side, `operator` reads the crawler by
    its own operator's reading. A note says when the crawler's operator
    reads the URL otherwise.

    \b
    Examples:
      robotscope check robots.txt Googlebot https://example.com/private/x /shop?id=1
      robotscope check https://example.com/private/x Googlebot --policy google
      robotscope check robots.txt Bingbot https://example.com/a --origin https://example.com --lang ko
      robotscope check robots.txt Googlebot /oops --engine all
    """
    if not urls and not is_url(robots_file):
        raise click.UsageError("Missing argument 'URL...'.")
    require_agents([agent])
    urls = urls or (robots_file,)
    require_checkable(urls)
    try:
        home = robots_url(origin) if origin is not None else None
    except InvalidURL as error:
        fail(error.reason)
    source = load(robots_file, fetching)
    home = source.robots_url or home
    if engine == ALL:
        _side_by_side(source, agent, urls, as_json, lang)
    views = []
    for url in urls:
        name = resolve(engine, agent)
        answer = source.answer(agent, url, name)
        views.append(verdict_view(answer, lang, source.notes(agent, url, answer, name, home)))
    whole = source.findings()
    if as_json:
        findings = lint(source.robots)
        data = [{**v, "findings": [f.as_dict(lang) for f in [*whole, *findings_for(v, findings)]]} for v in views]
        if source.fetched is not None:
            data = [{**item, "robots_txt": source.fetched.decision.as_dict(lang)} for item in data]
        echo_json(data)
    else:
        banner = source.banner(lang)
        if banner is not None:
            click.echo(banner + "\n")
        if whole:
            # Said once, before the verdicts: an unreadable or cut file changes every one of them.
            click.echo("\n".join(finding_lines(source.robots, whole, source.name, lang)) + "\n")
        echo_text("\n\n".join(render_verdict(source.robots, v, agent, lang) for v in views))
    sys.exit(0 if all(v["allowed"] for v in views) else 1)


def _side_by_side(source: Source, agent: str, urls: tuple[str, ...], as_json: bool, lang: str) -> None:
    """`--engine all`: every engine's verdict on each URL; exit code 1 when any engine disallows one."""
    views = []
    for url in urls:
        verdicts = (
            source.robots.readings(agent, url)
            if source.rules_apply
            else {n: source.verdict(agent, url) for n in names()}
        )
        views.append(readings_view(url, verdicts, lang, source.answer(agent, url).usage))
    if as_json:
        echo_json(views)
    else:
        echo_text("\n\n".join(render_readings(v, lang) for v in views))
    sys.exit(0 if all(r["allowed"] for v in views for r in v["readings"].values()) else 1)
