"""The Starlette application behind `robotscope serve`: the JSON API and the static page.

See the package docstring (`robotscope.web`) and `API.md` for the endpoints.
Everything is computed by the core: `robotscope.analysis` builds the JSON of
analyse, generate and selftest (the in-browser build calls the same
functions), and the fetcher answers fetch; this module only routes,
validates input, caps sizes and guards.

The CPU work of a request (analyse, generate, the self-test) runs in a
`WorkerPool` of separate processes: a thread cannot be stopped, and one
request within the size caps can need minutes (full verdicts try every rule
of a 500 KiB file for each URL and matrix cell; some lint checks are
quadratic in the rule count), so a worker that passes the time budget is
killed, which really stops the work, and the request answers 422
`too-complex`. At most `max_analyses` jobs run at once and `max_waiting`
wait; past that, 503 `busy`.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import math
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path
from typing import Any

import anyio
import httpx
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..reports.analysis import LIMITS, analyse, generate_answer, selftest_answer
from ..reports.api import (
    RequestError,
    analyse_args,
    crawlers_answer,
    generate_args,
    info_answer,
    lang_of,
    policies_answer,
    string_field,
    strings_answer,
    strings_field,
)
from ..syntax.urls import InvalidURL
from .guard import GuardedTransport, RefusedTarget, Resolver, system_resolve
from .workers import MAX_ANALYSES, MAX_WAITING, TIME_BUDGET, PoolBusy, TooComplex, WorkerPool, describe

# The caps of `robotscope.analysis.LIMITS` (the page reads them from /api/info).
MAX_BODY = LIMITS["max_body"]
# Per-request limits (create_app parameters). The size caps above bound a request, not its
# cost: full verdicts and some lint checks grow with rules x URL length or rules squared, so
# the work itself is bounded by time, and by memory and answer size in its worker process.
BODY_TIMEOUT = 10.0  # seconds for the whole request body to arrive (a stalled client gets 408)
PAGE_TIMEOUT = 10.0  # seconds for each fetch of a page check (its robots.txt files, the page)
MAX_PAGE_AGENTS = 10  # crawlers one page check asks for

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]

STATIC = Path(str(files("robotscope.web").joinpath("static")))

logger = logging.getLogger("robotscope.web")



class ApiError(HTTPException):
    """An API error: answered as {"error": {"code", "message", ...}} with its status."""

    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None, **extra: Any) -> None:
        super().__init__(status, message, headers)
        self.code = code
        self.extra = extra


def _error(status: int, code: str, message: str, headers: Mapping[str, str] | None = None, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, **extra}}, status_code=status, headers=headers)


def _internal_error() -> JSONResponse:
    return _error(500, "internal-error", "the server failed on this request; the error has been logged")


def _host_of(header: str) -> str:
    """The host name of a Host header value, without port or IPv6 brackets."""
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class Guard:
    """Pure ASGI middleware: security headers on every response; Host checks on a loopback bind.

    Bound to loopback, only requests naming a loopback host are served, so a
    web page cannot reach the API through DNS rebinding. Any exception the
    app lets through becomes the documented 500 `internal-error` JSON, with
    the security headers (Starlette's own 500 page is sent outside this
    middleware, as plain text without them) and one log line, no traceback.
    """

    def __init__(self, app: ASGIApp, loopback_only: bool) -> None:
        self.app = app
        self.loopback_only = loopback_only

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        try:
            if self.loopback_only:
                headers = dict(scope.get("headers", []))
                host = _host_of(headers.get(b"host", b"").decode("latin-1")).lower()
                if not is_loopback_host(host):
                    response = _error(421, "bad-host", f"this server answers only to localhost, not {host!r}")
                    await response(scope, receive, send_with_headers)
                    return
            await self.app(scope, receive, send_with_headers)
        except Exception as error:  # noqa: BLE001 - every failure must still be an API answer
            logger.error("internal error on %s %r: %s", scope.get("method"), scope.get("path"), describe(error))
            if not started:  # once a response has begun, the server can only close the connection
                await _internal_error()(scope, receive, send_with_headers)


def _refuse_lone_surrogates(data: object) -> None:
    """400 `bad-json` if any string of the body holds a lone surrogate (JSON `"\\ud800"`).

    json.loads accepts such escapes, but the result is not Unicode: it cannot be
    encoded as UTF-8, so the core's percent-encoding and the JSON answer would fail on it.
    """
    stack = [data]
    while stack:  # iterative: the depth json.loads accepted must not recurse here again
        item = stack.pop()
        if isinstance(item, str):
            if not item.isascii():
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError:
                    raise ApiError(
                        400, "bad-json", "the request body holds a lone surrogate escape such as \\ud800, which is not text"
                    ) from None
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


async def read_json(request: Request, timeout: float = BODY_TIMEOUT) -> dict[str, Any]:
    """The request's JSON object; 413 past MAX_BODY bytes, 415 unless JSON, 403 for a foreign Origin.

    The whole body must arrive within `timeout` seconds (408 `body-timeout`), so a
    client that stalls or trickles its body cannot hold a connection and a task forever.
    """
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise ApiError(415, "unsupported-media-type", "send the request body as application/json")
    origin = request.headers.get("origin")
    if origin is not None:
        try:
            netloc = httpx.URL(origin).netloc.decode("ascii", "replace")
        except httpx.InvalidURL:
            netloc = ""  # an Origin that is not even a URL is not this server's
        if netloc != request.headers.get("host", ""):
            raise ApiError(403, "cross-origin", "requests from other origins are not accepted")
    declared = request.headers.get("content-length")
    # isascii: str.isdigit() is also true for "²", which int() refuses.
    if declared is not None and declared.isascii() and declared.isdigit() and int(declared) > MAX_BODY:
        raise ApiError(413, "too-large", f"the request body is over {MAX_BODY} bytes")
    body = bytearray()
    try:
        with anyio.fail_after(timeout):
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY:
                    raise ApiError(413, "too-large", f"the request body is over {MAX_BODY} bytes")
    except TimeoutError:
        # Connection: close, because the rest of the body may still come and is never read.
        raise ApiError(
            408, "body-timeout", f"the request body did not arrive within {timeout:g} seconds",
            headers={"Connection": "close"},
        ) from None
    except ClientDisconnect:
        raise ApiError(400, "bad-json", "the client disconnected before the request body was complete") from None
    try:
        data = json.loads(body)
    except RecursionError:
        raise ApiError(400, "bad-json", "the request body nests arrays or objects too deeply") from None
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "bad-json", "the request body is not valid JSON") from None
    if not isinstance(data, dict):
        raise ApiError(400, "bad-json", "the request body must be a JSON object")
    _refuse_lone_surrogates(data)
    return data


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
) -> Starlette:
    """The web app. Bound to a non-loopback address, the fetch endpoint refuses non-public targets.

    `resolve` and `transport` are for tests: the name resolver the guard
    checks, and the transport under the guard (default: a real httpx one).
    `time_budget` is the seconds of work one analyse, generate or selftest
    request may take (then 422 `too-complex`), `body_timeout` the seconds a
    request body may take to arrive (then 408 `body-timeout`); `max_analyses`
    jobs run at once in worker processes and `max_waiting` more may wait
    (then 503 `busy`). The pool is `app.state.workers`; its processes start
    with the app's lifespan, or on first use.
    """
    guarded = not bound_to_loopback and not allow_private_fetch
    pool = WorkerPool(max_analyses, max_waiting, time_budget)
    retry_after = str(max(1, math.ceil(time_budget)))
    selftest_bodies: dict[str, bytes] = {}  # the bundled cases never change: run them once per language

    async def compute(function: Callable[..., Any], *args: Any) -> Response:
        """`function(*args)` in a worker process, within the budget, as the JSON response."""
        try:
            body = await anyio.to_thread.run_sync(pool.run, function, *args)
        except PoolBusy as busy:
            raise ApiError(503, "busy", str(busy), headers={"Retry-After": retry_after}) from None
        except TooComplex as error:
            raise ApiError(422, "too-complex", str(error), limit=error.limit) from None
        return Response(body, media_type="application/json")

    async def api_analyse(request: Request) -> Response:
        data = await read_json(request, body_timeout)
        return await compute(analyse, *analyse_args(data))

    async def api_crawlers(request: Request) -> Response:
        return JSONResponse(crawlers_answer())

    async def api_selftest(request: Request) -> Response:
        lang = lang_of(request.query_params.get("lang"))
        if lang not in selftest_bodies:
            selftest_bodies[lang] = bytes((await compute(selftest_answer, lang)).body)
        return Response(selftest_bodies[lang], media_type="application/json")

    async def api_policies(request: Request) -> Response:
        return JSONResponse(policies_answer(lang_of(request.query_params.get("lang"))))

    async def api_info(request: Request) -> Response:
        return JSONResponse(info_answer(lang_of(request.query_params.get("lang")), fetch=True, guarded_fetch=guarded))

    async def api_strings(request: Request) -> Response:
        return JSONResponse(strings_answer(lang_of(request.query_params.get("lang"))))

    async def api_fetch(request: Request) -> Response:
        from ..access.policy import POLICIES
        from .fetching import fetch

        data = await read_json(request, body_timeout)
        url = string_field(data, "url").strip()
        policy = string_field(data, "policy", "rfc9309")
        lang = lang_of(data.get("lang"))
        if policy not in POLICIES:
            raise ApiError(422, "bad-policy", f"unknown policy {policy!r}: choose one of {', '.join(POLICIES)}")
        if "://" not in url and url:
            url = "https://" + url
        inner = transport
        under: httpx.AsyncBaseTransport | None = GuardedTransport(inner, resolve) if guarded else inner
        try:
            result = await fetch(url, policy, under)
        except InvalidURL as error:
            raise ApiError(422, "bad-url", error.reason.render(lang)) from None
        except RefusedTarget as refused:
            raise ApiError(
                403,
                "refused-target",
                str(refused),
                host=refused.host,
                address=refused.address,
                hops=[{"url": u, "status": s} for u, s in refused.hops],
            ) from None
        body = result.body.decode("utf-8", "replace") if result.status is not None and 200 <= result.status < 300 else ""
        return JSONResponse({**result.as_dict(lang), "text": body})

    async def api_page(request: Request) -> Response:
        from ..pagecheck import check_page

        data = await read_json(request, body_timeout)
        url = string_field(data, "url").strip()
        agents = strings_field(data, "agents", MAX_PAGE_AGENTS) or ["Googlebot"]
        lang = lang_of(data.get("lang"))
        if "://" not in url and url:
            url = "https://" + url
        under: httpx.AsyncBaseTransport | None = GuardedTransport(transport, resolve) if guarded else transport
        try:
            result = await check_page(url, agents, lang=lang, transport=under, timeout=PAGE_TIMEOUT)
        except InvalidURL as error:
            raise ApiError(422, "bad-url", error.reason.render(lang)) from None
        except RefusedTarget as refused:
            raise ApiError(403, "refused-target", str(refused), host=refused.host, address=refused.address) from None
        return JSONResponse(result)

    async def api_generate(request: Request) -> Response:
        data = await read_json(request, body_timeout)
        return await compute(generate_answer, *generate_args(data))

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def api_not_found(request: Request) -> Response:
        raise ApiError(404, "not-found", f"no API endpoint {request.url.path}")

    async def on_http_error(request: Request, exc: Exception) -> Response:
        if isinstance(exc, ApiError):
            return _error(exc.status_code, exc.code, exc.detail, exc.headers, **exc.extra)
        if isinstance(exc, HTTPException):
            return _error(exc.status_code, "http-error", exc.detail, exc.headers)
        raise exc  # pragma: no cover

    async def on_refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestError)
        return _error(exc.status, exc.code, exc.message, None, **exc.extra)

    async def on_unexpected(request: Request, exc: Exception) -> Response:
        # Starlette's outermost middleware calls this only if the Guard itself failed; it
        # answers outside the Guard, so the security headers are added here.
        response = _internal_error()
        for name, value in SECURITY_HEADERS:
            response.headers[name.decode()] = value.decode()
        return response

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await anyio.to_thread.run_sync(pool.start)
        try:
            yield
        finally:
            pool.close()

    routes = [
        Route("/", index),
        Route("/api/analyse", api_analyse, methods=["POST"]),
        Route("/api/crawlers", api_crawlers),
        Route("/api/selftest", api_selftest),
        Route("/api/policies", api_policies),
        Route("/api/info", api_info),
        Route("/api/strings", api_strings),
        Route("/api/fetch", api_fetch, methods=["POST"]),
        Route("/api/generate", api_generate, methods=["POST"]),
        Route("/api/page", api_page, methods=["POST"]),
        Route("/api/{rest:path}", api_not_found, methods=["GET", "POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    handlers = {HTTPException: on_http_error, RequestError: on_refused, Exception: on_unexpected}
    app = Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan)
    app.add_middleware(Guard, loopback_only=bound_to_loopback)
    app.state.workers = pool
    return app


def is_loopback_host(host: str) -> bool:
    """True when a bind address is loopback only (`127.0.0.1`, `::1`, `localhost`)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
