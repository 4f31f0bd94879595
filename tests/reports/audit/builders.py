"""What the audit's tests build: requests, the shipped lists as a verify callable, timelines of files."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import cache
from typing import NamedTuple

from robotscope.messages import message
from robotscope.reports.audit.judge import Judge, Verify
from robotscope.reports.audit.timeline import RobotsTimeline, RobotsVersion, file_version
from robotscope.reports.verification import Verification, judge
from robotscope.syntax.crawlers import get
from robotscope.syntax.ipindex import AddressIndex
from robotscope.syntax.iplists import shipped, snapshot
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


def log_text(kind: str, hits: Sequence[Hit], bad: Sequence[str] = (), host: str = "shop.example") -> str:
    """`hits` written as a log of `kind` (combined, w3c, caddy), then the `bad` lines, one a line."""
    if kind == "combined":
        lines = [combined_line(hit) for hit in hits]
    elif kind == "w3c":
        lines = [W3C_HEADER, *(w3c_line(hit) for hit in hits)]
    else:
        lines = [caddy_line(hit, host) for hit in hits]
    return "\n".join([*lines, *bad]) + "\n"
