"""The crawler catalogue: who crawls, why, and what their operators document.

Loaded from `crawlers.csv` (package data, with a source for every row): the
product token, operator, purpose, whether the operator documents obeying
robots.txt, an example User-Agent string, the token it falls back to when no
group names it (Google's `Googlebot-Image` obeys a `Googlebot` group), and
whether it ignores the `*` group (Google's `AdsBot-Google`). Reads only the
package's own data.
"""

from __future__ import annotations

import csv
import io
import re
from functools import cache
from importlib.resources import files
from typing import Any, NamedTuple

from .useragents import product_token

# Purposes, in the order a site owner reads them.
PURPOSES = (
    "search",
    "search-vertical",
    "ai-search",
    "ai-training",
    "ai-control-token",
    "user-triggered",
    "ads",
    "social-preview",
    "seo-tool",
    "archive",
    "dataset",
    "monitoring",
    "other",
)
# Groups of purposes the CLI's --agents option names.
SELECTIONS = {
    "search": ("search", "search-vertical"),
    "ai": ("ai-search", "ai-training", "ai-control-token", "user-triggered"),
    "all": PURPOSES,
}


class Crawler(NamedTuple):
    """One catalogue entry; `confidence` and `source` back every fact."""

    token: str
    name: str
    operator: str
    purpose: str
    obeys_robots: str  # yes, no, partial or unknown, as the operator documents it
    fallback: str | None  # token whose group it obeys when no group names it
    ignores_global: bool  # obeys only groups naming it, never the `*` group
    user_agent: str  # an example User-Agent string ("" when it sends none of its own)
    confidence: str
    source: str
    notes: str

    def as_dict(self) -> dict[str, Any]:
        return self._asdict()


@cache
def catalogue() -> tuple[Crawler, ...]:
    """Every known crawler, in purpose order."""
    text = files("robotscope").joinpath("crawlers.csv").read_text(encoding="utf-8")
    rows = [
        Crawler(
            token=row["token"],
            name=row["name"],
            operator=row["operator"],
            purpose=row["purpose"],
            obeys_robots=row["obeys_robots"],
            fallback=row["fallback"] or None,
            ignores_global=row["ignores_global"] == "yes",
            user_agent=row["user_agent"],
            confidence=row["confidence"],
            source=row["source"],
            notes=row["notes"],
        )
        for row in csv.DictReader(io.StringIO(text))
    ]
    return tuple(sorted(rows, key=lambda c: (PURPOSES.index(c.purpose), c.token.lower())))


@cache
def _by_token() -> dict[str, Crawler]:
    return {c.token.lower(): c for c in catalogue()}


def get(token: str) -> Crawler | None:
    """The catalogue entry for a product token (case-insensitive)."""
    return _by_token().get(token.lower())


def recognise(agent: str) -> Crawler | None:
    """The catalogue entry for a token or a full User-Agent string, if known.

    The extracted product token is tried first; then any catalogue token
    that appears in the string as a product (`Name/` or `Name;`).
    """
    found = get(product_token(agent))
    if found is not None:
        return found
    for match in re.finditer(r"[A-Za-z0-9_-]+(?=[/;)]|$)", agent):
        found = get(match.group())
        if found is not None:
            return found
    return None


def select(names: str) -> list[Crawler]:
    """Crawlers for an --agents value: `search`, `ai`, `all`, or a comma-separated list of tokens.

    Unknown tokens in a list become ad-hoc entries, so any crawler can be checked.
    """
    if names in SELECTIONS:
        return [c for c in catalogue() if c.purpose in SELECTIONS[names]]
    chosen = []
    for token in (t.strip() for t in names.split(",")):
        if token:
            chosen.append(get(token) or Crawler(token, token, "", "other", "unknown", None, False, "", "", "", ""))
    return chosen


_COST = {
    "search": "its pages drop out of {operator}'s search results over time",
    "search-vertical": "{operator} stops crawling that kind of content (images, video, news or shopping) for its search features",
    "ai-search": "the site stops being shown or linked in {operator}'s AI search answers; it does not opt out of AI training",
    "ai-training": "content it fetches from now on is not used to train {operator}'s models",
    "ai-control-token": "{token} sends no requests of its own: blocking it tells {operator} not to use content its other crawlers fetch for the purposes it controls",
    "user-triggered": "it fetches pages when a user asks for them, so blocking it mostly stops those fetches; {obeys}",
    "ads": "{operator} can no longer check ad landing pages on the site, which can hurt ads that point there",
    "social-preview": "links to the site lose their preview (title, image) when shared on {operator}'s products",
    "seo-tool": "the site drops out of {operator}'s SEO data (backlinks, audits); search engines are not affected",
    "archive": "the site is no longer archived by {operator}",
    "dataset": "the site is left out of {operator}'s open crawl data sets, which many AI models are trained on",
}


_OBEYS = {
    "yes": "its operator documents that it obeys robots.txt",
    "no": "its operator documents that robots.txt generally does not apply to it",
    "partial": "its operator documents that robots.txt rules may not apply to it",
    "unknown": "its operator does not document whether it obeys robots.txt",
    "n/a": "it sends no requests of its own",
}


def obeys_text(crawler: Crawler) -> str:
    return _OBEYS.get(crawler.obeys_robots, _OBEYS["unknown"])


def blocking_cost(crawler: Crawler) -> str:
    """One sentence: what a site gives up by blocking this crawler."""
    template = _COST.get(crawler.purpose, "{operator} stops crawling the site with {token}")
    cost = template.format(operator=crawler.operator or crawler.token, token=crawler.token, obeys=obeys_text(crawler))
    if crawler.purpose in ("ai-training", "ai-control-token", "dataset"):
        searchers = [c.token for c in siblings(crawler) if c.purpose in ("search", "search-vertical", "ai-search")]
        if searchers:
            cost += f"; {crawler.operator}'s search crawlers ({', '.join(searchers[:3])}) are separate and not affected"
    return cost


def siblings(crawler: Crawler) -> list[Crawler]:
    """The operator's other crawlers, which blocking this one leaves alone."""
    return [c for c in catalogue() if c.operator == crawler.operator and c.token != crawler.token]
