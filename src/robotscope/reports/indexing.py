"""Whether a page can be indexed: its robots directives joined with the robots.txt verdict. Pure.

A crawler that may not fetch a page never sees its `noindex`; a blocked
page can still be indexed from links, without a snippet; a canonical that
points at a blocked URL sends the crawler where it may not go. Google
documents these (robots.txt "is not a mechanism for keeping a web page out
of Google"; for noindex to work, "the page or resource must not be blocked
by a robots.txt file": developers.google.com/search/docs/crawling-indexing/
robots/intro and .../block-indexing).

`page_facts(status, headers, body, token)` reads what one response says to
one crawler: the `X-Robots-Tag` headers (a `name:` prefix aims a line at one
crawler), `<meta name="robots">` and `<meta name="<crawler>">` (read by
`htmltags` in linear time, the first MAX_HTML bytes, comments ignored as browsers ignore them), the
canonical link, and the `Content-Usage` header. `findings(...)` turns facts
and the robots.txt verdict into messages with stable codes. Never raises on
any bytes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, NamedTuple
from urllib.parse import urljoin

from ..messages import Message, message
from ..syntax.model import Verdict
from ..syntax.structured import Item, Token, parse_dictionary
from ..syntax.urls import checked_url
from .htmltags import start_tags

MAX_HTML = 1024 * 1024  # bytes of the page read for its <head>: robots meta tags come early
# Markers of a bot challenge served instead of the page (Cloudflare's interstitials): a heuristic,
# so a page that merely mentions them could be taken for one.
_CHALLENGE = re.compile(
    rb"/cdn-cgi/challenge-platform/|<title>\s*(?:Just a moment\.\.\.|Attention Required! \| Cloudflare)", re.IGNORECASE
)
_INDEX_BLOCKING = {"noindex", "none"}
_AI_TOKENS = {"noai", "noimageai"}


class PageFacts(NamedTuple):
    """What one response says to one crawler about indexing."""

    directives: tuple[str, ...]  # robots directives that apply to this crawler, lower-cased, from headers and meta
    sources: tuple[str, ...]  # where each came from: "header" or "meta:<name>"
    canonical: str | None
    content_usage: dict[str, str]  # the Content-Usage header's known preferences
    challenge: bool = False  # the body looks like a bot challenge, not the page (heuristic)
    bad_canonical: str | None = None  # a canonical href that names no URL a crawler could follow

    @property
    def noindex(self) -> bool:
        return any(d in _INDEX_BLOCKING for d in self.directives)

    @property
    def noindex_sources(self) -> list[str]:
        """Where the index-blocking directives came from, each once (a `noai` tag is no such source)."""
        return list(
            dict.fromkeys(s for d, s in zip(self.directives, self.sources, strict=True) if d in _INDEX_BLOCKING)
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "directives": list(self.directives),
            "sources": list(self.sources),
            "noindex": self.noindex,
            "canonical": self.canonical,
            "content_usage": self.content_usage,
            "challenge": self.challenge,
            "bad_canonical": self.bad_canonical,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PageFacts:
        """The facts `as_dict` wrote (a worker process sends them back as JSON)."""
        return cls(
            tuple(data["directives"]),
            tuple(data["sources"]),
            data["canonical"],
            dict(data["content_usage"]),
            bool(data["challenge"]),
            data["bad_canonical"],
        )


def _head(html: str) -> tuple[list[tuple[str, str]], str | None]:
    """The page's `<meta name content>` pairs (name lower-cased) and its first canonical link's href."""
    metas: list[tuple[str, str]] = []
    canonical = None
    for tag in start_tags(html):
        values = tag.attrs
        if tag.name == "meta" and "name" in values and "content" in values:
            metas.append((values["name"].strip().lower(), values["content"]))
        elif tag.name == "link" and "canonical" in values.get("rel", "").lower().split() and canonical is None:
            canonical = values.get("href", "").strip() or None
    return metas, canonical


def _joined(url: str, href: str) -> str | None:
    """The canonical href resolved against the page's URL; None if it names no http(s) URL a crawler follows."""
    try:
        return checked_url(urljoin(url, href))
    except ValueError:  # `http://[oops]/`: urljoin's own error, or InvalidURL
        return None


def _directives(text: str) -> list[str]:
    return [part.strip().lower() for part in text.split(",") if part.strip()]


def robots_tags(headers: Iterable[tuple[str, str]]) -> list[tuple[str | None, list[str]]]:
    """Each `X-Robots-Tag` line of `headers`: the crawler it is aimed at (lower case; None for every
    crawler) and its directives, lower-cased."""
    out: list[tuple[str | None, list[str]]] = []
    for name, value in headers:
        if name.lower() != "x-robots-tag":
            continue
        aimed, _, rest = value.partition(":")
        # `googlebot: noindex` aims the line at one crawler; `unavailable_after: date` is no crawler name.
        if rest and " " not in aimed.strip() and aimed.strip().lower() not in ("unavailable_after",):
            out.append((aimed.strip().lower(), _directives(rest)))
        else:
            out.append((None, _directives(value)))
    return out


def page_facts(url: str, headers: Iterable[tuple[str, str]], body: bytes, token: str) -> PageFacts:
    """The indexing facts of one response for the crawler with product token `token` (lower case).

    `headers` are the response's field lines as received, (name, value): a
    crawler's name prefix aims one `X-Robots-Tag` line at it, so repeated
    lines must not be joined into one (an HTTP client's dict joins them).
    """
    fields = list(headers)
    found = [(d, "header") for aimed, line in robots_tags(fields) if aimed in (None, token) for d in line]
    metas, href = _head(body[:MAX_HTML].decode("utf-8", "replace"))
    for name, content in metas:
        if name in ("robots", token):
            found += [(d, f"meta:{name}") for d in _directives(content)]
    canonical = _joined(url, href) if href else None
    bad_canonical = href if href and canonical is None else None
    usage: dict[str, str] = {}
    # RFC 9651, Section 4.2: the lines of a structured field are parsed as one, joined by commas.
    usage_lines = [value for name, value in fields if name.lower() == "content-usage"]
    if usage_lines:
        members = parse_dictionary(", ".join(usage_lines)) or {}
        usage = {
            k: str(m.value)
            for k, m in members.items()
            if isinstance(m, Item) and isinstance(m.value, Token) and m.value in ("y", "n")
        }
    challenge = _CHALLENGE.search(body[:MAX_HTML]) is not None
    return PageFacts(tuple(d for d, _ in found), tuple(s for _, s in found), canonical, usage, challenge, bad_canonical)


def page_facts_dict(url: str, headers: Iterable[tuple[str, str]], body: bytes, token: str) -> dict[str, Any]:
    """`page_facts` as JSON-ready data: the form a worker process answers in."""
    return page_facts(url, headers, body, token).as_dict()


class PageFinding(NamedTuple):
    code: str
    message: Message

    def as_dict(self, lang: str = "en") -> dict[str, Any]:
        return {"code": self.code, "message": self.message.as_dict(lang)}


def findings(
    verdict: Verdict,
    status: int | None,
    facts: PageFacts | None,
    canonical_verdict: Verdict | None,
    robots_noindex: bool,
    *,
    lists_pages: bool = True,
) -> list[PageFinding]:
    """What the robots.txt verdict and the page's own answer mean together, for one crawler.

    `lists_pages`: whether the crawler feeds a search index that can list a
    page from links alone (search and AI search engines). For any other
    crawler (AI training, archives, datasets) a block is simply what keeps
    it out, and advice about noindex would be wrong: it indexes nothing.
    """
    out = []
    blocked = not verdict.allowed
    if blocked and not lists_pages:
        out.append(PageFinding("blocked", _blocked("pagecheck.blocked", verdict)))
    elif blocked and facts is not None and facts.noindex:
        out.append(PageFinding("blockedNoindex", _blocked("pagecheck.blockedNoindex", verdict)))
    elif blocked:
        out.append(PageFinding("blockedIndexable", _blocked("pagecheck.blockedIndexable", verdict)))
    if not blocked and facts is not None and facts.challenge:
        out.append(PageFinding("serverRefuses", message("pagecheck.serverChallenges", status=status or 0)))
    elif not blocked and status in (401, 403, 429, 503):
        out.append(PageFinding("serverRefuses", message("pagecheck.serverRefuses", status=status)))
    if not blocked and facts is not None and facts.noindex:
        out.append(PageFinding("noindex", message("pagecheck.noindex", sources=facts.noindex_sources)))
    if facts is not None and facts.bad_canonical is not None:
        out.append(PageFinding("canonicalInvalid", message("pagecheck.canonicalInvalid", href=facts.bad_canonical)))
    if canonical_verdict is not None and not canonical_verdict.allowed:
        out.append(
            PageFinding(
                "canonicalBlocked", _blocked("pagecheck.canonicalBlocked", canonical_verdict, url=canonical_verdict.url)
            )
        )
    if facts is not None and _AI_TOKENS & set(facts.directives):
        out.append(
            PageFinding("aiToken", message("pagecheck.aiToken", tokens=sorted(_AI_TOKENS & set(facts.directives))))
        )
    if robots_noindex:
        out.append(PageFinding("noindexInRobotsTxt", message("pagecheck.noindexInRobotsTxt")))
    return out


def _blocked(code: str, verdict: Verdict, **params: Any) -> Message:
    """What blocks: the deciding line, or (no line decided) a robots.txt that could not be fetched."""
    if verdict.line is None:
        return message(code + ".unreachable", **params)
    return message(code, line=verdict.line, **params)
