"""robotscope's web tester: a local Starlette app with a small JSON API and a static page.

`create_app(allow_private_fetch=False, bound_to_loopback=True)` returns the
ASGI app that `robotscope serve` runs under uvicorn (keyword-only limits:
`time_budget=10`, `body_timeout=10`, `max_analyses`, `max_waiting=8`).
Needs the `web` extra (starlette, uvicorn) and httpx for the fetch panel. The page (static/) is
plain HTML, CSS and JavaScript shipped in the package: no CDN, no build step,
no request to any third party. All user-facing strings live in
the core's message catalogues (`page.*` codes, served by GET /api/strings) (English and Korean).

JSON API (full reference with examples: API.md next to this file). Every
error is ``{"error": {"code": str, "message": str, ...}}`` with its status,
an unexpected one too (500 ``internal-error``, logged in one line). POST
bodies must be ``application/json``, at most 1 MiB (413 ``too-large``), sent
within 10 s (408 ``body-timeout``), and a JSON object of real text (400
``bad-json``: invalid, nested too deeply, or holding a lone surrogate such
as ``\\ud800``); a request carrying an Origin other than the server's own is
refused (403 ``cross-origin``).

Limits on work: the size caps bound a request, not its cost (one request
within them can need minutes: full verdicts try every rule per URL and
matrix cell, some lint checks are quadratic), so analyse, generate and
selftest run in worker processes (`app.WorkerPool`), one per core (1 to 4)
at once with 8 more waiting (then 503 ``busy`` with Retry-After). A job past
its time budget (10 s) has its process killed, so the work stops, and answers
422 ``too-complex`` with ``"limit": "time"``; past 2 GiB of memory or a
32 MiB answer, ``"limit"`` is ``memory`` or ``size``.

POST /api/analyse
    ``{"text": str, "agent": str, "urls": [str], "paths": [str]}`` (only
    `text` required; at most 100 urls and 20 paths) -> ``{"structure":
    Robots.as_dict() without the line list, plus line_count, kinds (one
    LineKind value per line) and ignored ([{line, reason, raw}], reason
    invalid | outside-group | over-limit), "findings": [Finding.as_dict()],
    "agent": {input, crawler (catalogue row or null)}, "verdicts": [one
    Verdict.as_dict() per URL, plus groups (positions) and agents of the
    group(s) used] (empty without an agent), "matrix": {paths, purposes:
    [{purpose, rows: [MatrixRow.as_dict()]}]}}``. Each entry at most 8,192
    characters; 422 ``too-complex`` / 503 ``busy`` as above.
GET /api/crawlers
    ``{"purposes": [str], "crawlers": [Crawler.as_dict()]}``.
GET /api/selftest
    ``{"total", "passed", "failed", "cases": [{id, section, description,
    agent, url, expected: {allowed, line, reason}, got: {...}, passed}]}``.
GET /api/policies
    ``{"policies": [Policy.as_dict()]}``: the fetch policies, in table order.
GET /api/info
    ``{"version", "build" (compiled | pure), "guarded_fetch", "max_body", ...}``.
POST /api/fetch
    ``{"url": str, "policy": "rfc9309" | "google" | "bing" | "naver"}`` ->
    ``FetchResult.as_dict()`` plus ``text`` (the body, decoded, when the final
    status is 2xx). 422 ``bad-url`` / ``bad-policy``; 403 ``refused-target``
    (with host, address and the hops before it) when the app is bound to a
    non-loopback address without --allow-private-fetch and the target, or any
    redirect hop, resolves to an address that is not publicly routable (an
    explicit table with the RFC of each row, then the stdlib's properties;
    IPv4-mapped and NAT64 ``64:ff9b::/96`` addresses judged by their IPv4
    address; see `robotscope.web.guard`). Network failures are part of the
    result.
POST /api/generate
    ``{"preset": str, "agent": str, "spec": {"blocks": [{agent, allow,
    disallow, comment}], "sitemaps": [str]}}`` (all optional; `preset` or
    `spec`, not both; `agent` is the crawler of the allow-only preset; neither
    gives the default spec, ``User-agent: *`` + ``Disallow: /``) -> ``{"text",
    "warnings": [{code, message}] (code blocks-whole-site or other),
    "verified", "checks": [{kind (rule | crawler), agent, url, intended,
    allowed, line, ok}], "findings": [Finding.as_dict()], "spec": the spec
    as data}``; the rule checks are `robotscope.reports.generator.build`'s round trip,
    the crawler checks each agent named in the spec and each search and AI
    search crawler of the catalogue on ``/``. 422 ``bad-spec`` with the
    `InvalidSpec` message (or past 100 blocks, 500 paths, 100 sitemaps, or a
    line break in an agent or comment, the allow-only `agent` included).

GET /api/history, GET /api/history?origin=URL, GET /api/history/version?origin=URL&id=N
    Only with a history store (``create_app(store=PATH)``, ``robotscope serve
    --store PATH``; else 404 ``no-store``), opened read-only per request: the
    origins it holds; an origin's versions, each with the alerts of its
    change from the one before (in the worker pool), and its failed
    fetches; one version's text. 400 ``bad-origin`` / ``bad-id``, 404
    ``unknown-origin`` / ``unknown-version``.

Static: ``GET /`` is the page, ``/static/...`` its assets. Every response
carries a strict Content-Security-Policy (``default-src 'self'``, no inline
script or style), ``X-Content-Type-Options: nosniff``, ``Referrer-Policy:
no-referrer`` and ``X-Frame-Options: DENY``. Bound to loopback, requests
whose Host is not a loopback name are refused (421), against DNS rebinding.
"""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
