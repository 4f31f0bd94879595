"""An origin's history as a timeline: each stored version with the alerts of its change from the one before.

What the web page's History panel shows (`GET /api/history?origin=`). The
versions are in the store's order, oldest first, whichever agent got them;
the alerts of a version are what it changed since the latest earlier
version one of its agents saw (`history.changes`); the first has none.
At most `MAX_SHOWN` versions and failed fetches are listed (the newest;
`count` and `failure_count` say how many there are), so a store that has
watched a site for years is answered within the time budget.
"""

from __future__ import annotations

from typing import Any

from ..history import HistoryStore, origin_of
from ..history.changes import alerts_of
from ..history.views import changed_view, fetch_view

MAX_SHOWN = 100  # versions, and failed fetches, listed at most (the newest)


def timeline(store: HistoryStore, origin: str, lang: str) -> dict[str, Any]:
    """`origin`'s versions (each with `alerts` and `worst`, its worst alert's severity) and failed fetches."""
    origin = origin_of(origin)
    versions = store.versions(origin)
    failures = [fetch for fetch in store.fetches(origin) if fetch.failure is not None]
    start = max(0, len(versions) - MAX_SHOWN)
    changed = alerts_of(versions, start)
    listed = [changed_view(start + at + 1, versions[start + at], alerts, lang) for at, alerts in enumerate(changed)]
    return {
        "origin": origin,
        "count": len(versions),
        "versions": listed,
        "failure_count": len(failures),
        "failures": [fetch_view(fetch) for fetch in failures[-MAX_SHOWN:]],
    }


def stored_timeline(path: str, origin: str, lang: str) -> dict[str, Any]:
    """`timeline` of the store at `path`, opened read-only (a worker process's job: it pickles by name)."""
    with HistoryStore(path, read_only=True) as store:
        return timeline(store, origin, lang)
