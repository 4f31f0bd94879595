"""The findings about a file as a whole that every command reading one shows before its verdicts.

`check` (a file or a URL), `fetch` and `bulk` say the same three things
from here, so none of them can leave one out: how a fetched file was served
(its Content-Type, `access.served`), whether crawlers can read it at all
(saved as UTF-16 or UTF-32, an HTML page) and where the 500 KiB limit cut it,
with the records past the cut where the input holds them (`lint`'s
`encodingNotUtf8`, `htmlContent` and `oversize` checks, run alone).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..access.robots import Robots
from ..syntax.model import Finding
from .linter import lint

# The lint checks about how the file as a whole reads.
WHOLE_FILE = frozenset({"encodingNotUtf8", "htmlContent", "oversize"})


def file_findings(robots: Robots, served: Iterable[Finding] = ()) -> list[Finding]:
    """`served` (a fetch's findings about its response), then the whole-file findings of `robots`."""
    return [*served, *lint(robots, only=WHOLE_FILE)]
