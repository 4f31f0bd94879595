"""`matrix`: known crawlers (rows, by purpose) by paths (columns), each cell the answer front ends give."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from ...access.engines.registry import PROFILED, resolve
from ...access.profiles import Answer
from ...access.robots import Robots
from ...messages import DEFAULT_LANG
from ...syntax.crawlers import PURPOSES, Crawler
from ..views import split_note, verdict_view


class MatrixRow(NamedTuple):
    """One crawler's answers for each path of a matrix."""

    crawler: Crawler
    cells: tuple[Answer, ...]

    def as_dict(self, lang: str = DEFAULT_LANG) -> dict[str, Any]:
        return {"crawler": self.crawler.as_dict(), "cells": [verdict_view(cell, lang) for cell in self.cells]}


def matrix(
    robots: Robots, crawlers: Iterable[Crawler], paths: Sequence[str], engine: str = PROFILED
) -> list[MatrixRow]:
    """Crawlers (rows, grouped by purpose) by paths (columns), as `engine` reads the file (`operator`: each
    crawler's own reading); the default reading applies the operators' profiles."""

    def cell(crawler: Crawler, path: str) -> Answer:
        name = resolve(engine, crawler.token)
        shown = robots.answer(crawler.token, path, name)
        note = split_note(robots, crawler.token, path, shown.verdict, name)  # as `check` says it
        return shown if note is None else shown._replace(extra=(*shown.extra, note))

    rows = [MatrixRow(c, tuple(cell(c, p) for p in paths)) for c in crawlers]
    rows.sort(key=lambda r: PURPOSES.index(r.crawler.purpose) if r.crawler.purpose in PURPOSES else len(PURPOSES))
    return rows
