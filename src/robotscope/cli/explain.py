"""`robotscope explain`: what the catalogue knows of a crawler, and what blocking it costs."""

from __future__ import annotations

import difflib

import click
from rich.cells import cell_len

from ..messages import Message, message
from ..syntax import crawlers
from .options import json_option, lang_option
from .output import console, echo_json, fail


@click.command()
@click.argument("token", metavar="TOKEN|USER-AGENT")
@json_option
@lang_option
def explain(token: str, as_json: bool, lang: str) -> None:
    """What a crawler is, who runs it, whether it obeys robots.txt, and what blocking it costs.

    TOKEN is a product token (GPTBot) or a full User-Agent string. The
    catalogue's own notes, source and confidence are shown as researched
    (in English); everything else follows --lang.

    \b
    Examples:
      robotscope explain Google-Extended
      robotscope explain GPTBot --lang ko
      robotscope explain "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"
    """
    crawler = crawlers.recognise(token)
    if crawler is None:
        known = [c.token for c in crawlers.catalogue()]
        close = difflib.get_close_matches(token, known, n=3, cutoff=0.6)
        if close:
            fail(message("explain.not-in-catalogue.close", token=repr(token), close=close), lang)
        fail(message("explain.not-in-catalogue", token=repr(token)), lang)
    cost = crawlers.blocking_cost(crawler)
    others = crawlers.siblings(crawler)
    if as_json:
        echo_json(
            {
                **crawler.as_dict(),
                "blocking_cost": cost.render(lang),
                "blocking_cost_code": cost.code,
                "operator_crawlers": [c.token for c in others],
            }
        )
        return
    name = f"{crawler.token} ({crawler.name})" if crawler.name != crawler.token else crawler.token
    rows: list[tuple[Message, str | Message]] = [
        (message("explain.label.crawler"), name),
        (message("explain.label.operator"), crawler.operator),
        (message("explain.label.purpose"), crawler.purpose),
        (message("explain.label.robots-txt"), crawlers.obeys_text(crawler)),
        (message("explain.label.user-agent"), crawler.user_agent or message("explain.no-user-agent")),
    ]
    if crawler.fallback:
        rows.append((message("explain.label.fallback"), message("explain.fallback", fallback=crawler.fallback)))
    if crawler.ignores_global:
        rows.append((message("explain.label.global-group"), message("explain.ignores-global")))
    rows += [
        (message("explain.label.blocking"), cost),
        (message("explain.label.notes"), crawler.notes or "-"),
        (message("explain.label.confidence"), crawler.confidence),
        (message("explain.label.source"), crawler.source),
    ]
    if others:
        listed = ", ".join(f"{c.token} ({c.purpose})" for c in others)
        rows.append((message("explain.label.others", operator=crawler.operator), listed))
    lines = [(label.render(lang), value if isinstance(value, str) else value.render(lang)) for label, value in rows]
    width = max(cell_len(label) for label, _ in lines)  # cells, not characters: Hangul is two cells wide
    out = console()
    for label, value in lines:
        out.print(f"{label}{' ' * (width - cell_len(label))}  {value}", markup=False)
