"""Every failure of the web API is its documented JSON error, with the security headers, through the ASGI app.

Request bodies that json.loads reads but the rest could not use (deep
nesting, lone surrogates), odd headers, and exceptions nobody expected.
The same through a real uvicorn server is in test_web_live.py.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from robotscope.web import create_app, handlers, security

BASE = "http://127.0.0.1:8000"


@pytest.fixture(scope="module")
def app() -> Iterator[Any]:
    app = create_app()
    yield app
    app.state.workers.close()


def call(app: Any, method: str, path: str, raise_app_exceptions: bool = True, **kwargs: Any) -> httpx.Response:
    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=raise_app_exceptions)
        async with httpx.AsyncClient(transport=transport, base_url=BASE) as client:
            return await client.request(method, path, **kwargs)

    return asyncio.run(go())


def raw(app: Any, path: str, body: bytes, content_type: str = "application/json") -> httpx.Response:
    return call(app, "POST", path, content=body, headers={"content-type": content_type})


def assert_error(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/json"
    assert "default-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["x-content-type-options"] == "nosniff" and r.headers["x-frame-options"] == "DENY"
    error: dict[str, Any] = r.json()["error"]
    assert error["code"] == code and isinstance(error["message"], str) and error["message"]
    return error


@pytest.mark.parametrize(
    ("path", "body", "words"),
    [
        ("/api/analyse", b"[" * 100_000 + b"]" * 100_000, "too deeply"),
        ("/api/analyse", b'{"text": ' + b'{"a": ' * 50_000 + b"1" + b"}" * 50_001, "too deeply"),
        ("/api/analyse", b'{"text": "\\ud800"}', "lone surrogate"),
        ("/api/analyse", b'{"text": "ok \\udc00 here", "agent": "x"}', "lone surrogate"),
        ("/api/analyse", b'{"text": "", "agent": "\\udbff"}', "lone surrogate"),
        ("/api/analyse", b'{"text": "a", "agent": "x", "urls": ["/\\ud800"]}', "lone surrogate"),
        ("/api/analyse", b'{"text": "", "paths": ["/x", "/\\ud800"]}', "lone surrogate"),
        ("/api/analyse", b'{"\\ud800": 1}', "lone surrogate"),
        ("/api/fetch", b'{"url": "http://\\ud800.example/"}', "lone surrogate"),
        ("/api/generate", b'{"spec": {"blocks": [{"agent": "\\ud800"}]}}', "lone surrogate"),
        ("/api/generate", b'{"preset": "allow-only", "agent": "Yeti\\udfff"}', "lone surrogate"),
        ("/api/generate", b'{"spec": {"blocks": [{"agent": "*", "disallow": [[[["\\ud800"]]]]}]}}', "lone surrogate"),
        ("/api/analyse", b'{"text": "\\xff"}', "not valid JSON"),
        ("/api/analyse", b'{"n": ' + b"1" * 5000 + b"}", "not valid JSON"),  # past int's 4,300 digits
    ],
)
def test_request_bodies_json_loads_reads_but_nothing_else_can_are_bad_json(
    app: Any, path: str, body: bytes, words: str
) -> None:
    error = assert_error(raw(app, path, body), 400, "bad-json")
    assert words in error["message"]


def test_a_valid_surrogate_pair_is_text(app: Any) -> None:
    r = raw(
        app,
        "/api/analyse",
        b'{"text": "User-agent: *\\nDisallow: /\\ud83d\\ude00\\n", "agent": "x", "urls": ["/\\ud83d\\ude00"]}',
    )
    assert r.status_code == 200, r.text
    assert r.json()["verdicts"][0]["target"] == "/%F0%9F%98%80" and r.json()["verdicts"][0]["allowed"] is False


async def _asgi(app: Any, headers: list[tuple[bytes, bytes]], body: bytes) -> tuple[int, dict[bytes, bytes], bytes]:
    """One request straight through the ASGI interface, with headers no HTTP client would send."""
    messages: list[dict[str, Any]] = []
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/analyse",
        "raw_path": b"/api/analyse",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1:8000"), *headers],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 8000),
    }
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        messages.append(message)

    await app(scope, receive, send)
    start = next(m for m in messages if m["type"] == "http.response.start")
    content = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.response.body")
    return start["status"], dict(start["headers"]), content


@pytest.mark.parametrize(
    ("headers", "status", "code"),
    [
        ([(b"content-type", b"application/json"), (b"content-length", "\u00b2".encode("latin-1"))], 200, None),
        ([(b"content-type", b"application/json"), (b"origin", b"http://[")], 403, "cross-origin"),
        ([(b"content-type", b"application/json"), (b"origin", b"null")], 403, "cross-origin"),
        ([(b"content-type", b"application/json"), (b"origin", b"http://a b\x00")], 403, "cross-origin"),
        ([(b"content-type", b"application/json; charset=\xff")], 200, None),
    ],
)
def test_odd_headers(app: Any, headers: list[tuple[bytes, bytes]], status: int, code: str | None) -> None:
    got, sent, content = asyncio.run(_asgi(app, headers, b'{"text": ""}'))
    assert got == status, content
    assert b"content-security-policy" in sent
    if code is not None:
        assert json.loads(content)["error"]["code"] == code


def test_a_client_that_disconnects_mid_body_is_not_an_internal_error(
    app: Any, caplog: pytest.LogCaptureFixture
) -> None:
    async def go() -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = []
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": "/api/analyse",
            "raw_path": b"/api/analyse",
            "query_string": b"",
            "root_path": "",
            "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json")],
        }
        chunks: list[dict[str, Any]] = [
            {"type": "http.request", "body": b'{"te', "more_body": True},
            {"type": "http.disconnect"},
        ]
        parts = iter(chunks)

        async def receive() -> dict[str, Any]:
            return next(parts, {"type": "http.disconnect"})

        async def send(message: dict[str, Any]) -> None:
            messages.append(message)

        await app(scope, receive, send)
        return messages

    messages = asyncio.run(go())
    assert messages[0]["status"] == 400
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_an_unexpected_exception_is_a_json_500_with_one_log_line(
    app: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: Any) -> Any:
        raise KeyError("secret detail")

    monkeypatch.setattr(handlers, "crawlers_answer", broken)
    r = call(app, "GET", "/api/crawlers")  # raise_app_exceptions: nothing escapes the app
    error = assert_error(r, 500, "internal-error")
    assert "secret" not in r.text and "Traceback" not in r.text and "logged" in error["message"]
    records = [rec for rec in caplog.records if rec.levelno >= logging.ERROR]
    assert len(records) == 1 and records[0].exc_info is None
    assert "KeyError: 'secret detail'" in records[0].getMessage() and "(at test_errors.py:" in records[0].getMessage()
    assert call(app, "GET", "/api/info").status_code == 200


def test_an_exception_in_a_worker_job_is_a_json_500(
    app: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # Jobs cross to the worker by name; `int` is one the worker can import, and fails on these arguments.
    monkeypatch.setattr(handlers, "analyse", int)
    r = call(app, "POST", "/api/analyse", json={"text": "x"})
    assert_error(r, 500, "internal-error")
    (record,) = [rec for rec in caplog.records if rec.levelno >= logging.ERROR]
    assert "WorkerFailed: TypeError" in record.getMessage()
    monkeypatch.undo()
    assert call(app, "POST", "/api/analyse", json={"text": "x"}).status_code == 200  # the worker goes on


def test_the_last_resort_handler_outside_the_guard(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # If the Guard's own error path failed, Starlette's outermost middleware answers: still JSON, still secured.
    def broken(*args: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(handlers, "crawlers_answer", broken)
    monkeypatch.setattr(security, "describe", broken)
    r = call(create_app(), "GET", "/api/crawlers", raise_app_exceptions=False)
    assert_error(r, 500, "internal-error")


def test_method_not_allowed_keeps_its_allow_header(app: Any) -> None:
    r = call(app, "PUT", "/api/analyse")
    assert_error(r, 405, "http-error")
    assert r.headers["allow"] == "POST"


@pytest.mark.parametrize(
    "agent",
    ["Yeti\nDisallow: /", "Yeti\rDisallow: /", "Yeti#x"],
)
def test_the_allow_only_agent_cannot_write_extra_lines(app: Any, agent: str) -> None:
    r = call(app, "POST", "/api/generate", json={"preset": "allow-only", "agent": agent})
    error = assert_error(r, 422, "bad-spec")
    assert "line break" in error["message"]
