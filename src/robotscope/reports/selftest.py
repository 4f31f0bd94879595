"""Run the bundled RFC 9309 reference cases through this installed engine.

The cases (`reference_cases.json`, package data) were written from the RFC's
text: each names a robots.txt, a crawler and a URL, and the verdict the RFC
requires with the deciding line. Each case's `description` is the English
text of its message `case.<id>` (the catalogues hold it in every language);
its `section` ("RFC 9309, Section 5.1") becomes the message
`selftest.section`. Reads only the package's own data.
"""

from __future__ import annotations

import json
import re
from importlib.resources import files
from typing import Any, NamedTuple

from ..access.robots import parse
from ..messages import DEFAULT_LANG, Message, message
from ..syntax.model import Verdict

_SECTION = re.compile(r"^RFC 9309, Section (\d+(?:\.\d+)*)$")


def description(case: dict[str, Any]) -> Message:
    """What a case checks, as a message: `case.<id>`."""
    return message(f"case.{case['id']}")


def section_number(case: dict[str, Any]) -> str:
    """The RFC 9309 section a case is written from: "5.1" for "RFC 9309, Section 5.1"."""
    match = _SECTION.match(str(case["section"]))
    if match is None:
        raise ValueError(f"case {case['id']!r}: section {case['section']!r} is not 'RFC 9309, Section N'")
    return match.group(1)


def section(case: dict[str, Any]) -> Message:
    """The section label of a case, as a message ("RFC 9309, Section 5.1"; "RFC 9309, 5.1절")."""
    return message("selftest.section", section=section_number(case))


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

    @property
    def description(self) -> Message:
        return description(self.case)

    @property
    def section(self) -> Message:
        return section(self.case)

    def as_dict(self, lang: str = DEFAULT_LANG) -> dict[str, Any]:
        """The case (section and description rendered in `lang`), what it expects, what the engine gave, and whether
        they agree.

        `description_code` is the catalogue code of the description, for clients that render it themselves.
        """
        return {
            "id": self.case["id"],
            "section": self.section.render(lang),
            "description": self.description.render(lang),
            "description_code": self.description.code,
            "agent": self.case["agent"],
            "url": self.case["url"],
            "expected": self.expected,
            "got": self.got,
            "passed": self.passed,
        }


def outcome(result: dict[str, Any]) -> Message:
    """An `expected` or `got` verdict as a message: allowed or disallowed, the deciding line, the reason."""
    verdict = message("selftest.allowed" if result["allowed"] else "selftest.disallowed")
    if result["line"] is None:
        return message("selftest.outcome.no-line", verdict=verdict, reason=result["reason"])
    return message("selftest.outcome", verdict=verdict, line=result["line"], reason=result["reason"])


def case_text(case: dict[str, Any]) -> str:
    """The robots.txt of a case: `robots_raw` as is, or `robots` lines joined by LF."""
    if "robots_raw" in case:
        return str(case["robots_raw"])
    return "".join(line + "\n" for line in case["robots"])


def load_cases() -> list[dict[str, Any]]:
    data = json.loads(files(__package__).joinpath("reference_cases.json").read_text(encoding="utf-8"))
    return list(data["cases"])


def run_cases() -> list[CaseResult]:
    """Run every reference case; each result says whether the engine passed it."""
    return [CaseResult(c, parse(case_text(c)).verdict(c["agent"], c["url"])) for c in load_cases()]
