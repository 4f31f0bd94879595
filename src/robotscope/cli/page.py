"""`robotscope page`: may each crawler fetch this page, what does the server answer it, and can the page be indexed?"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from ..crawlers import get as crawler
from ..download import Download, get
from ..engines import resolve
from ..indexing import MAX_HTML, findings, page_facts
from ..messages import message
from ..model import LineKind
from ..urls import InvalidURL, checked_url, robots_url
from .common import (
    Fetched,
    FetchSettings,
    Source,
    engine_option,
    fail,
    fetch_options,
    lang_option,
    open_cache,
)

# Findings that say something is wrong (exit code 1), as opposed to facts worth knowing.
PROBLEMS = {"blockedNoindex", "blockedIndexable", "canonicalBlocked", "serverRefuses", "noindexInRobotsTxt"}


@click.command("page")
@click.argument("url")
@click.option("--agent", "agents", multiple=True, default=("Googlebot",), show_default=True, help="A crawler to ask for (repeatable).")
@click.option("--user-agent", "user_agent", default=None, help="The User-Agent string to send (default: each crawler's documented one).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@engine_option
@lang_option
@fetch_options
def page_command(
    url: str, agents: tuple[str, ...], user_agent: str | None, as_json: bool, engine: str, lang: str, fetching: FetchSettings
) -> None:
    """Check one page for each crawler: robots.txt, the server's answer, and its indexing directives.

    Fetches the page's robots.txt (through the cache) and the page itself,
    sending each crawler's documented User-Agent string, within --timeout
    and 1 MiB of HTML, and reports per crawler: the robots.txt verdict and
    its deciding line; the HTTP status the crawler got; the X-Robots-Tag and
    robots meta directives aimed at it; the canonical link and whether
    robots.txt blocks it; the Content-Usage header. Findings name what
    cancels out (a noindex the crawler never sees, a canonical it may not
    fetch, a server that refuses what robots.txt allows). Exit code 1 when a
    finding is a problem.

    \b
    Examples:
      robotscope page https://www.example.com/private/report --agent Googlebot --agent Bingbot
    """
    if "://" not in url:
        url = "https://" + url
    try:
        checked_url(url)
        home = robots_url(url)
    except InvalidURL as error:
        fail(error.reason, lang)
    cache = open_cache(fetching)
    try:
        fetched = Fetched(home, fetching, cache)
        source = Source(home, fetched.robots, fetched)
        sources = {home: source}
        robots_noindex = any(line.kind is LineKind.OTHER and (line.key or "").lower() == "noindex" for line in source.robots.lines)
        pages: dict[str, Download] = {}
        results: list[dict[str, Any]] = []
        for agent in agents:
            name = resolve(engine, agent)
            verdict = source.answer(agent, url, name).verdict
            known = crawler(agent)
            sent = user_agent or (known.user_agent if known is not None and known.user_agent else agent)
            got = pages.get(sent) or pages.setdefault(sent, get(url, user_agent=sent, timeout=fetching.timeout, limit=MAX_HTML))
            facts = page_facts(got.url, got.headers, got.body, verdict.agent_token) if got.status is not None else None
            canonical_verdict = None
            if facts is not None and facts.canonical and facts.canonical != url:
                canonical_verdict = _verdict_elsewhere(facts.canonical, agent, name, sources, fetching, cache)
            found = findings(verdict, got.status, facts, canonical_verdict, robots_noindex)
            results.append({
                "agent": agent, "user_agent": sent, "engine": name,
                "verdict": {"allowed": verdict.allowed, "line": verdict.line, "rule": None if verdict.rule is None else verdict.rule.text, "reason": verdict.reason.value},
                "response": {"url": got.url, "status": got.status, "redirects": list(got.redirects), "error": got.error, "cut": got.cut},
                "page": None if facts is None else facts.as_dict(),
                "canonical_allowed": None if canonical_verdict is None else canonical_verdict.allowed,
                "findings": [f.as_dict(lang) for f in found],
            })
    finally:
        if hasattr(cache, "close"):
            cache.close()
    if as_json:
        click.echo(json.dumps({"url": url, "robots_url": home, "crawlers": results}, ensure_ascii=False, indent=2))
    else:
        click.echo(_as_text(url, home, results, lang))
    sys.exit(1 if any(f["code"] in PROBLEMS for r in results for f in r["findings"]) else 0)


def _verdict_elsewhere(url: str, agent: str, name: str, sources: dict[str, Source], settings: FetchSettings, cache: Any) -> Any:
    try:
        origin = robots_url(url)
    except InvalidURL:
        return None
    source = sources.get(origin)
    if source is None:
        fetched = Fetched(origin, settings, cache)
        source = sources[origin] = Source(origin, fetched.robots, fetched)
    return source.answer(agent, url, name).verdict


def _as_text(url: str, home: str, results: list[dict[str, Any]], lang: str) -> str:
    def text(code: str, **params: Any) -> str:
        return message(code, **params).render(lang)

    out = [text("page.heading", url=url, robots=home)]
    for r in results:
        v, resp, page = r["verdict"], r["response"], r["page"]
        out.append(f"{r['agent']} ({r['user_agent']})")
        word = text("verdict.allowed") if v["allowed"] else text("verdict.disallowed")
        where = text("page.line", line=v["line"], rule=v["rule"]) if v["line"] is not None else text(f"reason.{v['reason']}")
        out.append(f"  {text('page.robots')}: {word}, {where}")
        if resp["status"] is None:
            status = text("page.no-response", error=resp["error"])
        elif resp["redirects"]:
            status = text("page.redirected", status=resp["status"], n=len(resp["redirects"]))
        else:
            status = text("page.status", status=resp["status"])
        out.append(f"  {text('page.response')}: {status}")
        if page is not None:
            said = [f"{d} ({s})" for d, s in zip(page["directives"], page["sources"])] or [text("page.none")]
            out.append(f"  {text('page.directives')}: {', '.join(said)}")
            if page["canonical"]:
                allowed = r["canonical_allowed"]
                state = "" if allowed is None else f" ({text('verdict.allowed') if allowed else text('verdict.disallowed')})"
                out.append(f"  {text('page.canonical')}: {page['canonical']}{state}")
            if page["content_usage"]:
                out.append(f"  Content-Usage: {', '.join(f'{k}={v}' for k, v in page['content_usage'].items())}")
        for f in r["findings"]:
            out.append(f"  {f['code']}: {f['message']['text']}")
    return "\n".join(out)


