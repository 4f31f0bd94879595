"""Fuzz target: reading a sitemap never raises, keeps within the protocol's limits, and reads gzip alike.

With atheris installed (`pip install atheris`), from the repository root:

    python -m tests.fuzz.fuzz_sitemap tests/fuzz/seeds_sitemap -max_total_time=60
    python -m tests.fuzz.fuzz_sitemap tests/fuzz/seeds_sitemap -runs=100000

Without it, `check(data)` is a plain function: tests/syntax/test_sitemap.py
runs it on every file of tests/fuzz/seeds_sitemap/ (real-shaped sitemaps and
hostile ones: entity bombs in UTF-8 and UTF-16, an external entity, deep
nesting, a huge <loc>, broken gzip, ...). Add each input a fuzzer finds there.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from tests.fuzz.harness import fuzz, instrumented

with instrumented(__name__):
    from robotscope.syntax.sitemap import MAX_LOC, MAX_URLS, read_sitemap

SEEDS = Path(__file__).parent / "seeds_sitemap"
KINDS = ("urlset", "sitemapindex", "text", "invalid")


def check(data: bytes) -> None:
    """Read `data` as the `sitemap` command does; raise only on a bug."""
    found = read_sitemap(data)
    assert found.kind in KINDS, found.kind
    assert len(found.locs) <= MAX_URLS and all(0 < len(loc) <= MAX_LOC for loc in found.locs)
    assert found.kind != "invalid" or found.problem is not None
    json.dumps(found.as_dict("en"))
    json.dumps(found.as_dict("ko"))
    if not data.startswith(b"\x1f\x8b"):
        # A .xml.gz holds the same sitemap: inflating first changes nothing.
        assert read_sitemap(gzip.compress(data, 1)) == found


if __name__ == "__main__":
    fuzz(check)
