"""`changes` over the real corpus: every file, paired with the next one, never raises."""

from __future__ import annotations

import pytest

from robotscope.reports.watch.changes import changes
from robotscope.reports.watch.observation import Observation
from tests.corpus_files import CorpusFile

pytestmark = pytest.mark.slow


def test_changes_never_raises_on_any_corpus_file(corpus: tuple[CorpusFile, ...]) -> None:
    assert len(corpus) > 4000
    seen = [Observation(f.name, 200, "text/plain", {}, f.data) for f in corpus]
    counted = 0
    # Each file once, as the version before or after (every pair: 6 minutes of CI for no new input).
    for before, after in zip(seen[::2], seen[1::2], strict=False):
        alerts = changes(before, after)
        counted += len(alerts)
        assert [a.severity.rank for a in alerts] == sorted(a.severity.rank for a in alerts)
    assert counted > len(corpus) // 2  # different sites' files differ: most pairs say something


def test_a_file_compared_with_itself_says_nothing_on_any_corpus_file(corpus: tuple[CorpusFile, ...]) -> None:
    # The alerts never say what stayed the same: every real file against itself gives none.
    said = {
        f.name: changes(seen, seen) for f in corpus for seen in [Observation(f.name, 200, "text/plain", {}, f.data)]
    }
    assert len(said) > 4000 and {name: alerts for name, alerts in said.items() if alerts} == {}
