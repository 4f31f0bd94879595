"""Fuzz target: any body served as an operator's IP list is kept as a version exactly when it reads as a dated
list with a prefix, listed at the moment of its creationTime and read back from the store as it was read;
an update never raises.

With atheris installed (`pip install atheris`), from the repository root:

    python -m tests.fuzz.fuzz_listupdate tests/fuzz/seeds_iplists -max_total_time=60

Without it, `check(data)` is a plain function: tests/verifying/test_updates.py runs
it on every file of tests/fuzz/seeds_iplists/ (the list reader's seeds: the same
input). The body comes through httpx's mock transport, so the fuzzer spends its
time on robotscope rather than on sockets.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import httpx

from tests.fuzz.harness import fuzz, instrumented

with instrumented(__name__):
    from robotscope.history import HistoryStore
    from robotscope.syntax.iplists import creation_timestamp, read_list
    from robotscope.syntax.verification import list_source
    from robotscope.verifying.updates import Outcome, StoredVersions, update_lists

SEEDS = Path(__file__).parent / "seeds_iplists"
NAME = "openai-gptbot.json"
_SOURCE = list_source(NAME)
_FOLDER = tempfile.TemporaryDirectory(prefix="fuzz-listupdate-")  # removed when the process ends


def check(data: bytes) -> None:
    """Serve `data` as the list and update it twice; raise only on a bug."""
    assert _SOURCE is not None
    transport = httpx.MockTransport(lambda request: httpx.Response(200, stream=httpx.ByteStream(data)))
    read = read_list(data, NAME)
    with HistoryStore(Path(_FOLDER.name) / "history.sqlite3") as store:
        first, again = (update_lists(store, sources=[_SOURCE], transport=transport)[0] for _ in range(2))
        for found in (first, again):
            for lang in ("en", "ko"):
                text = found.reason.render(lang)
                assert "\n" not in text and NAME in text
        if read.creation_time is None or not read.networks:
            assert first.outcome is again.outcome is Outcome.FAILED and first.networks == 0
            return
        assert first.outcome in (Outcome.NEW, Outcome.UNCHANGED) and again.outcome is Outcome.UNCHANGED
        assert (again.creation_time, again.networks) == (read.creation_time, len(read.networks))
        assert read in store.ip_lists()
        moment = creation_timestamp(read.creation_time)
        listed = [known for known in store.list_moments() if (known.name, known.moment) == (NAME, moment)]
        assert read in [StoredVersions(store.path)(known) for known in listed]


if __name__ == "__main__":
    fuzz(check)
