"""`FetchResult`s made by hand for the history store's tests."""

from __future__ import annotations

from types import MappingProxyType

from robotscope.access.policy import Action
from robotscope.fetch.result import FetchResult, TransportFailure, kept_headers

ORIGIN = "https://example.com"


def fetched(
    body: bytes = b"User-agent: *\nDisallow: /private/\n",
    status: int | None = 200,
    *,
    origin: str = ORIGIN,
    content_type: str | None = "text/plain",
    error: TransportFailure | None = None,
    hops: tuple[tuple[str, int], ...] | None = None,
    headers: dict[str, str] | None = None,
    truncated: bool = False,
) -> FetchResult:
    """What the fetcher would give for one response (the decisions do not matter to the store)."""
    url = origin + "/robots.txt"
    return FetchResult(
        robots_url=url,
        hops=hops if hops is not None else (() if status is None else ((url, status),)),
        status=status,
        content_type=content_type,
        bytes_received=len(body),
        truncated=truncated,
        error=error,
        policy="rfc9309",
        decision=Action.PARSE,
        decisions=MappingProxyType({}),
        from_cache=False,
        body_size=len(body),
        body=body,
        headers=kept_headers({"content-type": content_type or "", **(headers or {})}),
    )


def failed(kind: str = "timeout") -> FetchResult:
    return fetched(b"", None, error=TransportFailure(kind, f"{kind} happened"))
