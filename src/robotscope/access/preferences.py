"""AI usage preferences in robots.txt: what a crawler may do with a URL it may fetch.

Content-Usage (IETF aipref: draft-ietf-aipref-attach-05 with the vocabulary
of draft-ietf-aipref-vocab-08):

- a rule of a group, `Content-Usage: [path] preferences` (attach §3); a
  value that starts with `/` has a path, which ends at the first space or
  tab; otherwise the whole value is the preferences (attach §3.2), and such
  a rule applies to every URL of the group's crawlers (inferred from the
  example of attach §3.4, where longer paths override it);
- paths match as Allow and Disallow do, the longest winning (attach §3.1);
  rules of the same length combine as several statements do (vocab §5.1:
  any `n` is `n`, else any `y` is `y`, else unknown); the draft says so for
  identical paths only, and robotscope applies it to every tie (inferred);
- the preferences are an RFC 9651 Dictionary (vocab §6): the categories
  `train-ai`, `ai-use` and `search` (vocab §6.1, Table 1) take the tokens
  `y` and `n`; anything else is unknown, unknown keys are ignored, and a
  Dictionary that fails to parse (an uppercase key, say) is unknown whole
  (vocab §6.5);
- preferences apply only to URLs the crawler may fetch (attach §3).

Content-Signal (Cloudflare's Content Signals Policy): a line of a group,
`Content-Signal: search=yes, ai-input=no, ai-train=no`, `yes` or `no` per
use, and `use=immediate|reference|full`; a signal left out "neither grants
nor restricts". Cloudflare defines no path form and nothing for several
lines: robotscope reads them as one Dictionary each and lets `no`, and the
narrowest `use`, win (inferred), and, as for Content-Usage, for URLs the
crawler may fetch only.

License (RSL 1.0, §4.4): `License: <absolute URL>` names the license of
the site's content. Scoped by placement: a line inside a group is for the
crawlers that select that group, a line outside every group for all; when
the groups a crawler uses have any, those alone apply. RFC 9309 has no end of
a group, so "outside every group" is before the first user-agent line: a
License line after the last group belongs to it (a lint matter).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from ..syntax.model import Group, Preference, Record, Usage, Verdict
from ..syntax.parsed import ParsedFile
from ..syntax.patterns import compile_pattern, matches
from ..syntax.structured import Item, Token, parse_dictionary
from ..syntax.urls import normalise, split_url

USAGE = "content-usage"
SIGNAL = "content-signal"
LICENSE = "license"
CATEGORIES = ("train-ai", "ai-use", "search")  # draft-ietf-aipref-vocab-08, Section 6.1
SIGNALS = ("search", "ai-input", "ai-train")  # Cloudflare's Content Signals Policy
SIGNAL_USES = ("immediate", "reference", "full")  # narrowest first
UNKNOWN = "unknown"


class UsageRule(NamedTuple):
    """One Content-Usage line: its path (None when absent), its preferences, and whether they parsed."""

    line: int
    path: str | None
    normalised: str | None
    preferences: dict[str, str]  # category -> "y" or "n", the known ones that have such a value
    parsed: bool  # False: the Dictionary failed to parse, so every preference is unknown
    keys: tuple[str, ...]  # every key of the Dictionary, in order, duplicates included (for lint)


def usage_rule(record: Record) -> UsageRule:
    """Read one Content-Usage record (attach §3.2)."""
    value = record.value
    path: str | None = None
    rest = value
    if value.startswith("/"):
        path, _, rest = value.replace("\t", " ").partition(" ")
        rest = rest.strip(" \t")
    members = parse_dictionary(rest)
    if members is None:
        return UsageRule(record.line, path, _normalised(path), {}, False, ())
    preferences = {
        key: str(member.value)
        for key, member in members.items()
        if key in CATEGORIES
        and isinstance(member, Item)
        and isinstance(member.value, Token)
        and member.value in ("y", "n")
    }
    return UsageRule(record.line, path, _normalised(path), preferences, True, _keys(rest))


def _normalised(path: str | None) -> str | None:
    return None if path is None else normalise(path)


def _keys(text: str) -> tuple[str, ...]:
    """The keys of a Dictionary that parses, in order, duplicates kept (the parser keeps only the last)."""
    keys = []
    for part in text.split(","):
        key = part.strip(" \t").split("=", 1)[0].split(";", 1)[0].strip(" \t")
        keys.append(key)
    return tuple(keys)


def records_of(groups: Iterable[Group], key: str) -> list[Record]:
    return [record for group in groups for record in group.records if record.key == key]


def _read(robots: ParsedFile) -> tuple[dict[int, UsageRule], dict[int, SignalLine]]:
    """Every Content-Usage and Content-Signal record of the file, read once, by line."""
    usage = {record.line: usage_rule(record) for record in robots.records if record.key == USAGE}
    return usage, {record.line: signal_line(record) for record in robots.records if record.key == SIGNAL}


def preference_lines(robots: ParsedFile) -> tuple[dict[int, UsageRule], dict[int, SignalLine]]:
    """Every Content-Usage and Content-Signal line of the file, read once, by line number."""
    return robots.reading(_read, _read)


def states_preferences(robots: ParsedFile) -> bool:
    """Whether the file has any Content-Usage or Content-Signal line (read once per file)."""
    usage_lines, signal_lines = preference_lines(robots)
    return bool(usage_lines or signal_lines)


def usage_for(robots: ParsedFile, verdict: Verdict) -> Usage | None:
    """The preferences that apply to the verdict's crawler and URL; None when the groups used state none."""
    if not states_preferences(robots):
        return None  # most files: no group to look through
    rules, signals = _chosen(robots, verdict.group_lines)
    if not rules and not signals:
        return None
    if not verdict.allowed:
        return Usage(False, {}, {})
    return Usage(True, _usage(rules, verdict.target), _signals(signals))


def _chosen(robots: ParsedFile, group_lines: tuple[int, ...]) -> tuple[list[UsageRule], list[SignalLine]]:
    """The Content-Usage rules and Content-Signal lines of the groups used (by their user-agent lines).

    Worked out once per file and remembered.
    """

    def find() -> tuple[list[UsageRule], list[SignalLine]]:
        usage_lines, signal_lines = preference_lines(robots)
        groups = robots.groups_at(group_lines)
        return [usage_lines[r.line] for r in records_of(groups, USAGE)], [
            signal_lines[r.line] for r in records_of(groups, SIGNAL)
        ]

    return robots.remembered(_chosen, group_lines, find)


# A rule's pattern split once, not on every verdict.
_pattern = lru_cache(maxsize=4096)(compile_pattern)


def _usage(rules: list[UsageRule], target: str) -> dict[str, Preference]:
    matching: list[tuple[int, UsageRule]] = []
    for rule in rules:
        if rule.normalised is None:
            matching.append((-1, rule))  # no path: every URL, below any path that matches
        elif matches(_pattern(rule.normalised), target):
            matching.append((len(rule.normalised), rule))
    if not matching:
        return {}
    best = max(length for length, _ in matching)
    return combine([rule for length, rule in matching if length == best])


def combine(rules: list[UsageRule]) -> dict[str, Preference]:
    """Several statements of preference as one (vocab §5.1): any `n` is `n`, else any `y` is `y`, else unknown."""
    out = {}
    for category in CATEGORIES:
        said = [(rule.preferences.get(category), rule.line) for rule in rules]
        for value in ("n", "y"):
            lines = tuple(line for found, line in said if found == value)
            if lines:
                out[category] = Preference(value, lines)
                break
        else:
            out[category] = Preference(UNKNOWN, tuple(rule.line for rule in rules))
    return out


class SignalLine(NamedTuple):
    """One Content-Signal line: its uses (`yes` / `no`), its `use` level, and the keys it could not read."""

    line: int
    uses: dict[str, str]
    level: str | None
    parsed: bool
    unknown: tuple[str, ...]


def signal_line(record: Record) -> SignalLine:
    members = parse_dictionary(record.value)
    if members is None:
        return SignalLine(record.line, {}, None, False, ())
    uses, level, unknown = {}, None, []
    for key, member in members.items():
        value = member.value if isinstance(member, Item) and isinstance(member.value, Token) else None
        if key in SIGNALS and value in ("yes", "no"):
            uses[key] = str(value)
        elif key == "use" and value in SIGNAL_USES:
            level = str(value)
        else:
            unknown.append(key)
    return SignalLine(record.line, uses, level, True, tuple(unknown))


def _signals(lines: list[SignalLine]) -> dict[str, Preference]:
    out = {}
    for key in SIGNALS:
        for value in ("no", "yes"):
            found = tuple(s.line for s in lines if s.uses.get(key) == value)
            if found:
                out[key] = Preference(value, found)
                break
    for level in SIGNAL_USES:
        found = tuple(s.line for s in lines if s.level == level)
        if found:
            out["use"] = Preference(level, found)
            break
    return out


def is_license_url(value: str) -> bool:
    """Whether a `License:` value is one RSL 1.0 §4.4 allows: an absolute URL (http or https, with a host)."""
    parts = split_url(value)
    return parts is not None and parts.scheme in ("http", "https") and bool(parts.netloc)


def licenses_for(robots: ParsedFile, group_lines: tuple[int, ...]) -> tuple[Record, ...]:
    """The `License:` lines for a crawler that uses the groups at `group_lines` (a verdict's), by RSL 1.0 §4.4:
    the groups' own, else those outside every group; a value that is no absolute URL is no license."""
    valid = [record for record in robots.records if record.key == LICENSE and is_license_url(record.value)]
    if not valid:
        return ()  # most files
    used = {group.position for group in robots.groups_at(group_lines)}
    own = tuple(record for record in valid if record.group is not None and record.group in used)
    return own or tuple(record for record in valid if record.group is None)
