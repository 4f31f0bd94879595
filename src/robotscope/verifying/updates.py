"""The operators' IP lists fetched again and kept in the history store, and every version of them known.

`update_lists` fetches every list of the registry (`syntax.verification`)
through the bounded downloader (one deadline per list, at most
`iplists.MAX_BYTES` after decoding), reads it, and keeps each new version
in the history store; a list that fails is reported with its reason and
the others carry on. Only a body that reads as a dated list with at least
one prefix becomes a version: an error page, a body cut at the budget or
a list without `creationTime` would otherwise stand in force for a moment
it cannot be placed at.

The HTTP cache: each list's last kept response (its ETag and
Last-Modified) is in the cache file (`cache.RobotsCache`, keyed by the
list's URL); the next update asks with If-None-Match / If-Modified-Since,
and a 304 reuses the kept body (the version is then unchanged, fetched
again). `list_history` gives the versions to judge with: the snapshots
shipped in the package and the versions stored, one version per
`creationTime` (a stored one replaces the shipped one of the same time).
A stored version is read from the store only when a moment judged needs it.
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from ..access.policy import MAX_REDIRECTS
from ..cache import RobotsCache, Stored
from ..download import Download, get_async
from ..fetch import DEFAULT_UA, run
from ..history import HistoryStore
from ..messages import DEFAULT_LANG, Message, message
from ..syntax.iplists import MAX_BYTES, IpList, read_list, shipped, snapshot
from ..syntax.listhistory import Known, ListHistory
from ..syntax.verification import ListSource, list_sources

_VALIDATORS = {"etag": "If-None-Match", "last-modified": "If-Modified-Since"}


class Outcome(enum.StrEnum):
    NEW = "new"  # a version the store did not hold
    UNCHANGED = "unchanged"  # a version it held: fetched again
    FAILED = "failed"  # nothing kept: `reason` says why


@dataclass(frozen=True)
class ListUpdate:
    """What one list's update did: its `outcome`, the version's `creation_time` when one was read."""

    name: str
    url: str  # the URL asked (the registry's, or under the mirror)
    outcome: Outcome
    creation_time: str | None
    networks: int  # prefixes read from the version
    reason: Message  # the line to show: what was kept, or why nothing was
    problems: tuple[Message, ...] = ()  # what reading a kept version found (a skipped prefix, ...)

    def as_dict(self, lang: str = DEFAULT_LANG) -> dict[str, Any]:
        return {
            "name": self.name,
            "url": self.url,
            "outcome": self.outcome.value,
            "creation_time": self.creation_time,
            "networks": self.networks,
            "message": self.reason.as_dict(lang),
            "problems": [problem.render(lang) for problem in self.problems],
        }


def list_url(source: ListSource, base: str | None) -> str:
    """Where to fetch `source`: its registry URL, or its registry name under the mirror `base`."""
    return source.url if base is None else base.rstrip("/") + "/" + source.name


def update_lists(
    store: HistoryStore,
    *,
    base: str | None = None,
    timeout: float = 10.0,
    cache: RobotsCache | None = None,
    user_agent: str = DEFAULT_UA,
    transport: httpx.AsyncBaseTransport | None = None,
    sources: Sequence[ListSource] | None = None,
) -> tuple[ListUpdate, ...]:
    """Fetch every list (`sources`, default the registry's) at once, keep each new version; one update per list.

    `base`: a mirror's base URL, under which each list is found by its
    registry name. `timeout` bounds each list's whole fetch.
    """
    chosen = list_sources() if sources is None else sources
    urls = [list_url(source, base) for source in chosen]
    kept = [cache.get(url).good if cache is not None else None for url in urls]

    async def every() -> list[Download]:
        return await asyncio.gather(
            *(
                get_async(
                    url,
                    user_agent=user_agent,
                    timeout=timeout,
                    limit=MAX_BYTES,
                    transport=transport,
                    conditions=_conditions(copy),
                )
                for url, copy in zip(urls, kept, strict=True)
            )
        )

    # Stored once every download is done: a write waiting for another process's lock must not
    # hold up the event loop while other lists' deadlines run.
    got = run(every())
    return tuple(
        _keep(source, url, answer, copy, store, cache, timeout)
        for source, url, answer, copy in zip(chosen, urls, got, kept, strict=True)
    )


def _conditions(copy: Stored | None) -> dict[str, str]:
    """The request fields that revalidate a cached copy: its validators, as If-None-Match / If-Modified-Since."""
    return {} if copy is None else {_VALIDATORS[k]: v for k, v in copy.headers.items() if k in _VALIDATORS}


def _keep(
    source: ListSource,
    url: str,
    got: Download,
    kept: Stored | None,
    store: HistoryStore,
    cache: RobotsCache | None,
    timeout: float,
) -> ListUpdate:
    """What one list's download gives: a version kept (new or not), or the reason it is none."""
    name = source.name

    def failed(reason: Message) -> ListUpdate:
        said = message("verify.update.failed", name=name, url=url, reason=reason)
        return ListUpdate(name, url, Outcome.FAILED, None, 0, said)

    if got.error is not None:
        return failed(_transport(got, timeout))
    revalidated = got.status == 304 and kept is not None and bool(_conditions(kept))
    if not got.ok and not revalidated:
        return failed(message("verify.update.status", status=got.status))
    if got.cut:
        return failed(message("verify.update.too-large", limit=MAX_BYTES))
    body = kept.body if revalidated and kept is not None else got.body
    read = read_list(body, name)
    if read.creation_time is None:  # the first problem says why: not JSON, no creationTime, ...
        said = message("verify.update.refused", problem=read.problems[0], url=url)
        return ListUpdate(name, url, Outcome.FAILED, None, 0, said)
    if not read.networks:
        return failed(message("verify.update.empty"))
    version = store.record_list(name, read.creation_time, body, got.url)
    if version.id is None:
        return failed(message("verify.update.not-kept"))
    if cache is not None and not revalidated:
        validators = {k: v for k, v in got.headers if k in _VALIDATORS}
        cache.put(url, Stored(got.status, validators, body, cache.now()))
    outcome = Outcome.NEW if version.new else Outcome.UNCHANGED
    said = message(f"verify.update.{outcome.value}", name=name, created=read.creation_time, count=len(read.networks))
    return ListUpdate(name, url, outcome, read.creation_time, len(read.networks), said, read.problems)


def _transport(got: Download, timeout: float) -> Message:
    """Why the download gave no response to read (`Download.error`)."""
    if got.error == "timeout":
        return message("verify.update.error.timeout", seconds=f"{timeout:g}")
    if got.error == "redirects":
        return message("verify.update.error.redirects", limit=MAX_REDIRECTS)
    return message(f"verify.update.error.{got.error}")


class StoredVersions:
    """Reads a stored list version (`Known`, keyed by its id) when a `ListHistory` first needs it.

    It opens the store file at `path` read-only on first use, with its own
    connection: the store the versions were listed from may be closed by
    then, and a history sent to another process (`robotscope logs` with
    workers) carries the path alone and opens the file there. A version
    that cannot be read then (the file gone or unreadable) comes back with
    no network and a problem saying so: its list is not at hand.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._store: HistoryStore | None = None

    def __call__(self, version: Known) -> IpList:
        if self._store is None:
            self._store = HistoryStore(self.path, read_only=True)
        kept = self._store.list_version(version.key) if isinstance(version.key, int) else None
        if kept is None:
            return IpList(version.name, None, (), (message("iplist.not-stored", name=version.name),))
        return read_list(kept.body, version.name)

    def __getstate__(self) -> Path:
        return self.path  # a connection does not cross processes

    def __setstate__(self, path: Path) -> None:
        self.path, self._store = path, None


def list_history(store: HistoryStore | None) -> ListHistory:
    """The versions to judge with: the shipped snapshots and what `store` keeps (None: the snapshots alone).

    The stored versions are listed by moment now and read only when judging needs them (`StoredVersions`).
    """
    shipped_lists: list[IpList | Known] = [snapshot(name) for name in shipped()]
    if store is None:
        return ListHistory(shipped_lists)
    # Given after the snapshots: a stored version replaces a shipped one of the same creationTime.
    return ListHistory([*shipped_lists, *store.list_moments()], StoredVersions(store.path))


__all__ = ["ListUpdate", "Outcome", "StoredVersions", "list_history", "list_url", "update_lists"]
