"""The start tags of an HTML document with their attributes, read in one pass of linear time. Pure.

The standard library's `html.parser` rescans an unfinished construct from
its start on every feed and on malformed markup (`<a b='x` ten thousand
times, 70 KB) takes a minute. This reader moves only forward: each step
consumes the input it looks at, so its cost is linear in the document,
whatever the markup. It follows the tokenizer of the WHATWG HTML standard
(section 13.2.5) as far as finding start tags needs: comments (`<!--` to
`-->`, and `<!-->`), bogus comments (`<!x`, `<?x`, `</1` up to the next
`>`), end tags (skipped, attributes and all), raw text and RCDATA elements
(`<script>`, `<style>`, `<title>`, `<textarea>`, ... whose content holds no
tags up to their end tag), attribute values quoted or not, character
references in values (`html.unescape`), and a tag cut by the end of the
document, which the standard drops. Attribute names are lower-cased; a
repeated attribute keeps its first value, as the standard says.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from html import unescape
from typing import NamedTuple

# Elements whose content is text up to their own end tag: a `<meta>` inside one is no tag.
_TEXT_ELEMENTS = frozenset(
    {"script", "style", "title", "textarea", "xmp", "iframe", "noembed", "noframes", "plaintext"}
)
_TAG_NAME = re.compile(r"[^\t\n\f\r />]*")
# Whitespace and stray slashes before an attribute name (`<meta/name=x>` is valid).
_BETWEEN = re.compile(r"[\t\n\f\r /]*")
_ATTR_NAME = re.compile(r"[^\t\n\f\r />][^\t\n\f\r /=>]*")
_EQUALS = re.compile(r"[\t\n\f\r ]*=[\t\n\f\r ]*")
_UNQUOTED = re.compile(r"[^\t\n\f\r >]*")


class StartTag(NamedTuple):
    name: str  # lower case
    attrs: dict[str, str]  # names lower case, values with character references resolved


def start_tags(html: str) -> Iterator[StartTag]:
    """Every start tag of `html` in document order; markup the standard ignores yields nothing."""
    size = len(html)
    pos = 0
    while True:
        pos = html.find("<", pos)
        if pos < 0 or pos + 1 >= size:
            return
        nxt = html[pos + 1]
        if nxt == "!":
            if html.startswith("<!--", pos):
                if html.startswith("<!-->", pos) or html.startswith("<!--->", pos):
                    pos = html.index(">", pos) + 1
                    continue
                end = html.find("-->", pos + 4)
                if end < 0:
                    return
                pos = end + 3
                continue
            pos = _past(html, ">", pos + 2)
        elif nxt == "?":
            pos = _past(html, ">", pos + 2)
        elif nxt == "/":
            if pos + 2 < size and html[pos + 2].isascii() and html[pos + 2].isalpha():
                tag = _tag(html, pos + 2)
                if tag is None:
                    return
                pos = tag[1]
            else:
                pos = _past(html, ">", pos + 2)
        elif nxt.isascii() and nxt.isalpha():
            tag = _tag(html, pos + 1)
            if tag is None:
                return  # a tag cut by the end of the document is dropped
            found, pos = tag
            yield found
            if found.name in _TEXT_ELEMENTS:
                if found.name == "plaintext":
                    return
                pos = _past_end_tag(html, found.name, pos)
        else:
            pos += 1  # a lone `<` is text


def _past(html: str, marker: str, start: int) -> int:
    """The position after the next `marker` from `start`, or the end of the document."""
    end = html.find(marker, start)
    return len(html) if end < 0 else end + len(marker)


@cache
def _closing(name: str) -> re.Pattern[str]:
    return re.compile(rf"</{name}(?=[\t\n\f\r />])", re.IGNORECASE)


def _past_end_tag(html: str, name: str, start: int) -> int:
    """The position of the end tag that closes a raw text element, or the end of the document."""
    found = _closing(name).search(html, start)
    return len(html) if found is None else found.start()


def _tag(html: str, start: int) -> tuple[StartTag, int] | None:
    """The tag whose name begins at `start`, and the position after its `>`; None if the document ends first."""
    size = len(html)
    name_end = _TAG_NAME.match(html, start).end()  # type: ignore[union-attr]  # matches the empty string
    name = html[start:name_end].lower()
    attrs: dict[str, str] = {}
    pos = name_end
    while True:
        pos = _BETWEEN.match(html, pos).end()  # type: ignore[union-attr]
        if pos >= size:
            return None
        if html[pos] == ">":
            return StartTag(name, attrs), pos + 1
        attr = _ATTR_NAME.match(html, pos)
        assert attr is not None  # a character that is neither space, `/` nor `>` starts a name
        key = attr.group().lower()
        pos = attr.end()
        value = ""
        equals = _EQUALS.match(html, pos)
        if equals is not None:
            pos = equals.end()
            if pos >= size:
                return None
            quote = html[pos]
            if quote in "\"'":
                close = html.find(quote, pos + 1)
                if close < 0:
                    return None
                value, pos = html[pos + 1 : close], close + 1
            else:
                unquoted = _UNQUOTED.match(html, pos).end()  # type: ignore[union-attr]
                value, pos = html[pos:unquoted], unquoted
        attrs.setdefault(key, unescape(value) if "&" in value else value)
