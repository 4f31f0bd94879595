"""The API's endpoints, one function each: what they check of a request and where its work runs.

Each reads the app's `Settings` (`request.app.state.settings`, made by
`app.create_app`). The answers are computed by the core (`reports.api`,
`reports.analysis`: the static build calls the same functions); CPU work
runs in the `WorkerPool`, fetches through the SSRF guard when the app is
bound to a public address.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import anyio
import httpx
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response

from ..access.build import build_kind
from ..access.policy import POLICIES
from ..reports.analysis import analyse, generate_answer, selftest_answer
from ..reports.api import (
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
from ..reports.indexing import PageFacts, page_facts_dict
from ..syntax.urls import InvalidURL
from .errors import ApiError
from .guard import GuardedTransport, RefusedTarget, Resolver
from .requests import read_json
from .static import STATIC
from .workers import PoolBusy, TooComplex, WorkerPool

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
    return JSONResponse(info_answer(lang, fetch=True, guarded_fetch=_settings(request).guarded, build=build_kind()))


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


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


async def api_not_found(request: Request) -> Response:
    raise ApiError(404, "not-found", f"no API endpoint {request.url.path}")
