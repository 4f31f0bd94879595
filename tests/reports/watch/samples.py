"""Observations the watch tests share: a normal file, its staging twin, Cloudflare's managed block."""

from __future__ import annotations

from collections.abc import Mapping

from robotscope.reports.watch.observation import Observation

GOOD = (
    b"# shop robots.txt\n"
    b"User-agent: *\n"
    b"Disallow: /cart/\n"
    b"Disallow: /search\n"
    b"\n"
    b"User-agent: Googlebot\n"
    b"Disallow: /cart/\n"
    b"\n"
    b"Sitemap: https://shop.example/sitemap.xml\n"
)
STAGING = b"User-agent: *\nDisallow: /\n"


# Cloudflare's managed block exactly as its documentation gives it (cloudflare-docs, managed-robots-txt.mdx).
CLOUDFLARE_BLOCK = (
    b"# BEGIN Cloudflare Managed content\n"
    b"\n"
    b"User-Agent: *\n"
    b"Content-signal: search=yes, ai-train=no\n"
    b"Allow: /\n"
    b"\n"
    b"User-agent: Amazonbot\n"
    b"Disallow: /\n"
    b"\n"
    b"User-agent: Applebot-Extended\n"
    b"Disallow: /\n"
    b"\n"
    b"User-agent: Bytespider\n"
    b"Disallow: /\n"
    b"\n"
    b"User-agent: CCBot\n"
    b"Disallow: /\n"
    b"\n"
    b"User-agent: ClaudeBot\n"
    b"Disallow: /\n"
    b"\n"
    b"User-agent: Google-Extended\n"
    b"Disallow: /\n"
    b"\n"
    b"User-agent: GPTBot\n"
    b"Disallow: /\n"
    b"\n"
    b"User-agent: meta-externalagent\n"
    b"Disallow: /\n"
    b"\n"
    b"# END Cloudflare Managed Content\n"
)


def seen(
    body: bytes = GOOD,
    status: int | None = 200,
    agent: str = "browser",
    *,
    content_type: str | None = "text/plain",
    headers: Mapping[str, str] | None = None,
    truncated: bool = False,
    failure: str | None = None,
) -> Observation:
    """An observation as a fetch would give it: a 200 text/plain file by default."""
    return Observation(agent, status, content_type, dict(headers or {}), body, truncated, failure)
