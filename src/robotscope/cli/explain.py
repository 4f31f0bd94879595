"""`robotscope explain`: what the catalogue knows of a crawler, and what blocking it costs."""

from __future__ import annotations

import difflib

import click

from .. import crawlers
from .common import console, echo_json, fail, json_option


@click.command()
@click.argument("token", metavar="TOKEN|USER-AGENT")
@json_option
def explain(token: str, as_json: bool) -> None:
    """What a crawler is, who runs it, whether it obeys robots.txt, and what blocking it costs.

    TOKEN is a product token (GPTBot) or a full User-Agent string.

    \b
    Examples:
      robotscope explain Google-Extended
      robotscope explain "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"
    """
    crawler = crawlers.recognise(token)
    if crawler is None:
        known = [c.token for c in crawlers.catalogue()]
        close = difflib.get_close_matches(token, known, n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(close)}?" if close else "; `robotscope matrix --agents all` lists them all"
        fail(f"{token!r} is not in the crawler catalogue{hint}")
    cost = crawlers.blocking_cost(crawler)
    others = crawlers.siblings(crawler)
    if as_json:
        echo_json({**crawler.as_dict(), "blocking_cost": cost, "operator_crawlers": [c.token for c in others]})
        return
    out = console()
    rows = [
        ("crawler", f"{crawler.token} ({crawler.name})" if crawler.name != crawler.token else crawler.token),
        ("operator", crawler.operator),
        ("purpose", crawler.purpose),
        ("robots.txt", crawlers.obeys_text(crawler)),
        ("user agent", crawler.user_agent or "(none of its own)"),
    ]
    if crawler.fallback:
        rows.append(("fallback", f"with no group naming it, it obeys the {crawler.fallback} group"))
    if crawler.ignores_global:
        rows.append(("`*` group", "ignored: it obeys only groups that name it"))
    rows += [("blocking it", cost), ("notes", crawler.notes or "-"), ("confidence", crawler.confidence), ("source", crawler.source)]
    if others:
        rows.append((f"{crawler.operator}'s others", ", ".join(f"{c.token} ({c.purpose})" for c in others)))
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        out.print(f"{label:<{width}}  {value}", markup=False)
