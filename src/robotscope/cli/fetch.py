"""`robotscope fetch`: what a crawler really sees at /robots.txt, per search engine."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from ..linter import lint
from ..model import Finding
from ..render import render_findings
from .common import echo_json, echo_text, fetch, fetch_options, json_option

if TYPE_CHECKING:
    from ..fetcher import FetchResult


def render_fetch(result: FetchResult, findings: list[Finding]) -> str:
    """A fetch as text: the chain, the response, every policy's decision side by side, the findings."""
    out = [f"robots.txt: {result.robots_url}{'  (from cache)' if result.from_cache else ''}"]
    out.extend(f"  {i}. {status} {url}" for i, (url, status) in enumerate(result.hops, 1))
    if result.error is not None:
        out.append(f"error: {result.error.kind}: {result.error.message}")
    size = f"{result.bytes_received} bytes" + (" (cut at the 500 KiB limit)" if result.truncated else "")
    out.append(f"status: {result.status if result.status is not None else '-'}   content type: {result.content_type or '-'}   size: {size}")
    out.append("decisions:")
    width = max(len(name) for name in result.decisions)
    for name, decision in result.decisions.items():
        mark = "*" if name == result.policy else " "
        out.append(f"  {mark} {name:<{width}}  {decision.action:<12}  {decision.explanation}")
    if result.robots is not None:
        out.append(render_findings(result.robots, findings, result.robots_url))
    return "\n".join(out)


@click.command("fetch")
@click.argument("url")
@json_option
@click.option("--timeout", type=float, default=10.0, show_default=True, help="Seconds for the whole fetch.")
@fetch_options
def fetch_command(url: str, as_json: bool, timeout: float, policy: str, no_cache: bool, cache_path: str | None) -> None:
    """Fetch a site's robots.txt the way crawlers do, and say what each search engine concludes.

    Shows the redirect chain, the status, content type and size, the
    decision of every policy side by side (* marks --policy), and the
    lint findings of the body. Exit code 1 when the --policy decision is
    disallow all, else 0.

    \b
    Example:
      robotscope fetch https://example.com/ --policy google
    """
    result = fetch(url, policy, no_cache, cache_path, timeout).result
    findings = lint(result.robots) if result.robots is not None else []
    if as_json:
        echo_json({**result.as_dict(), "findings": [f.as_dict() for f in findings]})
    else:
        echo_text(render_fetch(result, findings))
    sys.exit(1 if result.decision == "disallow-all" else 0)
