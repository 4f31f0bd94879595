"""The web server's outer guard: security headers on every response, Host checks on a loopback bind.

Bound to loopback, only requests naming a loopback host are served, so a
web page cannot reach the API through DNS rebinding. Any exception the app
lets through becomes the documented 500 `internal-error` JSON, with the
security headers, and one log line, never a traceback.
"""

from __future__ import annotations

import ipaddress
import logging

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import error, internal_error
from .workers import describe

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

logger = logging.getLogger("robotscope.web")


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
                    response = error(421, "bad-host", f"this server answers only to localhost, not {host!r}")
                    await response(scope, receive, send_with_headers)
                    return
            await self.app(scope, receive, send_with_headers)
        except Exception as failure:
            logger.error("internal error on %s %r: %s", scope.get("method"), scope.get("path"), describe(failure))
            if not started:  # once a response has begun, the server can only close the connection
                await internal_error()(scope, receive, send_with_headers)


def is_loopback_host(host: str) -> bool:
    """True when a bind address is loopback only (`127.0.0.1`, `::1`, `localhost`)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
