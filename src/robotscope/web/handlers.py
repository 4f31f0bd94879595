"""The API's endpoints, one function each: what they check of a request and where its work runs.

Each reads the app's `Settings` (`request.app.state.settings`, made by
`app.create_app`). The answers are computed by the core (`reports.api`,
`reports.analysis`: the static build calls the same functions); CPU work
runs in the `WorkerPool`, fetches through the SSRF guard when the app is
bound to a public address.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import anyio
import httpx
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response

from ..access.build import build_kind
from ..access.policy import POLICIES
from ..fetch.guard import GuardedTransport, RefusedTarget, Resolver
from ..history import HistoryStore, origin_of
from ..history.views import version_view
from ..reports.analysis import analyse, generate_answer, selftest_answer
from ..reports.api import (
    MAX_FIELD,
    analyse_args,
    crawlers_answer,
    export_answer,
    export_args,
    generate_args,
    info_answer,
    lang_of,
    policies_answer,
    string_field,
    strings_answer,
    strings_field,
)
from ..reports.indexing import PageFacts, page_facts_dict
from ..syntax.urls import InvalidURL
from ..watching.timeline import stored_timeline
from .errors import ApiError
from .requests import read_json
from .static import STATIC
from .workers import PoolBusy, TooComplex, WorkerPool

_T = TypeVar("_T")

PAGE_TIMEOUT = 10.0  # seconds for each fetch of a page check (its robots.txt files, the page)
PAGE_DEADLINE = 30.0  # seconds for a whole page check, however many crawlers' fetches it makes (then 504)
MAX_PAGE_AGENTS = 10  # crawlers one page check asks for


@dataclass
class Settings:
    """What the endpoints of one app share: its worker pool, limits and fetching transport."""

    pool: WorkerPool
    guarded: bool  # bound to a public address: fetches refuse non-public targets
    resolve: Resolver
    transport: httpx.AsyncBaseTransport | None
    body_timeout: float
    retry_after: str  # seconds, for a 503 `busy`
    store: Path | None = None  # the history store shown (only ever read), if the server was given one
    selftest_bodies: dict[str, bytes] = field(default_factory=dict)  # the bundled cases never change: once per language

    def fetching(self) -> httpx.AsyncBaseTransport | None:
        """The transport fetches go through: the SSRF guard over the real one, when guarded."""
        return GuardedTransport(self.transport, self.resolve) if self.guarded else self.transport


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


@contextmanager
def _pool_answers(settings: Settings) -> Iterator[None]:
    """The pool's refusals as API errors: 503 `busy` (with Retry-After), 422 `too-complex`."""
    try:
        yield
    except PoolBusy as busy:
        raise ApiError(503, "busy", str(busy), headers={"Retry-After": settings.retry_after}) from None
    except TooComplex as error:
        raise ApiError(422, "too-complex", str(error), limit=error.limit) from None


async def _compute(settings: Settings, function: Callable[..., Any], *args: Any) -> Response:
    """`function(*args)` in a worker process, within the budget, as the JSON response."""
    with _pool_answers(settings):
        body = await anyio.to_thread.run_sync(settings.pool.run, function, *args)
    return Response(body, media_type="application/json")


async def api_analyse(request: Request) -> Response:
    settings = _settings(request)
    data = await read_json(request, settings.body_timeout)
    return await _compute(settings, analyse, *analyse_args(data))


async def api_generate(request: Request) -> Response:
    settings = _settings(request)
    data = await read_json(request, settings.body_timeout)
    return await _compute(settings, generate_answer, *generate_args(data))


async def api_export(request: Request) -> Response:
    settings = _settings(request)
    data = await read_json(request, settings.body_timeout)
    return await _compute(settings, export_answer, *export_args(data))


async def api_selftest(request: Request) -> Response:
    settings = _settings(request)
    lang = lang_of(request.query_params.get("lang"))
    if lang not in settings.selftest_bodies:
        settings.selftest_bodies[lang] = bytes((await _compute(settings, selftest_answer, lang)).body)
    return Response(settings.selftest_bodies[lang], media_type="application/json")


async def api_crawlers(request: Request) -> Response:
    return JSONResponse(crawlers_answer())


async def api_policies(request: Request) -> Response:
    return JSONResponse(policies_answer(lang_of(request.query_params.get("lang"))))


async def api_info(request: Request) -> Response:
    lang = lang_of(request.query_params.get("lang"))
    settings = _settings(request)
    answer = info_answer(
        lang, fetch=True, guarded_fetch=settings.guarded, build=build_kind(), history=settings.store is not None
    )
    return JSONResponse(answer)


async def api_strings(request: Request) -> Response:
    return JSONResponse(strings_answer(lang_of(request.query_params.get("lang"))))


def _site(url: str) -> str:
    """A URL as typed: a bare host means its https site."""
    return "https://" + url if url and "://" not in url else url


async def api_fetch(request: Request) -> Response:
    from .fetching import fetch

    settings = _settings(request)
    data = await read_json(request, settings.body_timeout)
    url = _site(string_field(data, "url").strip())
    policy = string_field(data, "policy", "rfc9309")
    lang = lang_of(data.get("lang"))
    if policy not in POLICIES:
        raise ApiError(422, "bad-policy", f"unknown policy {policy!r}: choose one of {', '.join(POLICIES)}")
    try:
        result = await fetch(url, policy, settings.fetching())
    except InvalidURL as error:
        raise ApiError(422, "bad-url", error.reason.render(lang)) from None
    except RefusedTarget as refused:
        hops = [{"url": u, "status": s} for u, s in refused.hops]
        raise ApiError(
            403, "refused-target", str(refused), host=refused.host, address=refused.address, hops=hops
        ) from None
    body = result.body.decode("utf-8", "replace") if result.status is not None and 200 <= result.status < 300 else ""
    return JSONResponse({**result.as_dict(lang), "text": body})


def _facts_in_pool(settings: Settings) -> Callable[..., Awaitable[PageFacts]]:
    """A page check's reader of each response, in the worker pool: the HTML is read under its budgets."""

    async def read(url: str, headers: tuple[tuple[str, str], ...], body: bytes, token: str) -> PageFacts:
        answer = await anyio.to_thread.run_sync(settings.pool.run, page_facts_dict, url, headers, body, token)
        return PageFacts.from_dict(json.loads(answer))

    return read


async def api_page(request: Request) -> Response:
    from ..pagecheck import check_page

    settings = _settings(request)
    data = await read_json(request, settings.body_timeout)
    url = _site(string_field(data, "url").strip())
    agents = strings_field(data, "agents", MAX_PAGE_AGENTS) or ["Googlebot"]
    lang = lang_of(data.get("lang"))
    try:
        with _pool_answers(settings), anyio.fail_after(PAGE_DEADLINE):
            result = await check_page(
                url,
                agents,
                lang=lang,
                transport=settings.fetching(),
                timeout=PAGE_TIMEOUT,
                read=_facts_in_pool(settings),
            )
    except TimeoutError:
        raise ApiError(
            504, "page-timeout", f"the page check took longer than {PAGE_DEADLINE:g} seconds; ask for fewer crawlers"
        ) from None
    except InvalidURL as error:
        raise ApiError(422, "bad-url", error.reason.render(lang)) from None
    except RefusedTarget as refused:
        raise ApiError(403, "refused-target", str(refused), host=refused.host, address=refused.address) from None
    return JSONResponse(result)


def _store(settings: Settings) -> Path:
    """The history store served; 404 `no-store` when the server was started without one."""
    if settings.store is None:
        raise ApiError(404, "no-store", "this server shows no history: start it with robotscope serve --store PATH")
    return settings.store


async def _in_store(path: Path, read: Callable[[HistoryStore], _T]) -> _T:
    """`read(store)` in a thread, the store opened read-only; 503 `store-unavailable` when it cannot be read."""

    def work() -> _T:
        with HistoryStore(path, read_only=True) as store:
            if not store.readable:
                raise ApiError(503, "store-unavailable", " ".join(store.warnings))
            return read(store)

    return await anyio.to_thread.run_sync(work)


def _origin_param(request: Request) -> str:
    """The `origin` query parameter as `scheme://host[:port]` (any URL of the site; a bare host is https)."""
    value = request.query_params.get("origin", "").strip()
    if not value or len(value) > MAX_FIELD:
        raise ApiError(
            400, "bad-origin", f"give the site as ?origin=https://example.com (at most {MAX_FIELD} characters)"
        )
    try:
        return origin_of(_site(value))
    except InvalidURL as error:
        raise ApiError(400, "bad-origin", error.reason.render(lang_of(request.query_params.get("lang")))) from None


def _known(store: HistoryStore, origin: str) -> None:
    if origin not in store.origins():
        raise ApiError(404, "unknown-origin", f"the history store holds nothing for {origin}")


async def api_history(request: Request) -> Response:
    settings = _settings(request)
    path = _store(settings)
    if "origin" not in request.query_params:
        return JSONResponse({"origins": await _in_store(path, lambda store: store.origins())})
    origin = _origin_param(request)
    await _in_store(path, lambda store: _known(store, origin))
    lang = lang_of(request.query_params.get("lang"))
    return await _compute(settings, stored_timeline, str(path), origin, lang)


async def api_history_version(request: Request) -> Response:
    path = _store(_settings(request))
    origin = _origin_param(request)
    wanted = request.query_params.get("id", "")
    # isascii: str.isdigit() is also true for "²"; 18 digits stay within SQLite's integers.
    if not (wanted.isascii() and wanted.isdigit() and len(wanted) <= 18):
        raise ApiError(400, "bad-id", "give the version as ?id=N, N the `id` of a version of /api/history?origin=")
    version = await _in_store(path, lambda store: store.version(int(wanted)))
    if version is None or version.origin != origin:
        raise ApiError(404, "unknown-version", f"the history store holds no version {wanted} of {origin}")
    view = {**version_view(None, version), "origin": origin, "text": version.text}
    return JSONResponse({**view, "base64": base64.b64encode(version.body).decode("ascii")})


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


async def api_not_found(request: Request) -> Response:
    raise ApiError(404, "not-found", f"no API endpoint {request.url.path}")
