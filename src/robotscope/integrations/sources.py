"""Where a survey's robots.txt files come from: a folder named by host, WARC files, or a table.

Each reader yields `robotscope.reports.survey.HostFile`s, one per host:

- a folder: every file is one host's robots.txt, named by the host (as
  `tests/corpus/robots/`), fetched with status 200;
- WARC files (`.warc`, `.warc.gz`; Common Crawl's robots.txt subset): every
  `response` record for a `/robots.txt` URL is one host's fetch; a redirect
  is followed to the record of its target within the data (at most five
  hops, loops detected), and a redirect whose target is not in the data is
  one that cannot be followed; the status policy then reads the outcome;
- a table (`.parquet`, `.csv`) with `host`, `status` and `body` columns
  (`status` empty for a fetch that got no response).
"""

from __future__ import annotations

import csv
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urljoin, urlsplit

from ..access.policy import MAX_REDIRECTS
from ..reports.survey import HostFile

WARC_SUFFIXES = (".warc", ".warc.gz")
TABLE_SUFFIXES = (".parquet", ".csv")


class UnknownSource(ValueError):
    """A SOURCE that is neither a folder, a WARC file nor a table."""


def read(source: Path) -> Iterator[HostFile]:
    """The hosts of one SOURCE, by its kind."""
    name = source.name.lower()
    if source.is_dir():
        return read_folder(source)
    if name.endswith(WARC_SUFFIXES):
        return read_warc(source)
    if name.endswith(TABLE_SUFFIXES):
        return read_table(source)
    raise UnknownSource(f"{source}: not a folder, a WARC file (.warc, .warc.gz) or a table (.parquet, .csv)")


def read_folder(folder: Path) -> Iterator[HostFile]:
    for path in sorted(
        p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".") and p.name != "README.md"
    ):
        yield HostFile(path.name, 200, path.read_bytes())


class _Fetch(NamedTuple):
    status: int
    location: str | None
    body: bytes


def read_warc(path: Path) -> Iterator[HostFile]:
    """One HostFile per host with a /robots.txt response record, redirects followed within the file."""
    from warcio.archiveiterator import ArchiveIterator

    fetches: dict[str, _Fetch] = {}
    with path.open("rb") as stream:
        for record in ArchiveIterator(stream):
            if record.rec_type != "response" or record.http_headers is None:
                continue
            uri = record.rec_headers.get_header("WARC-Target-URI") or ""
            if urlsplit(uri).path != "/robots.txt" or uri in fetches:
                continue
            status = int(record.http_headers.get_statuscode() or 0)
            fetches[uri] = _Fetch(status, record.http_headers.get_header("Location"), record.content_stream().read())
    for uri, first in fetches.items():
        yield _followed(urlsplit(uri).netloc.lower(), uri, first, fetches)


def _followed(host: str, uri: str, fetch: _Fetch, fetches: dict[str, _Fetch]) -> HostFile:
    seen, redirects = {uri}, 0
    while 300 <= fetch.status < 400 and fetch.location:
        target = urljoin(uri, fetch.location)
        if target in seen:
            return HostFile(host, fetch.status, b"", redirects=redirects + 1, loop=True)
        if redirects >= MAX_REDIRECTS or target not in fetches:
            return HostFile(host, fetch.status, b"", redirects=redirects + 1)  # not followed: the policy says what then
        seen.add(target)
        uri, fetch, redirects = target, fetches[target], redirects + 1
    return HostFile(host, fetch.status, fetch.body, redirects=redirects)


def read_table(path: Path) -> Iterator[HostFile]:
    rows: list[dict[str, Any]]
    if path.name.lower().endswith(".parquet"):
        import pyarrow.parquet as pq

        rows = pq.read_table(path, columns=["host", "status", "body"]).to_pylist()
    else:
        csv.field_size_limit(sys.maxsize)  # a robots.txt body is one field, up to hundreds of kilobytes
        with path.open(newline="", encoding="utf-8") as stream:
            rows = list(csv.DictReader(stream))
    for row in rows:
        status = row.get("status")
        status = int(status) if status not in (None, "") else None
        yield HostFile(str(row["host"]), status, row.get("body") or b"", error="network" if status is None else None)
