"""Generated NCSA combined access logs, as a busy site's look: browsers, crawlers, spoofers, one robots.txt.

    python benchmarks/make_logs.py 1000000 > access.log     # a million lines, about 190 MB
    python benchmarks/make_logs.py 1000000 --hosts --robots-dir robots/ > access.log   # `hosted`, below

The mix: 55 % browsers (300 User-Agent strings, 20,000 addresses), the rest crawlers of the catalogue
from their operators' published addresses (Googlebot, bingbot, GPTBot, ClaudeBot, ChatGPT-User, ...),
with one Googlebot request in six from an address outside Google's lists; 6,000 paths, the popular
ones far more often (a Zipf-like draw), a few of them disallowed by `ROBOTS`; 100 requests a second
from 2026-11-02T00:00Z. Deterministic for a seed.
"""

from __future__ import annotations

import argparse
import ipaddress
import random
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

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


# `hosted`: three sites behind one server, each with its robots.txt; shop.example's changes half-way.
HOSTS = (("shop.example", 0.6), ("blog.example", 0.3), ("docs.example", 0.1))
RATE = 100.0  # requests a second, all hosts together
FIRST_FILES = "2026-11-01T00:00Z"  # every host's first robots.txt, in force a day before the first request
BLOG_ROBOTS = (
    "User-agent: *\nDisallow: /private/\nDisallow: /tags/\n\nUser-agent: CCBot\nUser-agent: Bytespider\nDisallow: /\n"
)
DOCS_ROBOTS = "User-agent: *\nAllow: /\nCrawl-delay: 2\n\nUser-agent: GPTBot\nDisallow: /docs/\n"
# The shop's second file lets GPTBot read the blog and shuts ClaudeBot out of the products.
SHOP_LATER = ROBOTS.replace("User-agent: GPTBot\n", "User-agent: GPTBot\nAllow: /blog/\n") + (
    "\nUser-agent: ClaudeBot\nDisallow: /products/\n"
)
# (token, share of requests, the list its addresses come from or None for anywhere); a listed crawler's
# request comes from an address outside its lists one time in eight.
_HOSTED_CRAWLERS = (
    *_CRAWLERS,
    ("Bytespider", 0.01, None),
    ("meta-externalagent", 0.01, None),
    ("OAI-SearchBot", 0.01, "openai-searchbot.json"),
    ("Perplexity-User", 0.005, "perplexity-perplexity-user.json"),
    ("FeedFetcher-Google", 0.005, "google-special-crawlers.json"),
)
_OTHERS = ("curl/8.5.0", "python-requests/2.32.3", "Go-http-client/1.1")  # no catalogue crawler: unaudited
_SPOOFED = 1 / 8
_ROBOTS_FETCHES = 0.02  # of a crawler's requests


def middle(count: int) -> str:
    """When shop.example's robots.txt changes in a log of `count` lines: half-way, to the minute."""
    moment = datetime.fromtimestamp(START + count / RATE / 2, UTC)
    return moment.strftime("%Y-%m-%dT%H:%MZ")


def robots_dir(folder: Path, count: int) -> None:
    """The robots.txt of each host of `hosted(count)`, as `robotscope logs --robots-dir` reads them."""
    files = {
        "shop.example": {FIRST_FILES: ROBOTS, middle(count): SHOP_LATER},
        "blog.example": {FIRST_FILES: BLOG_ROBOTS},
        "docs.example": {FIRST_FILES: DOCS_ROBOTS},
    }
    for host, versions in files.items():
        (folder / host).mkdir(parents=True, exist_ok=True)
        for stamp, text in versions.items():
            (folder / host / f"{stamp}.txt").write_text(text)


def hosted(count: int, seed: int = 26) -> Iterator[str]:
    """`count` lines of Apache's `vhost_combined` (`%v:%p` before a combined line; GoAccess's VCOMBINED): three
    hosts, browsers (300 User-Agents, 20,000 addresses), a few tools, the catalogue's crawlers (`_HOSTED_CRAWLERS`)
    from their operators' addresses and, one time in eight, from elsewhere, each fetching /robots.txt now and
    then; 6,000 paths drawn Zipf-like; `RATE` requests a second from `START`. Deterministic for a seed."""
    rng = random.Random(seed)
    paths = [path for path in _paths(rng) if path != "/robots.txt"]
    weights = [1 / (rank + 1) for rank in range(len(paths))]
    hosts = [f"{host}:443" for host, _ in HOSTS]
    host_shares = [share for _, share in HOSTS]
    browsers = [
        f"Mozilla/5.0 (X11; Linux x86_64; rv:{100 + n % 40}.0) Gecko/20100101 Firefox/{100 + n % 40}.{n}"
        if n % 2
        else f"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{120 + n % 20}"
        f".0.{n}.0 Safari/537.36"
        for n in range(_BROWSERS)
    ]
    people = _addresses(rng, None, 20_000)
    crawlers = []
    for token, share, listed in _HOSTED_CRAWLERS:
        crawler = get(token)
        assert crawler is not None and crawler.request_user_agent, token
        crawlers.append((crawler.request_user_agent, share, _addresses(rng, listed, 40), listed is not None))
    spoofers = _addresses(rng, None, 200)
    shares = [share for _, share, _, _ in crawlers]
    crawling = sum(shares)
    now, second, stamp = START, -1, ""
    draws = 4096
    for at in range(count):
        if at % draws == 0:
            chosen = iter(rng.choices(paths, weights, k=draws))
            sites = iter(rng.choices(hosts, host_shares, k=draws))
        now += rng.expovariate(RATE)
        if int(now) != second:
            second = int(now)
            stamp = datetime.fromtimestamp(second, UTC).strftime("%d/%b/%Y:%H:%M:%S +0000")
        path, host = next(chosen), next(sites)
        pick = rng.random()
        if pick < crawling:
            agent, _, addresses, listed = rng.choices(crawlers, shares)[0]
            address = rng.choice(spoofers if listed and rng.random() < _SPOOFED else addresses)
            if rng.random() < _ROBOTS_FETCHES:
                path = "/robots.txt"
        elif pick < crawling + 0.01:
            agent, address = rng.choice(_OTHERS), rng.choice(people)
        else:
            agent, address = rng.choice(browsers), rng.choice(people)
        status = 200 if rng.random() < 0.93 else rng.choice((301, 304, 403, 404, 500))
        size = rng.randrange(200, 60_000)
        yield f'{host} {address} - - [{stamp}] "GET {path} HTTP/1.1" {status} {size} "-" "{agent}"\n'


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("count", type=int, nargs="?", default=100_000)
    parser.add_argument("--hosts", action="store_true", help="three hosts, vhost_combined lines (`hosted`)")
    parser.add_argument("--robots-dir", type=Path, help="write the hosts' robots.txt files there (with --hosts)")
    options = parser.parse_args()
    if options.robots_dir is not None:
        robots_dir(options.robots_dir, options.count)
    sys.stdout.writelines(hosted(options.count) if options.hosts else combined(options.count))


if __name__ == "__main__":
    main()
