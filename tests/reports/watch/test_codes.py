"""The alert codes: one registry, the docs' table, and a message for every watch code in both languages."""

from __future__ import annotations

import re

from robotscope.messages import LANGS, catalogue
from robotscope.reports.watch.alerts import CODES
from tests.paths import DOCS

ROW = re.compile(r"^\| `(\w+)` \| ([a-z ,`/]+?) \|", re.MULTILINE)


def test_the_docs_table_lists_every_code_with_its_severity() -> None:
    rows = dict(ROW.findall((DOCS / "watch-alerts.md").read_text(encoding="utf-8")))
    assert set(rows) == set(CODES)
    for code, severity in CODES.items():
        assert rows[code].startswith(severity.value) or code == "servedDifferently", (code, rows[code])


def test_every_watch_code_has_its_message() -> None:
    for lang in LANGS:
        assert all(f"watch.{code}" in catalogue(lang) for code in CODES if not code.startswith("expect"))
