"""`legacy`: the first-match reading of the 1994 convention, as Python's `urllib.robotparser` (3.12 and earlier) has it.

This is what `RobotFileParser.parse` followed by `can_fetch` answers in
CPython up to 3.12, and in 3.13 and 3.14 until the change of CPython
gh-138907 (https://github.com/python/cpython/issues/138907, "Support RFC
9309 in robotparser": blank lines ignored, groups merged, longest match,
Allow on ties, `*` and `$`) reached them. It is the 1994 convention's
first-match reading, which older crawlers share. Sources, cited below by
their letter:

- [C] CPython's Lib/urllib/robotparser.py as of 3.11
  (https://github.com/python/cpython/blob/3.11/Lib/urllib/robotparser.py;
  3.11.7, 3.12.1 and 3.13.0 ship the same file). Every behaviour below was
  read from it, and `tests/access/engines/test_legacy.py` compares this engine with
  it over the whole corpus.
- [O] the 1994 convention, "A Standard for Robot Exclusion"
  (https://www.robotstxt.org/orig.html): records separated by blank lines,
  a comment-only line is no record boundary, the `*` record as the default
  policy, a case-insensitive substring match of the robot's name without
  its version, a Disallow value as a prefix of the URL path, an empty
  Disallow value allowing everything.
- [D] Koster's 1996 draft (https://www.robotstxt.org/norobots-rfc.txt),
  which [C]'s own docstring names: Allow lines, and "the first match found
  is used", in the order the lines stand in the record.

Reading the file ([C] `read`, `parse`):

- Bytes are decoded as UTF-8 (`read` does `raw.decode("utf-8")`), so a
  leading BOM stays part of the first line: `\\ufeffUser-agent: *` is no
  user-agent line and the rules under it are dropped with it [C]. Text
  (`str`) is read as given.
- The text is cut with `str.splitlines()` [C], which also breaks at
  U+000B, U+000C, U+001C-U+001E, U+0085, U+2028 and U+2029; a rule's
  `line` is still the number robotscope shows (lines end at LF, CRLF or CR).
- A line that is empty before anything is stripped ends the record: a
  record with rules is kept, a record of user-agent lines only is dropped
  [C, O]. A line of spaces or a comment alone ends nothing [C; O: "lines
  containing only a comment ... do not indicate a record boundary"].
- `#` starts a comment anywhere; then the line is stripped (`str.strip`,
  Unicode whitespace); a line without `:` is ignored; the key is stripped
  and lower-cased (only the exact keys below count: no typos, no
  `user agent`); the value is stripped and percent-decoded
  (`urllib.parse.unquote`), whatever the key [C].
- `user-agent` after a rule (or Crawl-delay / Request-rate) starts a new
  record; otherwise it joins the current one [C]. `allow` and `disallow`
  before any user-agent line are ignored [C]. `crawl-delay` and
  `request-rate` (valid or not) count as a rule for grouping: they end the
  run of user-agent lines, and a record with one is kept at a blank line
  [C]. `sitemap` and every other key change nothing [C].
- A record naming `*` (the exact value, on any of its user-agent lines) is
  the default entry, used last; only the first such record counts, a
  later one is dropped whole, even for the other crawlers it names [C; O:
  "it is not allowed to have multiple such records"].
- A rule's path is `quote(urlunparse(urlparse(value)))` [C]: so `*`, `$`,
  `?`, `;`, `=` and non-ASCII are escaped and compared literally, a
  trailing `?` or `;` disappears, `Disallow: /a%3Fb` and `Disallow: /a?b`
  are the same rule. `Rule.pattern` is the value as written,
  `Rule.normalised` this path.
- An empty `Disallow:` matches everything and allows it [C, O]: the
  Rule stays a Disallow as written, the Match says it allows.

Choosing the record ([C] `can_fetch`, `Entry.applies_to`):

- The crawler's name is cut at its first `/` and lower-cased
  (`Mozilla/5.0 (compatible; Googlebot/2.1)` is matched as `mozilla`):
  that is the Verdict's `agent_token` [C].
- A record applies when one of its user-agent values, lower-cased, is a
  substring of that name (`bot` applies to `googlebot`; an empty
  `User-agent:` applies to every crawler; `googlebot/2.1` applies to
  none) [C, O]. The first record in file order that applies is used
  alone; the default entry only when none does; no record at all means
  everything is allowed [C].

Matching ([C] `can_fetch`, `Entry.allowance`, `RuleLine.applies_to`):

- The URL is percent-decoded, parsed, rebuilt as path, `;params`, `?query`
  and `#fragment` (scheme and host dropped) and quoted again with only `/`
  kept; an empty result is `/` [C]. That is `target(url)`.
- The first rule of the record, in file order, whose path is a prefix of
  that target decides (a path of exactly `*` would match everything, but
  quoting always escapes `*`); no match means allowed [C, D]. `candidates`
  are every matching rule in file order, the first deciding. There is no
  implicit `/robots.txt` rule [C].

Where [C] raises, this engine answers instead (robotscope's choice, not
[C]'s behaviour; see `tests/access/engines/known_differences.py`):

- bytes that are not UTF-8 make `read` raise UnicodeDecodeError; here they
  are read as U+FFFD (`errors="replace"`), and lone surrogates in text
  likewise (`quote` would raise on them);
- a rule value that `urlparse` rejects (`//[x`, ValueError) is quoted
  without the `urlparse`/`urlunparse` round trip, and such a URL
  (`http://[x/a`) is read as what follows `scheme://host`.

Fetch policy: `rfc9309` (robotscope's fetcher decides what a status code
means). urllib's own `read()` differs: 401 and 403 disallow everything,
other 4xx allow everything, a 5xx leaves the parser unread so that
`can_fetch` answers False for everything, and a network error raises. That
is not modelled here.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from urllib.parse import quote, unquote, urlparse, urlunparse

from ...syntax.model import Group, Record, Rule
from ...syntax.parsed import ParsedFile
from ...syntax.patterns import Pattern
from ..matching.candidates import CandidateRules
from ..matching.tuning import MANY_RULES
from .base import FIRST, Engine, Match, Parsed, Selection

_SURROGATES = re.compile("[\ud800-\udfff]")
_AUTHORITY = re.compile(r"\A[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*")
# Where robotscope's numbering moves to the next line; `str.splitlines` also breaks elsewhere.
_LINE_ENDS = ("\r\n", "\n", "\r")
_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")

_IDLE, _AGENTS, _RULES = 0, 1, 2  # nothing open; user-agent lines seen; a rule (or delay/rate) seen


# Line ends in a row, at least one empty line among them (a class, not `\r\n|\n|\r`: many times faster).
_EMPTY_RUN = re.compile(r"[\r\n]{3,}")


def numbered_lines(text: str) -> Iterator[tuple[int, str]]:
    """The pieces `text.splitlines()` gives, each with the number of the line robotscope shows it on.

    robotscope counts lines at LF, CRLF and CR only; the other breaks
    `str.splitlines` knows leave the next piece on the same line. Of a run
    of empty lines only the first is given: for the parsers read here the
    rest change nothing (Protego skips empty lines, and the standard
    library's ends a record at the first), and a file of millions of line
    ends then costs one regex search, not a loop over every line.
    """
    number, start = 1, 0
    for run in _EMPTY_RUN.finditer(text):
        ends = run.group()
        first = 2 if ends.startswith("\r\n") else 1  # the line end of the line before the run
        number = yield from _numbered(text[start : run.start() + first], number)
        yield number, ""
        number += len(ends) - ends.count("\r\n") - 1
        start = run.end()
    yield from _numbered(text[start:], number)


def _numbered(text: str, number: int) -> Generator[tuple[int, str], None, int]:
    """`numbered_lines` of a stretch without runs of empty lines, from line `number`; returns the next number."""
    for piece in text.splitlines(keepends=True):
        if piece.endswith("\r\n"):
            yield number, piece[:-2]
            number += 1
        elif piece[-1] in _BREAKS:
            yield number, piece[:-1]
            if piece[-1] in "\r\n":
                number += 1
        else:
            yield number, piece
    return number


def _text(robots: ParsedFile) -> str:
    source = robots.source
    if isinstance(source, bytes):
        return source.decode("utf-8", "replace")  # [C] decodes strictly and raises instead
    return _SURROGATES.sub("\ufffd", source)


def _path(value: str) -> str:
    """What a rule's path (or a URL, rebuilt) is compared as: quoted, with `/` kept."""
    return quote(value)


def _rule_path(value: str) -> str:
    try:
        rebuilt = urlunparse(urlparse(value))
    except ValueError:  # [C] raises here; the value is compared as it is
        rebuilt = value
    return _path(rebuilt)


@dataclass
class _Entry:
    """A record while it is read: its user-agent values and lines, its rules and delay records."""

    agents: list[str] = field(default_factory=list)
    agent_lines: list[int] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    records: list[tuple[str, str, int]] = field(default_factory=list)


def read(robots: ParsedFile) -> Parsed:
    """The records `urllib.robotparser` keeps: named records in file order, then the default entry."""
    named: list[_Entry] = []
    default: _Entry | None = None

    def keep(entry: _Entry) -> None:
        nonlocal default
        if "*" in entry.agents:
            if default is None:
                default = entry  # a later `*` record is dropped
        else:
            named.append(entry)

    entry = _Entry()
    state = _IDLE
    for number, raw in numbered_lines(_text(robots)):
        if not raw:
            if state == _RULES:
                keep(entry)
            if state != _IDLE:
                entry, state = _Entry(), _IDLE
            continue
        line = raw.split("#", 1)[0].strip()
        key, colon, rest = line.partition(":")
        if not colon:
            continue
        key = key.strip().lower()
        written = rest.strip()
        value = unquote(written)
        if key == "user-agent":
            if state == _RULES:
                keep(entry)
                entry = _Entry()
            entry.agents.append(value)
            entry.agent_lines.append(number)
            state = _AGENTS
        elif state == _IDLE:
            continue  # rules and delays before any user-agent line
        elif key in ("allow", "disallow"):
            entry.rules.append(Rule(key == "allow", written, number, _rule_path(value)))
            state = _RULES
        elif key in ("crawl-delay", "request-rate"):
            entry.records.append((key, written, number))
            state = _RULES
    if state == _RULES:
        keep(entry)
    kept = [*named, *([default] if default is not None else [])]
    groups = tuple(
        Group(
            position,
            tuple(agent.lower() for agent in e.agents),
            tuple(e.agent_lines),
            tuple(e.rules),
            tuple(Record(key, value, line, position, tuple(e.agents)) for key, value, line in e.records),
        )
        for position, e in enumerate(kept)
    )
    # `prepared`: each chosen group's rule filter, when it has many rules (made once per group).
    return Parsed(groups, robots.size, prepared={})


def agent_token(agent: str) -> str:
    """The crawler's name as urllib matches it: up to the first `/`, lower-cased."""
    return agent.split("/", 1)[0].lower()


def select(parsed: Parsed, agent: str) -> Selection:
    token = agent_token(agent)
    for group in parsed.groups:
        # Only the default entry (always last) names `*`; any other applies by substring.
        if "*" in group.agents or any(name in token for name in group.agents):
            return Selection(token, (group,), _candidates(parsed, group))
    return Selection(token, ())


def _prefix(pattern: str) -> Pattern:
    """A rule path as `can_fetch` reads it: a literal prefix, but `*` alone, which matches every path."""
    return Pattern(("", ""), False) if pattern == "*" else Pattern((pattern,), False)


def _candidates(parsed: Parsed, group: Group) -> CandidateRules | None:
    """The rules a path may meet, filed by their start, for a group of many rules (None: scan them)."""
    if len(group.rules) < MANY_RULES:
        return None
    made: dict[int, CandidateRules] = parsed.prepared
    found = made.get(group.position)
    if found is None:
        found = made[group.position] = CandidateRules(group.rules, _prefix, lambda _: False)
    return found


def regroup(parsed: Parsed, groups: tuple[Group, ...]) -> Selection:
    """The one group a crawler chose (or none), its rules filed as `select` files them."""
    return Selection("", groups, _candidates(parsed, groups[0]) if groups else None)


def match(selection: Selection, path: str) -> Match:
    if not selection.groups:
        return Match(None, ())
    rules = selection.groups[0].rules if selection.prepared is None else selection.prepared.of(path)
    hits = tuple(rule for rule in rules if rule.normalised == "*" or path.startswith(rule.normalised))
    if not hits:
        return Match(None, ())
    first = hits[0]
    # An empty Disallow matches every path, and allows it.
    return Match(first, hits, allowed=True if not first.pattern else None)


def target(url: str) -> str:
    """What `can_fetch` compares: the URL decoded, parsed, rebuilt without scheme and host, quoted again."""
    decoded = unquote(_SURROGATES.sub("\ufffd", url))
    try:
        parts = urlparse(decoded)
        rebuilt = urlunparse(("", "", parts.path, parts.params, parts.query, parts.fragment))
    except ValueError:  # [C] raises here; the URL is read as what follows `scheme://host`
        rebuilt = _AUTHORITY.sub("", decoded, count=1)
    return _path(rebuilt) or "/"


ENGINE: Engine = Engine(
    name="legacy",
    title="urllib.robotparser",
    sources=(
        "https://github.com/python/cpython/blob/3.11/Lib/urllib/robotparser.py",
        "https://www.robotstxt.org/orig.html",
        "https://www.robotstxt.org/norobots-rfc.txt",
        "https://github.com/python/cpython/issues/138907",
    ),
    policy="rfc9309",
    read=read,
    select=select,
    match=match,
    regroup=regroup,
    target=target,
    notes=("engine.legacy.note.raises",),
    precedence=FIRST,
)

__all__ = ["ENGINE", "agent_token", "numbered_lines"]
