"""The gate's fetch: a URL's robots.txt through robotscope's fetcher, behind the SSRF guard, and the answer.

`gate_async` checks the question (`reports.gate.checked_request`), fetches
the origin's robots.txt with the fetcher's deadline, size bounds and cache,
and builds the answer in `reports.gate`. Unless `allow_private`, the guard
(`fetch.guard`) checks every hop as it connects, and the target and
redirects of a cached copy before it is handed out (so no copy of an
intranet's robots.txt is), all within the fetch's one deadline; a refused
target is an answer that allows nothing.
`gate` runs it in an event loop of its own (`fetch.run`). The MCP tool
`may_fetch` calls `gate_async`, and its other tools fetch through
`fetch_guarded`; users import the gate from `robotscope.agent`.
"""

from __future__ import annotations

import functools
import time

import anyio
import httpx

from .cache import RobotsCache
from .fetch import FetchResult, fetch_robots_async, run
from .fetch.guard import GuardedTransport, RefusedTarget, Resolver, system_resolve
from .messages import Message, message
from .reports.gate import (
    POLICY,
    REFUSED,
    Evidence,
    GateAnswer,
    InvalidRequest,
    checked_request,
    file_hash,
    gate_answer,
    refused_answer,
)
from .syntax.urls import InvalidURL, robots_url

TIMEOUT = 10.0  # seconds for the whole fetch of robots.txt, every redirect included


async def fetch_guarded(
    url: str,
    *,
    allow_private: bool = False,
    cache: RobotsCache | bool | None = None,
    timeout: float = TIMEOUT,
    reuse: bool = True,
    transport: httpx.AsyncBaseTransport | None = None,
    resolve: Resolver = system_resolve,
) -> FetchResult:
    """The robots.txt of `url`'s origin, read by RFC 9309's status policy (`reports.gate.POLICY`).

    Unless `allow_private`, the guard checks every hop as it connects, and a
    cached copy's target and the hosts its redirects reached before it is
    handed out (the copy may come from a fetch without the guard: the
    command line's share the cache), all within the one deadline: raises
    `RefusedTarget` for a loopback, private or reserved one, `InvalidURL`
    for a URL with no robots.txt. `cache`: a `RobotsCache`, None for the
    default one, False for none; `reuse=False` fetches even when a fresh
    copy is cached. `transport` and `resolve` are the fetcher's and the
    guard's seams (tests).
    """
    guard = None if allow_private else GuardedTransport(transport, resolve)
    started = time.monotonic()
    fetch = functools.partial(
        fetch_robots_async,
        url,
        policy=POLICY,
        timeout=timeout,
        cache=cache,
        transport=guard or transport,
        started=started,
    )
    result = await fetch(reuse=reuse)
    if guard is None or not result.from_cache:
        return result
    with anyio.move_on_after(max(0.0, started + timeout - time.monotonic())) as waiting:
        await _check_chain(guard, result)
    # A chain not checked in time is not handed out: the fetch through the guard says what the deadline left.
    return await fetch(reuse=False) if waiting.cancelled_caught else result


async def _check_chain(guard: GuardedTransport, result: FetchResult) -> None:
    """Check a cached copy's robots.txt URL and every URL its redirects reached as the guard checks a hop."""
    chain = list(dict.fromkeys([result.robots_url, *(url for url, _ in result.hops)]))
    for index, url in enumerate(chain):
        try:
            await guard.check(httpx.URL(url))
        except httpx.HTTPError:  # a name that does not resolve (now): nothing there to reach
            continue
        except RefusedTarget as refused:
            refused.hops = result.hops[:index]
            raise


def evidence_of(result: FetchResult) -> Evidence:
    """What a fetch gave, as the gate hands it out."""
    failure = None if result.error is None else (result.error.kind, result.error.message)
    return Evidence(
        result.robots_url,
        result.status,
        result.fetched_at,
        result.from_cache,
        result.hops,
        failure,
        file_hash(result.robots),
    )


def refusal(refused: RefusedTarget) -> Message:
    """What a refused target means for its robots.txt, for users to read."""
    return message("gate.refused", url=robots_url(refused.url), host=refused.host, address=refused.address)


async def gate_async(
    url: str,
    user_agent: str,
    initiated_by: str = "model",
    *,
    allow_private: bool = False,
    cache: RobotsCache | bool | None = None,
    timeout: float = TIMEOUT,
    reuse: bool = True,
    transport: httpx.AsyncBaseTransport | None = None,
    resolve: Resolver = system_resolve,
) -> GateAnswer:
    """May `user_agent` fetch `url`, a fetch `initiated_by` the model or a user? The answer, with its evidence.

    The options are `fetch_guarded`'s. Raises `InvalidRequest` (a
    ValueError) for a URL with no robots.txt, an empty or malformed user
    agent, or another `initiated_by` than `model` or `user`; network
    failures and refused targets are answers, never raised.
    """
    robots = checked_request(url, user_agent, initiated_by)
    try:
        result = await fetch_guarded(
            url,
            allow_private=allow_private,
            cache=cache,
            timeout=timeout,
            reuse=reuse,
            transport=transport,
            resolve=resolve,
        )
    except InvalidURL as error:  # a host httpx cannot request
        raise InvalidRequest(error.reason) from None
    except RefusedTarget as refused:
        evidence = Evidence(robots, hops=refused.hops, error=(REFUSED, str(refused)))
        return refused_answer(url, user_agent, initiated_by, evidence, refusal(refused))
    evidence = evidence_of(result)
    return gate_answer(url, user_agent, initiated_by, result.decisions[POLICY], result.robots, evidence)


def gate(
    url: str,
    user_agent: str,
    initiated_by: str = "model",
    *,
    allow_private: bool = False,
    cache: RobotsCache | bool | None = None,
    timeout: float = TIMEOUT,
    reuse: bool = True,
) -> GateAnswer:
    """`gate_async` from synchronous code, in an event loop of its own (a worker thread's when one runs here)."""
    return run(
        gate_async(
            url, user_agent, initiated_by, allow_private=allow_private, cache=cache, timeout=timeout, reuse=reuse
        )
    )
