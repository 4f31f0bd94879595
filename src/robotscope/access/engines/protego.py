"""`protego`: Scrapy's default robots.txt parser, Protego, as `Protego.parse(text).can_fetch(url, user_agent)` answers.

Source [P]: Protego 0.7.0 (https://github.com/scrapy/protego; the modules
protego/_protego.py, _ruleset.py, _urlpattern.py and _utils.py), and [S]
Scrapy 2.19's `ProtegoRobotParser` and `decode_robotstxt`
(scrapy/robotstxt.py, https://github.com/scrapy/scrapy), which give it the
text. Every behaviour below was read from them, and
`tests/access/engines/test_protego.py` compares this engine with the real one over
the whole corpus.

Reading the file:

- Bytes are decoded as Scrapy does: UTF-8 with a leading BOM dropped and
  undecodable bytes dropped (`utf-8-sig`, `errors="ignore"`) [S]. Text
  (`str`) is given to Protego as it is, so a BOM there stays part of the
  first line, which then reads as an unknown directive [P].
- Lines come from `str.splitlines()` (also U+000B, U+000C, U+001C-U+001E,
  U+0085, U+2028, U+2029) [P]; a rule's `line` is still the number
  robotscope shows (lines end at LF, CRLF or CR).
- `#` starts a comment; the rest is stripped; blank lines mean nothing
  (they neither end a group nor separate records) [P].
- A line `key: value` whose key (stripped, lower-cased) is a known
  directive is read as it is. Known directives, with Protego's spellings:
  `user-agent`, `useragent`, `user agent`; `allow`; `disallow`,
  `dissallow`, `dissalow`, `disalow`, `diasllow`, `disallaw`; `sitemap`,
  `sitemaps`, `site-map`; `host`; `crawl-delay`, `crawl delay`;
  `request-rate`, `request rate`; `visit-time`, `visit time` [P].
- Otherwise (no colon, or an unknown key whose colon is followed by more
  text without a space), the line is read again as words: if its first
  word, or first two words, lower-cased, are a known directive, the other
  words, joined by single spaces, are its value (`Disallow /a`,
  `User agent foo`, `Sitemap https://...`) [P]. An unknown key whose colon
  ends the line or is followed by whitespace is an unknown directive, and
  so is one whose words name no directive either; a line with no colon and
  no directive word is ignored [P].
- Groups: a user-agent line after any other directive but Sitemap and Host
  (unknown directives, Crawl-delay, and empty values count) starts a new
  group; consecutive user-agent lines share one [P]. A directive with an
  empty value (`Disallow:`, `User-agent:`) is then ignored: it adds no
  rule, but it does end a run of user-agent lines, and an empty
  `User-agent:` after rules leaves no group for the rules after it [P].
  Rules before any user-agent are ignored [P].
- User-agent values are stripped and lower-cased, never percent-decoded.
  A value with `*` in it (other than `*` itself) names two rule sets: the
  value as written and the value with every `*` removed (`User-agent: *
  foo` names `* foo` and ` foo`, with its leading space) [P].
- Every value names one rule set, and the rule sets of the same value are
  one: two groups for `googlebot` are merged [P]. One `Group` of the
  engine's `Parsed` is one such rule set: its agent, the user-agent lines
  naming it, its rules.
- A rule's pattern is normalised: a pattern starting with `http://` or
  `https://` gets a leading `/`; a trailing `$` is kept as an anchor;
  percent-escapes are decoded, except `%2F`, `%25` and `%2A`, which stay
  (upper-cased); decoded bytes that are not UTF-8 become U+FFFD; and the
  result is quoted with `/`, `%`, `*` and `=` left as they are [P]. `Rule.normalised` is that form and
  `Rule.length` its length, the priority [P].
- A pattern with `$` in it also adds, just before itself, the rule with
  every `$` written `%24` (a literal dollar sign); where the two are the
  same (`$` only in the middle) this engine keeps one [P; the duplicate
  cannot change an answer].
- An Allow pattern whose normalised form ends in `/index.html` also adds
  an Allow rule for the directory itself, anchored (`/a/index.html` adds
  `/a/$`) [P].
- A pattern that normalises to nothing adds no rule [P].
- A rule set's rules are sorted longest first, Allow before Disallow at the
  same length, then in file order (a stable sort) [P].

Choosing the rule set:

- The crawler's name is stripped and lower-cased (the Verdict's
  `agent_token`) [P]. A rule set named `*` scores 1; another scores the
  length of its name when the name occurs in the crawler's name at a start
  of a word (at the start, or after a character that is neither
  alphanumeric nor `-` or `_`; the end is not checked: `foo` matches
  `foobar/1.0` and `Mozilla/5.0 (compatible; Foo/1.0)`, not `myfoo`) [P].
- The highest score wins, the first rule set in file order on a tie (so a
  one-letter name ties with `*`); a best score of 0 means no rule set, and
  everything is allowed [P].

Matching:

- A URL whose parsed path (`urlparse`) is exactly `/robots.txt` is always
  allowed [P]. This engine decides that from the compared target
  (`/robots.txt`, then nothing, `?...` or `;params`), so a URL that spells
  it with escapes (`/robots%2Etxt`) counts too, which Protego does not
  (inferred boundary: the engine's `match` sees only the target; see
  `tests/access/engines/known_differences.py`).
- The target is the URL's path and query, fragment, scheme and host
  dropped (`?` with an empty query kept), normalised as patterns are
  except that `%2A` is decoded (so a `*` in a URL is `%2A`), and starting
  with `/` [P]. That is `target(url)`.
- The first rule in the sorted order that matches decides; no match means
  allowed [P]. A pattern without `*` matches as a prefix, or the whole
  target when it ends in `$`; `*` matches any run of characters, a final
  `$` anchors the end [P]. `candidates` are every matching rule in that
  order, the first deciding.

Where Protego raises, this engine answers instead (robotscope's choice;
see `tests/access/engines/known_differences.py`): lone surrogates in text (`quote`
raises) are dropped, as Scrapy's decoding drops undecodable bytes; a URL
whose host `urlsplit` or `urlparse` rejects (`http://[x/a?q`) is read as
its path after `scheme://host`.

Fetch policy: `rfc9309` (robotscope's fetcher decides what a status code
means); Scrapy's middleware parses whatever body it gets, which is not
modelled here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from heapq import merge
from urllib.parse import quote, urlsplit

from ...syntax.model import Group, Rule
from ...syntax.parsed import ParsedFile
from ...syntax.patterns import Pattern
from ..matching.candidates import CandidateRules
from ..matching.precedence import best_first
from ..matching.tuning import LOOKUP_RULE_SETS_FROM, MANY_RULES
from .base import Engine, Match, Parsed, Selection
from .legacy import numbered_lines

_AGENT_KEYS = frozenset({"user-agent", "useragent", "user agent"})
_ALLOW_KEYS = frozenset({"allow"})
_DISALLOW_KEYS = frozenset({"disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw"})
_SITE_KEYS = frozenset({"sitemap", "sitemaps", "site-map", "host"})  # site-wide: no effect on groups
_OTHER_KEYS = frozenset({"crawl-delay", "crawl delay", "request-rate", "request rate", "visit-time", "visit time"})
_KEYS = _AGENT_KEYS | _ALLOW_KEYS | _DISALLOW_KEYS | _SITE_KEYS | _OTHER_KEYS
_KEY_WORDS = max(len(key.split()) for key in _KEYS)

_SURROGATES = re.compile("[\ud800-\udfff]")
_ESCAPE = re.compile("%([0-9A-Fa-f]{2})")
_STARS = re.compile(r"\*+")
# URLs and patterns made only of characters normalising leaves alone: a shortcut Protego takes too
# (the same result, and a URL's host is then never parsed, so `http://[x/a` does not raise).
_PLAIN_URL = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*)?(/(?!/)[A-Za-z0-9_.~/=-]*)")
_PLAIN_PATTERN = re.compile(r"[A-Za-z0-9_.~/=*-]+\$?")
_AUTHORITY = re.compile(r"\A[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*")

_URL_KEPT = frozenset(b"/%")  # escapes left encoded in a URL
_PATTERN_KEPT = frozenset(b"/%*")  # and in a pattern, where `*` is the wildcard
_URL_SAFE = "/%="
_PATTERN_SAFE = "/%*="
_INDEX = "index.html"


def _directive(line: str) -> tuple[str, str] | None:
    """The (key, value) Protego reads a stripped, non-empty line as, or None for a line it ignores."""
    key: str | None = None
    value = ""
    head, colon, rest = line.partition(":")
    if colon:
        key, value = head.strip().lower(), rest.strip()
        if key in _KEYS or not rest or rest[0].isspace():
            return key, value
    words = line.split()
    for count in range(1, _KEY_WORDS + 1):
        candidate = " ".join(words[:count]).lower()
        if candidate in _KEYS:
            return candidate, " ".join(words[count:])
    return None if key is None else (key, value)


def _normalise(value: str, kept: frozenset[int], safe: str) -> str:
    """Escapes decoded (but those of `kept`, upper-cased), then quoted with `safe` left as it is."""
    if "%" in value:
        decoded = bytearray()
        start = 0
        for escape in _ESCAPE.finditer(value):
            decoded += value[start : escape.start()].encode("utf-8")
            octet = int(escape.group(1), 16)
            if octet in kept:
                decoded += b"%" + escape.group(1).upper().encode("ascii")
            else:
                decoded.append(octet)
            start = escape.end()
        decoded += value[start:].encode("utf-8")
        value = decoded.decode("utf-8", "replace")
    return quote(value, safe=safe)


def normalise_pattern(pattern: str) -> str:
    """A rule's value as Protego compares it (`Rule.normalised`)."""
    if _PLAIN_PATTERN.fullmatch(pattern):
        return pattern
    if pattern.startswith(("https://", "http://")):
        pattern = "/" + pattern
    anchor = ""
    if pattern.endswith("$"):
        pattern, anchor = pattern[:-1], "$"
    return _normalise(pattern, _PATTERN_KEPT, _PATTERN_SAFE) + anchor


def target(url: str) -> str:
    """What Protego compares a URL as: its path and query, normalised, starting with `/`."""
    url = _SURROGATES.sub("", url)
    plain = _PLAIN_URL.fullmatch(url)
    if plain:
        return plain.group(1)
    url = url.partition("#")[0]
    try:
        parts = urlsplit(url)
        path = parts.path + (f"?{parts.query}" if "?" in url else "")
    except ValueError:  # Protego raises here; read the URL as what follows scheme://host
        path = _AUTHORITY.sub("", url, count=1)
    normalised = _normalise(path, _URL_KEPT, _URL_SAFE)
    return normalised if normalised.startswith("/") else "/" + normalised


@dataclass(eq=False)
class _RuleSet:
    name: str
    agent_lines: list[int] = field(default_factory=list)
    # The rules of each run of lines this name was in, each list shared by every name of its run:
    # one rule line then costs one append, not one per name (a run of thousands of user-agent
    # lines above thousands of rules would be their product).
    blocks: list[list[Rule]] = field(default_factory=list)


def _rules_of(allow: bool, value: str, line: int, cache: dict[str, str]) -> list[Rule]:
    """The rules one Allow or Disallow line adds to each rule set it is for, in the order Protego adds them."""
    values = [value.replace("$", "%24"), value] if "$" in value else [value]
    rules: list[Rule] = []
    for each in values:
        normalised = cache.get(each)
        if normalised is None:
            normalised = cache[each] = normalise_pattern(each)
        if not normalised:
            continue
        made = [Rule(allow, value, line, normalised)]
        if allow and normalised.endswith("/" + _INDEX):
            made.append(Rule(True, value, line, normalised[: -len(_INDEX)] + "$"))
        rules.extend(rule for rule in made if rule not in rules)
    return rules


def _text(robots: ParsedFile) -> str:
    source = robots.source
    if isinstance(source, bytes):
        text = source.decode("utf-8", "surrogateescape")  # the surrogates go below: Scrapy's errors="ignore"
        return text.removeprefix("\ufeff")
    return source


def read(robots: ParsedFile) -> Parsed:
    """Protego's rule sets, in the order it first meets each name, each as a `Group` whose rules `select` sorts out."""
    sets: dict[str, _RuleSet] = {}
    current: dict[str, _RuleSet] = {}  # the rule sets the lines now apply to, by name
    block: list[Rule] | None = None  # the rules of the current run, shared by its rule sets
    every: list[Rule] = []
    runs: list[list[Rule]] = []  # every block, in file order
    previous: str | None = None
    cache: dict[str, str] = {}
    for number, raw in numbered_lines(_text(robots)):
        line = _SURROGATES.sub("", raw.split("#", 1)[0]).strip()
        if not line:
            continue
        directive = _directive(line)
        if directive is None:
            continue
        key, value = directive
        if key in _AGENT_KEYS and previous is not None and previous not in _AGENT_KEYS:
            current, block = {}, None
        if key not in _SITE_KEYS:
            previous = key
        if not value or (not current and key not in _AGENT_KEYS):
            continue
        if key in _AGENT_KEYS:
            name = value.lower()
            names = [name, name.replace("*", "")] if name != "*" and "*" in name else [name]
            for each in names:
                if not each:
                    continue
                rule_set = sets.get(each)
                if rule_set is None:
                    rule_set = sets[each] = _RuleSet(each)
                current[each] = rule_set
                rule_set.agent_lines.append(number)
        elif key in _ALLOW_KEYS or key in _DISALLOW_KEYS:
            added = _rules_of(key in _ALLOW_KEYS, value, number, cache)
            if block is None:
                block = []
                runs.append(block)
                for rule_set in current.values():
                    rule_set.blocks.append(block)
            block.extend(added)
            every.extend(added)
    groups = tuple(Group(position, (s.name,), tuple(s.agent_lines), (), ()) for position, s in enumerate(sets.values()))
    # A run's rules once, as a group of their own that every rule set of the run shares, sorted the
    # way Protego tries them: a crawler's rule set is its blocks merged (`match`), not a sorted copy.
    # Numbered in file order: a crawler's blocks are merged in that order (`regroup` keeps it).
    shared = {id(rules): Group(at, (), (), tuple(best_first(rules)), ()) for at, rules in enumerate(runs)}
    blocks = tuple(tuple(shared[id(b)] for b in rule_set.blocks) for rule_set in sets.values())
    # `prepared`: each rule set's blocks, the filters of large blocks by their position (made on first
    # use), and the rule sets by name.
    named = {group.agents[0]: group for group in groups}
    return Parsed(groups, robots.size, tuple(every), (blocks, {}, named))


def score(name: str, crawler: str) -> int:
    """How well a rule set named `name` fits a crawler's stripped, lower-cased name (0: not at all)."""
    if name == "*":
        return 1
    at = crawler.find(name)
    while at >= 0:
        if at == 0 or not (crawler[at - 1].isalnum() or crawler[at - 1] in "-_"):
            return len(name)
        at = crawler.find(name, at + 1)
    return 0


def scanned(groups: tuple[Group, ...], crawler: str) -> Group | None:
    """The rule set that fits the crawler best, the first of equal fits, each scored in turn (Protego's way)."""
    best: Group | None = None
    best_score = 0
    for group in groups:
        fit = score(group.agents[0], crawler)
        if fit > best_score:  # strictly: the first of equal scores stays
            best, best_score = group, fit
    return best


def looked_up(named: dict[str, Group], crawler: str) -> Group | None:
    """`scanned`'s choice from the rule sets by name: every name the crawler's words can start.

    A name fits where it starts a word of the crawler (`score`) and fits by
    its length, so the best is the longest name found at a word start (`*`
    scores 1), the first rule set among equals: about len(crawler) squared
    lookups, whatever the number of rule sets.
    """
    best = named.get("*")
    best_score = 1 if best is not None else 0
    for at in range(len(crawler)):
        if at and (crawler[at - 1].isalnum() or crawler[at - 1] in "-_"):
            continue
        for end in range(len(crawler), at + max(best_score, 1) - 1, -1):  # the longest name from here
            found = named.get(crawler[at:end])
            if found is not None:
                fit = end - at
                if best is None or fit > best_score or found.position < best.position:
                    best, best_score = found, fit
                break
    return best


def select(parsed: Parsed, agent: str) -> Selection:
    crawler = agent.strip().lower()
    blocks, filters, named = parsed.prepared
    few = len(parsed.groups) < LOOKUP_RULE_SETS_FROM
    best = scanned(parsed.groups, crawler) if few else looked_up(named, crawler)
    if best is None:
        return Selection(crawler, ())
    return Selection(crawler, (best, *blocks[best.position]), filters)


def regroup(parsed: Parsed, groups: tuple[Group, ...]) -> Selection:
    """A selection of some of a rule set's blocks, matched as `select`'s are."""
    return Selection("", groups, parsed.prepared[1])


def _pattern(pattern: str) -> Pattern:
    """A pattern's literal pieces and end anchor, as `matches` reads them."""
    anchored, pieces = _pieces(pattern)
    return Pattern(pieces, anchored)


@lru_cache(maxsize=8192)
def _pieces(pattern: str) -> tuple[bool, tuple[str, ...]]:
    """A wildcard pattern as (anchored at the end, the literal pieces between runs of `*`)."""
    anchored = pattern.endswith("$")
    return anchored, tuple(_STARS.split(pattern[:-1] if anchored else pattern))


def matches(pattern: str, path: str) -> bool:
    """Whether a normalised pattern matches a target, as Protego's URL patterns do."""
    if "*" not in pattern:
        return path == pattern[:-1] if pattern.endswith("$") else path.startswith(pattern)
    anchored, pieces = _pieces(pattern)
    if not path.startswith(pieces[0]):
        return False
    at = len(pieces[0])
    for piece in pieces[1:-1]:
        found = path.find(piece, at)
        if found < 0:
            return False
        at = found + len(piece)
    last = pieces[-1]
    if anchored:
        return len(path) - len(last) >= at and path.endswith(last)
    return not last or path.find(last, at) >= 0


def is_robots_txt(path: str) -> bool:
    """Whether a target is `/robots.txt` as Protego's implicit allow sees it (see the module's notes)."""
    if not path.startswith("/robots.txt"):
        return False
    rest = path[len("/robots.txt") :]
    if not rest or rest.startswith("%3F"):
        return True
    # `;params` of the last path segment: up to the query, no `/`.
    return rest.startswith("%3B") and "/" not in rest.partition("%3F")[0]


def _hits(block: Group, path: str, filters: dict[int, CandidateRules] | None) -> tuple[Rule, ...]:
    """The rules of one block that match, in the order Protego tries them; a large block through its filter."""
    rules: Iterable[Rule] = block.rules
    if filters is not None and len(block.rules) >= MANY_RULES:
        found = filters.get(block.position)
        if found is None:
            found = filters[block.position] = CandidateRules(block.rules, _pattern, lambda _: False)
        rules = found.of(path)
    return tuple(rule for rule in rules if matches(rule.normalised, path))


def _rank(rule: Rule) -> int:
    return 2 * len(rule.normalised) + rule.allow  # `best_first`'s order: longest first, allow first among equals


def match(selection: Selection, path: str) -> Match:
    implicit = is_robots_txt(path)
    found = [_hits(block, path, selection.prepared) for block in selection.groups if block.rules]
    # Merging the blocks' sorted hits is sorting the rule set's rules (file order among equals:
    # `merge` takes equal keys from the earlier block first).
    hits = found[0] if len(found) == 1 else tuple(merge(*found, key=_rank, reverse=True))
    return Match(hits[0] if hits else None, hits, implicit)


ENGINE: Engine = Engine(
    name="protego",
    title="Protego",
    sources=(
        "https://github.com/scrapy/protego",
        "https://github.com/scrapy/scrapy/blob/master/scrapy/robotstxt.py",
    ),
    policy="rfc9309",
    read=read,
    select=select,
    match=match,
    regroup=regroup,
    target=target,
    notes=("engine.protego.note.robots-txt",),
)

__all__ = ["ENGINE", "is_robots_txt", "matches", "normalise_pattern", "score"]
