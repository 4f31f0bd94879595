"""The certificate checks of every HTTPS request, made once per process.

httpx builds its default TLS context (the system's rules, certifi's CA
bundle, or `SSL_CERT_FILE` / `SSL_CERT_DIR` when the environment is
trusted) for each client; loading the bundle costs 25-80 ms of CPU, which
every fetch paid, one client per fetch: 70 % of a watch of 40 sites. The
context is the same each time, and one context serves any number of
clients.
"""

from __future__ import annotations

import functools
import ssl

import httpx


@functools.cache
def tls_context(trust_env: bool = True) -> ssl.SSLContext:
    """httpx's default context (`verify=True`), made on first use and shared."""
    return httpx.create_ssl_context(trust_env=trust_env)
