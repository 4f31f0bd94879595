"""RFC 9309 conformance: the bundled reference cases, deciding line asserted."""

from __future__ import annotations

from typing import Any

import pytest

from robotscope import parse
from robotscope.reports.selftest import case_text, load_cases, run_cases

CASES = load_cases()


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_reference_case(case: dict[str, Any]) -> None:
    robots = parse(case_text(case))
    verdict = robots.verdict(case["agent"], case["url"])
    assert verdict.allowed is case["allowed"]
    assert verdict.line == case["line"]
    assert verdict.reason.value == case["reason"]
    assert robots.can_fetch(case["agent"], case["url"]) is case["allowed"]
    if case["line"] is not None:
        # The deciding line is the rule line the verdict names, quoted from the file.
        assert verdict.rule is not None and verdict.rule.line == case["line"]
        assert robots.line(case["line"]).kind.value == ("allow" if verdict.rule.allow else "disallow")


def test_selftest_passes_every_case() -> None:
    results = run_cases()
    assert len(results) == len(CASES) >= 70
    assert [r.case["id"] for r in results if not r.passed] == []


def test_case_ids_are_unique() -> None:
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids))
