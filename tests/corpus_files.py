"""The real-world corpus, read and parsed once for the whole test session: every corpus test shares the parses."""

from __future__ import annotations

import functools
from typing import NamedTuple

from robotscope import Robots, parse
from tests.paths import CORPUS


class CorpusFile(NamedTuple):
    name: str
    data: bytes
    robots: Robots  # parsed from `data`, shared: what a test makes of it (an engine's reading) stays memoised


@functools.cache
def corpus_files() -> tuple[CorpusFile, ...]:
    """Every file of the corpus, by name, in order."""
    files = []
    for path in sorted(CORPUS.iterdir()):
        data = path.read_bytes()
        files.append(CorpusFile(path.name, data, parse(data)))
    return tuple(files)
