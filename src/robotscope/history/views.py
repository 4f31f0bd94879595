"""The history store's records as JSON-ready dicts, times in UTC ISO 8601 (`robotscope history --json`, the web API)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from .model import Fetch, Version


def iso(moment: float) -> str:
    """A time in UTC, ISO 8601, to the second: 2026-12-03T14:00:00Z."""
    return datetime.fromtimestamp(moment, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


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


def fetch_view(fetch: Fetch) -> dict[str, Any]:
    return {"at": iso(fetch.at), "agent": fetch.agent, "failure": fetch.failure, "status": fetch.status}
