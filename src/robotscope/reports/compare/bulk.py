"""`bulk_row`: the verdict for one of many URLs, on the matcher's fast path."""

from __future__ import annotations

from typing import Any, NamedTuple

from ...access.matching.ruleset import RuleSet
from ...access.verdicts import outcome
from ...syntax.model import Reason, Verdict
from ...syntax.urls import target
from ..views import rule_text


class BulkRow(NamedTuple):
    """The verdict for one URL of a bulk check, without the candidate list (the fast path)."""

    url: str
    agent_token: str
    allowed: bool
    reason: str
    line: int | None
    rule: str | None  # the deciding rule as written, e.g. `Disallow: /private/`
    engine: str = ""  # the reading the verdict is from ("" for a URL no reading was asked about)
    # What `check` says in a sentence, as codes joined by `;`: `other-origin` (not the robots.txt's
    # origin), `profile` (the operator's profile changed the RFC 9309 answer), `read-otherwise:ENGINE`.
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        return self._asdict()


def verdict_row(verdict: Verdict, engine: str) -> BulkRow:
    """A full verdict (another engine's, or a fetch decision's) as a bulk row."""
    rule = None if verdict.rule is None else rule_text(verdict.rule)
    return BulkRow(verdict.url, verdict.agent_token, verdict.allowed, verdict.reason.value, verdict.line, rule, engine)


def bulk_row(ruleset: RuleSet, url: str, engine: str) -> BulkRow:
    """The fast verdict for one URL under RFC 9309: the deciding rule found on the matcher's fast path.

    `ruleset` is the crawler's (`Robots.rules_for`, with its profile for
    `rfc9309+profiles`, looked up once for all the URLs), so the answer is the
    one every front end gives for `engine`, the reading named in the row.
    """
    path = target(url)
    rule = ruleset.winner(path)
    allowed, reason = outcome(rule, path, bool(ruleset.groups))
    if rule is None or reason is not Reason.RULE:
        return BulkRow(url, ruleset.token, allowed, reason.value, None, None, engine)
    return BulkRow(url, ruleset.token, allowed, reason.value, rule.line, rule_text(rule), engine)
