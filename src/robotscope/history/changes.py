"""What each stored version changed: the alerts of `reports.watch` between it and the version before it.

A store's versions interleave the agents' (a browser's file and the one
GPTBot was served); a version's predecessor is the latest earlier version
that one of its agents saw, so each is compared along its own line, as
the watch that recorded it compared it; an agent's first version is
compared with the version just before it.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..reports.watch.alerts import Alert
from ..reports.watch.changes import changes
from ..reports.watch.observation import Observation
from .model import Version


def observed(version: Version, agent: str = "") -> Observation:
    """A stored version as the alerts read it (labelled `agent`, else its first agent)."""
    return Observation(
        agent=agent or (version.agents[0] if version.agents else ""),
        status=version.status,
        content_type=version.content_type,
        headers=version.headers,
        body=version.body,
        truncated=version.truncated,
        failure=None,
        hops=version.hops,
    )


def predecessors(versions: Sequence[Version]) -> list[Version | None]:
    """For each version (oldest first), the latest earlier one that shares an agent with it; else (an
    agent's first version) the one just before it; None for the first."""
    found: list[Version | None] = []
    for at, version in enumerate(versions):
        mine = set(version.agents)
        shared = next((v for v in reversed(versions[:at]) if mine & set(v.agents)), None)
        found.append(shared if shared is not None else versions[at - 1] if at else None)
    return found


def alerts_of(versions: Sequence[Version], start: int = 0) -> list[list[Alert]]:
    """For each version (oldest first) from `start` on, what it changed since its predecessor, worst first
    (nothing for a version without one)."""
    found = []
    for before, version in list(zip(predecessors(versions), versions, strict=True))[start:]:
        found.append([] if before is None else changes(observed(before), observed(version)))
    return found
