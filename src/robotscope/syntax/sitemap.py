"""Reading sitemaps (sitemaps.org protocol 0.9): the URLs a urlset lists, the sitemaps an index lists. Pure.

`read_sitemap(data)` takes the body as fetched and never raises. It reads
in pieces, in time linear in the input and memory bounded by it: gzip is
inflated piece by piece with the shared bounded inflater (`syntax.inflate`),
to at most MAX_BYTES; the XML goes to expat's event interface and no tree is
built, so elements that are not a `<loc>` cost nothing to keep; at most
MAX_URLS `<loc>`s of at most MAX_LOC characters are kept (the protocol's
limits; how many more there were is counted), and nesting past MAX_DEPTH is
refused. A document with a DOCTYPE is refused as soon as the parser meets
it, whatever its encoding (expat reads the byte order mark, the XML
declaration and UTF-16 without a mark), so no entity can expand: sitemaps
have no use for one. XML that does not parse, or is neither a urlset nor a
sitemapindex, is `invalid` with its reason; a body that is not XML is read
as a text sitemap (one URL a line, as Google and Bing accept).
"""

from __future__ import annotations

import codecs
import zlib
from collections.abc import Iterator
from typing import NamedTuple
from xml.parsers import expat

from ..messages import Message, message
from .inflate import Inflater

MAX_BYTES = 50 * 1024 * 1024  # the protocol's limit for one sitemap, uncompressed
MAX_URLS = 50_000  # the protocol's limit of URLs (or sitemaps) in one file
MAX_LOC = 2048  # the protocol's limit of a URL's length ("less than 2,048 characters")
MAX_DEPTH = 32  # a sitemap nests 3 deep (urlset, url, loc), 5 with the image or video extensions
_LOC_TEXT = 2 * MAX_LOC  # a <loc>'s text kept at most: a URL and the whitespace around it; past it only counted
_PIECE = 65536  # bytes read, inflated and parsed at a time
_GZIP = b"\x1f\x8b"


class Sitemap(NamedTuple):
    """What one sitemap file holds: `kind` is urlset, sitemapindex, text or invalid."""

    kind: str
    locs: tuple[str, ...]
    more: int  # <loc>s past MAX_URLS, counted and dropped
    problem: Message | None  # why it is invalid, or what was cut
    long: int = 0  # <loc>s longer than MAX_LOC characters, counted and dropped

    def as_dict(self, lang: str = "en") -> dict[str, object]:
        return {
            "kind": self.kind,
            "urls": len(self.locs),
            "more": self.more,
            "long": self.long,
            "problem": None if self.problem is None else self.problem.as_dict(lang),
        }


class _Decoded:
    """The body's bytes, inflated if gzip, in pieces, MAX_BYTES at most; `cut` and `broken` say why they ended."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self.cut = False
        self.broken: str | None = None  # zlib's reason when the gzip stream is corrupt

    def __iter__(self) -> Iterator[bytes]:
        inflater = Inflater("gzip" if self._data.startswith(_GZIP) else "")
        left = MAX_BYTES
        view = memoryview(self._data)
        try:
            # Input in pieces too: what the inflater leaves over is copied on each call.
            for start in range(0, len(view), _PIECE):
                raw = bytes(view[start : start + _PIECE])
                while raw:
                    piece, raw = inflater.decode(raw, min(_PIECE, left + 1))
                    if not piece:
                        break
                    if len(piece) > left:
                        self.cut = True
                        if left:
                            yield piece[:left]
                        return
                    left -= len(piece)
                    yield piece
        except zlib.error as error:
            self.broken = str(error)
            return
        if not inflater.ended:
            self.broken = "the compressed data ends before its end marker"


class _Kept:
    """The `<loc>` values kept, within the protocol's limits, and how many were dropped."""

    def __init__(self) -> None:
        self.locs: list[str] = []
        self.more = 0
        self.long = 0

    def add(self, loc: str | None) -> None:
        """Keep `loc` (None: its text ran past `_LOC_TEXT`, so it is too long)."""
        if loc is None or len(loc) > MAX_LOC:
            self.long += 1
        elif not loc:
            return
        elif len(self.locs) < MAX_URLS:
            self.locs.append(loc)
        else:
            self.more += 1

    def problem(self, cut: bool) -> Message | None:
        if cut:
            return message("sitemap.cut", limit=MAX_BYTES)
        if self.more:
            return message("sitemap.too-many", limit=MAX_URLS, more=self.more)
        if self.long:
            return message("sitemap.long", limit=MAX_LOC, n=self.long)
        return None

    def sitemap(self, kind: str, problem: Message | None) -> Sitemap:
        return Sitemap(kind, tuple(self.locs), self.more, problem, self.long)


def read_sitemap(data: bytes) -> Sitemap:
    body = _Decoded(data)
    pieces = iter(body)
    head = next(pieces, b"")
    encoding = xml_encoding(head)
    if codecs.decode(head[:1024], encoding, "replace").lstrip()[:1] == "<":
        found = _Xml().read(head, pieces, body)
    else:
        found = _text(head, pieces, encoding, body)
    if body.broken is not None:
        return found._replace(kind="invalid", problem=message("sitemap.gzip", error=body.broken))
    return found


def xml_encoding(head: bytes) -> str:
    """The encoding a document's first bytes show (XML 1.0, appendix F): its byte order mark, else
    the pattern of NUL bytes that `<` or whitespace leave in UTF-16; UTF-8 otherwise. Good enough to
    tell XML from text: the parser reads the declaration itself."""
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    pair = head[:2]
    if len(pair) == 2 and pair[0] == 0 and pair[1] != 0:
        return "utf-16-be"
    if len(pair) == 2 and pair[1] == 0 and pair[0] != 0:
        return "utf-16-le"
    return "utf-8"


class _Stop(Exception):
    """The document is refused before its end: why."""

    def __init__(self, why: Message) -> None:
        self.why = why


class _Xml:
    """One XML sitemap read through expat's events: only the `<loc>` of each entry is kept."""

    def __init__(self) -> None:
        self.kind: str | None = None
        self.namespace = ""
        self.depth = 0
        self.entry = False  # inside a <url> or <sitemap> of the root's namespace
        self.loc: list[str] | None = None  # the text of the <loc> being read, while it is short enough
        self.length = 0
        self.kept = _Kept()

    def read(self, head: bytes, pieces: Iterator[bytes], body: _Decoded) -> Sitemap:
        parser = expat.ParserCreate(namespace_separator=" ")
        parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        parser.StartDoctypeDeclHandler = self._doctype
        parser.StartElementHandler = self._start
        parser.EndElementHandler = self._end
        parser.CharacterDataHandler = self._text
        try:
            parser.Parse(head, False)
            for piece in pieces:
                parser.Parse(piece, False)
            if not body.cut:
                parser.Parse(b"", True)
        except _Stop as stop:
            return self.kept.sitemap("invalid", stop.why)._replace(locs=())
        except expat.ExpatError as error:
            if not body.cut:  # past the cut, the document is expected to end early
                return self.kept.sitemap("invalid", message("sitemap.xml", error=str(error)))
        except (LookupError, ValueError) as error:
            # An encoding declared that expat hands to Python's codecs, which cannot read it
            # ("QTF-16", "utf-32", "hex"): found by the fuzz target.
            return self.kept.sitemap("invalid", message("sitemap.xml", error=str(error)))
        return self.kept.sitemap(self.kind or "invalid", self.kept.problem(body.cut))

    def _doctype(self, *_: object) -> None:
        # Called on `<!DOCTYPE name`, before any entity of its internal subset is read.
        raise _Stop(message("sitemap.doctype"))

    def _start(self, name: str, _attributes: object) -> None:
        self.depth += 1
        namespace, _, local = name.rpartition(" ")
        if self.depth == 1:
            self.kind, self.namespace = local, namespace
            if local not in ("urlset", "sitemapindex"):
                raise _Stop(message("sitemap.root", root=local))
        elif self.depth > MAX_DEPTH:
            raise _Stop(message("sitemap.deep", limit=MAX_DEPTH))
        elif namespace == self.namespace:
            if self.depth == 2:
                self.entry = local in ("url", "sitemap")
            elif self.depth == 3 and self.entry and local == "loc":
                self.loc, self.length = [], 0

    def _end(self, _name: str) -> None:
        if self.depth == 3 and self.loc is not None:
            self.kept.add("".join(self.loc).strip() if self.length <= _LOC_TEXT else None)
            self.loc = None
        self.depth -= 1

    def _text(self, text: str) -> None:
        if self.loc is not None and self.depth == 3:
            self.length += len(text)
            if self.length <= _LOC_TEXT:
                self.loc.append(text)


def _text(head: bytes, pieces: Iterator[bytes], encoding: str, body: _Decoded) -> Sitemap:
    """A text sitemap: the lines that are http(s) URLs, each line kept only while it is short enough."""
    decoder = codecs.getincrementaldecoder(encoding)("replace")
    kept = _Kept()
    line: list[str] = []
    length = 0
    any_line = False
    for piece in _chain(head, pieces):
        for part in decoder.decode(piece).splitlines(keepends=True):
            if length < _LOC_TEXT:  # enough of a long line to tell whether it is a URL
                line.append(part[: _LOC_TEXT - length + 1])
            length += len(part)
            if part.splitlines()[0] != part:  # the part ends its line
                any_line |= _take_line("".join(line), length, kept)
                line, length = [], 0
    any_line |= _take_line("".join(line) + decoder.decode(b"", True), length, kept)
    if not any_line:
        return Sitemap("invalid", (), 0, message("sitemap.not-sitemap"))
    return kept.sitemap("text", kept.problem(body.cut))


def _chain(head: bytes, pieces: Iterator[bytes]) -> Iterator[bytes]:
    yield head
    yield from pieces


def _take_line(line: str, length: int, kept: _Kept) -> bool:
    """Keep `line` if it is a URL; whether it was one."""
    url = line.strip()
    if not url.startswith(("http://", "https://")):
        return False
    kept.add(url if length <= _LOC_TEXT else None)
    return True
