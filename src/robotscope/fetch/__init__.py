"""Fetching /robots.txt the way crawlers do: an edge of robotscope, on httpx.

Rule 1: `fetch` imports the core (syntax, access) and the cache below it,
never a report or a front end; only `http` touches the network.

- `machine`: one fetch as a state machine (redirects, the body reader, the
  cache, the decision of every policy), no I/O.
- `body`: the body as it arrives, inflated within a budget and cut at the limit.
- `http`: the shell that moves bytes (`fetch_robots`, `fetch_robots_async`),
  one deadline for the whole fetch, the transport swappable.
- `result`: `FetchResult`, and the verdicts it gives (`FetchResult.verdict`).
"""

from .http import DEFAULT_UA, client_for, fetch_robots, fetch_robots_async, location_of, run, take_location
from .machine import redirect_target
from .result import FetchResult, TransportFailure

__all__ = [
    "DEFAULT_UA",
    "FetchResult",
    "TransportFailure",
    "client_for",
    "fetch_robots",
    "fetch_robots_async",
    "location_of",
    "redirect_target",
    "run",
    "take_location",
]
