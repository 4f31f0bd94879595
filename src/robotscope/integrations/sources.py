"""Where a survey's robots.txt files come from: a folder named by host, WARC files, or a table.

Each reader yields `robotscope.reports.survey.HostFile`s, one per host, one
record at a time and within bounds (`records`: a bad record is reported to
the `Tally` with its number and skipped; a file that cannot be read raises
`Unreadable`):

- a folder: every file is one host's robots.txt, named by the host (as
  `tests/corpus/robots/`), fetched with status 200 (its first 500 KiB, cut
  where the fetcher cuts);
- WARC files (`.warc`, `.warc.gz`; Common Crawl's robots.txt subset): every
  `response` record for a `/robots.txt` URL is one host's fetch; a redirect
  is followed to the record of its target within the data (`warc`);
- a table (`.parquet`, `.csv`) with `host`, `status` and `body` columns
  (`status` empty for a fetch that got no response; `tables`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from ..reports.survey import HostFile
from .records import Tally, cut
from .tables import read_table
from .warc import read_warc

WARC_SUFFIXES = (".warc", ".warc.gz")
TABLE_SUFFIXES = (".parquet", ".csv")


class UnknownSource(ValueError):
    """A SOURCE that is neither a folder, a WARC file nor a table."""


def read(source: Path, tally: Tally) -> Iterator[HostFile]:
    """The hosts of one SOURCE, by its kind; bad records reported to `tally`."""
    name = source.name.lower()
    if source.is_dir():
        return read_folder(source)
    if name.endswith(WARC_SUFFIXES):
        return read_warc(source, tally)
    if name.endswith(TABLE_SUFFIXES):
        return read_table(source, tally)
    raise UnknownSource(f"{source}: not a folder, a WARC file (.warc, .warc.gz) or a table (.parquet, .csv)")


def read_folder(folder: Path) -> Iterator[HostFile]:
    for path in sorted(
        p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".") and p.name != "README.md"
    ):
        with path.open("rb") as stream:
            yield HostFile(path.name, 200, cut(iter(lambda: stream.read(65536), b"")))
