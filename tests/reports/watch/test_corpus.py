"""`changes` over the real corpus: every consecutive pair of files, both ways, never raises."""

from __future__ import annotations

from itertools import pairwise

import pytest

from robotscope.reports.watch.changes import changes
from robotscope.reports.watch.observation import Observation
from tests.corpus_files import CorpusFile

pytestmark = pytest.mark.slow


def test_changes_never_raises_on_consecutive_corpus_files(corpus: tuple[CorpusFile, ...]) -> None:
    assert len(corpus) > 4000
    seen = [Observation(f.name, 200, "text/plain", {}, f.data) for f in corpus]
    counted = 0
    for before, after in pairwise(seen):
        alerts = changes(before, after)
        counted += len(alerts)
        assert [a.severity.rank for a in alerts] == sorted(a.severity.rank for a in alerts)
    assert counted > len(corpus)  # different sites' files differ: most pairs say something
