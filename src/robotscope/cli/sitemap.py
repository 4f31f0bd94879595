"""`robotscope sitemap`: are the URLs a site's sitemaps list allowed to the crawlers that read them?"""

from __future__ import annotations

import json
import sys
from collections import deque
from typing import Any
from urllib.parse import urlsplit

import click

from ..access.engines.registry import PROFILED, resolve
from ..access.policy import Action
from ..download import get
from ..fetch import DEFAULT_UA
from ..messages import Message, message
from ..syntax.sitemap import MAX_BYTES, read_sitemap
from ..syntax.urls import InvalidURL, robots_url
from .options import FetchSettings, fetch_options, lang_option, one_engine_option, require_agents
from .output import fail, warn
from .sources import Origins, Source, looks_like_file, open_cache


@click.command("sitemap")
@click.argument("target", metavar="ROBOTS_OR_SITEMAP_URL")
@click.option(
    "--agent",
    "agents",
    multiple=True,
    default=("Googlebot",),
    show_default=True,
    help="A crawler to check the listed URLs for (repeatable).",
)
@click.option(
    "--max-sitemaps",
    type=click.IntRange(min=1),
    default=100,
    show_default=True,
    help="Sitemap files read at most (an index counts).",
)
@click.option(
    "--max-urls", type=click.IntRange(min=1), default=100_000, show_default=True, help="Listed URLs checked at most."
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@one_engine_option
@lang_option
@fetch_options
def sitemap_command(
    target: str,
    agents: tuple[str, ...],
    max_sitemaps: int,
    max_urls: int,
    as_json: bool,
    engine: str,
    lang: str,
    fetching: FetchSettings,
) -> None:
    """Check every URL a site's sitemaps list against the robots.txt of its own origin.

    ROBOTS_OR_SITEMAP_URL is a site or its robots.txt (its Sitemap lines are
    read) or one sitemap. Sitemap index files are followed (loops and
    repeats read once), gzip is inflated, and every file is bounded in bytes
    (50 MiB), URLs (50,000) and time (--timeout); XML with a DOCTYPE is
    refused, so no entity can expand. Lists the URLs a chosen crawler may
    not fetch, with the deciding line, and the URLs on another origin than
    their sitemap. Exit code 1 when a listed URL is blocked, for CI, or
    when the answer is incomplete (the robots.txt or a sitemap could not be
    read, or a limit was reached): one line on stderr says why.

    \b
    Examples:
      robotscope sitemap https://www.example.com/ --agent Googlebot --agent Bingbot
      robotscope sitemap https://www.example.com/sitemap.xml --json
    """
    require_agents(agents)
    if looks_like_file(target):
        fail(message("sitemap.not-url", target=target))
    if "://" not in target:
        target = "https://" + target
    cache = open_cache(fetching)
    try:
        report = _survey(target, list(agents), max_sitemaps, max_urls, fetching, cache, engine)
    finally:
        if hasattr(cache, "close"):
            cache.close()
    if as_json:
        click.echo(json.dumps(_as_data(report, lang), ensure_ascii=False, indent=2))
    else:
        click.echo(_as_text(report, lang))
    if report["incomplete"]:
        warn(message("sitemap.incomplete", reasons=report["incomplete"]).render(lang))
    sys.exit(1 if report["blocked"] or report["incomplete"] else 0)


def _survey(
    target: str,
    agents: list[str],
    max_sitemaps: int,
    max_urls: int,
    settings: FetchSettings,
    cache: Any,
    engine: str = PROFILED,
) -> dict[str, Any]:
    robots: Origins[Source] = Origins(settings, cache, lambda source: source)
    try:
        home = robots_url(target)
    except InvalidURL as error:
        fail(error.reason)
    # Sitemaps to read: at most as many as --max-sitemaps leaves room for, URLs only (an index
    # lists up to 50,000, and a queue of every one listed grew by gigabytes).
    queue: deque[tuple[str, str | None]] = deque()
    skipped = 0

    def listed(urls: tuple[str, ...], parent: str | None) -> None:
        nonlocal skipped
        room = max(0, max_sitemaps - len(files) - len(queue))
        queue.extend((url, parent) for url in urls[:room])
        skipped += max(0, len(urls) - room)

    files: list[dict[str, Any]] = []
    unread: Message | None = None
    robots_failed = False
    if urlsplit(target).path in ("", "/", "/robots.txt"):
        source = robots.of(target)
        assert source is not None
        listed(tuple(s.value for s in source.robots.sitemaps), None)
        listed_by: str | None = home
        fetched = source.fetched
        if fetched is not None and fetched.result.robots is None:  # a failed fetch: say why there is no list
            unread = message("sitemap.robots-unread", robots=home, why=fetched.decision.reason)
            # A 4xx means there is no file, so no list: complete. Anything else is a failure.
            robots_failed = fetched.decision.action is not Action.ALLOW_ALL
    else:
        listed((target,), None)
        listed_by = None
    blocked: list[dict[str, Any]] = []
    elsewhere: list[dict[str, Any]] = []
    seen: set[str] = set()
    checked = unchecked = 0
    while queue:
        url, parent = queue.popleft()
        if url in seen:
            files.append(
                {"url": url, "parent": parent, "kind": "repeat", "urls": 0, "problem": message("sitemap.repeat")}
            )
            continue
        seen.add(url)
        got = get(url, user_agent=DEFAULT_UA, timeout=settings.timeout, limit=MAX_BYTES)
        problem: Message | None
        if not got.ok:
            if got.status is None or got.error is not None:
                problem = message("sitemap.fetch-error", error=message(f"sitemap.error.{got.error or 'network'}"))
            else:
                problem = message("sitemap.fetch-failed", status=got.status)
            files.append({"url": url, "parent": parent, "kind": "unreadable", "urls": 0, "problem": problem})
            continue
        read = read_sitemap(got.body)
        problem = read.problem or (message("sitemap.cut", limit=MAX_BYTES) if got.cut else None)
        del got  # up to 50 MiB: not kept while the next file is read
        files.append({"url": url, "parent": parent, "kind": read.kind, "urls": len(read.locs), "problem": problem})
        if read.kind == "sitemapindex":
            listed(read.locs, url)
            continue
        try:
            own = robots_url(url)
        except InvalidURL:
            own = ""
        unchecked += max(0, len(read.locs) - (max_urls - checked))
        for loc in read.locs[: max(0, max_urls - checked)]:
            checked += 1
            source = robots.of(loc)
            if source is None:
                elsewhere.append({"url": loc, "sitemap": url, "invalid": True})
                continue
            if source.name != own:
                elsewhere.append({"url": loc, "sitemap": url, "invalid": False})
            for agent in agents:
                verdict = source.answer(agent, loc, resolve(engine, agent)).verdict
                if not verdict.allowed:
                    rule = None if verdict.rule is None else verdict.rule.text
                    blocked.append(
                        {
                            "url": loc,
                            "agent": agent,
                            "engine": resolve(engine, agent),
                            "line": verdict.line,
                            "rule": rule,
                            "reason": verdict.reason.value,
                            "robots_url": source.name,
                            "sitemap": url,
                        }
                    )
    return {
        "target": target,
        "listed_by": listed_by,
        "unread": unread,
        "files": files,
        "checked": checked,
        "blocked": blocked,
        "elsewhere": elsewhere,
        "agents": agents,
        "skipped": skipped,
        "unchecked": unchecked,
        "incomplete": _incomplete(home if robots_failed else None, files, skipped, unchecked),
    }


def _incomplete(robots: str | None, files: list[dict[str, Any]], skipped: int, unchecked: int) -> list[Message]:
    """Why the answer is incomplete, one reason each; empty when it is whole."""
    reasons = []
    if robots is not None:
        reasons.append(message("sitemap.incomplete.robots", robots=robots))
    unreadable = sum(f["kind"] == "unreadable" for f in files)
    if unreadable:
        reasons.append(message("sitemap.incomplete.unreadable", n=unreadable))
    partial = sum(f["kind"] not in ("unreadable", "repeat") and f["problem"] is not None for f in files)
    if partial:
        reasons.append(message("sitemap.incomplete.partial", n=partial))
    if skipped:
        reasons.append(message("sitemap.incomplete.skipped", n=skipped))
    if unchecked:
        reasons.append(message("sitemap.incomplete.unchecked", n=unchecked))
    return reasons


def _as_data(report: dict[str, Any], lang: str) -> dict[str, Any]:
    files = [{**f, "problem": None if f["problem"] is None else f["problem"].as_dict(lang)} for f in report["files"]]
    unread = None if report["unread"] is None else report["unread"].as_dict(lang)
    incomplete = [reason.as_dict(lang) for reason in report["incomplete"]]
    return {**report, "files": files, "unread": unread, "incomplete": incomplete}


def _as_text(report: dict[str, Any], lang: str) -> str:
    def text(code: str, **params: Any) -> str:
        return message(code, **params).render(lang)

    out = []
    if report["unread"] is not None:
        out.append(report["unread"].render(lang))
    elif report["listed_by"] is not None:
        out.append(
            text("sitemap.listed", robots=report["listed_by"], n=sum(1 for f in report["files"] if f["parent"] is None))
        )
    for f in report["files"]:
        line = "  " + text(
            f"sitemap.file.{f['kind']}" if f["kind"] in ("urlset", "sitemapindex", "text") else "sitemap.file.other",
            url=f["url"],
            n=f["urls"],
        )
        problem = f["problem"]
        out.append(line + ("" if problem is None else f" ({problem.render(lang)})"))
    if report["blocked"]:
        out.append(text("sitemap.blocked-heading", n=len(report["blocked"])))
        for b in report["blocked"]:
            code = "sitemap.blocked" if b["line"] is not None else "sitemap.blocked-status"
            out.append(
                "  "
                + text(
                    code,
                    agent=b["agent"],
                    url=b["url"],
                    line=b["line"] or 0,
                    rule=b["rule"] or "",
                    robots=b["robots_url"],
                    sitemap=b["sitemap"],
                    reason=b["reason"],
                )
            )
    if report["elsewhere"]:
        out.append(text("sitemap.elsewhere-heading", n=len(report["elsewhere"])))
        out.extend("  " + text("sitemap.elsewhere", url=e["url"], sitemap=e["sitemap"]) for e in report["elsewhere"])
    if report["skipped"]:
        out.append(text("sitemap.skipped", n=report["skipped"]))
    out.append(
        text(
            "sitemap.summary",
            urls=report["checked"],
            files=len(report["files"]),
            blocked=len(report["blocked"]),
            agents=report["agents"],
        )
    )
    return "\n".join(out)
