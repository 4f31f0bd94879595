"""The history store's records as JSON-ready dicts, times in UTC ISO 8601 (`robotscope history --json`, the web API)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..reports.views import iso as iso  # where it lived first: its importers keep importing it here
from ..reports.watch.alerts import Alert
from .model import Fetch, Version


def version_view(number: int | None, version: Version) -> dict[str, Any]:
    """`version` numbered from the origin's oldest (None when the number is not known)."""
    return {
        "number": number,
        "id": version.id,
        "sha256": version.sha256,
        "short": version.short,
        "status": version.status,
        "content_type": version.content_type,
        "size": version.size,
        "truncated": version.truncated,
        "final_url": version.final_url,
        "hops": [{"url": url, "status": status} for url, status in version.hops],
        "headers": dict(version.headers),
        "agents": list(version.agents),
        "first_seen": iso(version.first_seen),
        "last_seen": iso(version.last_seen),
    }


def changed_view(number: int | None, version: Version, alerts: Sequence[Alert], lang: str) -> dict[str, Any]:
    """`version_view` with what the version changed since the one before it (`history.changes.alerts_of`)."""
    return {
        **version_view(number, version),
        "worst": alerts[0].severity.value if alerts else None,
        "alerts": [alert.as_dict(lang) for alert in alerts],
    }


def summary(alerts: Sequence[Alert]) -> str:
    """A version's worst alert and how many more: `critical siteBlocked (+2)`; `-` for none."""
    if not alerts:
        return "-"
    more = f" (+{len(alerts) - 1})" if len(alerts) > 1 else ""
    return f"{alerts[0].severity.value} {alerts[0].code}{more}"


def fetch_view(fetch: Fetch) -> dict[str, Any]:
    return {"at": iso(fetch.at), "agent": fetch.agent, "failure": fetch.failure, "status": fetch.status}
