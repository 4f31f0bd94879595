"""`google`: Google's own reading, its open-source parser plus the crawler fallbacks and limits Google documents.

The parser and matcher are those of google/robotstxt as published
(https://github.com/google/robotstxt, `robots.cc`; the functions named below
are upstream's). On top of them come what Google documents for its crawlers
but the library leaves to its callers: the 500 KiB size limit ("How Google
interprets the robots.txt specification",
https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt,
below "Google's page") and each crawler's fallback group (the crawler
catalogue, `crawlers.csv`, from Google's crawler overview pages). A failed
fetch is judged by the `google` fetch policy (`robotscope.access.policy`).

Behaviour by behaviour, with its source ("inferred" marks what no source
says in so many words):

Reading the file (`read`):

- Size: only the first 512,000 bytes (500 KiB) are read. Google's page:
  "Google enforces a robots.txt file size limit of 500 kibibytes (KiB).
  Content which is after the maximum file size is ignored." The library
  itself reads every byte. Inferred: the cut is at byte 512,000 exactly, so
  a line straddling it is read up to the limit (the crawler hands the first
  500 KiB of the body to the parser), not dropped whole as RFC 9309's reading
  drops it.
- Bytes, not text: the parser works on octets (`RobotsTxtParser::Parse`).
  A UTF-8 byte order mark, or any leading part of one, is skipped. Lines end
  at LF, CR or CRLF, numbered as robotscope numbers them. A line keeps at
  most `kMaxLineLen - 1` = 16,663 bytes (2083 * 8 - 1); the rest of it is
  ignored. The line is a C string, so it ends at its first NUL byte.
- Records (`GetKeyAndValueFrom`): a `#` starts a comment; ASCII whitespace
  is stripped (`absl::StripAsciiWhitespace`); the key ends at the first
  `:`, or, on a line with no colon, at the first space or tab when exactly
  two words stand on the line ("Google-specific optimization: some people
  forget the colon"), so `Disallow /oops` is a rule with the pattern
  `/oops`, while `Disallow /a /b` is nothing.
- Keys (`GetKeyType`, `KeyIsUserAgent`, `KeyIsAllow`, `KeyIsDisallow`,
  `KeyIsSitemap` under `kAllowFrequentTypos`): a key is read by the start
  it has, case-insensitively, its common typos included (`useragent`,
  `user agent`, `dissallow`, `dissalow`, `disalow`, `diasllow`,
  `disallaw`, `site-map`), so `Disallowed:` and `User-agents:` count too.
  `syntax.directives.google_key` is the one model of it, shared with the linter.
- Patterns (`MaybeEscapePattern`, applied to every value but user-agent and
  sitemap): octets with the high bit set become `%XX`, and the hex digits of
  an existing escape are upper-cased (`%c3%a9` -> `%C3%A9`). Nothing else is
  encoded or decoded: `%7E` stays `%7E`, a space stays a space.
- Groups (`RobotsMatcher::HandleUserAgent`, `HandleAllow`, `HandleDisallow`):
  user-agent lines in a row form a group; a user-agent line after an allow or
  disallow line starts a new one; sitemaps and other records do not end a
  run, Content-Usage and Content-Signal included (which robotscope's RFC 9309
  parse reads as rules: `usage-rule-ends-group` in
  docs/differences-from-google.md). Rules before any user-agent line belong
  to no group.
- User-agent values (`HandleUserAgent`, `ExtractUserAgent`): `*` alone, or
  `*` then whitespace and anything (`User-agent: * foo`), is the global group;
  any other value names the leading run of ASCII letters, `-` and `_`, so
  `Googlebot/2.1` names `googlebot`, `MJ12bot` names `mj` and `360Spider`
  names nothing.

Choosing the groups (`select`):

- Agent matching (`HandleUserAgent`, `absl::EqualsIgnoreCase`): the
  crawler's token, case-insensitively, against each group's names; every
  group naming it counts and their rules are merged (Google's page: "If
  there's more than one group for a specific user agent, all the rules from
  the groups applicable to the specific user agent are combined"). When none
  names it, the `*` groups apply (`RobotsMatcher::disallow`: the global
  matches count only when `ever_seen_specific_agent_` is false). A group
  naming both the crawler and `*` counts as the crawler's own.
- The crawler's token: the library is handed a product token; robotscope
  reads it from what the caller gives, a token or a full User-Agent string
  (`useragents.product_token`), and compares it whole, so a crawler asked
  about as `MJ12bot` matches no `User-agent: MJ12bot` group (which names
  `mj`), as in the library.
- Operator profile (the crawler catalogue's rows for operator "Google",
  citing Google's crawler overview pages
  https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers
  and .../google-special-case-crawlers): `Googlebot-Image`, `Googlebot-Video`,
  `Googlebot-News` and `Google-InspectionTool` obey the `Googlebot` groups
  when no group names them; `AdsBot-Google`, `AdsBot-Google-Mobile`,
  `Mediapartners-Google` and `APIs-Google` ignore the `*` group.
  `engines.base.profiled` applies the catalogue, on the names as Google's
  parser reads them. Inferred: the fallback token's groups are chosen by the
  library's own matching (the library does not know the fallbacks).

Matching (`match`, `target`):

- The target (`GetPathParamsQuery`, `AllowedByRobots`): the path, params and
  query of the URL as written (scheme, authority and fragment removed,
  always starting with `/`), neither escaped nor unescaped ("the user is
  asked to provide it in escaped form already"), up to a NUL. `*` and `$` in
  the URL are ordinary characters (upstream issue #57).
- Patterns (`RobotsMatchStrategy::Matches`): anchored at the start of the
  target, case-sensitive, `*` matches any run of characters, `$` only at the
  end of the pattern anchors the end; elsewhere `$` is itself. Matched here
  by the literal pieces between `*`s, leftmost first, in linear time.
- Precedence (`LongestMatchRobotsMatchStrategy`, `RobotsMatcher::disallow`):
  a matching rule's priority is the length in octets of its escaped pattern,
  `*` and `$` included (`Rule.length`, since `Rule.normalised` holds that
  escaped pattern: unlike the `rfc9309` reading's, `%7E` counts three and
  `/a b` four). The longest match wins; on a tie an allow wins ("the least
  restrictive rule", Google's page), and among rules of one kind and length
  the earliest line (`Match::Set` only on a strictly higher priority). An
  empty pattern matches with priority 0, which decides nothing.
- The index.html rule (`HandleAllow`: "'index.htm' and 'index.html' are
  normalized to '/'"): an allow whose pattern, from its last `/`, starts
  with `/index.htm` and does not match, is tried once more as the pattern up
  to that `/` plus `$`: `Allow: /dir/index.html` also allows `/dir/`
  (the rule then competes with the length of `/dir/$`).
- `/robots.txt` is not implicitly allowed: Google applies the rules to it
  like to any path (the library has no such exception).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from ...syntax.directives import google_key
from ...syntax.model import Group, Record, Rule
from ...syntax.parsed import ParsedFile
from ...syntax.parser import GroupBuilder
from ...syntax.patterns import Pattern, matches
from ...syntax.tokens import product_token
from ..matching.candidates import CandidateRules
from ..matching.precedence import priority
from ..matching.tuning import MANY_RULES
from .base import Engine, Match, Parsed, Selection, applying, named_groups, profiled

OPERATOR = "Google"
SOURCES = (
    "https://github.com/google/robotstxt/blob/master/robots.cc",
    "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt",
    "https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers",
    "https://developers.google.com/crawling/docs/crawlers-fetchers/google-special-case-crawlers",
)

# Google's page: "Google enforces a robots.txt file size limit of 500 kibibytes (KiB)."
SIZE_LIMIT = 500 * 1024
# robots.cc, RobotsTxtParser::Parse: a line buffer of kMaxLineLen = 2083 * 8 bytes, one kept for the NUL.
MAX_LINE_BYTES = 2083 * 8 - 1

_BOM = b"\xef\xbb\xbf"
_LINE_END = re.compile(rb"\r\n|\r|\n")
_ASCII_SPACE = b" \t\n\v\f\r"  # absl::ascii_isspace, and C's isspace in the "C" locale
_SEPARATORS = re.compile(rb"[ \t]")  # what stands in for a missing colon
_NAME = re.compile(rb"[A-Za-z_-]*")  # ExtractUserAgent
_TO_ESCAPE = re.compile(rb"%[0-9A-Fa-f]{2}|[\x80-\xff]")  # MaybeEscapePattern's two cases


def _octets(source: str | bytes) -> bytes:
    """The input as the bytes a crawler would have fetched (octets kept by surrogateescape come back)."""
    if isinstance(source, bytes):
        return source
    try:
        return source.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return source.encode("utf-8", "surrogatepass")


def _lines(body: bytes) -> Iterator[tuple[int, bytes]]:
    """Each line's number and content, as `RobotsTxtParser::Parse` hands it on (cut, up to a NUL)."""
    start = 0
    while start < len(_BOM) and body[start : start + 1] == _BOM[start : start + 1]:
        start += 1  # a BOM, or the start of one
    for number, raw in enumerate(_LINE_END.split(body[start:] if start else body), start=1):
        raw = raw[:MAX_LINE_BYTES]
        nul = raw.find(b"\0")
        yield number, raw if nul < 0 else raw[:nul]


def _key_and_value(raw: bytes) -> tuple[bytes, bytes, bool] | None:
    """`GetKeyAndValueFrom`: (key, value, whether whitespace stood in for the colon), or None for no record."""
    hash_pos = raw.find(b"#")
    line = (raw if hash_pos < 0 else raw[:hash_pos]).strip(_ASCII_SPACE)
    if not line:
        return None
    sep = line.find(b":")
    missing = sep < 0
    if missing:
        found = _SEPARATORS.search(line)
        if found is None:
            return None
        if _SEPARATORS.search(line[found.end() :].lstrip(b" \t")):
            return None  # more than two words: not a record
        sep = found.start()
    key = line[:sep].strip(_ASCII_SPACE)
    if not key:
        return None
    return key, line[sep + 1 :].strip(_ASCII_SPACE), missing


def _escape_octet(found: re.Match[bytes]) -> bytes:
    text = found.group()
    return text.upper() if len(text) == 3 else b"%%%02X" % text[0]


def escape_pattern(value: bytes) -> str:
    """`MaybeEscapePattern`: octets with the high bit set as `%XX`, existing escapes' hex digits upper-cased.

    >>> escape_pattern("/caf\u00e9/%7e a".encode())
    '/caf%C3%A9/%7E a'
    """
    if value.isascii() and b"%" not in value:
        return value.decode("ascii")
    return _TO_ESCAPE.sub(_escape_octet, value).decode("ascii")


def agent_name(value: bytes) -> str | None:
    """What a user-agent value names for Google's parser (`HandleUserAgent`): `*`, a lower-cased name, or None.

    >>> agent_name(b"* foo"), agent_name(b"MJ12bot"), agent_name(b"360Spider"), agent_name(b"Googlebot/2.1")
    ('*', 'mj', None, 'googlebot')
    """
    if value[:1] == b"*" and (len(value) == 1 or value[1] in _ASCII_SPACE):
        return "*"
    name = _NAME.match(value).group()  # type: ignore[union-attr]  # matches the empty string at worst
    return name.decode("ascii").lower() or None


def _text(value: bytes) -> str:
    return value.decode("utf-8", "replace")


def read(robots: ParsedFile) -> Parsed:
    """The groups of the file's first 500 KiB as Google's parser forms them."""
    builders: list[GroupBuilder] = []
    current: GroupBuilder | None = None
    run: tuple[str, ...] = ()  # the names of the user-agent lines right above a record
    in_run = False
    for number, raw in _lines(_octets(robots.source)[:SIZE_LIMIT]):
        record = _key_and_value(raw)
        if record is None:
            continue
        key, value, _ = record
        kind = google_key(_text(key))
        if kind == "user-agent":
            if current is None or current.rules:
                current = GroupBuilder()  # a user-agent line after a rule starts a new group
                builders.append(current)
            name = agent_name(value)
            if name is not None:
                current.agents.append(name)
            current.agent_lines.append(number)
            run = (run if in_run else ()) + (() if name is None else (name,))
            in_run = True
        elif kind in ("allow", "disallow"):
            in_run = False
            if current is not None:  # HandleAllow/HandleDisallow: ignored before any user-agent line
                current.rules.append(Rule(kind == "allow", _text(value), number, escape_pattern(value)))
        elif kind is None:
            in_run = False
            if current is not None:
                current.records.append(Record(_text(key).lower(), _text(value), number, len(builders) - 1, run))
    groups = tuple(
        Group(i, tuple(b.agents), tuple(b.agent_lines), tuple(b.rules), tuple(b.records))
        for i, b in enumerate(builders)
    )
    # `prepared`: the rule filters `select` builds, by the groups chosen (crawlers share them).
    return Parsed(groups, robots.size, prepared={}, named=named_groups(groups))


def groups_for(parsed: Parsed, token: str) -> tuple[Group, ...]:
    """The groups Google's matcher applies to `token`, without any operator profile: those naming it, else `*`."""
    return applying(parsed, token)


def _select(parsed: Parsed, agent: str) -> Selection:
    """The groups for `agent` by Google's matching alone."""
    token = product_token(agent)
    return _indexed(parsed, token, groups_for(parsed, token))


# Google's matching, with the catalogue's profiles for Google's own crawlers.
select = profiled(_select, OPERATOR)


def regroup(parsed: Parsed, groups: tuple[Group, ...]) -> Selection:
    """Some of the groups a crawler chose, with their rule filter when there are many (kept per groups)."""
    return _indexed(parsed, "", groups)


def _indexed(parsed: Parsed, token: str, groups: tuple[Group, ...]) -> Selection:
    """The selection, with the rules a target can meet found from their literals when there are many."""
    if sum(len(group.rules) for group in groups) < MANY_RULES:
        return Selection(token, groups)
    filters: dict[tuple[int, ...], CandidateRules] = parsed.prepared
    key = tuple(group.position for group in groups)
    found = filters.get(key)
    if found is None:
        rules = [rule for group in groups for rule in group.rules]
        # An allow of an index.html page is also tried as its directory: tested every time.
        found = filters[key] = CandidateRules(
            rules, _compiled, lambda rule: rule.allow and _index_dir(rule.normalised) is not None
        )
    return Selection(token, groups, found)


@lru_cache(maxsize=65_536)
def _compiled(pattern: str) -> Pattern:
    """`Matches`' reading of a pattern: pieces between `*`s, a final `$` anchoring; any other `$` is literal."""
    anchored = pattern.endswith("$")
    pieces = (pattern[:-1] if anchored else pattern).split("*")
    return Pattern(tuple(pieces), anchored)


def _index_dir(pattern: str) -> str | None:
    """`HandleAllow`'s index.html rule: `/dir/index.htm...` is also tried as `/dir/$`."""
    slash = pattern.rfind("/")
    if slash < 0 or not pattern.startswith("/index.htm", slash):
        return None
    return pattern[: slash + 1] + "$"


def match(selection: Selection, path: str) -> Match:
    """Every rule of the groups that matches `path`, longest first (allow first on ties); the first decides."""
    found: list[Rule] = []
    candidates = selection.prepared
    for rule in (r for g in selection.groups for r in g.rules) if candidates is None else candidates.of(path):
        pattern = rule.normalised
        if not pattern:
            continue  # priority 0: decides nothing
        if matches(_compiled(pattern), path):
            found.append(rule)
        elif rule.allow:
            directory = _index_dir(pattern)
            if directory is not None and matches(_compiled(directory), path):
                found.append(rule._replace(normalised=directory))
    found.sort(key=priority)
    return Match(found[0] if found else None, tuple(found))


def path_params_query(url: str) -> str:
    """`GetPathParamsQuery`: the path, params and query of `url` as written, starting with `/`.

    >>> path_params_query("https://example.com/a*b$?q=%7e#frag"), path_params_query("example.com?x")
    ('/a*b$?q=%7e', '/?x')
    """
    start = 2 if url.startswith("//") else 0
    early_path = _first_of(url, start)
    protocol_end = url.find("://", start)
    if protocol_end < 0 or 0 <= early_path < protocol_end:
        protocol_end = start  # no scheme, or the `://` stands in the path or query
    else:
        protocol_end += 3
    path_start = _first_of(url, protocol_end)
    if path_start < 0:
        return "/"
    hash_pos = url.find("#", start)
    if 0 <= hash_pos < path_start:
        return "/"
    path = url[path_start:] if hash_pos < 0 else url[path_start:hash_pos]
    return path if path[0] == "/" else "/" + path


def _first_of(url: str, start: int) -> int:
    """The first `/`, `?` or `;` of `url` from `start`, or -1 (`find_first_of("/?;")`)."""
    found = [i for i in (url.find("/", start), url.find("?", start), url.find(";", start)) if i >= 0]
    return min(found) if found else -1


def target(url: str) -> str:
    """What Google matches rules against: the path and query as written, up to a NUL (the library's C string)."""
    path = path_params_query(url)
    nul = path.find("\0")
    return path if nul < 0 else path[:nul]  # never empty: the path starts with `/`


ENGINE: Engine = Engine(
    name="google",
    title="Google",
    sources=SOURCES,
    policy="google",
    read=read,
    select=select,
    match=match,
    regroup=regroup,
    target=target,
    operator=OPERATOR,
    notes=("engine.google.note.size-limit", "engine.google.note.fallback"),
)

__all__ = ["ENGINE", "MAX_LINE_BYTES", "SIZE_LIMIT", "agent_name", "escape_pattern", "groups_for", "path_params_query"]
