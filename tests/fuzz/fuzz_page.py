"""Fuzz target: what `page` reads of a response (HTML start tags, X-Robots-Tag, Content-Usage) never raises.

With atheris installed (`pip install atheris`), from the repository root:

    python -m tests.fuzz.fuzz_page tests/fuzz/seeds_page -max_total_time=60

Without it, `check(data)` is a plain function: tests/reports/test_page_fuzz.py
runs it on every file of tests/fuzz/seeds_page/. Add each input a fuzzer finds there.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.fuzz.harness import fuzz, instrumented

with instrumented(__name__):
    from robotscope import parse
    from robotscope.reports.htmltags import start_tags
    from robotscope.reports.indexing import findings, page_facts

SEEDS = Path(__file__).parent / "seeds_page"
# A verdict of each kind: a blocking line, an allowing line, no file at all (None line).
_BLOCKED = parse("User-agent: *\nDisallow: /a/\n").verdict("googlebot", "/a/b")
_VERDICTS = [_BLOCKED, _BLOCKED._replace(line=None, rule=None), parse("").verdict("googlebot", "/a/b")]


def check(data: bytes) -> None:
    """Read `data` as a page body and, split at its first line, as header values; raise only on a bug."""
    first, _, _ = data.partition(b"\n")
    value = first.decode("latin-1")  # header values arrive as bytes; httpx decodes them as Latin-1
    headers = [("x-robots-tag", value), ("content-usage", value), ("X-Robots-Tag", "googlebot: " + value)]
    text = data.decode("utf-8", "replace")
    for tag in start_tags(text):
        assert tag.name == tag.name.lower() and all(key == key.lower() for key in tag.attrs)
    facts = page_facts("https://www.example.com/a/b", headers, data, "googlebot")
    json.dumps(facts.as_dict())
    assert len(facts.directives) == len(facts.sources)
    for verdict in _VERDICTS:
        for lists_pages in (True, False):
            for found in findings(verdict, 200, facts, None, False, lists_pages=lists_pages):
                json.dumps(found.as_dict())


if __name__ == "__main__":
    fuzz(check)
