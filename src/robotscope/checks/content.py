"""Checks of the file as a whole and of each line's syntax and keys."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator

from ..model import LineKind, Severity
from ..parser import MAX_BYTES
from ..robots import Robots
from ..urls import path_and_query
from . import Hit, check, split_url

STANDARD_KEYS = {"user-agent": "User-agent", "allow": "Allow", "disallow": "Disallow", "sitemap": "Sitemap"}

# Google's parser reads a key by these prefixes, misspellings included (its
# open-source robots.cc); RFC 9309 reads none of the misspellings.
_GOOGLE_PREFIXES = (
    ("user-agent", "user-agent"),
    ("useragent", "user-agent"),
    ("user agent", "user-agent"),
    ("allow", "allow"),
    ("disallow", "disallow"),
    ("dissallow", "disallow"),
    ("dissalow", "disallow"),
    ("disalow", "disallow"),
    ("diasllow", "disallow"),
    ("disallaw", "disallow"),
    ("sitemap", "sitemap"),
    ("site-map", "sitemap"),
)


def google_key(key: str) -> str | None:
    """The standard key Google's parser reads `key` as, typos included, or None."""
    lowered = key.lower()
    for prefix, meaning in _GOOGLE_PREFIXES:
        if lowered.startswith(prefix):
            return meaning
    return None


# Records outside RFC 9309 that crawlers know: who honours them, who ignores them.
NON_STANDARD = {
    "crawl-delay": (
        Severity.INFO,
        ("Crawl-delay is not part of RFC 9309: Bing honours it (seconds between fetches) and so does "
        "Anthropic's ClaudeBot, but Google ignores it and Yandex has ignored it since February 2018"),
        "to slow Googlebot, answer with 429 or 503 for a while; for Yandex use the crawl-rate setting in Yandex Webmaster",
    ),
    "host": (
        Severity.WARNING,
        "Host was a Yandex-only record naming the main mirror; Yandex dropped it in March 2018 and no other crawler reads it",
        "remove it and redirect the other hosts to the main one with 301 redirects",
    ),
    "clean-param": (
        Severity.INFO,
        "Clean-param is read by Yandex only (URL parameters that do not change the page); every other crawler ignores it",
        "keep it for Yandex; use canonical links for other search engines",
    ),
    "request-rate": (
        Severity.INFO,
        "Request-rate comes from the never-adopted robots.txt 2.0 proposal; Google ignores it and no major search engine documents support for it",
        "remove it, or use Crawl-delay for Bing",
    ),
    "visit-time": (
        Severity.INFO,
        "Visit-time comes from the never-adopted robots.txt 2.0 proposal; Google ignores it and no major search engine documents support for it",
        "remove it",
    ),
    "noindex": (
        Severity.WARNING,
        "Noindex in robots.txt does nothing: Google stopped supporting it on 1 September 2019 and other search engines never did",
        'use <meta name="robots" content="noindex"> or an X-Robots-Tag: noindex header, and leave the page crawlable so it is seen',
    ),
    "nofollow": (
        Severity.WARNING,
        "Nofollow in robots.txt does nothing: Google stopped supporting it on 1 September 2019 and other search engines never did",
        'use <meta name="robots" content="nofollow"> or an X-Robots-Tag: nofollow header',
    ),
    "content-signal": (
        Severity.INFO,
        ("Content-Signal (Cloudflare's Content Signals Policy) states preferences for search, ai-input and ai-train "
        "(yes or no); it does not block crawling, and a signal left out neither grants nor restricts that use"),
        "keep Allow/Disallow rules for what crawlers may fetch; write signals as e.g. Content-Signal: search=yes, ai-train=no",
    ),
    "content-usage": (
        Severity.INFO,
        ("Content-Usage comes from the IETF AI preferences drafts (aipref, not yet an RFC): it states usage preferences "
        "such as train-ai=n for a path and does not block crawling"),
        "keep Allow/Disallow rules for what crawlers may fetch; check the draft revision your crawlers follow",
    ),
}

_TYPOS = {
    "useragent": "User-agent",
    "user agent": "User-agent",
    "user-agents": "User-agent",
    "dissallow": "Disallow",
    "dissalow": "Disallow",
    "disalow": "Disallow",
    "diasllow": "Disallow",
    "disallaw": "Disallow",
    "site-map": "Sitemap",
    "site map": "Sitemap",
}
_KNOWN_KEYS = {**STANDARD_KEYS, **{key: key.capitalize() for key in NON_STANDARD}}
_HTML = re.compile(r"<(?:!doctype\s+html|html|head|body|title|script|div)\b", re.IGNORECASE)


def looks_like_html(robots: Robots) -> bool:
    return _HTML.search(robots.text[:2048]) is not None


def did_you_mean(key: str) -> str | None:
    lowered = key.lower()
    if lowered in _TYPOS:
        return _TYPOS[lowered]
    close = difflib.get_close_matches(lowered, list(_KNOWN_KEYS), n=1, cutoff=0.75)
    return _KNOWN_KEYS[close[0]] if close else None


@check("htmlContent", Severity.ERROR, "the body is an HTML page, not a robots.txt")
def html_content(robots: Robots) -> Iterator[Hit]:
    if looks_like_html(robots):
        yield Hit(
            None,
            "the file looks like an HTML page (an error or login page served as robots.txt), so every line is ignored and crawlers may fetch everything",
            "serve a plain-text robots.txt at /robots.txt, or answer 404 if you have none",
        )


@check("oversize", Severity.ERROR, "the file is over the 500 KiB that crawlers must parse")
def oversize(robots: Robots) -> Iterator[Hit]:
    if not robots.truncated:
        return
    lost = [line for line in robots.overflow if line.kind in (LineKind.ALLOW, LineKind.DISALLOW, LineKind.USER_AGENT)]
    shown = ", ".join(f"line {line.number} ({line.key}: {line.value})" for line in lost[:5])
    more = f" and {len(lost) - 5} more" if len(lost) > 5 else ""
    first = robots.overflow[0].number if robots.overflow else None
    yield Hit(
        None,
        f"the file is {robots.size:,} bytes; only the first {MAX_BYTES:,} are parsed, so {len(robots.overflow):,} lines "
        f"from line {first} on are ignored" + (f", with these records: {shown}{more}" if lost else ""),
        "shorten the file below 500 KiB: merge rules with wildcards and remove rules for pages that no longer exist",
        lines=tuple(line.number for line in lost),
    )


@check("invalidUtf8", Severity.ERROR, "bytes that are not UTF-8")
def invalid_utf8(robots: Robots) -> Iterator[Hit]:
    if not robots.invalid_utf8:
        return
    for line in robots.lines:
        if "\ufffd" in line.raw:
            yield Hit(
                line.number,
                "this line has bytes that are not UTF-8; they are read as U+FFFD, so its rule matches no real URL",
                "save the file as UTF-8 (or percent-encode the path, e.g. /caf%C3%A9/)",
            )


@check("missingColon", Severity.ERROR, "a record without a colon is ignored")
def missing_colon(robots: Robots) -> Iterator[Hit]:
    if looks_like_html(robots):
        return  # htmlContent says it once for the whole file
    for line in robots.lines:
        if line.kind is not LineKind.INVALID or line.key is None:
            continue
        key = line.key.lower()
        meaning = google_key(key)
        if meaning is None and key not in _KNOWN_KEYS:
            continue
        shown = STANDARD_KEYS.get(meaning or "", _KNOWN_KEYS.get(key, line.key))
        corrected = f"{shown}: {line.value}".rstrip()
        effect = f", so {line.value} is not blocked" if meaning == "disallow" and line.value else ""
        google = (
            "; Google's parser would still read it as a rule"
            if meaning is not None and line.value and len(line.value.split()) == 1
            else ""
        )
        yield Hit(line.number, f"this line has no colon and is ignored under RFC 9309{effect}{google}", f"write `{corrected}`")


@check("invalidLine", Severity.WARNING, "a line that is no record at all")
def invalid_line(robots: Robots) -> Iterator[Hit]:
    if looks_like_html(robots):
        return  # htmlContent says it once for the whole file
    for line in robots.lines:
        if line.kind is LineKind.INVALID and line.key is not None:
            key = line.key.lower()
            if google_key(key) is None and key not in _KNOWN_KEYS:
                yield Hit(line.number, "this line is not a `key: value` record, so every crawler ignores it", "delete it, or make it a comment with `#`")


@check("unknownDirective", Severity.WARNING, "a key robotscope does not know")
def unknown_directive(robots: Robots) -> Iterator[Hit]:
    if looks_like_html(robots):
        return  # htmlContent says it once for the whole file
    for line in robots.lines:
        if line.kind is not LineKind.OTHER or line.key is None or line.key.lower() in NON_STANDARD:
            continue
        suggestion = did_you_mean(line.key)
        if suggestion is None:
            yield Hit(line.number, f"`{line.key}` is not a robots.txt key, so crawlers ignore this line", "delete it, or check the spelling of the key")
            continue
        google = google_key(line.key)
        google_note = "; Google's parser accepts this spelling, other crawlers do not" if google else ""
        severity = Severity.ERROR if suggestion.lower() in STANDARD_KEYS else None
        yield Hit(
            line.number,
            f"`{line.key}` is not a robots.txt key, so this line is ignored under RFC 9309{google_note}",
            f"did you mean `{suggestion}`? write `{suggestion}: {line.value}`",
            severity=severity,
        )


@check("nonStandardDirective", Severity.INFO, "a record outside RFC 9309: who honours it and who ignores it")
def non_standard_directive(robots: Robots) -> Iterator[Hit]:
    for line in robots.lines:
        if line.kind is LineKind.OTHER and line.key is not None and line.key.lower() in NON_STANDARD:
            severity, message, fix = NON_STANDARD[line.key.lower()]
            yield Hit(line.number, message, fix, severity=severity)


@check("sitemapInvalid", Severity.ERROR, "a Sitemap value that is not an absolute http(s) URL")
def sitemap_invalid(robots: Robots) -> Iterator[Hit]:
    for sitemap in robots.sitemaps:
        parts = split_url(sitemap.value)
        if parts is None:
            # `https://[oops]/s.xml`: a URL, but its host is no host; its path is kept in the example.
            path = path_and_query(sitemap.value)
            what = "has a host that is neither a host name nor an IP address"
            example = "https://www.example.com" + (path if path != "/" else "/sitemap.xml")
        elif parts.scheme in ("http", "https") and parts.netloc:
            continue
        else:
            what = "is not an absolute http or https URL"
            example = "https://www.example.com" + (sitemap.value if sitemap.value.startswith("/") else "/sitemap.xml")
        yield Hit(
            sitemap.line,
            f"the sitemap `{sitemap.value}` {what}, so crawlers cannot use it",
            f"write the full URL, e.g. `Sitemap: {example}`",
        )
