"""Real HTTP servers on 127.0.0.1 for the fetcher tests, and a cache directory per test.

`server` and `other_server` are `ThreadingHTTPServer`s on ephemeral ports;
a test gives them routes (path -> handler) and reads `hits` afterwards.
Test modules that fetch use the `isolated` fixture (via `pytestmark`).
Nothing here, or in the tests that use it, talks to any other address.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from hypothesis import settings

from tests.corpus_files import CorpusFile, corpus_files

Handler = Callable[[BaseHTTPRequestHandler], None]

# Hypothesis's per-example deadline is a wall-clock assertion: on a busy two-core machine it
# fails examples that are only slow because other work runs. Properties bound nothing in time.
settings.register_profile("robotscope", deadline=None)
settings.load_profile("robotscope")


class _Quiet(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # clients that stop reading (size cap, timeouts) break the pipe on purpose


class Server:
    """A test HTTP server: `routes` map a path to a handler; `hits` count requests per path."""

    def __init__(self) -> None:
        self.routes: dict[str, Handler] = {}
        self.hits: Counter[str] = Counter()
        self.stopping = threading.Event()
        server = self

        class _Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                server.hits[self.path] += 1
                handler = server.routes.get(self.path)
                if handler is None:
                    respond(self, 404, b"not found")
                else:
                    handler(self)

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.httpd = _Quiet(("127.0.0.1", 0), _Handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.01,), daemon=True)
        self.thread.start()

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def serve(self, path: str, status: int = 200, body: bytes = b"", headers: dict[str, str] | None = None) -> None:
        self.routes[path] = lambda h: respond(h, status, body, headers)

    def redirect(self, path: str, to: str, status: int = 301) -> None:
        self.routes[path] = lambda h: respond(h, status, b"", {"Location": to})

    def close(self) -> None:
        self.stopping.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join()


def respond(handler: BaseHTTPRequestHandler, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
    handler.send_response(status)
    headers = {"Content-Type": "text/plain", **(headers or {})}
    for name, value in headers.items():
        handler.send_header(name, value)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    # Output is in the locale's language by default; the tests read English unless they ask.
    monkeypatch.setenv("ROBOTSCOPE_LANG", "en")


@pytest.fixture
def server() -> Iterator[Server]:
    s = Server()
    yield s
    s.close()


@pytest.fixture
def other_server() -> Iterator[Server]:
    s = Server()
    yield s
    s.close()


@pytest.fixture
def isolated(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    # The default cache goes to a temporary directory, and no proxy from the
    # environment may route a test request anywhere but 127.0.0.1.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="session")
def corpus() -> tuple[CorpusFile, ...]:
    """Every file of the real-world corpus, read and parsed once for the whole session."""
    return corpus_files()
