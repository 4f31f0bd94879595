"""The web tester under a real uvicorn server on 127.0.0.1, with the options `robotscope serve` uses.

What only a real server shows: request bodies and heads that stall or
trickle (the app's body timeout, serve's head deadline), and errors that go
through Starlette's outermost middleware and uvicorn's own 500 path. Each
server listens on an ephemeral port of 127.0.0.1 and is stopped at the end
of its test; every client loop is bounded.
"""

from __future__ import annotations

import json
import logging
import select
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
import uvicorn

from robotscope.cli.serve import MAX_CONNECTIONS, uvicorn_options
from robotscope.web import create_app, handlers

GUARD = 10.0  # seconds any wait below may take before the test fails


@contextmanager
def live(app: Any, head_timeout: float = 10.0) -> Iterator[int]:
    """Serve `app` on 127.0.0.1 in a thread, with serve's uvicorn options; yields the port."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, **uvicorn_options("127.0.0.1", port, head_timeout=head_timeout)))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + GUARD
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(GUARD)
        sock.close()
        assert not thread.is_alive(), "uvicorn did not stop"


def _connect(port: int) -> socket.socket:
    client = socket.create_connection(("127.0.0.1", port), timeout=GUARD)
    client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return client


def _read_until_closed(client: socket.socket, limit: float = GUARD) -> bytes:
    """Everything the server sends until it closes the connection (a hang past `limit` seconds fails)."""
    data = b""
    while select.select([client], [], [], limit)[0]:
        chunk = client.recv(65536)
        if not chunk:
            return data
        data += chunk
    raise AssertionError(f"the server kept the connection open for {limit} s; received {data[:200]!r}")


def _parse_head(raw: bytes) -> tuple[int, dict[str, str]]:
    lines = raw.partition(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
    return int(lines[0].split()[1]), headers


def _parse(raw: bytes) -> tuple[int, dict[str, str], Any]:
    status, headers = _parse_head(raw)
    body = raw.partition(b"\r\n\r\n")[2]
    return status, headers, json.loads(body) if body else None


def _assert_secured(headers: dict[str, str]) -> None:
    assert "default-src 'self'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY"


HEAD = b"POST /api/analyse HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"


# ---------- D12: a body that stalls or trickles ----------


def test_stalled_body_is_answered_408_and_the_connection_closed() -> None:
    with live(create_app(body_timeout=0.5)) as port, _connect(port) as client:
        client.sendall(HEAD + b'{"text": "')  # 10 of the 100 bytes announced, then nothing
        raw = _read_until_closed(client)
    status, headers, body = _parse(raw)
    assert status == 408 and body["error"]["code"] == "body-timeout", raw
    assert "0.5 seconds" in body["error"]["message"]
    assert headers["connection"] == "close" and headers["content-type"] == "application/json"
    _assert_secured(headers)


def test_trickled_body_is_answered_408_within_the_timeout() -> None:
    with live(create_app(body_timeout=0.5)) as port, _connect(port) as client:
        client.sendall(HEAD)
        sent = 0
        for _ in range(100):  # a byte every 50 ms would need 5 s for the body: far past the timeout
            if select.select([client], [], [], 0.05)[0]:
                break  # the answer has come
            client.sendall(b" ")
            sent += 1
        raw = _read_until_closed(client)
    status, headers, body = _parse(raw)
    assert status == 408 and body["error"]["code"] == "body-timeout", raw
    _assert_secured(headers)
    assert sent < 100, sent  # answered before the body was whole: the timeout, not the body's end, decided


def test_a_body_in_time_is_served_and_the_connection_kept() -> None:
    with live(create_app(body_timeout=2.0)) as port, _connect(port) as client:
        payload = json.dumps({"text": "User-agent: *\nDisallow: /x\n", "agent": "a", "urls": ["/x"]}).encode()
        head = HEAD.replace(b"Content-Length: 100", b"Content-Length: %d" % len(payload))
        client.sendall(head + payload[:10])
        time.sleep(0.3)  # a pause well within the timeout
        client.sendall(payload[10:])
        raw = b""
        for _ in range(1000):  # bounded: until the whole answer (its Content-Length) is in
            if b"\r\n\r\n" in raw and len(raw.partition(b"\r\n\r\n")[2]) >= int(_parse_head(raw)[1]["content-length"]):
                break
            assert select.select([client], [], [], GUARD)[0], "no answer"
            raw += client.recv(65536)
        status, headers, body = _parse(raw)
        assert status == 200 and "connection" not in headers  # kept alive for the next request
        assert body["verdicts"][0]["allowed"] is False


@pytest.mark.parametrize("trickle", [False, True])
def test_a_stalled_or_trickled_request_head_is_closed(trickle: bool) -> None:
    with live(create_app(), head_timeout=0.5) as port, _connect(port) as client:
        client.sendall(b"POST /api/analyse HTTP/1.1\r\nHost: 127")
        closed = False
        for _ in range(200):  # bounded: at 20 bytes/s this head would never end
            if select.select([client], [], [], 0.05)[0]:
                closed = client.recv(65536) == b""
                break
            if trickle:
                try:
                    client.sendall(b"0")
                except OSError:  # closed under us
                    closed = True
                    break
    assert closed  # within the bounded loop: the head never ended, the server did


def test_a_slow_analysis_does_not_hold_up_the_server() -> None:
    rules = "".join(f"Disallow: /*a*{i}*b\n" for i in range(20_000))
    url = "/" + ("a0123456789" * 400)[:3999]
    hostile = {"text": "User-agent: *\n" + rules, "agent": "Googlebot", "urls": [url] * 100, "paths": [url] * 20}
    with live(create_app(time_budget=1.0)) as port:
        base = f"http://127.0.0.1:{port}"
        results: dict[str, Any] = {}

        def slow() -> None:
            results["slow"] = httpx.post(base + "/api/analyse", json=hostile, timeout=GUARD)

        thread = threading.Thread(target=slow)
        thread.start()
        time.sleep(0.2)
        assert httpx.get(base + "/api/info", timeout=GUARD).status_code == 200
        assert "slow" not in results  # answered while the worker still computes: the event loop is free
        thread.join(GUARD)
        r = results["slow"]
        assert r.status_code == 422 and r.json()["error"] == {
            "code": "too-complex",
            "limit": "time",
            "message": r.json()["error"]["message"],
        }
        _assert_secured({k.lower(): v for k, v in r.headers.items()})


# ---------- D7: every error is the documented JSON, through the whole stack ----------


def _post(port: int, body: bytes) -> httpx.Response:
    return httpx.post(
        f"http://127.0.0.1:{port}/api/analyse",
        content=body,
        headers={"content-type": "application/json"},
        timeout=GUARD,
    )


def test_bad_json_through_uvicorn(caplog: pytest.LogCaptureFixture) -> None:
    with live(create_app()) as port:
        for body, words in [
            (b"[" * 100_000 + b"]" * 100_000, "too deeply"),
            (b'{"text": "\\ud800"}', "lone surrogate"),
            (b'{"text": "", "agent": "x", "urls": ["/\\udfff"]}', "lone surrogate"),
        ]:
            r = _post(port, body)
            assert r.status_code == 400, r.text
            assert r.json()["error"]["code"] == "bad-json" and words in r.json()["error"]["message"]
            _assert_secured({k.lower(): v for k, v in r.headers.items()})
    assert not [rec for rec in caplog.records if rec.levelno >= logging.ERROR]


def test_an_unexpected_error_through_uvicorn_is_json_with_one_log_line(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken() -> Any:
        raise RuntimeError("catalogue exploded\nsecond line")

    monkeypatch.setattr(handlers, "crawlers_answer", broken)
    with live(create_app()) as port:
        r = httpx.get(f"http://127.0.0.1:{port}/api/crawlers", timeout=GUARD)
        assert httpx.get(f"http://127.0.0.1:{port}/api/info", timeout=GUARD).status_code == 200
    assert r.status_code == 500
    assert r.json() == {"error": {"code": "internal-error", "message": r.json()["error"]["message"]}}
    assert "exploded" not in r.text and "Traceback" not in r.text
    _assert_secured({k.lower(): v for k, v in r.headers.items()})
    errors = [rec for rec in caplog.records if rec.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].name == "robotscope.web" and errors[0].exc_info is None
    line = errors[0].getMessage()
    assert "\n" not in line and "RuntimeError: catalogue exploded second line" in line and "/api/crawlers" in line


def _closed_by_server(client: socket.socket) -> bool:
    """Whether the server closed this connection: an end of stream, or a reset (it closed with bytes unread)."""
    if not select.select([client], [], [], 0)[0]:
        return False
    try:
        return client.recv(1) == b""
    except ConnectionResetError:
        return True


def test_stalled_heads_cannot_lock_everyone_out() -> None:
    # Slowloris: every slot taken by a socket that sent half a head. With only the 10 s head
    # deadline, every real request in those 10 s was answered 503.
    stalled: list[socket.socket] = []
    with live(create_app()) as port:
        try:
            for _ in range(MAX_CONNECTIONS + 20):
                client = _connect(port)
                client.sendall(b"GET /api/info HTTP/1.1\r\nHost: 127")
                stalled.append(client)
            answers = [httpx.get(f"http://127.0.0.1:{port}/api/info", timeout=GUARD).status_code for _ in range(5)]
            closed = sum(1 for client in stalled if _closed_by_server(client))
        finally:
            for client in stalled:
                client.close()
    assert answers == [200] * 5
    assert closed >= 20 + 5  # the oldest stalled sockets made room, one for each newcomer past the crowd
