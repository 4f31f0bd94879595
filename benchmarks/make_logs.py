"""Generated NCSA combined access logs, as a busy site's look: browsers, crawlers, spoofers, one robots.txt.

    python benchmarks/make_logs.py 1000000 > access.log     # a million lines, about 220 MB

The mix: 55 % browsers (300 User-Agent strings, 20,000 addresses), the rest crawlers of the catalogue
from their operators' published addresses (Googlebot, bingbot, GPTBot, ClaudeBot, ChatGPT-User, ...),
with one Googlebot request in six from an address outside Google's lists; 6,000 paths, the popular
ones far more often (a Zipf-like draw), a few of them disallowed by `ROBOTS`; 100 requests a second
from 2026-11-02T00:00Z. Deterministic for a seed.
"""

from __future__ import annotations

import ipaddress
import random
import sys
from collections.abc import Iterator
from datetime import UTC, datetime

from robotscope.syntax.crawlers import get
from robotscope.syntax.iplists import snapshot

START = datetime(2026, 11, 2, tzinfo=UTC).timestamp()
SITE = "https://shop.example"
ROBOTS = """User-agent: *
Disallow: /private/
Disallow: /search
Allow: /search/about
Crawl-delay: 5

User-agent: GPTBot
User-agent: CCBot
Disallow: /

User-agent: Googlebot
Disallow: /cart
"""

# (token, share of requests, the list its addresses come from or None for anywhere)
_CRAWLERS = (
    ("Googlebot", 0.15, "google-common-crawlers.json"),
    ("bingbot", 0.05, "bing-bingbot.json"),
    ("GPTBot", 0.05, "openai-gptbot.json"),
    ("ClaudeBot", 0.03, "anthropic-bots.json"),
    ("ChatGPT-User", 0.02, "openai-chatgpt-user.json"),
    ("PerplexityBot", 0.02, "perplexity-perplexitybot.json"),
    ("CCBot", 0.02, None),
    ("AhrefsBot", 0.03, None),
    ("Applebot", 0.02, "apple-applebot.json"),
    ("YandexBot", 0.01, None),
)
_BROWSERS = 300
_PATHS = 6000


def _addresses(rng: random.Random, name: str | None, count: int) -> list[str]:
    if name is None:
        return [str(ipaddress.IPv4Address(rng.getrandbits(32))) for _ in range(count)]
    every: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = list(snapshot(name).networks)
    networks = [n for n in every if n.version == 4] or every  # IPv4, as most logs show crawlers
    found = []
    for _ in range(count):
        network = rng.choice(networks)
        found.append(str(network[rng.randrange(network.num_addresses)]))
    return found


def _paths(rng: random.Random) -> list[str]:
    sections = ["products", "blog", "private", "search", "cart", "docs", "tags", "about"]
    paths = ["/", "/robots.txt", "/sitemap.xml"]
    while len(paths) < _PATHS:
        section = rng.choice(sections)
        query = f"?page={rng.randrange(1, 9)}" if rng.random() < 0.1 else ""
        paths.append(f"/{section}/{rng.randrange(100_000)}{query}")
    return paths


def combined(count: int, seed: int = 26) -> Iterator[str]:
    """`count` lines of NCSA combined log, with their line ends."""
    rng = random.Random(seed)
    paths = _paths(rng)
    weights = [1 / (rank + 1) for rank in range(len(paths))]
    browsers = [
        f"Mozilla/5.0 (X11; Linux x86_64; rv:{100 + n % 40}.0) Gecko/20100101 Firefox/{100 + n % 40}.{n}"
        for n in range(_BROWSERS)
    ]
    people = _addresses(rng, None, 20_000)
    crawlers = []
    for token, share, listed in _CRAWLERS:
        crawler = get(token)
        assert crawler is not None, token
        crawlers.append((crawler.request_user_agent, share, _addresses(rng, listed, 40)))
    spoofers = _addresses(rng, None, 50)
    shares = [share for _, share, _ in crawlers]
    crawling = sum(shares)
    now = START
    draws = 4096
    for at in range(count):
        if at % draws == 0:
            chosen = iter(rng.choices(paths, weights, k=draws))
        now += rng.expovariate(100.0)
        stamp = datetime.fromtimestamp(now, UTC).strftime("%d/%b/%Y:%H:%M:%S +0000")
        path = next(chosen)
        pick = rng.random()
        if pick < crawling:
            agent, _, addresses = rng.choices(crawlers, shares)[0]
            address = rng.choice(addresses)
            if addresses is crawlers[0][2] and rng.random() < 1 / 6:
                address = rng.choice(spoofers)  # "Googlebot" from anywhere
        else:
            agent, address = rng.choice(browsers), rng.choice(people)
        status = 200 if rng.random() < 0.93 else rng.choice((301, 304, 403, 404, 500))
        size = rng.randrange(200, 60_000)
        yield f'{address} - - [{stamp}] "GET {path} HTTP/1.1" {status} {size} "-" "{agent}"\n'


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    sys.stdout.writelines(combined(count))


if __name__ == "__main__":
    main()
