"""Whether a robots.txt body is an HTML page: the sniff every reader of a fetched file shares.

A server that answers /robots.txt with an error page or a bot challenge
sends HTML with a 200. The fetcher's policies, the Scrapy integration and
the linter all need to tell; this is the one test.
"""

from __future__ import annotations

import re

from .parsed import ParsedFile

_HTML = re.compile(r"<(?:!doctype\s+html|html|head|body|title|script|div)\b", re.IGNORECASE)
# Characters of the start of the file that are looked at: an HTML page says so at once.
SNIFF_CHARS = 2048


def looks_like_html(parsed: ParsedFile) -> bool:
    """Whether the file's start has the tags of an HTML page (a doctype, `<html>`, `<head>`, ...)."""
    return _HTML.search(parsed.text[:SNIFF_CHARS]) is not None
