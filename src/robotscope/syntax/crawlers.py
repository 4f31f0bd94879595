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

from ..messages import Message, message
from .tokens import product_token

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
# Stands in for Google's `W.X.Y.Z` (the Chrome version of its crawlers): a current stable Chrome.
CHROME_VERSION = "142.0.7444.175"
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

    @property
    def request_user_agent(self) -> str:
        """The User-Agent string to send as this crawler: its first documented variant, made concrete.

        The catalogue keeps the operators' text: variants joined by ` | `,
        some labelled (`Desktop: ...`), and Google's `Chrome/W.X.Y.Z`, which
        Google documents as a placeholder for the Chrome version its
        crawler runs. A request carries one string with a real version.
        """
        first = self.user_agent.split(" | ")[0]
        label, colon, rest = first.partition(": ")
        if colon and " " not in label:
            first = rest
        return first.replace("Chrome/W.X.Y.Z", f"Chrome/{CHROME_VERSION}")

    @property
    def lists_pages(self) -> bool:
        """Whether it feeds a search index that can list a page from links alone, even a page it may not fetch."""
        return self.purpose in ("search", "search-vertical", "ai-search")


@cache
def catalogue() -> tuple[Crawler, ...]:
    """Every known crawler, in purpose order."""
    text = files(__package__).joinpath("crawlers.csv").read_text(encoding="utf-8")
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


@cache
def search_engines() -> frozenset[str]:
    """The tokens (lower-cased) of the search engines' main crawlers and the family tokens they obey.

    The one list of search engines: the catalogue's `search` crawlers (Googlebot,
    bingbot, Yeti, ...) and their fallbacks (`Yandex` for YandexBot).
    """
    main = [c for c in catalogue() if c.purpose == "search"]
    return frozenset([c.token.lower() for c in main] + [c.fallback.lower() for c in main if c.fallback])


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


# What blocking a crawler costs, by purpose: message codes (`explain.cost.other` for any other purpose).
_COST = {
    "search": "explain.cost.search",
    "search-vertical": "explain.cost.search-vertical",
    "ai-search": "explain.cost.ai-search",
    "ai-training": "explain.cost.ai-training",
    "ai-control-token": "explain.cost.ai-control-token",
    "user-triggered": "explain.cost.user-triggered",
    "ads": "explain.cost.ads",
    "social-preview": "explain.cost.social-preview",
    "seo-tool": "explain.cost.seo-tool",
    "archive": "explain.cost.archive",
    "dataset": "explain.cost.dataset",
}


# Whether it obeys robots.txt, by `obeys_robots` value: message codes.
_OBEYS = {
    "yes": "explain.obeys.yes",
    "no": "explain.obeys.no",
    "partial": "explain.obeys.partial",
    "unknown": "explain.obeys.unknown",
    "n/a": "explain.obeys.n/a",
}


def obeys_text(crawler: Crawler) -> Message:
    """What its operator documents about obeying robots.txt, as a message."""
    return message(_OBEYS.get(crawler.obeys_robots, _OBEYS["unknown"]))


def blocking_cost(crawler: Crawler) -> Message:
    """One sentence, as a message: what a site gives up by blocking this crawler."""
    code = _COST.get(crawler.purpose, "explain.cost.other")
    cost = message(code, operator=crawler.operator or crawler.token, token=crawler.token, obeys=obeys_text(crawler))
    if crawler.purpose in ("ai-training", "ai-control-token", "dataset"):
        searchers = [c.token for c in siblings(crawler) if c.purpose in ("search", "search-vertical", "ai-search")]
        if searchers:
            return message(
                "explain.cost.searchers-unaffected", cost=cost, operator=crawler.operator, searchers=searchers[:3]
            )
    return cost


def siblings(crawler: Crawler) -> list[Crawler]:
    """The operator's other crawlers, which blocking this one leaves alone."""
    return [c for c in catalogue() if c.operator == crawler.operator and c.token != crawler.token]


__all__ = [
    "PURPOSES",
    "SELECTIONS",
    "Crawler",
    "blocking_cost",
    "catalogue",
    "get",
    "obeys_text",
    "recognise",
    "search_engines",
    "select",
    "siblings",
]
