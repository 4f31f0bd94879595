"""Which keys a robots.txt line can have, and how each reader spells them: the directive table.

RFC 9309 knows four keys (`STANDARD_KEYS`); crawlers know more
(`NON_STANDARD_KEYS`: crawl-delay, host, the AI usage preferences, ...).
Google's parser reads a key by its start, its common typos included
(`GOOGLE_PREFIXES`, from its open-source robots.cc): `google_key` is the
one model of that dialect, which Google's reading parses with and the
linter reports from. `did_you_mean` suggests the key a misspelt one was
meant to be. Data and lookups only: nothing here decides access.
"""

from __future__ import annotations

import difflib

STANDARD_KEYS = {"user-agent": "User-agent", "allow": "Allow", "disallow": "Disallow", "sitemap": "Sitemap"}

# Records outside RFC 9309 that crawlers know; what each is, who honours it and who
# ignores it is the message `lint.nonStandardDirective.<key>`.
NON_STANDARD_KEYS = (
    "crawl-delay",
    "host",
    "clean-param",
    "request-rate",
    "visit-time",
    "noindex",
    "nofollow",
    "content-signal",
    "content-usage",
    "license",
)

# Records that are rules of a group, as Allow and Disallow are: a user-agent line after one
# starts a new group. Content-Usage by draft-ietf-aipref-attach-05, Section 3 (`rule =/
# content-usage`); Content-Signal, which Cloudflare defines as a line of a group with no
# grammar, by analogy (inferred). Google's parser ends a group on Allow and Disallow only
# (docs/differences-from-google.md, `usage-rule-ends-group`).
GROUP_RULE_KEYS = frozenset({"content-usage", "content-signal"})

# Google's parser reads a key by these prefixes, misspellings included (robots.cc,
# `kAllowFrequentTypos`); RFC 9309 reads none of the misspellings.
GOOGLE_PREFIXES = (
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

# Misspellings seen in real files, with the key they were meant to be.
TYPOS = {
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

# Every key a crawler knows, lower-cased, with the spelling to suggest.
KNOWN_KEYS = {**STANDARD_KEYS, **{key: key.capitalize() for key in NON_STANDARD_KEYS}}


def google_key(key: str) -> str | None:
    """The standard key Google's parser reads `key` as, typos included, or None.

    >>> google_key("Disallowed"), google_key("User agent"), google_key("Crawl-delay")
    ('disallow', 'user-agent', None)
    """
    lowered = key.lower()
    for prefix, meaning in GOOGLE_PREFIXES:
        if lowered.startswith(prefix):
            return meaning
    return None


def did_you_mean(key: str) -> str | None:
    """The known key a misspelt `key` was most likely meant to be, as it is usually written, or None."""
    lowered = key.lower()
    if lowered in TYPOS:
        return TYPOS[lowered]
    close = difflib.get_close_matches(lowered, list(KNOWN_KEYS), n=1, cutoff=0.75)
    return KNOWN_KEYS[close[0]] if close else None
