"""Run the bundled RFC 9309 reference cases through this installed engine.

The cases (`reference_cases.json`, package data) were written from the RFC's
text: each names a robots.txt, a crawler and a URL, and the verdict the RFC
requires with the deciding line. Reads only the package's own data.
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any, NamedTuple

from .model import Verdict
from .robots import parse


class CaseResult(NamedTuple):
    """One reference case and what the engine answered."""

    case: dict[str, Any]
    verdict: Verdict

    @property
    def expected(self) -> dict[str, Any]:
        return {"allowed": self.case["allowed"], "line": self.case["line"], "reason": self.case["reason"]}

    @property
    def got(self) -> dict[str, Any]:
        return {"allowed": self.verdict.allowed, "line": self.verdict.line, "reason": self.verdict.reason.value}

    @property
    def passed(self) -> bool:
        return self.got == self.expected

    def as_dict(self) -> dict[str, Any]:
        """The case, what it expects, what the engine gave, and whether they agree."""
        about = {key: self.case[key] for key in ("id", "section", "description", "agent", "url")}
        return {**about, "expected": self.expected, "got": self.got, "passed": self.passed}


def case_text(case: dict[str, Any]) -> str:
    """The robots.txt of a case: `robots_raw` as is, or `robots` lines joined by LF."""
    if "robots_raw" in case:
        return str(case["robots_raw"])
    return "".join(line + "\n" for line in case["robots"])


def load_cases() -> list[dict[str, Any]]:
    data = json.loads(files("robotscope").joinpath("reference_cases.json").read_text(encoding="utf-8"))
    return list(data["cases"])


def run_cases() -> list[CaseResult]:
    """Run every reference case; each result says whether the engine passed it."""
    return [CaseResult(c, parse(case_text(c)).verdict(c["agent"], c["url"])) for c in load_cases()]
