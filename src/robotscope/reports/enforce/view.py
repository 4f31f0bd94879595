"""An export as JSON-ready data, the same for every front end: files, groups, and what is left to robots.txt."""

from __future__ import annotations

from typing import Any

from .entries import Export
from .plan import Plan

# Notes that mean a chosen crawler is not refused at all (with --unverified-only).
UNENFORCED = frozenset({"enforce.unverifiable", "enforce.lists-not-shipped", "enforce.lists-partly-shipped"})


def complete(made: Plan, result: Export) -> bool:
    """Whether the server refuses everything robots.txt disallows to the crawlers chosen (requests it cannot read
    exactly aside): no rule left to robots.txt, no crawler left out."""
    return not result.left and not any(note.code in UNENFORCED for note in made.notes)


def export_view(made: Plan, result: Export, lang: str = "en") -> dict[str, Any]:
    """The plan and its rendering for `result.target`, with every message as data and text."""
    return {
        "target": result.target,
        "complete": complete(made, result),
        "unverified_only": made.unverified_only,
        "files": [{"name": name, "text": text} for name, text in result.files],
        "groups": [
            {
                "tokens": list(group.tokens),
                "agent_lines": list(group.agent_lines),
                "rules": [{"line": rule.line, "allow": rule.allow, "pattern": rule.pattern} for rule in group.rules],
                "lists": list(group.lists),
            }
            for group in made.groups
        ],
        "left": [item.as_dict(lang) for item in result.left],
        "skipped": [item.as_dict(lang) for item in made.skipped],
        "warnings": [item.as_dict(lang) for item in made.warnings],
        "notes": [item.as_dict(lang) for item in (*made.notes, *result.notes)],
    }
