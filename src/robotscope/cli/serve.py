"""`robotscope serve`: run the web tester (robotscope.web) under uvicorn and open the browser.

Needs the `web` extra (starlette, uvicorn) besides `cli`. Binds to
127.0.0.1 by default. Bound to any other address, the fetch panel refuses
loopback, private and link-local targets unless --allow-private-fetch.

`uvicorn_options` holds the server's limits (the app bounds request bodies
and the work itself; see robotscope.web.app): uvicorn's h11 protocol with a
deadline for each request line and headers, which uvicorn itself lacks.
"""

from __future__ import annotations

import asyncio
import errno
import socket
import threading
import webbrowser
from pathlib import Path
from typing import Any

import click

from ..history import HistoryStore
from ..messages import message
from .output import fail

HEAD_TIMEOUT = 10.0  # seconds for a request line and headers to arrive
KEEP_ALIVE = 5  # seconds an idle keep-alive connection is kept
MAX_HEAD = 16 * 1024  # bytes of a request line and headers (h11 answers 400 past it)
MAX_CONNECTIONS = 100  # connections or requests at once; past it uvicorn answers 503
# Open connections past which a new one makes room by closing the connection that has waited
# longest for its request head: a real client sends its head at once.
CROWDED = MAX_CONNECTIONS * 3 // 4
GRACEFUL_SHUTDOWN = 5  # seconds Ctrl+C waits for open requests


def _head_timeout_protocol(timeout: float, crowded: int = CROWDED) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol, plus a deadline for every request head, shortened when connections crowd.

    uvicorn closes a keep-alive connection that stays silent, but keeps one
    forever whose client sent part of a request line or headers and stalled,
    or trickles them: each such connection would hold a slot of
    `MAX_CONNECTIONS`. Once a head is complete, the app's body timeout and
    time budget take over. The deadline alone still let 100 stalled sockets
    lock every client out with 503 for its whole length (slowloris): past
    `crowded` open connections, each new one closes the connection that has
    waited longest for a head, so stalled sockets are the ones that go.
    """
    from uvicorn.protocols.http.h11_impl import H11Protocol

    # Connections waiting for a request head, oldest first (a dict keeps insertion order).
    waiting: dict[HeadTimeoutProtocol, None] = {}

    class HeadTimeoutProtocol(H11Protocol):
        _head_timer: asyncio.TimerHandle | None = None

        def _arm(self) -> None:
            self._disarm()
            self._head_timer = self.loop.call_later(timeout, self._head_expired)
            waiting[self] = None

        def _disarm(self) -> None:
            waiting.pop(self, None)
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _make_room(self) -> None:
            if len(self.connections) > crowded:
                oldest = next((other for other in waiting if other is not self), None)
                if oldest is not None:
                    oldest._head_expired()

        def _head_expired(self) -> None:
            self._disarm()
            if not self.transport.is_closing():
                self.transport.close()

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]  # as uvicorn's
            super().connection_made(transport)
            self._arm()
            self._make_room()

        def handle_events(self) -> None:
            cycle = self.cycle
            super().handle_events()
            if self.cycle is not cycle:  # a request head was complete
                self._disarm()

        def on_response_complete(self) -> None:
            self._arm()  # the next request on this connection gets its own deadline
            super().on_response_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return HeadTimeoutProtocol


def uvicorn_options(host: str, port: int, head_timeout: float = HEAD_TIMEOUT) -> dict[str, Any]:
    """The keyword arguments of `uvicorn.run` / `uvicorn.Config` for the web tester."""
    return {
        "host": host,
        "port": port,
        "log_level": "warning",
        "server_header": False,
        "http": _head_timeout_protocol(head_timeout),  # h11 (also where h11_max_incomplete_event_size applies)
        "ws": "none",
        "timeout_keep_alive": KEEP_ALIVE,
        "h11_max_incomplete_event_size": MAX_HEAD,
        "limit_concurrency": MAX_CONNECTIONS,
        "timeout_graceful_shutdown": GRACEFUL_SHUTDOWN,
    }


def _browser_url(host: str, port: int) -> str:
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def open_browser_later(url: str, delay: float = 1.0) -> None:
    """Open `url` in the user's browser once the server has had a moment to start."""
    timer = threading.Timer(delay, webbrowser.open, args=(url,))
    timer.daemon = True
    timer.start()


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on.")
@click.option("--no-browser", is_flag=True, help="Do not open a web browser.")
@click.option(
    "--allow-private-fetch",
    is_flag=True,
    help="Let the fetch panel reach loopback, private and link-local addresses even when not bound to loopback.",
)
@click.option(
    "--store",
    "store_path",
    metavar="PATH",
    help="Show this history store (made by `robotscope watch`) in a History panel; it is only read.",
)
def serve(host: str, port: int, no_browser: bool, allow_private_fetch: bool, store_path: str | None) -> None:
    """Start the web tester: paste a robots.txt, see which line decides.

    With --store PATH the page also shows the history of each origin the
    store holds: its versions, the alerts of each change, a version's text
    loaded into the editor with a click. The store is never created nor
    written: a missing or unreadable one is an error (exit code 2).

    \b
    Examples:
      robotscope serve
      robotscope serve --port 8080 --no-browser
      robotscope serve --store ~/.cache/robotscope/history.sqlite3
    """
    try:
        import uvicorn

        from ..web.app import create_app, is_loopback_host
    except ImportError as error:
        raise click.ClickException(
            f"the web tester needs the web extra: pip install 'robotscope[web]' ({error})"
        ) from None

    store = None if store_path is None else _readable_store(Path(store_path))
    loopback = is_loopback_host(host)
    # Bound here, before saying "serving on": a port in use is one clear line, not a traceback.
    sock = listen(host, port)
    port = sock.getsockname()[1]
    app = create_app(allow_private_fetch=allow_private_fetch, bound_to_loopback=loopback, store=store)
    url = _browser_url(host, port)
    if not loopback and not allow_private_fetch:
        click.echo(
            "robotscope: listening on a non-loopback address; the fetch panel refuses private targets.", err=True
        )
    click.echo(f"robotscope: serving on {url} (Ctrl+C to stop)", err=True)
    if not no_browser:
        open_browser_later(url)
    uvicorn.Server(uvicorn.Config(app, **uvicorn_options(host, port))).run(sockets=[sock])


def _readable_store(path: Path) -> Path:
    """`path` if it is a history store this robotscope can read, else one line on stderr and exit code 2."""
    if not path.is_file():
        fail(message("serve.error.no-store", path=str(path)))
    with HistoryStore(path, read_only=True) as store:
        if not store.readable:
            fail(" ".join(store.warnings))
    return path


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to `host:port` and listening, or one line on stderr and exit code 2."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        sock = socket.socket(family, kind, proto)
    except OSError as error:
        fail(f"cannot listen on {host}:{port}: {error.strerror or error}")
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as error:
        sock.close()
        why = "the port is in use" if error.errno == errno.EADDRINUSE else (error.strerror or str(error))
        fail(f"cannot listen on {host}:{port}: {why}")
    sock.set_inheritable(True)
    return sock
