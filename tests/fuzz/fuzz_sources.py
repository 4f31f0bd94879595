"""Fuzz targets: the bulk readers (WARC records, CSV rows, Parquet, --urls lines) raise only their one-line errors.

With atheris installed (`pip install atheris`), from the repository root,
the target named first:

    python -m tests.fuzz.fuzz_sources warc tests/fuzz/seeds_warc -max_total_time=60
    python -m tests.fuzz.fuzz_sources csv tests/fuzz/seeds_csv -max_total_time=60
    python -m tests.fuzz.fuzz_sources parquet tests/fuzz/seeds_parquet -max_total_time=60
    python -m tests.fuzz.fuzz_sources bulk tests/fuzz/seeds_bulk -max_total_time=60

Without it, `TARGETS[name](data)` is a plain function:
tests/integrations/test_sources_fuzz.py runs each on every file of its seed
folder, under a memory bound. The property: a reader yields what it can and
reports the rest to its tally; the only exception it lets out is
`Unreadable` (one line, exit code 2); every body it yields is cut at the
fetcher's limit. Add each input a fuzzer finds to the seed folder.
"""

from __future__ import annotations

import io
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from tests.fuzz.harness import fuzz, instrumented

with instrumented(__name__):
    from robotscope.cli.bulk import MAX_LINE, _lines
    from robotscope.fetch.body import KEEP
    from robotscope.integrations.records import Tally, Unreadable
    from robotscope.integrations.sources import read
    from robotscope.messages import Message

HERE = Path(__file__).parent
SEEDS = {
    "warc": HERE / "seeds_warc",
    "csv": HERE / "seeds_csv",
    "parquet": HERE / "seeds_parquet",
    "bulk": HERE / "seeds_bulk",
}


def _one_line(said: Message) -> None:
    assert "\n" not in said.render()


def _survey(data: bytes, suffix: str) -> None:
    handle, name = tempfile.mkstemp(suffix=suffix)
    try:
        os.write(handle, data)
        os.close(handle)
        tally = Tally(_one_line)
        try:
            for host in read(Path(name), tally):
                assert len(host.body) <= KEEP and (host.status is None or 100 <= host.status <= 599)
        except Unreadable as error:
            assert "\n" not in str(error)
    finally:
        os.unlink(name)


def check_warc(data: bytes) -> None:
    _survey(data, ".warc.gz" if data[:2] == b"\x1f\x8b" else ".warc")


def check_csv(data: bytes) -> None:
    _survey(data, ".csv")


def check_parquet(data: bytes) -> None:
    _survey(data, ".parquet")


def check_bulk(data: bytes) -> None:
    tally = Tally()
    for url, size in _lines(io.BytesIO(data), "fuzz.txt", tally):
        assert size <= MAX_LINE and url == url.strip() and url


TARGETS: dict[str, Callable[[bytes], None]] = {
    "warc": check_warc,
    "csv": check_csv,
    "parquet": check_parquet,
    "bulk": check_bulk,
}


if __name__ == "__main__":
    fuzz(TARGETS[sys.argv.pop(1)])
