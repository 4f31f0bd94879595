"""Whom a watch fetches as: labels (`browser`, a catalogue crawler, or a User-Agent string) and what each sends.

A site, its CDN or its bot wall may answer crawlers otherwise than people
(Cloudflare's managed robots.txt, a challenge page for unknown bots), so a
watch fetches each robots.txt as a browser first, the reference the
others are compared with, then as the crawlers that matter most.
"""

from __future__ import annotations

from ..syntax import crawlers
from ..syntax.crawlers import CHROME_VERSION

BROWSER = "browser"
BROWSER_UA = (
    f"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{CHROME_VERSION} Safari/537.36"
)
# The browser first (the reference), then the search crawler and the AI crawler most files name.
DEFAULT_AGENTS = (BROWSER, "Googlebot", "GPTBot")


def user_agent(label: str) -> str:
    """The User-Agent string sent as `label`: a browser's, a catalogue crawler's own, or the label itself."""
    if label.lower() == BROWSER:
        return BROWSER_UA
    known = crawlers.get(label)
    if known is not None and known.user_agent:
        return known.request_user_agent
    return label
