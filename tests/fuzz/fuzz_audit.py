"""Fuzz target: any bytes as a log, read in three formats, judged and summed up; the counts must add up, and
each summary's HTML report must hold its own elements alone.

With atheris installed (`pip install atheris`), from the repository root:

    python -m tests.fuzz.fuzz_audit tests/fuzz/seeds_audit -max_total_time=60

Without it, `check(data)` is a plain function: tests/reports/audit/test_audit_fuzz.py runs it on every
file of tests/fuzz/seeds_audit/ (combined, Caddy and W3C lines, spoofed and real crawlers, lines out
of order, garbage, control characters, IPv6, huge User-Agents). Add each input a fuzzer finds there.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.fuzz.harness import fuzz, instrumented

with instrumented(__name__):
    from robotscope.messages import message
    from robotscope.reports.audit.classes import AuditClass
    from robotscope.reports.audit.html import ELEMENTS, document
    from robotscope.reports.audit.judge import Judge
    from robotscope.reports.audit.run import audit
    from robotscope.reports.audit.summary import Summary
    from robotscope.reports.audit.timeline import RobotsTimeline, file_version
    from robotscope.reports.audit.views import crawler_rows, summary_view
    from robotscope.reports.htmltags import start_tags
    from robotscope.reports.verification import Verification, judge
    from robotscope.syntax.ipindex import AddressIndex
    from robotscope.syntax.iplists import shipped, snapshot
    from robotscope.syntax.logformats import reader

SEEDS = Path(__file__).parent / "seeds_audit"
MAX_LINES = 200  # lines of an input audited: enough for every path, quick enough to fuzz
_LISTS = [snapshot(name) for name in shipped()]
_INDEX, _AVAILABLE = AddressIndex(_LISTS), frozenset(found.name for found in _LISTS)
_VERSIONS = [
    file_version(None, 1793577600.0, message("audit.source.file", path="v1"), "v1", b"User-agent: *\nDisallow: /p\n"),
    file_version(
        "https://shop.example",
        1793620800.0,
        message("audit.source.file", path="v2"),
        "v2",
        b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nCrawl-delay: 5\nDisallow /oops\n",
    ),
    # Six hours later every crawler is disallowed: requests the day after are within grace when v2 allowed them.
    file_version(
        "https://shop.example",
        1793642400.0,
        message("audit.source.file", path="v3"),
        "v3",
        b"User-agent: *\nDisallow: /\n",
    ),
]


def _verify(address: str, agent: str, when: float | None) -> Verification:
    return judge(address, agent, _INDEX, _AVAILABLE)


def _summed(lines: list[tuple[int, str]], kind: str) -> tuple[Summary, int]:
    timeline = RobotsTimeline(_VERSIONS)
    judged = Judge(timeline.in_force, _verify, "https://shop.example", in_grace=timeline.in_grace)
    summary = Summary()
    rows = list(audit(lines, reader(kind), judged, summary, "fuzz.log"))
    # A row names the earlier file that allowed it exactly when it is within grace.
    assert all((row.audit_class == AuditClass.GRACE) == (row.grace_version is not None) for row in rows)
    return summary, len(rows)


def check(data: bytes) -> None:
    """Audit `data` as a log of each format; raise only on a bug."""
    text = data.decode("utf-8", "replace")
    lines = list(enumerate(text.splitlines()[:MAX_LINES], 1))
    for kind in ("combined", "caddy", "w3c"):
        summary, rows = _summed(lines, kind)
        assert summary.audited == rows == sum(summary.count(c) for c in AuditClass)
        assert summary.requests + summary.bad_count <= len(lines)
        view = summary_view(summary, "ko")
        json.dumps(view)  # JSON-ready, whatever the log held
        json.dumps(crawler_rows(summary_view(summary, "en")))
        assert view["requests"] == view["audited"] + view["unaudited"]
        # The HTML report of it: whatever the log held, the report's own elements alone, no handler.
        page = list(start_tags(document(view, "ko")))
        assert {tag.name for tag in page} <= ELEMENTS and not any(a.startswith("on") for t in page for a in t.attrs)
        if kind == "w3c":
            continue  # its reader keeps the `#Fields:` header: a piece after a cut has none
        # Two pieces merged in order give what one pass gives (sessions included).
        cut = len(lines) // 2
        first, _ = _summed(lines[:cut], kind)
        second, _ = _summed(lines[cut:], kind)
        first.then(second)
        whole = summary_view(_summed(lines, kind)[0])
        assert summary_view(first) == whole


if __name__ == "__main__":
    fuzz(check)
