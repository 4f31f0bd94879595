"""How a robots.txt was served: what its response's Content-Type says, which the file itself cannot show.

RFC 9309, Section 2.3 (https://www.rfc-editor.org/rfc/rfc9309.html#section-2.3):
the file "MUST be UTF-8 encoded" and of Internet Media Type "text/plain".
Google asks for "a UTF-8 encoded plain text file"
(https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt,
"File format"; its earlier wording, "The expected file format is plain text
encoded in UTF-8", is quoted at
https://www.generacodice.com/en/articolo/616049/robots-txt-what-encoding), and
Bing's Webmaster blog calls robots.txt files "basically text files" ("Robots
speaking many languages", 5 November 2009,
https://blogs.bing.com/webmaster/2009/11/05/robots-speaking-many-languages/).
Naver's guide asks for text/plain too (see `engines.naver`). None of them
documents refusing a body for its label: the fetch policies parse a 2xx
body whatever its type (`policy`), so this is a finding, never a decision.
A page type (`text/html`) on a 200 is the usual sign of an error, login or
"not found" page answered with 200 instead of the file. A `charset` other
than UTF-8 on a text/plain label is noted too: the crawlers read the bytes as
UTF-8 whatever it says, so a file really saved in that charset means other
paths than its author sees.
"""

from __future__ import annotations

from ..messages import message
from ..syntax.model import Finding, Severity

CODE = "contentType"
SEVERITY = Severity.WARNING  # the default; a missing label, or a charset on a text/plain one, is information
_PAGES = frozenset({"text/html", "application/xhtml+xml"})
_UTF8 = frozenset({"utf-8", "utf8", "us-ascii"})  # US-ASCII is UTF-8's first 128 characters


def media_type(content_type: str | None) -> str:
    """The media type of a Content-Type value, lower-cased, without parameters ("" when there is none)."""
    return (content_type or "").split(";", 1)[0].strip().lower()


def charset(content_type: str | None) -> str | None:
    """The `charset` parameter of a Content-Type value, lower-cased and unquoted (None when there is none)."""
    for part in (content_type or "").split(";")[1:]:
        name, _, value = part.strip().partition("=")
        if name.strip().lower() == "charset":
            return value.strip("\"' ").lower()
    return None


def mislabelled(status: int | None, content_type: str | None) -> str | None:
    """What is wrong with the label of a 2xx robots.txt: "missing", "page", "other", or "charset" (text/plain
    in a charset other than UTF-8); None when text/plain in UTF-8 or no charset.

    The one judgment of a Content-Type: the fetch findings and the web page's
    response box both say it, each in its own words.
    """
    if status is None or not 200 <= status < 300:
        return None
    kind = media_type(content_type)
    if kind == "text/plain":
        found = charset(content_type)
        return "charset" if found is not None and found not in _UTF8 else None
    if not kind:
        return "missing"
    return "page" if kind in _PAGES else "other"


def served_findings(status: int | None, content_type: str | None) -> tuple[Finding, ...]:
    """The findings about the response that carried a robots.txt: a 2xx whose Content-Type is not text/plain,
    or names a charset other than UTF-8."""
    wrong = mislabelled(status, content_type)
    if wrong is None:
        return ()
    if wrong == "missing":
        found, fix, severity = message("lint.contentType.missing"), message("fix.contentType"), Severity.INFO
    elif wrong == "charset":
        # Crawlers read the bytes as UTF-8 whatever the label: it matters only where the file is not UTF-8,
        # which lint's invalidUtf8 says of the body itself.
        found = message("lint.contentType.charset", charset=(charset(content_type) or "")[:100])
        fix, severity = message("fix.contentType.charset"), Severity.INFO
    else:
        variant = ".html" if wrong == "page" else ""
        shown = (content_type or "").strip()[:100]
        found, fix = message(f"lint.contentType{variant}", type=shown), message(f"fix.contentType{variant}")
        severity = SEVERITY
    return (Finding(CODE, severity, None, found, fix, ()),)
