"""Alerts about how the file was served: fetch failures by what each policy then does, a file gone or back,
an HTML or bot-challenge page, an edge-injected block, a file past the 500 KiB limit.

Each compares the state of the response before and after: an alert says
what appeared (or, for recoveries, what went), never what stayed the same.
`before` is None for the first version ever: then the state of `after` alone is said.
"""

from __future__ import annotations

from ...access.policy import Cached, Decision, decide_all
from ...access.served import mislabelled
from ...messages import Message, message
from ...syntax.parser import MAX_BYTES
from .alerts import Alert, Evidence, Severity
from .markers import Challenge, EdgeBlock, challenge, edge_block, through_cloudflare
from .observation import Reading, outcome


def fetch_alerts(before: Reading | None, after: Reading) -> list[Alert]:
    """A failure (`fetchFailed`), a file gone (`fileMissing`), or a recovery (`fetchRecovered`)."""
    if not after.reachable:
        if before is not None and not before.reachable and _failure(before) == _failure(after):
            return []  # the same outage as before: nothing changed
        return [_failed(after, good=before is not None and before.rules_apply)]
    if before is None:
        return []
    if after.allows_all and before.rules_apply:
        cause = _cause(after.decisions["rfc9309"])
        return [Alert("fileMissing", Severity.MAJOR, message("watch.fileMissing", cause=cause))]
    if after.rules_apply and not _page(after) and (not before.reachable or before.allows_all or _page(before)):
        was = _cause(before.decisions["rfc9309"])
        return [Alert("fetchRecovered", Severity.INFO, message("watch.fetchRecovered", before=was))]
    return []


def _failure(reading: Reading) -> tuple[int | None, str | None]:
    return reading.seen.status, reading.seen.failure


def _cause(decision: Decision) -> Message:
    cause = decision.reason.params["cause"]
    assert isinstance(cause, Message)  # every decision's reason names its cause
    return cause


def _failed(after: Reading, good: bool) -> Alert:
    """What each policy does now that the file cannot be fetched; after a good version, Google's keep it.

    An observation that carries its outage (`at`, `failing_since`: a watch's history) is read with
    it, so the policies' clocks (Google's 12 hours, 30 days) run; else as an outage just begun."""
    if after.seen.at is not None:
        decisions = after.decisions
    else:
        cached = Cached(good_fetched_at=0.0, failing_since=0.0) if good else None
        decisions = decide_all(outcome(after.seen, after.robots), cached=cached)
    params = {
        "cause": _cause(decisions["rfc9309"]),
        "consequences": [d.reason for d in decisions.values()],
        "actions": {name: d.action.value for name, d in decisions.items()},
    }
    return Alert("fetchFailed", Severity.CRITICAL, message("watch.fetchFailed", **params))


def _page(reading: Reading) -> bool:
    """A 2xx whose body is an HTML page (or labelled as one), or any response that is a bot challenge."""
    return _challenge(reading) is not None or _html(reading)


def _html(reading: Reading) -> bool:
    status = reading.seen.status
    if status is None or not 200 <= status < 300:
        return False
    return outcome(reading.seen, reading.robots).html or mislabelled(status, reading.seen.content_type) == "page"


def _challenge(reading: Reading) -> Challenge | None:
    return challenge(reading.seen.headers, reading.seen.body)


def page_alerts(before: Reading | None, after: Reading) -> list[Alert]:
    """A bot-challenge page (`challengeServed`) or another HTML page (`htmlServed`) where the file was."""
    found = _challenge(after)
    if found is not None:
        if before is not None and _challenge(before) == found:
            return []
        params = {"vendor": found.vendor, "marker": found.marker, "status": after.seen.status or 0}
        return [Alert("challengeServed", Severity.MAJOR, message("watch.challengeServed", **params))]
    if _html(after) and (before is None or not _html(before)):
        status, shown = after.seen.status or 0, (after.seen.content_type or "").strip()[:100]
        return [Alert("htmlServed", Severity.MAJOR, message("watch.htmlServed", status=status, type=shown))]
    return []


def _oversize(reading: Reading) -> bool:
    return reading.rules_apply and (reading.seen.truncated or reading.robots.truncated)


def size_alerts(before: Reading | None, after: Reading) -> list[Alert]:
    """The file past the 500 KiB crawlers read (`oversize`), or back within it (`oversizeGone`)."""
    now, then = _oversize(after), before is not None and _oversize(before)
    if now and not then:
        size = max(after.robots.size, len(after.seen.body))
        return [Alert("oversize", Severity.MAJOR, message("watch.oversize", size=size, limit=MAX_BYTES))]
    if then and not now and after.rules_apply:
        return [Alert("oversizeGone", Severity.INFO, message("watch.oversizeGone", limit=MAX_BYTES))]
    return []


def _edge(reading: Reading | None) -> EdgeBlock | None:
    return None if reading is None or not reading.rules_apply else edge_block(reading.robots)


def edge_alerts(before: Reading | None, after: Reading) -> list[Alert]:
    """Cloudflare's managed block appeared (`edgeBlockAdded`) or went (`edgeBlockRemoved`)."""
    now, then = _edge(after), _edge(before)
    if now is not None and then is None:
        return [_edge_alert("edgeBlockAdded", Severity.MAJOR, after, now)]
    if then is not None and now is None and before is not None and after.rules_apply:
        return [_edge_alert("edgeBlockRemoved", Severity.MINOR, before, then)]
    return []


def _edge_alert(code: str, severity: Severity, reading: Reading, block: EdgeBlock) -> Alert:
    seen = message("watch.cfRay") if through_cloudflare(reading.seen.headers) else ""
    params = {
        "vendor": block.vendor,
        "first": block.first,
        "last": block.last,
        "blocked": list(block.blocked),
        "count": len(block.blocked),
        "seen": seen,
    }
    lines = (Evidence(block.first, reading.robots.line(block.first).raw.strip()),)
    before, after = (lines, ()) if code == "edgeBlockRemoved" else ((), lines)
    return Alert(code, severity, message(f"watch.{code}", **params), block.blocked, before=before, after=after)
