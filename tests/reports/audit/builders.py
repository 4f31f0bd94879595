"""What the audit's tests build: requests, the shipped lists as a verify callable, timelines of files."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import cache
from typing import NamedTuple
from urllib.parse import quote

from robotscope.messages import message
from robotscope.reports.audit.judge import Judge, Verify
from robotscope.reports.audit.timeline import RobotsTimeline, RobotsVersion, file_version
from robotscope.reports.verification import Verification, judge
from robotscope.syntax.crawlers import get
from robotscope.syntax.ipindex import AddressIndex
from robotscope.syntax.iplists import shipped, snapshot
from robotscope.syntax.logformats.fielded import CLOUDFRONT_HEADER
from robotscope.syntax.logformats.model import Request

# Addresses in the shipped snapshots (and one in none of them).
GOOGLE = "66.249.66.1"  # google-common-crawlers.json
OPENAI_GPTBOT = "20.171.206.1"  # openai-gptbot.json
CHATGPT_USER = "104.208.184.193"  # openai-chatgpt-user.json
ANYWHERE = "203.0.113.9"  # TEST-NET-3: in no list
BROWSER = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"
START = datetime(2026, 11, 2, tzinfo=UTC).timestamp()  # after every shipped list's creationTime


def agent(token: str) -> str:
    """The User-Agent string the catalogue gives `token`."""
    found = get(token)
    assert found is not None, token
    return found.request_user_agent


def request(
    ip: str,
    user_agent: str,
    target: str,
    when: float | None,
    *,
    status: int | None = 200,
    host: str | None = None,
    scheme: str | None = None,
    number: int = 1,
) -> Request:
    return Request(number, when, ip, "GET", target, host, scheme, status, user_agent)


@cache
def _index() -> tuple[AddressIndex, frozenset[str]]:
    lists = [snapshot(name) for name in shipped()]
    return AddressIndex(lists), frozenset(found.name for found in lists)


def shipped_verify(ip: str, user_agent: str, when: float | None) -> Verification:
    """The verdict of the shipped snapshots, no DNS (the moment aside: one version of each list)."""
    index, available = _index()
    return judge(ip, user_agent, index, available)


def versions(origin: str | None, *files: tuple[float | None, str]) -> list[RobotsVersion]:
    """Versions of `origin`'s robots.txt: (in force from, text) each, labelled v1, v2, ..."""
    return [
        file_version(origin, since, message("audit.source.file", path=f"v{at}"), f"v{at}", text.encode())
        for at, (since, text) in enumerate(files, 1)
    ]


def judge_of(*found: RobotsVersion, verify: Verify = shipped_verify, site: str | None = None) -> Judge:
    return Judge(RobotsTimeline(found).in_force, verify, site)


class Hit(NamedTuple):
    """One request as a generated log writes it."""

    ip: str
    when: float
    target: str
    user_agent: str
    status: int = 200


def combined_line(hit: Hit) -> str:
    stamp = datetime.fromtimestamp(hit.when, UTC).strftime("%d/%b/%Y:%H:%M:%S +0000")
    return f'{hit.ip} - - [{stamp}] "GET {hit.target} HTTP/1.1" {hit.status} 512 "-" "{hit.user_agent}"'


W3C_HEADER = (
    "#Software: Microsoft Internet Information Services 10.0\n#Version: 1.0\n#Date: 2026-11-02 00:00:00\n"
    "#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) "
    "cs(Referer) sc-status sc-substatus sc-win32-status time-taken"
)


def w3c_line(hit: Hit) -> str:
    stamp = datetime.fromtimestamp(hit.when, UTC).strftime("%Y-%m-%d %H:%M:%S")
    path, _, query = hit.target.partition("?")
    agent = hit.user_agent.replace(" ", "+")
    return f"{stamp} 10.0.0.1 GET {path} {query or '-'} 443 - {hit.ip} {agent} - {hit.status} 0 0 15"


# IIS after a restart with other logging fields: another order, no query, the header in lower case.
W3C_LATER_HEADER = "#fields: date time c-ip cs(User-Agent) cs-method cs-uri-stem sc-status"


def w3c_later_line(hit: Hit) -> str:
    stamp = datetime.fromtimestamp(hit.when, UTC).strftime("%Y-%m-%d %H:%M:%S")
    return f"{stamp} {hit.ip} {hit.user_agent.replace(' ', '+')} GET {hit.target.partition('?')[0]} {hit.status}"


def w3c_restarted(hits: Sequence[Hit], before: int) -> list[str]:
    """A W3C log's lines: `W3C_HEADER` and the first `before` hits, then the server restarted with other
    columns (`W3C_LATER_HEADER`) and the rest; read by one header throughout, half of them read wrong."""
    first = [*W3C_HEADER.split("\n"), *(w3c_line(hit) for hit in hits[:before])]
    return [*first, "#Software: Microsoft Internet Information Services 10.0", W3C_LATER_HEADER] + [
        w3c_later_line(hit) for hit in hits[before:]
    ]


def caddy_line(hit: Hit, host: str) -> str:
    request = {
        "remote_ip": hit.ip,
        "client_ip": hit.ip,
        "proto": "HTTP/1.1",
        "method": "GET",
        "host": host,
        "uri": hit.target,
        "headers": {"User-Agent": [hit.user_agent]},
        "tls": {"resumed": False, "version": 772},
    }
    entry = {"level": "info", "ts": hit.when, "logger": "http.log.access.log0", "msg": "handled request"}
    return json.dumps({**entry, "request": request, "status": hit.status, "size": 512})


def _utc(hit: Hit, form: str) -> str:
    return datetime.fromtimestamp(hit.when, UTC).strftime(form)


def cloudfront_line(hit: Hit, host: str) -> str:
    """A line of CloudFront's 33 documented columns (`CLOUDFRONT_HEADER`): values URL-encoded, tabs between."""
    path, _, query = hit.target.partition("?")
    viewer = [_utc(hit, "%Y-%m-%d"), _utc(hit, "%H:%M:%S"), "LAX1", "512", hit.ip, "GET"]
    request = [quote(path), str(hit.status), "-", quote(hit.user_agent, safe="/;:()+,"), quote(query, safe="=&") or "-"]
    edge = ["-", "Hit", "SOX4xwn4XV6Q4rgb7XiVGOHms_BGlTAC4KyHmureZmBNrjGdRLiNIQ==", host, "https", "23", "0.001"]
    rest = "- TLSv1.2 ECDHE-RSA-AES128-GCM-SHA256 Hit HTTP/1.1 - - 11040 0.001 Hit text/html 78 - -"
    return "\t".join([*viewer, "d111111abcdef8.cloudfront.net", *request, *edge, *rest.split(" ")])


def alb_line(hit: Hit, host: str) -> str:
    when = _utc(hit, "%Y-%m-%dT%H:%M:%S.000000Z")
    return (
        f"https {when} app/my-loadbalancer/50dc6c495c0c9188 {hit.ip}:2817 10.0.0.1:80 0.000 0.001 0.000 "
        f'{hit.status} {hit.status} 34 366 "GET https://{host}:443{hit.target} HTTP/1.1" "{hit.user_agent}" '
        "ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 "
        "arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 "
        f'"Root=1-58337262-36d228ad5d99923122bbe354" "{host}" "-" 0 {when} "forward" "-" "-" "10.0.0.1:80" '
        f'"{hit.status}" "-" "-"'
    )


def cloudflare_line(hit: Hit, host: str) -> str:
    entry = {
        "ClientIP": hit.ip,
        "ClientRequestHost": host,
        "ClientRequestMethod": "GET",
        "ClientRequestURI": hit.target,
        "ClientRequestScheme": "https",
        "ClientRequestUserAgent": hit.user_agent,
        "EdgeStartTimestamp": round(hit.when) * 1_000_000_000,
        "EdgeResponseStatus": hit.status,
    }
    return json.dumps(entry)


def fastly_line(hit: Hit, host: str) -> str:
    entry = {
        "timestamp": _utc(hit, "%Y-%m-%dT%H:%M:%S"),  # Fastly's time is GMT
        "client_ip": hit.ip,
        "request": "GET",
        "host": host,
        "url": hit.target,
        "request_user_agent": hit.user_agent,
        "is_tls": "true",
        "response_status": hit.status,
    }
    return json.dumps(entry)


def jsonl_line(hit: Hit, host: str) -> str:
    """A line of the shape `tests.logs.cases.JSONL_MAP` maps."""
    request = {"method": "GET", "url": f"https://{host}{hit.target}", "headers": {"User-Agent": hit.user_agent}}
    return json.dumps(
        {
            "time": _utc(hit, "%Y-%m-%dT%H:%M:%SZ"),
            "client": {"ip": hit.ip},
            "req": request,
            "res": {"statusCode": hit.status},
        }
    )


def nginx_line(hit: Hit, host: str) -> str:
    """A line of `tests.logs.cases.NGINX_CUSTOM`."""
    when = _utc(hit, "%Y-%m-%dT%H:%M:%S+00:00")
    return f'{host} {hit.ip} [{when}] "GET https://{host}{hit.target}" {hit.status} 512 0.003 "{hit.user_agent}" "MISS"'


def apache_line(hit: Hit, host: str) -> str:
    """A line of `tests.logs.cases.APACHE_CUSTOM`."""
    when = _utc(hit, "%d/%b/%Y %H:%M:%S.000 +0000")
    return f'{host} {hit.ip} - - [{when}] "GET {hit.target} HTTP/1.1" {hit.status} 512 "-" "{hit.user_agent}" 88 https'


_HOSTED = {
    "caddy": caddy_line,
    "cloudfront": cloudfront_line,
    "alb": alb_line,
    "cloudflare": cloudflare_line,
    "fastly": fastly_line,
    "jsonl": jsonl_line,
    "nginx": nginx_line,
    "apache": apache_line,
}
KINDS = ("combined", "w3c", *_HOSTED)  # every format `log_text` writes


def log_text(kind: str, hits: Sequence[Hit], bad: Sequence[str] = (), host: str = "shop.example") -> str:
    """`hits` written as a log of `kind` (one of `KINDS`), then the `bad` lines, one a line."""
    if kind == "combined":
        lines = [combined_line(hit) for hit in hits]
    elif kind == "w3c":
        lines = [W3C_HEADER, *(w3c_line(hit) for hit in hits)]
    elif kind == "cloudfront":
        lines = ["#Version: 1.0", CLOUDFRONT_HEADER, *(cloudfront_line(hit, host) for hit in hits)]
    else:
        lines = [_HOSTED[kind](hit, host) for hit in hits]
    return "\n".join([*lines, *bad]) + "\n"


# A busy site's three days (`busy_log`): the robots.txt changes twice, each file in force from its moment.
BUSY_FILES = (
    (START, "User-agent: *\nDisallow: /private/\nDisallow: /cart/\nCrawl-delay: 5\n"),
    (
        START + 36 * 3600,
        "User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n"
        "Disallow: /cart/\nCrawl-delay: 5\n",
    ),
    (
        START + 60 * 3600,
        "User-agent: GPTBot\nAllow: /blog/\nDisallow: /\n\nUser-agent: CCBot\nDisallow: /\n\n"
        "User-agent: *\nDisallow: /private/\nDisallow: /cart/\nCrawl-delay: 5\n",
    ),
)
BUSY_PAGES = ("/", "/blog/", "/blog/post-1", "/blog/post-2", "/shop/item-7", "/about", "/private/report", "/cart/")
# (address, crawler, requests per hour, the pages' share that is /private/ or /cart/)
BUSY_CRAWLERS = (
    (GOOGLE, "Googlebot", 6, 0.05),
    ("157.55.39.5", "bingbot", 3, 0.0),  # bing-bingbot.json
    (OPENAI_GPTBOT, "GPTBot", 4, 0.0),
    ("216.73.216.9", "ClaudeBot", 2, 0.0),  # anthropic-bots.json
    (CHATGPT_USER, "ChatGPT-User", 1, 0.3),
    ("198.51.100.7", "CCBot", 1, 0.0),  # Common Crawl publishes no list: unverifiable
    (ANYWHERE, "Googlebot", 1, 0.5),  # spoofed
)


def busy_log(seed: int = 26, days: int = 3) -> list[Hit]:
    """A generated combined log of a busy site over `days`, in time order: browsers by day, crawlers at all
    hours, GPTBot still crawling for six hours after the file of day two disallows it."""
    rng = random.Random(seed)
    hits = []
    for hour in range(days * 24):
        base = START + hour * 3600
        browsers = int(24 + 18 * math.sin((hour % 24 - 9) / 24 * 2 * math.pi) + rng.uniform(-4, 4))  # busy by day
        for _ in range(browsers):
            hits.append(
                Hit(f"192.0.2.{rng.randrange(1, 250)}", base + rng.uniform(0, 3599), rng.choice(BUSY_PAGES), BROWSER)
            )
        for address, token, per_hour, private in BUSY_CRAWLERS:
            if token == "GPTBot" and START + 36 * 3600 + 6 * 3600 <= base < START + 60 * 3600:
                continue  # read the new file after six hours, and stayed away until it allowed /blog/
            pages = BUSY_PAGES[1:4] if token == "GPTBot" and base >= START + 60 * 3600 else BUSY_PAGES[:6]
            for _ in range(per_hour):
                target = rng.choice(BUSY_PAGES[-2:]) if rng.random() < private else rng.choice(pages)
                status = 403 if token == "bingbot" and target == "/shop/item-7" else 200
                hits.append(Hit(address, base + rng.uniform(0, 3599), target, agent(token), status))
        if hour % 24 == 3:
            hits.append(Hit(GOOGLE, base + 1, "/robots.txt", agent("Googlebot")))
            hits.append(Hit(OPENAI_GPTBOT, base + 2, "/robots.txt", agent("GPTBot")))
    hits.sort(key=lambda hit: hit.when)
    return hits
