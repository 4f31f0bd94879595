"""Reading sitemaps (sitemaps.org protocol 0.9): the URLs a urlset lists, the sitemaps an index lists. Pure.

`read_sitemap(data)` takes the body as fetched (gzip is inflated here, to at
most MAX_BYTES) and never raises: a document with a DOCTYPE is refused
before parsing, so no entity can expand (sitemaps have no use for one); XML
that does not parse, or is neither a urlset nor a sitemapindex, is `invalid`
with its reason; a body that is not XML is read as a text sitemap (one URL
a line, as Google and Bing accept); at most MAX_URLS `<loc>`s are kept (the
protocol's limit), and how many more there were is counted.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterator
from typing import Any, NamedTuple
from xml.etree.ElementTree import Element, ParseError, XMLPullParser

from ..messages import Message, message

MAX_BYTES = 50 * 1024 * 1024  # the protocol's limit for one sitemap, uncompressed
MAX_URLS = 50_000  # the protocol's limit of URLs (or sitemaps) in one file
_DOCTYPE = re.compile(rb"<!(?:DOCTYPE|ENTITY)", re.IGNORECASE)


class Sitemap(NamedTuple):
    """What one sitemap file holds: `kind` is urlset, sitemapindex, text or invalid."""

    kind: str
    locs: tuple[str, ...]
    more: int  # <loc>s past MAX_URLS, counted and dropped
    problem: Message | None  # why it is invalid, or what was cut

    def as_dict(self, lang: str = "en") -> dict[str, object]:
        return {
            "kind": self.kind,
            "urls": len(self.locs),
            "more": self.more,
            "problem": None if self.problem is None else self.problem.as_dict(lang),
        }


def inflate(data: bytes) -> tuple[bytes, bool]:
    """`data`, gunzipped if it is gzip, at most MAX_BYTES of it; and whether it was cut."""
    if not data.startswith(b"\x1f\x8b"):
        return data[:MAX_BYTES], len(data) > MAX_BYTES
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = inflater.decompress(data, MAX_BYTES)
    except zlib.error:
        return b"", True
    return out, bool(inflater.unconsumed_tail)


def read_sitemap(data: bytes) -> Sitemap:
    body, cut = inflate(data)
    if _DOCTYPE.search(body):
        return Sitemap("invalid", (), 0, message("sitemap.doctype"))
    start = body.lstrip()[:1]
    if start != b"<":
        return _text(body, cut)
    parser: XMLPullParser[Element] = XMLPullParser(events=("start", "end"))
    kind: str | None = None
    locs: list[str] = []
    more = 0
    try:
        for offset in range(0, len(body), 65536):
            parser.feed(body[offset : offset + 65536])
            events: Iterator[tuple[str, Any]] = iter(parser.read_events())  # type: ignore[arg-type]  # start/end: (event, Element)
            for event, element in events:
                assert isinstance(element, Element)
                name = element.tag.rsplit("}", 1)[-1]
                if event == "start" and kind is None:
                    kind = name
                    if kind not in ("urlset", "sitemapindex"):
                        return Sitemap("invalid", (), 0, message("sitemap.root", root=name))
                elif event == "end" and name == "loc":
                    if len(locs) < MAX_URLS:
                        locs.append((element.text or "").strip())
                    else:
                        more += 1
                    element.clear()
        parser.close()
    except ParseError as error:
        if not cut:
            return Sitemap("invalid", tuple(locs), more, message("sitemap.xml", error=str(error)))
    problem = (
        message("sitemap.cut", limit=MAX_BYTES)
        if cut
        else (message("sitemap.too-many", limit=MAX_URLS, more=more) if more else None)
    )
    return Sitemap(kind or "invalid", tuple(loc for loc in locs if loc), more, problem)


def _text(body: bytes, cut: bool) -> Sitemap:
    lines = [line.strip() for line in body.decode("utf-8", "replace").splitlines()]
    urls = [line for line in lines if line.startswith(("http://", "https://"))]
    if not urls:
        return Sitemap("invalid", (), 0, message("sitemap.not-sitemap"))
    more = max(0, len(urls) - MAX_URLS)
    problem = (
        message("sitemap.cut", limit=MAX_BYTES)
        if cut
        else (message("sitemap.too-many", limit=MAX_URLS, more=more) if more else None)
    )
    return Sitemap("text", tuple(urls[:MAX_URLS]), more, problem)
