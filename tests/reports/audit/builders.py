"""What the audit's tests build: requests, the shipped lists as a verify callable, timelines of files."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import cache

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
