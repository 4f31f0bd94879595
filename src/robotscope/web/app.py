"""The Starlette application behind `robotscope serve`: the JSON API and the static page.

See the package docstring (`robotscope.web`) and `API.md` for the endpoints.
Everything is computed by the core (`parse`, `lint`, `compare.matrix`,
`selftest`, the fetcher, the generator); this module only validates input,
caps sizes and shapes the JSON.
"""

from __future__ import annotations

import ipaddress
import json
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import httpx
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__
from ..compare import matrix
from ..crawlers import PURPOSES, catalogue, recognise
from ..generator import (
    DEFAULT_SPEC,
    OTHERS_BLOCKED_WARNING,
    STAGING_WARNING,
    InvalidSpec,
    Spec,
    build,
    preset,
    spec_allows,
)
from ..linter import lint
from ..model import LineKind
from ..robots import Robots, parse
from ..selftest import run_cases
from ..urls import InvalidURL
from .guard import GuardedTransport, RefusedTarget, Resolver, system_resolve

MAX_BODY = 1024 * 1024  # bytes of request body: a robots.txt of up to 1 MB, as JSON
MAX_URLS = 100  # URLs checked per analyse request
MAX_PATHS = 20  # matrix columns per analyse request
MAX_FIELD = 8192  # characters of one agent, URL or path
MAX_BLOCKS = 100  # blocks of a generator spec
MAX_RULES = 500  # allow and disallow paths of a generator spec, all blocks together
MAX_SITEMAPS = 100  # sitemap URLs of a generator spec
# The catalogue crawlers whose verdict on `/` every generated file is also checked for:
# the ones a site usually wants to keep (search and AI search).
KEPT_PURPOSES = ("search", "ai-search")

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

# The generator's warnings, by a code the page translates.
_WARNING_CODES = {STAGING_WARNING: "blocks-whole-site", OTHERS_BLOCKED_WARNING: "blocks-others"}


class ApiError(HTTPException):
    """An API error: answered as {"error": {"code", "message", ...}} with its status."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(status, message)
        self.code = code
        self.extra = extra


def _error(status: int, code: str, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, **extra}}, status_code=status)


def _host_of(header: str) -> str:
    """The host name of a Host header value, without port or IPv6 brackets."""
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class Guard:
    """Pure ASGI middleware: security headers on every response; Host checks on a loopback bind.

    Bound to loopback, only requests naming a loopback host are served, so a
    web page cannot reach the API through DNS rebinding.
    """

    def __init__(self, app: ASGIApp, loopback_only: bool) -> None:
        self.app = app
        self.loopback_only = loopback_only

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        if self.loopback_only:
            headers = dict(scope.get("headers", []))
            host = _host_of(headers.get(b"host", b"").decode("latin-1")).lower()
            if not is_loopback_host(host):
                response = _error(421, "bad-host", f"this server answers only to localhost, not {host!r}")
                await response(scope, receive, send_with_headers)
                return
        await self.app(scope, receive, send_with_headers)


async def read_json(request: Request) -> dict[str, Any]:
    """The request's JSON object; 413 past MAX_BODY bytes, 415 unless JSON, 403 for a foreign Origin."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise ApiError(415, "unsupported-media-type", "send the request body as application/json")
    origin = request.headers.get("origin")
    if origin is not None and httpx.URL(origin).netloc.decode("ascii", "replace") != request.headers.get("host", ""):
        raise ApiError(403, "cross-origin", "requests from other origins are not accepted")
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY:
        raise ApiError(413, "too-large", f"the request body is over {MAX_BODY} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise ApiError(413, "too-large", f"the request body is over {MAX_BODY} bytes")
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "bad-json", "the request body is not valid JSON") from None
    if not isinstance(data, dict):
        raise ApiError(400, "bad-json", "the request body must be a JSON object")
    return data


def _string(data: dict[str, Any], key: str, default: str = "", limit: int = MAX_FIELD) -> str:
    value = data.get(key, default)
    if value is None:
        return default
    if not isinstance(value, str):
        raise ApiError(422, "bad-field", f"`{key}` must be a string")
    if len(value) > limit:
        raise ApiError(422, "bad-field", f"`{key}` is longer than {limit} characters")
    return value


def _strings(data: dict[str, Any], key: str, limit: int) -> list[str]:
    value = data.get(key) or []
    if isinstance(value, str):
        value = value.splitlines()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ApiError(422, "bad-field", f"`{key}` must be a list of strings")
    items = [v.strip() for v in value if v.strip()]
    if len(items) > limit:
        raise ApiError(422, "bad-field", f"`{key}` holds more than {limit} entries")
    if any(len(v) > MAX_FIELD for v in items):
        raise ApiError(422, "bad-field", f"an entry of `{key}` is longer than {MAX_FIELD} characters")
    return items


def ignored_lines(robots: Robots) -> list[dict[str, Any]]:
    """Lines no crawler applies: not `key: value`, rules before any user-agent, past the size limit."""
    out: list[dict[str, Any]] = []
    for line in robots.lines:
        if line.kind is LineKind.INVALID:
            out.append({"line": line.number, "reason": "invalid", "raw": line.raw})
        elif line.kind in (LineKind.ALLOW, LineKind.DISALLOW) and line.group is None:
            out.append({"line": line.number, "reason": "outside-group", "raw": line.raw})
    out.extend({"line": line.number, "reason": "over-limit", "raw": line.raw} for line in robots.overflow[:1000])
    return out


def analyse(text: str, agent: str, urls: list[str], paths: list[str]) -> dict[str, Any]:
    """Everything the page shows for one file: structure, findings, verdicts and the matrix."""
    robots = parse(text)
    structure = robots.as_dict()
    del structure["lines"], structure["overflow"]
    structure["line_count"] = len(robots.lines)
    structure["kinds"] = [line.kind.value for line in robots.lines]
    structure["ignored"] = ignored_lines(robots)
    verdicts = []
    if agent.strip():
        for url in urls:
            verdict = robots.verdict(agent, url)
            positions = (robots.lines[n - 1].group for n in verdict.group_lines if n <= len(robots.lines))
            groups = sorted({g for g in positions if g is not None})
            verdicts.append(
                {**verdict.as_dict(), "groups": groups, "agents": sorted({a for g in groups for a in robots.groups[g].agents})}
            )
    crawler = recognise(agent) if agent.strip() else None
    rows = matrix(robots, catalogue(), paths) if paths else []
    grouped: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        grouped.setdefault(row.crawler.purpose, []).append(row.as_dict())
    return {
        "structure": structure,
        "findings": [f.as_dict() for f in lint(robots)],
        "agent": {"input": agent, "crawler": None if crawler is None else crawler.as_dict()},
        "verdicts": verdicts,
        "matrix": {"paths": paths, "purposes": [{"purpose": p, "rows": r} for p, r in grouped.items()]},
    }


def _spec_data(spec: Spec) -> dict[str, Any]:
    return {
        "blocks": [
            {"agent": b.agent, "allow": list(b.allow), "disallow": list(b.disallow), "comment": b.comment}
            for b in spec.blocks
        ],
        "sitemaps": list(spec.sitemaps),
    }


def _check_spec(spec: Spec) -> None:
    """Size caps the core leaves to its callers (422 `bad-spec`)."""
    if len(spec.blocks) > MAX_BLOCKS:
        raise ApiError(422, "bad-spec", f"the spec holds more than {MAX_BLOCKS} blocks")
    if sum(len(b.allow) + len(b.disallow) for b in spec.blocks) > MAX_RULES:
        raise ApiError(422, "bad-spec", f"the spec holds more than {MAX_RULES} allow and disallow paths")
    if len(spec.sitemaps) > MAX_SITEMAPS:
        raise ApiError(422, "bad-spec", f"the spec holds more than {MAX_SITEMAPS} sitemaps")
    # Line breaks and `#` are refused by Spec.from_data itself.
    for i, b in enumerate(spec.blocks, start=1):
        if any(len(v) > MAX_FIELD for v in (b.agent, b.comment, *b.allow, *b.disallow)):
            raise ApiError(422, "bad-spec", f"an entry of block {i} is longer than {MAX_FIELD} characters")
    if any(len(v) > MAX_FIELD for v in spec.sitemaps):
        raise ApiError(422, "bad-spec", f"a sitemap is longer than {MAX_FIELD} characters")


def generate_answer(spec: Spec) -> dict[str, Any]:
    """Generate, parse back, verify and lint one spec; also check named agents and kept crawlers on `/`."""
    generated = build(spec)
    checks = [{"kind": "rule", **c._asdict(), "ok": c.ok} for c in generated.checks]
    seen = {(c.agent.lower(), c.url) for c in generated.checks}
    agents = [b.agent for b in spec.blocks if b.agent != "*"]
    agents += [c.token for c in catalogue() if c.purpose in KEPT_PURPOSES]
    for agent in agents:
        if (agent.lower(), "/") in seen:
            continue
        seen.add((agent.lower(), "/"))
        intended = spec_allows(spec, agent, "/")
        verdict = generated.robots.verdict(agent, "/")
        checks.append(
            {"kind": "crawler", "agent": agent, "url": "/", "intended": intended, "allowed": verdict.allowed,
             "line": verdict.line, "ok": intended == verdict.allowed}
        )
    warnings = [
        {"code": _WARNING_CODES.get(w, "other"), "message": w} for w in generated.warnings
    ]
    return {
        "text": generated.text,
        "warnings": warnings,
        "verified": all(c["ok"] for c in checks),
        "checks": checks,
        "findings": [f.as_dict() for f in generated.findings],
        "spec": _spec_data(spec),
    }


@cache
def selftest() -> dict[str, Any]:
    results = run_cases()
    cases = [r.as_dict() for r in results]
    passed = sum(1 for r in results if r.passed)
    return {"total": len(cases), "passed": passed, "failed": len(cases) - passed, "cases": cases}


def create_app(
    allow_private_fetch: bool = False,
    bound_to_loopback: bool = True,
    *,
    resolve: Resolver = system_resolve,
    transport: httpx.AsyncBaseTransport | None = None,
) -> Starlette:
    """The web app. Bound to a non-loopback address, the fetch endpoint refuses non-public targets.

    `resolve` and `transport` are for tests: the name resolver the guard
    checks, and the transport under the guard (default: a real httpx one).
    """
    guarded = not bound_to_loopback and not allow_private_fetch

    async def api_analyse(request: Request) -> Response:
        data = await read_json(request)
        text = _string(data, "text", limit=MAX_BODY)
        agent = _string(data, "agent")
        urls = _strings(data, "urls", MAX_URLS)
        paths = _strings(data, "paths", MAX_PATHS)
        return JSONResponse(await run_in_threadpool(analyse, text, agent, urls, paths))

    async def api_crawlers(request: Request) -> Response:
        return JSONResponse({"purposes": list(PURPOSES), "crawlers": [c.as_dict() for c in catalogue()]})

    async def api_selftest(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(selftest))

    async def api_policies(request: Request) -> Response:
        from ..policy import POLICIES

        return JSONResponse({"policies": [p.as_dict() for p in POLICIES.values()]})

    async def api_info(request: Request) -> Response:
        return JSONResponse({"version": __version__, "guarded_fetch": guarded, "max_body": MAX_BODY})

    async def api_fetch(request: Request) -> Response:
        from ..policy import POLICIES
        from .fetching import fetch

        data = await read_json(request)
        url = _string(data, "url").strip()
        policy = _string(data, "policy", "rfc9309")
        if policy not in POLICIES:
            raise ApiError(422, "bad-policy", f"unknown policy {policy!r}: choose one of {', '.join(POLICIES)}")
        if "://" not in url and url:
            url = "https://" + url
        inner = transport
        under: httpx.AsyncBaseTransport | None = GuardedTransport(inner, resolve) if guarded else inner
        try:
            result = await fetch(url, policy, under)
        except InvalidURL as error:
            raise ApiError(422, "bad-url", str(error)) from None
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
        return JSONResponse({**result.as_dict(), "text": body})

    async def api_generate(request: Request) -> Response:
        data = await read_json(request)
        name = _string(data, "preset")
        agent = _string(data, "agent").strip()
        raw = data.get("spec")
        if raw is not None and name:
            raise ApiError(422, "bad-field", "give either `preset` or `spec`, not both")
        if name == "allow-only" and not agent:
            raise ApiError(422, "bad-spec", "the allow-only preset needs `agent`: the one crawler to allow, e.g. Yeti")
        try:
            if raw is not None:
                if not isinstance(raw, dict):
                    raise InvalidSpec("`spec` must be an object: {\"blocks\": [...], \"sitemaps\": [...]}")
                spec = Spec.from_data(raw)
            else:
                spec = preset(name, agent or None) if name else DEFAULT_SPEC
        except InvalidSpec as error:
            raise ApiError(422, "bad-spec", str(error)) from None
        _check_spec(spec)
        return JSONResponse(await run_in_threadpool(generate_answer, spec))

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def api_not_found(request: Request) -> Response:
        raise ApiError(404, "not-found", f"no API endpoint {request.url.path}")

    async def on_http_error(request: Request, exc: Exception) -> Response:
        if isinstance(exc, ApiError):
            return _error(exc.status_code, exc.code, exc.detail, **exc.extra)
        if isinstance(exc, HTTPException):
            return _error(exc.status_code, "http-error", exc.detail)
        raise exc  # pragma: no cover

    routes = [
        Route("/", index),
        Route("/api/analyse", api_analyse, methods=["POST"]),
        Route("/api/crawlers", api_crawlers),
        Route("/api/selftest", api_selftest),
        Route("/api/policies", api_policies),
        Route("/api/info", api_info),
        Route("/api/fetch", api_fetch, methods=["POST"]),
        Route("/api/generate", api_generate, methods=["POST"]),
        Route("/api/{rest:path}", api_not_found, methods=["GET", "POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: on_http_error})
    app.add_middleware(Guard, loopback_only=bound_to_loopback)
    return app


def is_loopback_host(host: str) -> bool:
    """True when a bind address is loopback only (`127.0.0.1`, `::1`, `localhost`)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
