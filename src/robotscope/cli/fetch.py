"""`robotscope fetch`: what a crawler really sees at /robots.txt, per search engine."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import click

from ..messages import message
from ..reports.linter import lint
from ..reports.render import printable, render_findings
from ..reports.views import verdict_view
from ..syntax.crawlers import Crawler, select
from ..syntax.model import Finding
from .options import FetchSettings, agents_option, fetch_options, json_option, lang_option
from .output import echo_json, echo_text
from .sources import fetch

if TYPE_CHECKING:
    from ..fetch import FetchResult


def page_of(url: str) -> str | None:
    """The page `url` names, when it names one: a path other than `/` and `/robots.txt`, or a query."""
    parts = urlsplit(url)
    if parts.path in ("", "/", "/robots.txt") and not parts.query:
        return None
    return url


def page_verdicts(result: FetchResult, page: str, crawlers: list[Crawler], lang: str) -> list[dict[str, Any]]:
    """Each crawler's verdict on `page` after this fetch, as `check` gives it (`FetchResult.answer`)."""
    return [{"crawler": c.token, **verdict_view(result.answer(c.token, page), lang)} for c in crawlers]


def render_verdicts(page: str, views: list[dict[str, Any]], lang: str) -> str:
    """One line per crawler: allowed or not, and the deciding line with why."""
    width = max(len(v["crawler"]) for v in views)
    words = {True: message("verdict.allowed").render(lang), False: message("verdict.disallowed").render(lang)}
    pad = max(len(w) for w in words.values())
    out = [message("fetch.verdicts", url=page).render(lang)]
    out.extend(f"  {v['crawler']:<{width}}  {words[v['allowed']]:<{pad}}  {v['explanation']['text']}" for v in views)
    return printable("\n".join(out))


def render_fetch(result: FetchResult, findings: list[Finding], lang: str) -> str:
    """A fetch as text: the chain, the response, every policy's decision side by side, the findings."""

    def text(code: str, **params: Any) -> str:
        return message(code, **params).render(lang)

    cached = f"  ({text('fetch.from-cache')})" if result.from_cache else ""
    out = [f"robots.txt: {result.robots_url}{cached}"]
    out.extend(f"  {i}. {status} {printable(url)}" for i, (url, status) in enumerate(result.hops, 1))
    if result.error is not None:
        out.append(f"{text('fetch.error')}: {result.error.kind}: {printable(result.error.message)}")
    size = text("fetch.size", bytes=result.bytes_received)
    if result.truncated:
        # The true size of the file: the rest was read only to count it (within bounds).
        whole = "fetch.whole" if result.size_exact else "fetch.whole-at-least"
        size = text(whole, bytes=result.body_size, lines=result.body_lines, kept=result.bytes_received)
    status = result.status if result.status is not None else "-"
    out.append(text("fetch.response", status=status, type=printable(result.content_type or "-"), size=size))
    out.append(f"{text('fetch.decisions')}:")
    width = max(len(name) for name in result.decisions)
    for name, decision in result.decisions.items():
        mark = "*" if name == result.policy else " "
        out.append(f"  {mark} {name:<{width}}  {decision.action:<12}  {decision.reason.render(lang)}")
    if result.robots is not None:
        out.append(render_findings(result.robots, findings, result.robots_url, lang))
    return "\n".join(out)


@click.command("fetch")
@click.argument("url")
@json_option
@agents_option("search")
@lang_option
@fetch_options
def fetch_command(url: str, as_json: bool, agents: str, lang: str, fetching: FetchSettings) -> None:
    """Fetch a site's robots.txt the way crawlers do, and say what each search engine concludes.

    Shows the redirect chain, the status, content type and size, the
    decision of every policy side by side (* marks --policy), what the
    response's Content-Type says, and the lint findings of the body. Given
    a page's URL (a path other than / or /robots.txt), it ends with each
    crawler's verdict on that page (--agents: the search engines' crawlers
    unless told otherwise) and the line that decides it. Exit code 1 when
    the --policy decision is disallow all, else 0.

    \b
    Examples:
      robotscope fetch https://example.com/ --policy google
      robotscope fetch https://example.com/private/report --agents GPTBot,Googlebot
      robotscope fetch https://example.com/ --no-cache --lang ko
    """
    result = fetch(url, fetching).result
    # The file's own findings after those of how it was served (`Source.findings` says both the same way).
    findings = [*result.served, *lint(result.robots)] if result.robots is not None else list(result.served)
    page = page_of(url)
    views = page_verdicts(result, page, select(agents), lang) if page is not None else []
    if as_json:
        verdicts = {"verdicts": views} if page is not None else {}
        echo_json({**result.as_dict(lang), "findings": [f.as_dict(lang) for f in findings], **verdicts})
    else:
        shown = render_fetch(result, findings, lang)
        echo_text(shown + ("\n\n" + render_verdicts(page, views, lang) if page is not None and views else ""))
    sys.exit(1 if result.decision == "disallow-all" else 0)
