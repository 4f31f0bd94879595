"""docs/readings.md lists every deliberate difference of tests/engines/known_differences.py, and every engine."""

from __future__ import annotations

from robotscope.access.engines.registry import engines
from tests.access.engines.known_differences import DIFFERENCES
from tests.paths import DOCS

DOC = (DOCS / "readings.md").read_text(encoding="utf-8")


def test_every_known_difference_is_described_under_its_engine() -> None:
    sections = DOC.split("\n### ")[1:]
    for difference in DIFFERENCES:
        section = next(s for s in sections if s.startswith(f"`{difference.engine}`"))
        assert f"- `{difference.code}`:" in section, difference.code


def test_every_engine_has_a_row() -> None:
    for name in engines():
        assert f"| `{name}`" in DOC, name
