"""Fixtures of the browser tests: uvicorn on 127.0.0.1, Debian's Chromium through Playwright, a page.

Needs `apt-get install -y chromium` (the binary at /usr/bin/chromium) and the
`playwright` package; no browser download. Without Chromium the tests fail
with a message saying so; they never skip.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """`app` under uvicorn on a free 127.0.0.1 port, as its base URL; stopped (workers included) after."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", ws="none", lifespan="off", http="h11")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started:
            if time.monotonic() > deadline or not thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
        # Without the lifespan nothing else stops the analysis workers; left running, their
        # Popen objects warn when collected, and the warning fails whichever test runs then.
        app.state.workers.close()


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    from robotscope.web import create_app

    with serving(create_app()) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.fail(
            f"Chromium is not installed at {CHROMIUM}: run `apt-get install -y chromium` (these tests never skip)"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Any, base_url: str) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(10_000)
    dialogs: list[str] = []

    def dismiss(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    page.dialogs = dialogs
    errors: list[str] = []  # console errors (a CSP violation is one) and uncaught exceptions
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    requests: list[str] = []  # every URL the page asks for, from the first load on
    page.on("request", lambda r: requests.append(r.url))
    page.requests = requests
    page.goto(base_url + "/")
    page.wait_for_selector("body[data-ready='1']")
    yield page
    context.close()
