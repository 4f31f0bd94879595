"""A fetch's result as the watch reports read it: `observation(result, agent)`."""

from __future__ import annotations

from ..reports.watch.observation import Observation
from .result import FetchResult


def observation(result: FetchResult, agent: str = "") -> Observation:
    """What `result` saw, as one `Observation` labelled `agent` (the User-Agent it was fetched as), with
    the headers that matter (`FetchResult.headers`: `cf-ray`, `cf-mitigated` and the others markers read)."""
    return Observation(
        agent=agent,
        status=result.status,
        content_type=result.content_type,
        headers=result.headers,
        body=result.body,
        truncated=result.truncated,
        failure=None if result.error is None else result.error.kind,
        hops=result.hops,
    )
