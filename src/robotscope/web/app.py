"""The Starlette application behind `robotscope serve`: routes, exception handlers and the worker pool's lifespan.

See the package docstring (`robotscope.web`) and `API.md` for the endpoints.
Everything is computed by the core: `robotscope.reports.analysis` builds the
JSON of analyse, generate and selftest (the in-browser build calls the same
functions), and the fetcher answers fetch; the web layer only routes
(`handlers`), reads bodies (`requests`), caps sizes, and guards (`security`
for headers and Host, `guard` for the addresses fetched).

The CPU work of a request (analyse, generate, export, the self-test) runs in a
`WorkerPool` of separate processes: a thread cannot be stopped, and one
request within the size caps can need minutes (full verdicts try every rule
of a 500 KiB file for each URL and matrix cell; some lint checks are
quadratic in the rule count), so a worker that passes the time budget is
killed, which really stops the work, and the request answers 422
`too-complex`. At most `max_analyses` jobs run at once and `max_waiting`
wait; past that, 503 `busy`.
"""

from __future__ import annotations

import math
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import httpx
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..fetch.guard import Resolver, system_resolve
from ..reports.api import RequestError
from . import handlers
from .errors import internal_error, on_http_error, on_refused
from .requests import BODY_TIMEOUT
from .security import SECURITY_HEADERS, Guard, is_loopback_host
from .static import STATIC
from .workers import MAX_ANALYSES, MAX_WAITING, TIME_BUDGET, WorkerPool

ROUTES = [
    Route("/", handlers.index),
    Route("/api/analyse", handlers.api_analyse, methods=["POST"]),
    Route("/api/crawlers", handlers.api_crawlers),
    Route("/api/selftest", handlers.api_selftest),
    Route("/api/policies", handlers.api_policies),
    Route("/api/info", handlers.api_info),
    Route("/api/strings", handlers.api_strings),
    Route("/api/fetch", handlers.api_fetch, methods=["POST"]),
    Route("/api/generate", handlers.api_generate, methods=["POST"]),
    Route("/api/export", handlers.api_export, methods=["POST"]),
    Route("/api/page", handlers.api_page, methods=["POST"]),
    Route("/api/history", handlers.api_history),
    Route("/api/history/version", handlers.api_history_version),
    Route("/api/{rest:path}", handlers.api_not_found, methods=["GET", "POST"]),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]


async def _on_unexpected(request: Request, exc: Exception) -> Response:
    # Starlette's outermost middleware calls this only if the Guard itself failed; it
    # answers outside the Guard, so the security headers are added here.
    response = internal_error()
    for name, value in SECURITY_HEADERS:
        response.headers[name.decode()] = value.decode()
    return response


def create_app(
    allow_private_fetch: bool = False,
    bound_to_loopback: bool = True,
    *,
    resolve: Resolver = system_resolve,
    transport: httpx.AsyncBaseTransport | None = None,
    time_budget: float = TIME_BUDGET,
    body_timeout: float = BODY_TIMEOUT,
    max_analyses: int = MAX_ANALYSES,
    max_waiting: int = MAX_WAITING,
    store: str | os.PathLike[str] | None = None,
) -> Starlette:
    """The web app. Bound to a non-loopback address, the fetch endpoint refuses non-public targets.

    `resolve` and `transport` are for tests: the name resolver the guard
    checks, and the transport under the guard (default: a real httpx one).
    `time_budget` is the seconds of work one analyse, generate or selftest
    request may take (then 422 `too-complex`), `body_timeout` the seconds a
    request body may take to arrive (then 408 `body-timeout`); `max_analyses`
    jobs run at once in worker processes and `max_waiting` more may wait
    (then 503 `busy`). The pool is `app.state.workers`; its processes start
    with the app's lifespan, or on first use. `store` is a history store the
    page shows (`/api/history`), only ever read; without one those endpoints
    answer 404 `no-store`.
    """
    pool = WorkerPool(max_analyses, max_waiting, time_budget)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await anyio.to_thread.run_sync(pool.start)
        try:
            yield
        finally:
            pool.close()

    exception_handlers = {HTTPException: on_http_error, RequestError: on_refused, Exception: _on_unexpected}
    app = Starlette(routes=ROUTES, exception_handlers=exception_handlers, lifespan=lifespan)
    app.add_middleware(Guard, loopback_only=bound_to_loopback)
    app.state.workers = pool
    app.state.settings = handlers.Settings(
        pool=pool,
        guarded=not bound_to_loopback and not allow_private_fetch,
        resolve=resolve,
        transport=transport,
        body_timeout=body_timeout,
        retry_after=str(max(1, math.ceil(time_budget))),
        store=None if store is None else Path(store),
    )
    return app


__all__ = ["create_app", "is_loopback_host"]
