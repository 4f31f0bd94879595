"""An audit's summary as JSON-ready data: what `robotscope logs --json` prints, the terminal summary shows and
the HTML report draws. Pure.

`summary_view(summary, lang, versions, grace)` gives, times in UTC ISO 8601:

- `requests`, `audited`, `unaudited` (no catalogue crawler named), `classes` (audited requests by class);
- `grace`: the grace window the judge was given (`seconds`) and the requests within it (`requests`: the file in
  force disallowed them, an earlier one still maybe cached allowed them; never violations);
- `purposes` (requests by the crawler's purpose, share of all requests) and `ai` (the AI purposes together);
- `crawlers`: each crawler's counts (classes, verification, statuses, robots.txt fetches, sessions, Crawl-delay);
- `violators` ranked, each with its deciding lines ranked; `spoofers` ranked by claimed crawler, with the
  addresses that spoofed it most; `never_read_robots`; `blocked` (declared allow, enforced block: 403 to
  allowed requests); `too_fast` (median gap below the Crawl-delay);
- `versions`: every robots.txt version given, numbered by origin and time, with where it came from, when it
  came into force and how many requests it judged; `unjudged` origins;
- `hours`: requests per hour by purpose and by class, for charts;
- `bad_lines` (count, by reason, the first with their numbers), `dropped` (entries past a table's cap),
  `incomplete`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ...messages import DEFAULT_LANG, Message, message
from ...syntax.crawlers import PURPOSES, SELECTIONS
from ..verification import Status
from ..views import iso
from .classes import AuditClass
from .judge import GRACE
from .summary import CrawlerSummary, Summary
from .timeline import RobotsVersion

TOP = 10  # deciding lines per violator, addresses per spoofed crawler
AI = SELECTIONS["ai"]


def summary_view(
    summary: Summary, lang: str = DEFAULT_LANG, versions: Sequence[RobotsVersion] = (), grace: float = GRACE
) -> dict[str, Any]:
    """The whole summary (finished first: its sessions closed), as data; `grace` is the judge's (`Judge.grace`)."""
    summary.finish()
    crawlers = sorted(summary.crawlers.values(), key=lambda c: (-c.requests, c.token.lower()))
    by_purpose = dict.fromkeys(PURPOSES, 0)
    for crawler in crawlers:
        by_purpose[crawler.purpose] = by_purpose.get(crawler.purpose, 0) + crawler.requests
    ai = sum(by_purpose[purpose] for purpose in AI)
    return {
        "requests": summary.requests,
        "audited": summary.audited,
        "unaudited": summary.unaudited_count,
        "unaudited_share": _share(summary.unaudited_count, summary.requests),
        "first": _time(summary.first),
        "last": _time(summary.last),
        "classes": {kind.value: summary.count(kind) for kind in AuditClass},
        "grace": {"seconds": grace, "requests": summary.count(AuditClass.GRACE)},
        "purposes": [
            {"purpose": purpose, "requests": count, "share": _share(count, summary.requests)}
            for purpose, count in by_purpose.items()
            if count
        ],
        "ai": {"purposes": list(AI), "requests": ai, "share": _share(ai, summary.requests)},
        "crawlers": [_crawler(crawler) for crawler in crawlers],
        "violators": _violators(crawlers),
        "spoofers": _spoofers(crawlers),
        "never_read_robots": [
            {"token": c.token, "requests": _governed(c)} for c in crawlers if _governed(c) and not c.robots
        ],
        "blocked": [{"token": c.token, "requests": c.blocked} for c in crawlers if c.blocked],
        "too_fast": [{"token": c.token, **c.sessions.as_dict()} for c in crawlers if c.sessions.too_fast],
        "versions": _versions(summary, versions, lang),
        "unjudged": [
            {"origin": origin, "requests": count}
            for origin, count in sorted(summary.unjudged.items(), key=lambda item: (-item[1], item[0] or ""))
        ],
        "hours": _hours(summary),
        "bad_lines": {
            "count": summary.bad_count,
            "reasons": [
                {"code": code, "count": count, "example": example.render(lang)}
                for code, (count, example) in sorted(summary.bad_reasons.items(), key=lambda item: -item[1][0])
            ],
            "first": [
                {"source": source, "line": number, "reason": reason.render(lang)}
                for source, number, reason in summary.bad_lines
            ],
        },
        "stopped": [
            {"source": source, "line": number, "reason": reason.render(lang)}
            for source, number, reason in summary.stopped
        ],
        "sessions_cut": summary.tracks.cut,
        "dropped": dict(summary.dropped),
        "incomplete": summary.incomplete,
    }


# The per-crawler summary as a flat row (`--csv`'s and `--parquet`'s second file), and each column's type.
CRAWLER_COLUMNS: dict[str, type] = {
    "token": str,
    "operator": str,
    "purpose": str,
    "requests": int,
    **{f"class_{kind.value}": int for kind in AuditClass},
    **{f"verification_{status.value}": int for status in Status},
    "statuses": str,  # `200:41 403:2`, by count
    "robots_fetches": int,
    "blocked": int,
    "sessions": int,
    "robots_first": int,
    "gaps": int,
    "delayed_gaps": int,
    "short_gaps": int,
    "shortest_gap": float,
    "crawl_delay": float,
    "too_fast": bool,
    "first": str,
    "last": str,
}


def crawler_rows(view: dict[str, Any]) -> list[dict[str, Any]]:
    """`summary_view`'s crawlers as rows of CRAWLER_COLUMNS."""
    rows = []
    for crawler in view["crawlers"]:
        sessions = crawler["sessions"]
        statuses = sorted(crawler["statuses"].items(), key=lambda item: -item[1])
        rows.append(
            {
                "token": crawler["token"],
                "operator": crawler["operator"],
                "purpose": crawler["purpose"],
                "requests": crawler["requests"],
                **{f"class_{kind.value}": crawler["classes"].get(kind.value, 0) for kind in AuditClass},
                **{f"verification_{s.value}": crawler["verification"].get(s.value, 0) for s in Status},
                "statuses": " ".join(f"{status}:{count}" for status, count in statuses),
                "robots_fetches": crawler["robots_fetches"],
                "blocked": crawler["blocked"],
                "sessions": sessions["sessions"],
                "robots_first": sessions["robots_first"],
                "gaps": sessions["gaps"],
                "delayed_gaps": sessions["delayed"],
                "short_gaps": sessions["short"],
                "shortest_gap": sessions["shortest"],
                "crawl_delay": sessions["delay"],
                "too_fast": sessions["too_fast"],
                "first": crawler["first"],
                "last": crawler["last"],
            }
        )
    return rows


def duration(seconds: float) -> str:
    """Seconds as `--grace` takes them: `24h`, `90m`, `45s` (the largest of these units that divides them)."""
    for unit, size in (("h", 3600), ("m", 60), ("s", 1)):
        if seconds >= size and seconds % size == 0:
            return f"{int(seconds // size)}{unit}"
    return f"{seconds:g}s"


def totals(view: dict[str, Any]) -> Message:
    """The view's line of totals, as the terminal summary and the HTML report both say it."""
    return message(
        "logs.cli.totals",
        requests=view["requests"],
        audited=view["audited"],
        crawlers=len(view["crawlers"]),
        unaudited=view["unaudited"],
        first=view["first"] or "-",
        last=view["last"] or "-",
    )


def within_grace(view: dict[str, Any]) -> Message | None:
    """The line on the requests within grace and the window, or None when there were none."""
    grace = view["grace"]
    if not grace["requests"]:
        return None
    return message("logs.cli.grace", count=grace["requests"], window=duration(grace["seconds"]))


def _versions(summary: Summary, versions: Sequence[RobotsVersion], lang: str) -> list[dict[str, Any]]:
    """Every version, numbered in order of origin and time, with the requests it judged. Versions of one file
    for several origins (a snapshot folder's, for http and https) are one entry: rows name a file by its ref."""
    ordered = sorted(versions, key=lambda v: (v.origin or "", -math.inf if v.since is None else v.since))
    found: dict[str, dict[str, Any]] = {}
    for version in ordered:
        entry = found.get(version.ref)
        if entry is None:
            entry = found[version.ref] = {
                "number": len(found) + 1,
                "ref": version.ref,
                "label": version.label.render(lang),
                "origins": [],
                "since": _time(version.since),
                "sha256": version.sha256,
                "requests": summary.versions.get(version.ref, 0),
            }
        entry["origins"].append(version.origin)
    return list(found.values())


def _time(moment: float | None) -> str | None:
    return None if moment is None else iso(moment)


def _share(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def _governed(crawler: CrawlerSummary) -> int:
    """Its requests that robots.txt governs and that were its own: neither spoofed nor exempt."""
    return crawler.requests - crawler.classes.get("spoofed", 0) - crawler.classes.get("exempt", 0)


def _crawler(crawler: CrawlerSummary) -> dict[str, Any]:
    return {
        "token": crawler.token,
        "operator": crawler.operator,
        "purpose": crawler.purpose,
        "requests": crawler.requests,
        "classes": dict(sorted(crawler.classes.items())),
        "verification": dict(sorted(crawler.verification.items())),
        "statuses": {
            ("-" if status is None else str(status)): count
            for status, count in sorted(crawler.statuses.items(), key=lambda item: -1 if item[0] is None else item[0])
        },
        "blocked": crawler.blocked,
        "robots_fetches": crawler.robots,
        "sessions": crawler.sessions.as_dict(),
        "first": _time(crawler.first),
        "last": _time(crawler.last),
    }


def _violators(crawlers: list[CrawlerSummary]) -> list[dict[str, Any]]:
    found = [c for c in crawlers if c.violations]
    found.sort(key=lambda c: (-sum(c.violations.values()), c.token.lower()))
    return [
        {
            "token": c.token,
            "operator": c.operator,
            "requests": sum(c.violations.values()),
            "lines": [
                {"robots_version": ref, "line": line, "rule": rule, "requests": count}
                for (ref, line, rule), count in sorted(
                    c.violations.items(), key=lambda item: (-item[1], item[0][0] or "", item[0][1] or 0)
                )[:TOP]
            ],
        }
        for c in found
    ]


def _spoofers(crawlers: list[CrawlerSummary]) -> list[dict[str, Any]]:
    found = [c for c in crawlers if c.spoofers]
    found.sort(key=lambda c: (-c.classes.get("spoofed", 0), c.token.lower()))
    return [
        {
            "token": c.token,
            "operator": c.operator,
            "requests": c.classes.get("spoofed", 0),
            "addresses": len(c.spoofers),
            "top": [
                {"address": address, "requests": count}
                for address, count in sorted(c.spoofers.items(), key=lambda item: (-item[1], item[0]))[:TOP]
            ],
        }
        for c in found
    ]


def _hours(summary: Summary) -> list[dict[str, Any]]:
    hours: dict[int, dict[str, dict[str, int]]] = {}
    for (hour, purpose), count in summary.hours.items():
        hours.setdefault(hour, {"purposes": {}, "classes": {}})["purposes"][purpose or "unaudited"] = count
    for (hour, kind), count in summary.hour_classes.items():
        hours.setdefault(hour, {"purposes": {}, "classes": {}})["classes"][kind] = count
    return [{"hour": iso(hour), **hours[hour]} for hour in sorted(hours)]


__all__ = ["AI", "CRAWLER_COLUMNS", "TOP", "crawler_rows", "duration", "summary_view", "totals", "within_grace"]
