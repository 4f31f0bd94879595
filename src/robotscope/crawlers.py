"""The crawler catalogue at the path users import it from: `robotscope.syntax.crawlers`, re-exported.

from robotscope.crawlers import select
agents = [crawler.token for crawler in select("ai")]
"""

from .syntax.crawlers import (
    PURPOSES,
    SELECTIONS,
    Crawler,
    blocking_cost,
    catalogue,
    get,
    obeys_text,
    recognise,
    search_engines,
    select,
    siblings,
)

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
