"""Product tokens: of a `user-agent` line in a file, and of the crawler asking.

RFC 9309, Section 2.2.1: a group names a crawler by its product token, and
crawlers match it case-insensitively. The token is read as the leading run
of letters, digits, `-` and `_`: RFC 9309's grammar has no digits, but real
crawlers do (`360Spider`, `MJ12bot`), and the standard library, Protego,
texting_robots and the other suites all keep them (`Rule1TestBot` and
`Rule7TestBot` are two crawlers). Google's parser stops at the first digit;
docs/differences-from-google.md lists that. A crawler
may be named by its token (`Googlebot`) or by its full HTTP User-Agent
string, from which the token is extracted here. Imports nothing from
robotscope.
"""

from __future__ import annotations

import re
from functools import lru_cache

_TOKEN = re.compile(r"[A-Za-z0-9_-]+")
# `Name/version` products, anywhere in a User-Agent string (inside comments too).
_PRODUCT = re.compile(r"(?:^|[\s(;,])([A-Za-z0-9_-]+)/[0-9A-Za-z]")
# `compatible; Name`: how a crawler dressed as a browser names itself, with or without a
# version, inside a comment or not (`(KHTML, like Gecko; compatible; GoogleOther)`); the
# name is the item's first word that is a token (`Yahoo! Slurp` is Slurp's).
_COMPATIBLE = re.compile(r"\bcompatible\s*;([^;()]*)", re.IGNORECASE)

# Products that name a browser engine or platform rather than a crawler.
_NOT_CRAWLERS = frozenset(
    name.lower()
    for name in [
        "Mozilla",
        "AppleWebKit",
        "Chrome",
        "Chromium",
        "Safari",
        "Gecko",
        "Firefox",
        "Version",
        "Mobile",
        "Build",
        "KHTML",
        "Edg",
        "Edge",
        "EdgA",
        "OPR",
        "Opera",
        "Trident",
        "MSIE",
        "CriOS",
        "FxiOS",
        "SamsungBrowser",
        "YaBrowser",
        "UCBrowser",
        "Linux",
        "Android",
        "Windows",
        "compatible",
        "like",
        "Dalvik",
    ]
)


def is_product_token(value: str) -> bool:
    """Whether `value`, as written, is a whole product token: letters, digits, `-` and `_`, nothing else."""
    return _TOKEN.fullmatch(value) is not None


def group_token(value: str) -> str | None:
    """Return the token a `user-agent` line's value names, lower-cased.

    `*` alone is the global group; otherwise the leading letters, digits,
    `-` and `_`, so `Googlebot/2.1` names `googlebot` and `MJ12bot`
    `mj12bot`. None when no token can be read (`*bot`, `/bot`, an empty
    value) and for `* foo`: RFC 9309's grammar has `*` only as a whole
    product token (Google's reading takes `* foo` as `*`: `engines.google`).
    """
    if value == "*":
        return "*"
    match = _TOKEN.match(value)
    return match.group().lower() if match else None


@lru_cache(maxsize=1024)
def product_token(agent: str) -> str:
    """Return the crawler's product token, lower-cased, from a token or a User-Agent string.

    >>> product_token("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")
    'googlebot'
    >>> product_token("Mozilla/5.0 (compatible; 360Spider)")
    '360spider'
    >>> product_token("ExampleBot/1.0")
    'examplebot'
    """
    agent = agent.strip()
    if _TOKEN.fullmatch(agent):
        return agent.lower()
    # A leading bare word names the product when no version follows it:
    # "FigTree Robot libwww-perl/5.04" is FigTree's crawler.
    first_word = agent.split(None, 1)[0] if agent else ""
    if _TOKEN.fullmatch(first_word) and first_word.lower() not in _NOT_CRAWLERS:
        return first_word.lower()
    for item in _COMPATIBLE.finditer(agent):
        for word in item.group(1).split():
            name = word.partition("/")[0].lower()
            if _TOKEN.fullmatch(name) and name not in _NOT_CRAWLERS:
                return name
    for match in _PRODUCT.finditer(agent):
        name = match.group(1).lower()
        if name not in _NOT_CRAWLERS:
            return name
    first = _TOKEN.match(agent)
    return first.group().lower() if first else ""
