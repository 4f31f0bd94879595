"""The summary: counts that add up, merge in input order, and stay within their caps whatever the log holds."""

from __future__ import annotations

import pytest

from robotscope.messages import message
from robotscope.reports.audit import summary as summary_module
from robotscope.reports.audit.run import audit
from robotscope.reports.audit.summary import REPORTED, Summary
from robotscope.reports.audit.views import summary_view
from robotscope.syntax.logformats import reader
from robotscope.syntax.logformats.model import BadLine
from tests.reports.audit.builders import (
    ANYWHERE,
    BROWSER,
    GOOGLE,
    START,
    Hit,
    agent,
    caddy_line,
    combined_line,
    judge_of,
    versions,
)

TEXT = "User-agent: *\nDisallow: /private/\n"


def summed(lines: list[str], kind: str = "combined", origin: str | None = None) -> Summary:
    """`lines` audited against TEXT, in force for `origin` (None: every origin)."""
    summary = Summary()
    judged = judge_of(*versions(origin, (None, TEXT)), site="https://shop.example")
    for _ in audit(enumerate(lines, 1), reader(kind), judged, summary, "x.log"):
        pass
    return summary


def test_requests_of_no_crawler_are_counted_by_hour_not_judged() -> None:
    found = summed([combined_line(Hit("192.0.2.1", START + n, "/", BROWSER)) for n in range(3)])
    view = summary_view(found)
    assert (view["requests"], view["audited"], view["unaudited"], view["crawlers"]) == (3, 0, 3, [])
    assert view["hours"] == [{"hour": "2026-11-02T00:00:00Z", "purposes": {"unaudited": 3}, "classes": {}}]
    assert view["unaudited_share"] == 1.0


def test_pieces_merged_in_order_equal_one_pass() -> None:
    hits = [Hit(GOOGLE, START + n * 7, f"/private/{n % 3}", agent("Googlebot")) for n in range(12)]
    hits += [Hit(ANYWHERE, START + 30 + n, "/", agent("Googlebot")) for n in range(4)]
    lines = [combined_line(hit) for hit in sorted(hits, key=lambda h: h.when)]
    whole = summary_view(summed(lines))
    first, second = summed(lines[:5]), summed(lines[5:])
    first.then(second)
    assert summary_view(first) == whole
    with pytest.raises(ValueError):
        first.then(Summary())  # finished: its sessions were closed by summary_view


def test_bad_lines_are_all_counted_the_first_kept_with_their_numbers() -> None:
    found = Summary()
    for number in range(1, REPORTED + 20):
        found.bad("x.log", BadLine(number, message("logs.bad.shape", format="combined")))
    assert found.bad_count == REPORTED + 19 and len(found.bad_lines) == REPORTED
    assert found.bad_lines[0][:2] == ("x.log", 1)
    view = summary_view(found)
    assert view["bad_lines"]["reasons"][0]["count"] == REPORTED + 19
    assert view["incomplete"]  # no line was a request


def test_tables_a_hostile_log_could_grow_are_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(summary_module, "MAX_KEYS", 5)
    # Spoofers from 40 addresses, to 40 hosts no robots.txt is known for, over 40 hours.
    lines = [
        caddy_line(Hit(f"203.0.113.{n}", START + n * 3600, "/", agent("Googlebot")), f"h{n}.example") for n in range(40)
    ]
    lines += [caddy_line(Hit(GOOGLE, START + n * 3600, "/", agent("Googlebot")), f"h{n}.example") for n in range(40)]
    found = summed(lines, "caddy", "https://shop.example")
    googlebot = found.crawlers["Googlebot"]
    assert len(googlebot.spoofers) == 5 and len(found.hours) <= 5 and len(found.unjudged) <= 5
    assert found.dropped["spoofers"] == 35 and found.dropped["origins"] == 35
    assert googlebot.classes == {"spoofed": 40, "unjudged": 40}  # every request still counted
