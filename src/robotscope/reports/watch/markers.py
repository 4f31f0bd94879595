"""What an edge (a CDN, a bot wall) put in a robots.txt response: a challenge page, or a block it injected.

Bot-challenge pages, recognised by the markers their vendors document or
that fingerprinting tools match:

- Cloudflare: the `cf-mitigated: challenge` header is set on every
  challenge page ("Detect a Challenge Page response",
  https://developers.cloudflare.com/cloudflare-challenges/challenge-types/challenge-pages/detect-response);
  the page's `<title>Just a moment...</title>`, its `/cdn-cgi/challenge-platform/`
  script and `cf_chl` / `cf-chl` names; the block page's "Attention Required! | Cloudflare".
- Imperva (Incapsula): "Incapsula incident ID" and `/_Incapsula_Resource`
  (wafw00f, plugins/incapsula.py, https://github.com/EnableSecurity/wafw00f).
- Akamai: "Access Denied" with "Reference #" and an AkamaiGHost server (sqlmap's
  and wafw00f's Kona Site Defender checks).
- DataDome: its captcha from `captcha-delivery.com` and the `x-datadome` header
  (DataDome captcha pages as CAPTCHA-solving services document them).

Cloudflare's managed robots.txt: a block between `# BEGIN Cloudflare Managed
content` and `# END Cloudflare Managed Content` (the capitalisation differs;
matched case-insensitively), prepended to the origin's file, that disallows
`/` for AI crawlers (Cloudflare's docs, managed-robots-txt; quoted in
docs/watch-alerts.md). A `cf-ray` header shows the response came through Cloudflare.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple

from ...access.robots import Robots

SNIFF_BYTES = 64 * 1024  # of a body searched for a challenge's markers: they are in the page's head

# (vendor, header name, header value pattern or None for any value)
_HEADERS = (
    ("Cloudflare", "cf-mitigated", re.compile(r"challenge", re.I)),
    ("DataDome", "x-datadome", None),
)
# (vendor, pattern in the body)
_BODIES = (
    ("Cloudflare", re.compile(rb"<title>\s*Just a moment\.\.\.\s*</title>", re.I)),
    ("Cloudflare", re.compile(rb"/cdn-cgi/challenge-platform/|cf[_-]chl", re.I)),
    ("Cloudflare", re.compile(rb"Attention Required! \| Cloudflare", re.I)),
    ("Imperva", re.compile(rb"Incapsula incident ID|/_Incapsula_Resource", re.I)),
    ("DataDome", re.compile(rb"captcha-delivery\.com", re.I)),
    ("Akamai", re.compile(rb"<title>\s*Access Denied\s*</title>.*Reference #[0-9a-f.]+", re.I | re.S)),
)
_BEGIN = re.compile(r"#\s*BEGIN Cloudflare Managed content\s*", re.I)
_END = re.compile(r"#\s*END Cloudflare Managed Content\s*", re.I)
CLOUDFLARE = "Cloudflare"


class Challenge(NamedTuple):
    """A bot-challenge page: the vendor, and the marker that gave it away (a header or a text)."""

    vendor: str
    marker: str


def challenge(headers: Mapping[str, str], body: bytes) -> Challenge | None:
    """The challenge page a response is, if its headers or the start of its body carry a vendor's marker."""
    for vendor, name, value in _HEADERS:
        found = headers.get(name)
        if found is not None and (value is None or value.search(found)):
            return Challenge(vendor, f"{name}: {found}"[:100])
    start = body[:SNIFF_BYTES]
    for vendor, pattern in _BODIES:
        match = pattern.search(start)
        if match is not None:
            return Challenge(vendor, match.group().decode("utf-8", "replace")[:100])
    return None


class EdgeBlock(NamedTuple):
    """A block an edge injected into the file: its vendor, its first and last line, the crawlers it blocks at /."""

    vendor: str
    first: int
    last: int
    blocked: tuple[str, ...]


def edge_block(robots: Robots) -> EdgeBlock | None:
    """Cloudflare's managed block in the file, if its BEGIN marker is there (to its END, or the file's end)."""
    lines = robots.lines
    first = next((n.number for n in lines if n.comment is not None and _BEGIN.fullmatch(n.raw.strip())), 0)
    if not first:
        return None
    last = next((line.number for line in lines if line.number > first and _END.fullmatch(line.raw.strip())), len(lines))
    blocked = [
        robots.line(n).value or ""
        for group in robots.groups
        if group.agent_lines
        and first < group.agent_lines[0] < last
        and any(not rule.allow and rule.normalised == "/" for rule in group.rules)
        for n in group.agent_lines
        if robots.line(n).value
    ]
    return EdgeBlock(CLOUDFLARE, first, last, tuple(dict.fromkeys(blocked)))


def through_cloudflare(headers: Mapping[str, str]) -> bool:
    """Whether the response came through Cloudflare (it sets `cf-ray` on every response it serves)."""
    return "cf-ray" in headers
