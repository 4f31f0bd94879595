"""`HistoryStore`: every version of each origin's robots.txt and every fetch of it, in one SQLite file.

The file is an `sqlite_file.SqliteFile`, with the cache's guarantees: WAL
mode, busy answers tried again within `busy_timeout`, no SQLite or
file-system error ever escapes, a file is never deleted. Locked, read-only
or unopenable: the store carries on without keeping history (one warning;
a read-only file is still read). Not a database or damaged: it is renamed
aside to `<name>.corrupt-<UTC time>` and the store starts again empty.

The clock is injected (`now`): it stamps every fetch recorded.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..cache import default_path as cache_path
from ..fetch.result import FetchResult, kept_headers
from ..sqlite_file import SqliteFile, Unusable
from ..syntax.iplists import IpList, creation_timestamp, read_list
from ..syntax.listhistory import Known
from .model import MAX_BODY, MAX_DETAIL, Fetch, ListVersion, Recorded, Version, digest, failure_of, origin_of
from .schema import LATEST, migrate, version_of


def default_path() -> Path:
    """`history.sqlite3` beside the cache's file (`cache.default_path`)."""
    return cache_path().with_name("history.sqlite3")


_VERSION_COLUMNS = (
    "v.id, v.origin, v.sha256, v.status, v.content_type, v.hops, v.headers, v.truncated, v.first_seen, v.last_seen, "
    "v.body, (SELECT group_concat(agent, char(10)) FROM (SELECT DISTINCT agent FROM fetches f "
    "WHERE f.version_id = v.id ORDER BY agent))"
)
_FETCH_COLUMNS = "id, at, origin, agent, version_id, failure, status, truncated, size, detail"
_LIST_COLUMNS = "id, name, creation_time, sha256, url, first_fetched, last_fetched, body"
# Read from the index `list_versions_by_moment` alone: the table's rows, which hold the bodies, are not read.
_LIST_MOMENTS = "SELECT name, moment, id FROM list_versions ORDER BY name, moment, first_fetched, id"


def _version(row: Sequence[Any]) -> Version:
    vid, origin, sha, status, ctype, hops, headers, truncated, first, last, body, agents = row
    return Version(
        id=vid,
        origin=origin,
        sha256=sha,
        status=status,
        content_type=ctype or None,
        hops=tuple((url, code) for url, code in json.loads(hops)),
        headers=MappingProxyType(json.loads(headers)),
        size=len(body),
        truncated=bool(truncated),
        first_seen=first,
        last_seen=last,
        agents=tuple(agents.split("\n")) if agents else (),
        body=bytes(body),
    )


def _list_version(row: Sequence[Any], new: bool = False) -> ListVersion:
    lid, name, created, sha, url, first, last, body = row
    return ListVersion(lid, name, created or None, sha, url, first, last, new, bytes(body))


def _fetch(row: Sequence[Any]) -> Fetch:
    fid, at, origin, agent, vid, failure, status, truncated, size, detail = row
    return Fetch(fid, at, origin, agent, vid, failure, status, bool(truncated), size, detail)


class HistoryStore(SqliteFile):
    """Every distinct version of each origin's robots.txt and every fetch of it (`path`, or `default_path()`).

    Origins are `scheme://host[:port]`; every method takes an origin or any
    URL of it (`origin_of`). `busy_timeout`: seconds to wait for another
    process's write lock before carrying on without keeping history.
    `read_only`: the file is only read (`robotscope serve --store`): never
    created, migrated, written or set aside; a file of an older schema is
    not read (one warning).
    """

    _noun = "history store"
    _without = "keeping history"

    def _default_path(self) -> Path:
        return default_path()

    def _prepare(self, db: sqlite3.Connection) -> None:
        migrate(db)

    def _check_readable(self, db: sqlite3.Connection) -> None:
        if version_of(db) != LATEST:  # an older file cannot be migrated read-only; a newer one is not ours
            raise Unusable(f"its schema version {version_of(db)} is not this robotscope's ({LATEST})")
        for table in ("versions", "fetches", "list_versions"):
            db.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchall()

    def record(self, origin: str, agent: str, result: FetchResult) -> Recorded:
        """Keep one fetch of `origin`'s robots.txt as `agent` (a label: `browser`, `Googlebot`, ...).

        A 2xx body becomes a version, or updates the `last_seen` of the same
        version seen before; anything else is a failed fetch and no version.
        `result` must come from the network, not from the cache. When the
        store cannot write, the `Recorded` is the one it would have made,
        its new ids None.
        """
        if result.from_cache:
            raise ValueError("a result served from the cache is not a fetch: fetch with cache=False or reuse=False")
        origin = origin_of(origin)
        at = self.now()
        previous = self.at(origin, at, agent)
        failure = failure_of(result)
        body = result.body[:MAX_BODY]
        detail = None if result.error is None else result.error.message[:MAX_DETAIL]
        size = max(result.body_size, len(result.body))
        if failure is not None:
            fetch = Fetch(None, at, origin, agent, None, failure, result.status, result.truncated, size, detail)
            fid = self._run(lambda db: self._insert_fetch(db, fetch), write=True)
            return Recorded(replace(fetch, id=fid), None, False, previous)
        assert result.status is not None  # a 2xx
        candidate = Version(
            id=None,
            origin=origin,
            sha256=digest(body),
            status=result.status,
            content_type=result.content_type,
            hops=result.hops or ((result.robots_url, result.status),),
            headers=kept_headers(result.headers),
            size=len(body),
            truncated=result.truncated,
            first_seen=at,
            last_seen=at,
            agents=(agent,),
            body=body,
        )
        fetch = Fetch(None, at, origin, agent, None, None, result.status, result.truncated, size, detail)

        def write(db: sqlite3.Connection) -> tuple[int, bool, int]:
            with db:  # commit, or roll back on error
                db.execute("BEGIN IMMEDIATE")
                key = (origin, candidate.sha256, candidate.status, candidate.content_type or "", candidate.final_url)
                row = db.execute(
                    "SELECT id FROM versions WHERE origin = ? AND sha256 = ? AND status = ? AND content_type = ?"
                    " AND final_url = ?",
                    key,
                ).fetchone()
                if row is None:
                    vid = db.execute(
                        "INSERT INTO versions (origin, sha256, status, content_type, final_url, hops, body, truncated,"
                        " first_seen, last_seen, headers) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            *key,
                            json.dumps([list(hop) for hop in candidate.hops]),
                            body,
                            int(candidate.truncated),
                            at,
                            at,
                            json.dumps(dict(candidate.headers)),
                        ),
                    ).lastrowid
                else:
                    vid = row[0]
                    db.execute(
                        "UPDATE versions SET first_seen = min(first_seen, ?), last_seen = max(last_seen, ?)"
                        " WHERE id = ?",
                        (at, at, vid),
                    )
                assert vid is not None
                fid = self._insert_row(db, fetch, vid)
            return vid, row is None, fid

        written = self._run(write, write=True)
        if written is None:
            return Recorded(fetch, candidate, self._unseen(candidate), previous)
        vid, new, fid = written
        kept = self.version(vid)
        version = kept if kept is not None else candidate
        return Recorded(replace(fetch, id=fid, version_id=vid), version, new, previous)

    def _unseen(self, candidate: Version) -> bool:
        """Whether the store holds no version like `candidate` (when it could not write it)."""
        return all(
            (v.sha256, v.status, v.content_type, v.final_url)
            != (candidate.sha256, candidate.status, candidate.content_type, candidate.final_url)
            for v in self.versions(candidate.origin)
        )

    @staticmethod
    def _insert_row(db: sqlite3.Connection, fetch: Fetch, vid: int | None) -> int:
        fid = db.execute(
            f"INSERT INTO fetches ({_FETCH_COLUMNS}) VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                *(fetch.at, fetch.origin, fetch.agent, vid, fetch.failure, fetch.status),
                *(int(fetch.truncated), fetch.size, fetch.detail),
            ),
        ).lastrowid
        assert fid is not None
        return fid

    def _insert_fetch(self, db: sqlite3.Connection, fetch: Fetch) -> int:
        with db:
            db.execute("BEGIN IMMEDIATE")
            return self._insert_row(db, fetch, None)

    def version(self, vid: int) -> Version | None:
        """The version with this id, or None."""
        rows = self._run(
            lambda db: db.execute(f"SELECT {_VERSION_COLUMNS} FROM versions v WHERE v.id = ?", (vid,)).fetchall(),
            write=False,
        )
        return _version(rows[0]) if rows else None

    def versions(self, origin: str, agent: str | None = None) -> list[Version]:
        """`origin`'s versions, oldest first (by first seen); with `agent`, only those that agent got."""
        origin = origin_of(origin)
        seen_by = "" if agent is None else " AND v.id IN (SELECT version_id FROM fetches WHERE agent = ?)"
        query = f"SELECT {_VERSION_COLUMNS} FROM versions v WHERE v.origin = ?{seen_by} ORDER BY v.first_seen, v.id"
        params = (origin,) if agent is None else (origin, agent)
        rows = self._run(lambda db: db.execute(query, params).fetchall(), write=False)
        return [_version(row) for row in rows or ()]

    def at(self, origin: str, when: float, agent: str | None = None) -> Version | None:
        """The version in force at `when`: the one the last fetch at or before `when` got (of `agent`, if
        given). A failed fetch leaves the version before it in force; None before the first version."""
        origin = origin_of(origin)
        by = "" if agent is None else " AND agent = ?"
        query = (
            f"SELECT version_id FROM fetches WHERE origin = ? AND at <= ? AND version_id IS NOT NULL{by}"
            " ORDER BY at DESC, id DESC LIMIT 1"
        )
        params = (origin, when) if agent is None else (origin, when, agent)
        rows = self._run(lambda db: db.execute(query, params).fetchall(), write=False)
        return self.version(rows[0][0]) if rows else None

    def fetches(self, origin: str, since: float | None = None) -> list[Fetch]:
        """`origin`'s fetches in the order they happened, those at or after `since` if given."""
        origin = origin_of(origin)
        query = f"SELECT {_FETCH_COLUMNS} FROM fetches WHERE origin = ? AND at >= ? ORDER BY at, id"
        start = float("-inf") if since is None else since
        rows = self._run(lambda db: db.execute(query, (origin, start)).fetchall(), write=False)
        return [_fetch(row) for row in rows or ()]

    def origins(self) -> list[str]:
        """Every origin the store has fetched, sorted."""
        query = "SELECT DISTINCT origin FROM fetches ORDER BY origin"
        rows = self._run(lambda db: db.execute(query).fetchall(), write=False)
        return [origin for (origin,) in rows or ()]

    def record_list(self, name: str, creation_time: str | None, body: bytes, url: str) -> ListVersion:
        """Keep one fetch of the IP list `name` (its registry name) read from `body`, fetched from `url`.

        The same name, `creation_time` and body as a version kept before
        only moves that version's `last_fetched`; anything else is a new
        version. The caller decides what is a list worth keeping: the store
        keeps what it is given. When the store cannot write, the version
        returned is the one it would have made, its `id` None.
        """
        at = self.now()
        sha = digest(body)
        key = (name, creation_time or "", sha)
        moment = None if creation_time is None else creation_timestamp(creation_time)

        def write(db: sqlite3.Connection) -> ListVersion:
            with db:  # commit, or roll back on error
                db.execute("BEGIN IMMEDIATE")
                where = " WHERE name = ? AND creation_time = ? AND sha256 = ?"
                row = db.execute(f"SELECT id FROM list_versions{where}", key).fetchone()
                if row is None:
                    db.execute(
                        "INSERT INTO list_versions (name, creation_time, sha256, body, url, first_fetched,"
                        " last_fetched, moment) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (*key, body, url, at, at, moment),
                    )
                else:
                    db.execute(
                        "UPDATE list_versions SET last_fetched = max(last_fetched, ?) WHERE id = ?", (at, row[0])
                    )
                kept = db.execute(f"SELECT {_LIST_COLUMNS} FROM list_versions{where}", key).fetchone()
            return _list_version(kept, new=row is None)

        kept = self._run(write, write=True)
        if kept is not None:
            return kept
        before = [v for v in self.list_versions(name) if (v.creation_time or "", v.sha256) == key[1:]]
        first = before[0].first_fetched if before else at
        return ListVersion(None, name, creation_time, sha, url, first, at, not before, body)

    def list_versions(self, name: str | None = None) -> list[ListVersion]:
        """The IP list versions kept (of `name`, if given), by name, then oldest first (by first fetched)."""
        where = "" if name is None else " WHERE name = ?"
        query = f"SELECT {_LIST_COLUMNS} FROM list_versions{where} ORDER BY name, first_fetched, id"
        rows = self._run(lambda db: db.execute(query, () if name is None else (name,)).fetchall(), write=False)
        return [_list_version(row) for row in rows or ()]

    def list_version(self, lid: int) -> ListVersion | None:
        """The IP list version with this id, or None (none such, or the file cannot be read)."""
        query = f"SELECT {_LIST_COLUMNS} FROM list_versions WHERE id = ?"
        rows = self._run(lambda db: db.execute(query, (lid,)).fetchall(), write=False)
        return _list_version(rows[0]) if rows else None

    def list_moments(self) -> list[Known]:
        """Every IP list version kept, without its body: its name, the moment of its `creationTime` (None
        when that cannot be read) and its id as the key (`list_version`); by name, then moment, then
        first fetched: of two versions of one moment, the one fetched later comes later."""
        rows = self._run(lambda db: db.execute(_LIST_MOMENTS).fetchall(), write=False)
        # A moment the file holds as text or bytes (written by hand, or damaged) cannot be read: not a time
        # to sort among the others.
        return [Known(name, moment if isinstance(moment, float) else None, lid) for name, moment, lid in rows or ()]

    def ip_lists(self) -> list[IpList]:
        """Every IP list version kept, read (`syntax.iplists.read_list`), in `list_versions` order."""
        return [read_list(v.body, v.name) for v in self.list_versions()]
