"""`robotscope page`: may each crawler fetch this page, what does the server answer it, and can the page be indexed?"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from ..fetch import run
from ..messages import message
from ..pagecheck import check_page, has_problem
from ..syntax.urls import InvalidURL
from .options import FetchSettings, fetch_options, lang_option, one_engine_option, require_agents
from .output import fail
from .sources import open_cache


@click.command("page")
@click.argument("url")
@click.option(
    "--agent",
    "agents",
    multiple=True,
    default=("Googlebot",),
    show_default=True,
    help="A crawler to ask for (repeatable).",
)
@click.option(
    "--user-agent",
    "user_agent",
    default=None,
    help="The User-Agent string to send (default: each crawler's documented one).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@one_engine_option
@lang_option
@fetch_options
def page_command(
    url: str,
    agents: tuple[str, ...],
    user_agent: str | None,
    as_json: bool,
    engine: str,
    lang: str,
    fetching: FetchSettings,
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
    finding is a problem. It also says, for each User-Agent string sent,
    whether a site that verifies crawlers would take the fetch for the
    crawler it claims: the fetches come from this machine, so a claim its
    operator publishes IP lists or host names for fails there, and the
    site's answer may differ from what the real crawler gets.

    \b
    Examples:
      robotscope page https://www.example.com/private/report --agent Googlebot --agent Bingbot
    """
    require_agents(agents)
    if "://" not in url:
        url = "https://" + url
    cache = open_cache(fetching)
    try:
        checking = check_page(
            url,
            list(agents),
            engine=engine,
            policy=fetching.policy,
            timeout=fetching.timeout,
            lang=lang,
            cache=cache,
            user_agent=user_agent,
        )
        result = run(checking)
    except InvalidURL as error:
        fail(error.reason, lang)
    finally:
        if hasattr(cache, "close"):
            cache.close()
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        click.echo(_as_text(result, lang))
    sys.exit(1 if has_problem(result) else 0)


def _as_text(result: dict[str, Any], lang: str) -> str:
    def text(code: str, **params: Any) -> str:
        return message(code, **params).render(lang)

    out = [text("pagecheck.heading", url=result["url"], robots=result["robots_url"]), text("verify.own.heading")]
    out.extend(f"  {fetch['agent']}: {fetch['text']}" for fetch in result["fetched_as"])
    for r in result["crawlers"]:
        v, resp, page = r["verdict"], r["response"], r["page"]
        out.append(f"{r['agent']} ({r['user_agent']})")
        word = text("verdict.allowed") if v["allowed"] else text("verdict.disallowed")
        where = (
            text("pagecheck.line", line=v["line"], rule=v["rule"])
            if v["line"] is not None
            else text(f"reason.{v['reason']}")
        )
        out.append(f"  {text('pagecheck.robots')}: {word}, {where}")
        if resp["status"] is None:
            status = text("pagecheck.no-response", error=resp["error"])
        elif resp["redirects"]:
            status = text("pagecheck.redirected", status=resp["status"], n=len(resp["redirects"]))
        else:
            status = text("pagecheck.status", status=resp["status"])
        out.append(f"  {text('pagecheck.response')}: {status}")
        if page is not None:
            said = [f"{d} ({s})" for d, s in zip(page["directives"], page["sources"], strict=True)] or [
                text("pagecheck.none")
            ]
            out.append(f"  {text('pagecheck.directives')}: {', '.join(said)}")
            if page["canonical"]:
                allowed = r["canonical_allowed"]
                state = (
                    ""
                    if allowed is None
                    else f" ({text('verdict.allowed') if allowed else text('verdict.disallowed')})"
                )
                out.append(f"  {text('pagecheck.canonical')}: {page['canonical']}{state}")
            if page["content_usage"]:
                out.append(f"  Content-Usage: {', '.join(f'{k}={v}' for k, v in page['content_usage'].items())}")
        for f in r["findings"]:
            out.append(f"  {f['code']}: {f['message']['text']}")
    return "\n".join(out)
