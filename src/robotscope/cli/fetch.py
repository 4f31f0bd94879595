"""`robotscope fetch`: what a crawler really sees at /robots.txt, per search engine."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from ..messages import message
from ..reports.linter import lint
from ..reports.render import printable, render_findings
from ..syntax.model import Finding
from .options import FetchSettings, fetch_options, json_option, lang_option
from .output import echo_json, echo_text
from .sources import fetch

if TYPE_CHECKING:
    from ..fetch import FetchResult


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
@lang_option
@fetch_options
def fetch_command(url: str, as_json: bool, lang: str, fetching: FetchSettings) -> None:
    """Fetch a site's robots.txt the way crawlers do, and say what each search engine concludes.

    Shows the redirect chain, the status, content type and size, the
    decision of every policy side by side (* marks --policy), what the
    response's Content-Type says, and the lint findings of the body. Exit
    code 1 when the --policy decision is disallow all, else 0.

    \b
    Examples:
      robotscope fetch https://example.com/ --policy google
      robotscope fetch https://example.com/ --no-cache --lang ko
    """
    result = fetch(url, fetching).result
    # The file's own findings after those of how it was served (`Source.findings` says both the same way).
    findings = [*result.served, *lint(result.robots)] if result.robots is not None else list(result.served)
    if as_json:
        echo_json({**result.as_dict(lang), "findings": [f.as_dict(lang) for f in findings]})
    else:
        echo_text(render_fetch(result, findings, lang))
    sys.exit(1 if result.decision == "disallow-all" else 0)
