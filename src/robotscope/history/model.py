"""What the history store keeps: `Version`, `Fetch`, `Recorded`, and how a fetch's result is read into them."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from ..fetch.body import KEEP
from ..fetch.result import FetchResult
from ..syntax.urls import origin_of as origin_of  # re-exported: spelt in syntax.urls, pure, for the log audit

# Bytes of a body kept at most: what the fetcher keeps (`fetch.body.KEEP`), whatever the caller hands in.
MAX_BODY = KEEP
MAX_DETAIL = 500  # characters kept of a transport failure's message

# The kinds of failed fetch besides the transport's own (`TransportFailure.kind`).
SERVER_ERROR = "5xx"
RATE_LIMITED = "429"
CLIENT_ERROR = "4xx"
REDIRECT = "redirect"  # the chain ended on a redirect: a loop, too many hops, a Location that cannot be followed
NO_RESPONSE = "no-response"
OTHER_STATUS = "status"  # 1xx or another status no class covers


def failure_of(result: FetchResult) -> str | None:
    """Why `result` gave no version (a transport failure's kind, or its status class); None for a 2xx body."""
    if result.error is not None:
        return result.error.kind
    status = result.status
    if status is None:
        return NO_RESPONSE
    if 200 <= status < 300:
        return None
    if status == 429:
        return RATE_LIMITED
    if status >= 500:
        return SERVER_ERROR
    if status >= 400:
        return CLIENT_ERROR
    if status >= 300:
        return REDIRECT
    return OTHER_STATUS


def digest(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


@dataclass(frozen=True)
class Version:
    """One distinct robots.txt of an origin as served: never stored twice.

    Distinct means another body (`sha256`), status, content type or final
    URL. `hops` is the redirect chain, (URL, status) in order, its last hop
    the final URL; `headers` the final response's headers that matter
    (`fetch.result.KEPT_HEADERS`) when first seen. `first_seen` and
    `last_seen` span every fetch that got it, whichever agent fetched;
    `agents` are the User-Agent labels that got it, sorted. `id` is None
    for a version the store could not keep.
    """

    id: int | None
    origin: str
    sha256: str
    status: int
    content_type: str | None
    hops: tuple[tuple[str, int], ...]
    headers: Mapping[str, str]
    size: int  # bytes of `body`
    truncated: bool  # the fetcher cut the body at its limit
    first_seen: float
    last_seen: float
    agents: tuple[str, ...]
    body: bytes = field(repr=False)

    @property
    def final_url(self) -> str:
        return self.hops[-1][0] if self.hops else self.origin + "/robots.txt"

    @property
    def short(self) -> str:
        """The first 12 hex digits of `sha256`."""
        return self.sha256[:12]

    @property
    def text(self) -> str:
        """The body as text (UTF-8, bytes that are not replaced); `body` keeps it exactly."""
        return self.body.decode("utf-8", "replace")


@dataclass(frozen=True)
class Fetch:
    """One fetch of an origin's robots.txt as `agent`: a version, or a failure.

    Exactly one of `version_id` and `failure` is set. `failure` is a
    transport failure's kind (timeout, dns, connect, tls, network, decode,
    incomplete), or `5xx`, `429`, `4xx`, `redirect`, `no-response`,
    `status`; `status` is the final HTTP status if one came, `detail` the
    transport's message. `size` is the whole body's size as far as the
    fetcher counted it. `id` is None for a fetch the store could not keep.
    """

    id: int | None
    at: float
    origin: str
    agent: str
    version_id: int | None
    failure: str | None
    status: int | None
    truncated: bool
    size: int
    detail: str | None = None


@dataclass(frozen=True)
class Recorded:
    """What `HistoryStore.record` did: the fetch, its version (None for a failure), whether that version
    was first seen now, and the version in force for the origin and agent before this fetch."""

    fetch: Fetch
    version: Version | None
    new: bool
    previous: Version | None


@dataclass(frozen=True)
class ListVersion:
    """One distinct version of an operator's IP list: its registry `name`, `creationTime` as written (None
    when it has none), the body's `sha256`, where it was first fetched (`url`) and when it was first and
    last fetched. `new`: first kept by the call that returned it. `id` is None when the store could not keep it.
    """

    id: int | None
    name: str
    creation_time: str | None
    sha256: str
    url: str
    first_fetched: float
    last_fetched: float
    new: bool = False
    body: bytes = field(default=b"", repr=False)


NO_HEADERS: Mapping[str, str] = MappingProxyType({})
