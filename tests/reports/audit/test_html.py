"""The HTML report: every bar and marker drawn from the data, hostile text escaped and cut, nothing loaded."""

from __future__ import annotations

import base64
import copy
import hashlib
import re
from collections import Counter
from functools import cache
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from robotscope.messages import message
from robotscope.reports.audit.html import BREACHES, ELEMENTS, LONGEST, STYLE, document, report
from robotscope.reports.audit.run import audit
from robotscope.reports.audit.summary import Summary
from robotscope.reports.audit.timeline import file_version
from robotscope.reports.audit.views import summary_view
from robotscope.reports.htmltags import StartTag, start_tags
from robotscope.syntax.logformats import reader
from tests.reports.audit.builders import BUSY_FILES, START, busy_log, judge_of, log_text, versions

SITE = "https://shop.example"
EVIL = "<script>alert('x')</script>\u202e\"'&<img src=x onerror=alert(1)>"
UNQUOTED = EVIL.replace('"', "")  # inside a quoted field of the log
PATHLIKE = UNQUOTED.replace(" ", "/")  # a target, and a rule that matches it


def audited(text: str, found: list[Any], source: str = "access.log") -> dict[str, Any]:
    summary = Summary()
    for _ in audit(enumerate(text.splitlines(), 1), reader("combined"), judge_of(*found, site=SITE), summary, source):
        pass
    return summary_view(summary, "en", found)


@cache
def _busy() -> tuple[dict[str, Any], list[Any]]:
    found = versions(SITE, *BUSY_FILES)
    return audited(log_text("combined", busy_log()), found), found


def busy() -> tuple[dict[str, Any], list[Any]]:
    """The busy log's view (a copy to change) and its versions."""
    view, found = _busy()
    return copy.deepcopy(view), found


def tags(html: str) -> list[StartTag]:
    return list(start_tags(html))


def test_every_bar_is_a_count_of_the_data_and_every_version_in_view_is_marked() -> None:
    view, _ = busy()
    html = report(view, "en")
    bars = [tag.attrs for tag in tags(html) if tag.name == "rect" and tag.attrs.get("class") == "bar"]
    # Three days of hours: one bar per hour, one rect per (hour, purpose) and per (hour, breaching class) counted.
    by_purpose = [(h, p) for h in view["hours"] for p, n in h["purposes"].items() if n]
    by_class = [(h, c) for h in view["hours"] for c in BREACHES if h["classes"].get(c)]
    assert len(bars) == len(by_purpose) + len(by_class)
    drawn = Counter[str]()
    for bar in bars:
        drawn[bar["data-series"]] += int(bar["data-count"])
    assert drawn["unaudited"] == view["unaudited"]
    for purpose in view["purposes"]:
        assert drawn[purpose["purpose"]] == purpose["requests"]
    for kind in ("violation", "spoofed", "unverified"):
        assert drawn[kind] == view["classes"][kind] > 0
    # The three files: the first in force from the log's start, the others from their moments inside it.
    markers = [tag.attrs["data-version"] for tag in tags(html) if tag.attrs.get("class") == "marker"]
    assert markers == ["1", "2", "3"]
    # The most violated lines: one bar each, the counts of the violators' deciding lines.
    lines = [int(tag.attrs["data-count"]) for tag in tags(html) if tag.attrs.get("class") == "line-bar"]
    assert sum(lines) == view["classes"]["violation"] and lines == sorted(lines, reverse=True)


def test_a_long_log_is_drawn_in_longer_steps_with_one_bar_per_step() -> None:
    hours = [
        {"hour": f"2026-11-{day:02d}T{hour:02d}:00:00Z", "purposes": {"search": 1}, "classes": {"allowed": 1}}
        for day in range(1, 31)
        for hour in range(24)
    ]
    view = {**busy()[0], "hours": hours, "versions": []}
    bars = [tag for tag in tags(report(view, "en")) if tag.attrs.get("data-series") == "search" and tag.name == "rect"]
    assert len(bars) == 30 * 24 // 6 and {bar.attrs["data-count"] for bar in bars} == {"6"}  # 120 bars of 6 hours
    assert "Each bar adds up 6 hours" in report(view, "en")


def test_times_years_apart_are_drawn_in_whole_weeks_within_the_bars_allowed() -> None:
    hours = [
        {"hour": when, "purposes": {"search": 1}, "classes": {"violation": 1}}
        for when in ("1970-01-01T00:00:00Z", "2026-11-02T10:00:00Z", "9999-12-31T23:00:00Z")
    ]
    view = {**busy()[0], "hours": hours}
    html = report(view, "en")
    bars = [tag for tag in tags(html) if tag.attrs.get("class") == "bar"]
    # Bars of about 67 years: 1970 and 2026 in the first, 9999 in the last; each chart counts all three.
    assert [(tag.attrs["data-series"], tag.attrs["data-count"]) for tag in bars] == [
        ("search", "2"),
        ("search", "1"),
        ("violation", "2"),
        ("violation", "1"),
    ]
    assert re.search(r"Each bar adds up \d+ days", html) and html.count("<text") < 40


def test_hostile_text_from_the_log_and_the_file_is_escaped_cut_and_isolated() -> None:
    # The request line, the log's name and the robots.txt rule are shown; the User-Agent is not, escaped or not.
    long_target = "/" + "A" * 5000
    lines = [
        f'1.2.3.4 - - [02/Nov/2026:10:00:00 +0000] "{EVIL} {long_target}" 200 1 "-" "Googlebot {EVIL}"',
        f'66.249.66.1 - - [02/Nov/2026:10:00:00 +0000] "GET /p/{PATHLIKE} HTTP/1.1" 200 1 "-" '
        f'"Googlebot/2.1 {UNQUOTED}"',
    ]
    found = [
        file_version(
            SITE,
            START - 10,
            message("audit.source.file", path=EVIL),
            "v1",
            f"User-agent: *\nDisallow: /p/{PATHLIKE[:27]}\n".encode(),
        )
    ]
    view = audited("\n".join(lines) + "\n", found, source=f"logs/{EVIL}.log")
    assert view["bad_lines"]["count"] == 1 and view["classes"]["violation"] == 1
    for lang in ("en", "ko"):
        html = document(view, lang)
        assert {tag.name for tag in tags(html)} <= ELEMENTS and "<script" not in html.lower()
        assert not any(name.startswith("on") for tag in tags(html) for name in tag.attrs)
        assert "\u202e" not in html and "\\u202e" in html  # the override shown, not obeyed
        assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in html
        assert "A" * LONGEST not in html and "…" in html  # the long request line cut
        for cell in re.findall(r"<bdi>(.*?)</bdi>", html):
            assert len(cell.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&").replace("&#x27;", "'")) <= (
                LONGEST + len("&quot;") * 3
            )


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=300))
def test_any_text_in_any_field_from_a_log_stays_text(text: str) -> None:
    view, _ = busy()
    view["spoofers"][0]["top"][0]["address"] = text
    view["versions"][0]["label"] = text
    view["violators"][0]["lines"][0]["rule"] = text
    view["unjudged"] = [{"origin": text, "requests": 1}]
    view["bad_lines"] = {"count": 1, "reasons": [{"code": "x", "count": 1, "example": text}], "first": []}
    view["bad_lines"]["first"] = [{"source": text, "line": 1, "reason": text}]
    view["stopped"] = [{"source": text, "line": 2, "reason": text}]
    html = document(view, "en")
    assert {tag.name for tag in tags(html)} <= ELEMENTS
    assert not any(name.startswith("on") for tag in tags(html) for name in tag.attrs)


def test_the_page_loads_nothing_and_its_policy_allows_its_own_style_alone() -> None:
    view, _ = busy()
    html = document(view, "en")
    digest = base64.b64encode(hashlib.sha256(STYLE.encode()).digest()).decode()
    policy = next(
        tag.attrs["content"] for tag in tags(html) if tag.attrs.get("http-equiv") == "Content-Security-Policy"
    )
    assert policy.startswith("default-src 'none'; ") and f"style-src 'sha256-{digest}'" in policy
    assert f"<style>{STYLE}</style>" in html
    urls = [value for tag in tags(html) for name, value in tag.attrs.items() if name in ("src", "href")]
    assert urls == ["data:,"]  # the icon: nothing to ask for
    assert not any("style" in tag.attrs for tag in tags(html))  # the policy would refuse an inline style


def test_korean_report() -> None:
    view, _ = busy()
    html = document(view, "ko")
    assert '<html lang="ko"' in html and "<h1>서버 로그 감사</h1>" in html
    assert "시간에 따른 위반, robots.txt 버전 표시" in html and "검색 엔진" in html


def test_an_empty_audit_says_there_is_nothing_to_draw() -> None:
    view = audited("", versions(SITE, (START, "User-agent: *\nDisallow:\n")))
    html = report(view, "en")
    assert html.count("No request has a time") == 2 and 'class="bar"' not in html
    assert "No violation" in html
