"""Checks of AI usage preferences: Content-Usage (IETF aipref), Content-Signal (Cloudflare), RSL's License.

What each rule means is in `robotscope.access.preferences`; these checks say where a
line does not mean what it seems to, citing the draft section it follows.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from ...access.matching.ruleset import RuleSet
from ...access.preferences import (
    CATEGORIES,
    LICENSE,
    SIGNAL,
    SIGNAL_USES,
    SIGNALS,
    USAGE,
    SignalLine,
    UsageRule,
    is_license_url,
    preference_lines,
)
from ...access.robots import Robots
from ...messages import message
from ...syntax.model import Group, LineKind, Record, Severity
from ...syntax.patterns import example_target, matches_every_target
from ...syntax.structured import parse_dictionary
from .registry import Hit, check

# Keys of earlier revisions of draft-ietf-aipref-vocab that the current one (-08) dropped.
_OLDER_KEYS = {"bots": "-03, -04", "train-genai": "-02, -03", "all": "-02", "ai-output": "-04"}
_UPPER_KEY = re.compile(r"(?:^|,)\s*[A-Za-z*][A-Za-z0-9_.*-]*[A-Z]")


def _records(robots: Robots, key: str) -> Iterator[tuple[Group | None, Record]]:
    for record in robots.records:
        if record.key == key:
            yield (
                (None if record.group is None else robots.groups[record.group]),
                record,
            )  # a group's position is its index


def _usage(robots: Robots, record: Record) -> UsageRule:
    return preference_lines(robots)[0][record.line]  # read once per file, for every check


def _signal(robots: Robots, record: Record) -> SignalLine:
    return preference_lines(robots)[1][record.line]


@check("usageInvalid", Severity.WARNING)
def usage_invalid(robots: Robots) -> Iterator[Hit]:
    for _, record in _records(robots, USAGE):
        rule = _usage(robots, record)
        if rule.parsed:
            continue
        text = record.value[len(rule.path or "") :].strip()
        word, _, after = text.partition(" ")
        if rule.path is not None and after and parse_dictionary(after) is not None:
            # `/my page train-ai=n`: the path ends at the space (attach-05, Section 3.1: write %20).
            path = f"{rule.path}%20{word}"
            yield Hit(
                record.line,
                message("lint.usageInvalid.space", path=f"{rule.path} {word}"),
                message("fix.usageInvalid.space", line=f"Content-Usage: {path} {after}"),
            )
            continue
        code = "uppercase" if _UPPER_KEY.search(text) and parse_dictionary(text.lower()) is not None else "syntax"
        yield Hit(
            record.line,
            message(f"lint.usageInvalid.{code}", value=text),
            message(f"fix.usageInvalid.{code}", value=text.lower()),
        )


@check("usageUnknownValue", Severity.WARNING)
def usage_unknown_value(robots: Robots) -> Iterator[Hit]:
    for _, record in _records(robots, USAGE):
        rule = _usage(robots, record)
        members = parse_dictionary(record.value[len(rule.path or "") :].strip()) if rule.parsed else None
        for key, member in (members or {}).items():
            if key in CATEGORIES and key not in rule.preferences:
                shown = getattr(member, "value", "(...)")
                yield Hit(
                    record.line,
                    message("lint.usageUnknownValue", key=key, value=str(shown)),
                    message("fix.usageUnknownValue", key=key),
                )


@check("usageUnknownKey", Severity.INFO)
def usage_unknown_key(robots: Robots) -> Iterator[Hit]:
    for _, record in _records(robots, USAGE):
        rule = _usage(robots, record)
        for key in dict.fromkeys(rule.keys):
            if key and key not in CATEGORIES:
                older = _OLDER_KEYS.get(key)
                code = "lint.usageUnknownKey.older" if older else "lint.usageUnknownKey"
                yield Hit(
                    record.line,
                    message(code, key=key, revisions=older or ""),
                    message("fix.usageUnknownKey", categories=list(CATEGORIES)),
                )


@check("usageDuplicateKey", Severity.WARNING)
def usage_duplicate_key(robots: Robots) -> Iterator[Hit]:
    for _, record in _records(robots, USAGE):
        rule = _usage(robots, record)
        for key, count in Counter(rule.keys).items():
            if key and count > 1:
                yield Hit(
                    record.line,
                    message("lint.usageDuplicateKey", key=key, count=count),
                    message("fix.usageDuplicateKey", key=key),
                )


@check("usageNoPath", Severity.INFO)
def usage_no_path(robots: Robots) -> Iterator[Hit]:
    for _, record in _records(robots, USAGE):
        if _usage(robots, record).path is None:
            yield Hit(record.line, message("lint.usageNoPath"), message("fix.usageNoPath", value=record.value))


@check("usageOnDisallowed", Severity.WARNING)
def usage_on_disallowed(robots: Robots) -> Iterator[Hit]:
    # attach-05, Section 3: paths that cannot be crawled have no usage preferences.
    for group, record in _records(robots, USAGE):
        rule = _usage(robots, record)
        if group is None or rule.normalised is None:
            continue
        target = example_target(rule.normalised)
        if not RuleSet("", (group,)).allows(target):
            yield Hit(record.line, message("lint.usageOnDisallowed", path=rule.path), message("fix.usageOnDisallowed"))


@check("signalInvalid", Severity.WARNING)
def signal_invalid(robots: Robots) -> Iterator[Hit]:
    for _, record in _records(robots, SIGNAL):
        line = _signal(robots, record)
        if not line.parsed:
            yield Hit(
                record.line, message("lint.signalInvalid.syntax", value=record.value), message("fix.signalInvalid")
            )
        for key in line.unknown:
            yield Hit(
                record.line,
                message("lint.signalInvalid.key", key=key, keys=list(SIGNALS), uses=list(SIGNAL_USES)),
                message("fix.signalInvalid"),
            )


@check("preferenceOutsideGroup", Severity.WARNING)
def preference_outside_group(robots: Robots) -> Iterator[Hit]:
    for key in (USAGE, SIGNAL):
        for group, record in _records(robots, key):
            if group is None:
                shown = "Content-Usage" if key == USAGE else "Content-Signal"
                yield Hit(
                    record.line,
                    message("lint.preferenceOutsideGroup", key=shown),
                    message("fix.preferenceOutsideGroup", key=shown),
                )


@check("signalContradicts", Severity.WARNING)
def signal_contradicts(robots: Robots) -> Iterator[Hit]:
    # A use said yes where the same group lets the crawler fetch nothing: the signal can never apply.
    for group, record in _records(robots, SIGNAL):
        if group is None:
            continue
        blocker = next((r for r in group.rules if not r.allow and matches_every_target(r.normalised)), None)
        if blocker is None or any(r.allow and r.normalised for r in group.rules):
            continue
        yes = [key for key, value in _signal(robots, record).uses.items() if value == "yes"]
        if yes:
            yield Hit(
                record.line,
                message("lint.signalContradicts", uses=yes, line=blocker.line),
                message("fix.signalContradicts"),
                lines=(blocker.line,),
            )


@check("licenseInvalid", Severity.WARNING)
def license_invalid(robots: Robots) -> Iterator[Hit]:
    # RSL (rslstandard.org/guide/robots-txt): `License:` holds the absolute URL of a license file or feed.
    for line in robots.lines:
        value = line.value or ""
        if line.kind is LineKind.OTHER and (line.key or "").lower() == LICENSE and not is_license_url(value):
            yield Hit(line.number, message("lint.licenseInvalid", value=value), message("fix.licenseInvalid"))
