"""The deliberate differences between robotscope and Google's robots.txt library.

This is the single list: `tests/differential/test_google.py` classifies every
disagreement it finds on the corpus into one of these codes,
`tests/differential/test_google_cases.py` shows each one on a hand-written
snippet, and `docs/differences-from-google.md` describes them for users (a
test checks that every code below appears there).

Each `KnownDifference` carries the transformation that confirms it: a
function that takes a `Trial` (what each library is given) and returns one
with that difference removed, or None when the cause is not present. If
robotscope and Google agree on the transformed trial, the difference is
confirmed as the cause of the disagreement. Google's library is the PyPI wheel `fast-robotstxt` (import
`robotstxt`), a fork of google/robotstxt (github.com/nzrsky/robotstxt); the
differences that come from the fork's changes, not from upstream Google, are
marked `fork_only`.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable
from typing import Any, NamedTuple

import robotscope
from robotscope.access.verdicts import is_robots_txt
from robotscope.syntax.directives import GROUP_RULE_KEYS, google_key  # the one model of how Google reads keys
from robotscope.syntax.model import LineKind, Reason
from robotscope.syntax.parser import MAX_BYTES, classify
from robotscope.syntax.tokens import product_token
from robotscope.syntax.urls import path_and_query, target

# --------------------------------------------------------------------------
# Running both libraries
# --------------------------------------------------------------------------


class Case(NamedTuple):
    """One comparison: a robots.txt file (raw bytes), a crawler and a URL."""

    data: bytes
    agent: str
    url: str

    @property
    def text(self) -> str:
        """The file as Google's binding gets it (it takes `str`)."""
        return self.data.decode("utf-8", "replace")


@dataclasses.dataclass(frozen=True)
class Trial:
    """What each library is given: a case with (maybe) one difference removed.

    `r_data`/`g_text` are the robots.txt for robotscope and for Google,
    `r_url`/`g_url` the URL each is asked about. With `implicit_robots_txt`
    false, robotscope's answer is its best matching rule even for /robots.txt.
    `line_map` maps a line number of `r_data` back to the original file's
    line (for transformations that insert lines). `g_agent`, when set, is
    the crawler name Google is asked about instead of `agent`.
    """

    r_data: bytes | str
    g_text: str
    r_url: str
    g_url: str
    agent: str
    implicit_robots_txt: bool = True
    line_map: tuple[int, ...] | None = None
    g_agent: str | None = None


class Outcome(NamedTuple):
    """Both answers: allowed flags and the deciding lines (None: no rule decided)."""

    r_allowed: bool
    r_line: int | None
    g_allowed: bool
    g_line: int | None

    @property
    def allowed_agree(self) -> bool:
        return self.r_allowed == self.g_allowed

    @property
    def lines_agree(self) -> bool:
        """Lines are compared only where both libraries were decided by a rule."""
        return self.r_line is None or self.g_line is None or self.r_line == self.g_line

    @property
    def agree(self) -> bool:
        return self.allowed_agree and self.lines_agree


_matcher = None


def google_matcher() -> Any:
    """One shared `robotstxt.RobotsMatcher` (Google's C++ library)."""
    global _matcher
    if _matcher is None:
        import robotstxt

        _matcher = robotstxt.RobotsMatcher()
    return _matcher


def google(text: str, agent: str, url: str) -> tuple[bool, int]:
    """Google's verdict and its `matching_line` (0 when no rule matched)."""
    m = google_matcher()
    allowed = m.is_allowed(text, agent, url)
    return allowed, m.matching_line


def google_rule_line(text_lines: list[str], line: int) -> int | None:
    """Google's matching line, or None when it names no non-empty rule.

    Google reports the line of an empty `Disallow:` (priority 0) as its
    matching line although it decides nothing; treat that as "no rule".
    """
    if line <= 0 or line > len(text_lines):
        return None
    split = google_split(text_lines[line - 1])
    if split is None or not split[1]:
        return None
    return line


@functools.lru_cache(maxsize=8)
def parse_cached(data: bytes | str) -> robotscope.Robots:
    """`robotscope.parse`, remembering the last few files (classifying re-asks about one file)."""
    return robotscope.parse(data)


def run_trial(trial: Trial) -> Outcome:
    """Ask both libraries about one trial."""
    robots = parse_cached(trial.r_data)
    verdict = robots.verdict(trial.agent, trial.r_url)
    r_allowed, r_line = verdict.allowed, verdict.line
    if not trial.implicit_robots_txt and verdict.reason is Reason.ROBOTS_TXT:
        best = verdict.candidates[0] if verdict.candidates else None
        r_allowed = True if best is None else best.allow
        r_line = None if best is None else best.line
    if r_line is not None and trial.line_map is not None:
        r_line = trial.line_map[r_line - 1]
    g_allowed, g_raw_line = google(trial.g_text, trial.g_agent or trial.agent, trial.g_url)
    g_line = google_rule_line(split_lines_cached(trial.g_text), g_raw_line)
    return Outcome(r_allowed, r_line, g_allowed, g_line)


def identity(case: Case) -> Trial:
    """The case as it is: both libraries get the same file, agent and URL."""
    return Trial(case.data, case.text, case.url, case.url, case.agent)


# --------------------------------------------------------------------------
# How Google reads a line (robots.cc, GetKeyAndValueFrom and ParsedRobotsKey)
# --------------------------------------------------------------------------

_G_WS = " \t\n\r\x0b\x0c"


def split_lines(text: str) -> list[str]:
    """Lines the way both libraries number them: LF, CRLF and CR end a line."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


@functools.lru_cache(maxsize=8)
def split_lines_cached(text: str) -> list[str]:
    return split_lines(text)


def google_split(raw: str) -> tuple[str, str, bool] | None:
    """Return (key, value, missing_colon) as Google reads a line, or None.

    Google drops the comment first, then splits at the first colon; with no
    colon it accepts whitespace as the separator when the line has exactly
    two words ("Disallow /x").
    """
    hash_pos = raw.find("#")
    line = (raw if hash_pos < 0 else raw[:hash_pos]).strip(_G_WS)
    if not line:
        return None
    sep = line.find(":")
    missing = False
    if sep < 0:
        spaces = [i for i in (line.find(" "), line.find("\t")) if i >= 0]
        if not spaces:
            return None
        sep = min(spaces)
        rest = line[sep:].strip(_G_WS)
        if " " in rest or "\t" in rest:
            return None
        missing = True
    key = line[:sep].strip(_G_WS)
    if not key:
        return None
    return key, line[sep + 1 :].strip(_G_WS), missing


def google_rule_values(text: str) -> list[str]:
    """The values of every line Google reads as allow or disallow, in order."""
    values = []
    for raw in split_lines(text):
        split = google_split(raw)
        if split is not None and google_key(split[0]) in ("allow", "disallow") and split[1]:
            values.append(split[1])
    return values


# --------------------------------------------------------------------------
# Transformations: each removes one known difference from a trial
# --------------------------------------------------------------------------
#
# A transformation takes a `Trial` and returns a new one with one known
# difference removed, or None when the trial does not have that cause. It
# changes one side only (robotscope's input or Google's), reading that side's
# current input, so transformations compose: `b(a(trial))`.


def _r_text(trial: Trial) -> str:
    data = trial.r_data
    return data.decode("utf-8", "replace") if isinstance(data, bytes) else data


@functools.lru_cache(maxsize=64)
def _rewrite_lines(text: str, fn: Callable[[str], str | None]) -> str | None:
    """Apply `fn` to every line (None keeps it); None when nothing changed.

    Cached: a file's disagreements are classified one after the other, and
    `fn` is always one of the module-level line fixers below.
    """
    lines = split_lines(text)
    changed = False
    for i, raw in enumerate(lines):
        new = fn(raw)
        if new is not None and new != raw:
            lines[i] = new
            changed = True
    return "\n".join(lines) if changed else None


def _canonical_line(raw: str, missing_colon: bool) -> str | None:
    split = google_split(raw)
    if split is None:
        return None
    key, value, missing = split
    canonical = google_key(key)
    if canonical is None or missing != missing_colon:
        return None
    if not missing and classify(raw)[0].value == canonical:
        return None  # robotscope reads the line the same way
    return f"{canonical}: {value}"


def _add_colon(raw: str) -> str | None:
    return _canonical_line(raw, missing_colon=True)


def _canonical_key(raw: str) -> str | None:
    return _canonical_line(raw, missing_colon=False)


def fix_missing_colons(trial: Trial) -> Trial | None:
    """Give robotscope `Disallow /x` lines rewritten as `disallow: /x` (line numbers kept)."""
    fixed = _rewrite_lines(_r_text(trial), _add_colon)
    return None if fixed is None else dataclasses.replace(trial, r_data=fixed)


def fix_key_typos(trial: Trial) -> Trial | None:
    """Give robotscope, canonically keyed, the lines whose key Google accepts.

    The keys in question: `User Agent`, `Dissallow`, `Disallow-x`.
    """
    fixed = _rewrite_lines(_r_text(trial), _canonical_key)
    return None if fixed is None else dataclasses.replace(trial, r_data=fixed)


def no_implicit_robots_txt(trial: Trial) -> Trial | None:
    """Let robotscope's best matching rule decide /robots.txt too."""
    if not trial.implicit_robots_txt or not is_robots_txt(target(trial.r_url)):
        return None
    return dataclasses.replace(trial, implicit_robots_txt=False)


def google_gets_token(trial: Trial) -> Trial | None:
    """Ask Google about the crawler's product token instead of the full User-Agent string."""
    token = product_token(trial.agent)
    if token == trial.agent.lower() or trial.g_agent is not None:
        return None
    return dataclasses.replace(trial, g_agent=token)


# What a WHATWG URL parser changes in a path and query (and RFC 9309 matching
# does not): an empty query, backslashes, dot segments (also escaped), tabs
# and newlines (removed), and characters it percent-encodes that robotscope
# compares as they are.
_WHATWG_REWRITES = re.compile(r"\?$|\\|/(?:\.|%2[eE]){1,2}(?:[/?]|$)|[\t\n\r\"<>`{}']")


def google_gets_path(trial: Trial) -> Trial | None:
    """Give Google the raw path and query instead of the full URL.

    The fork parses full URLs with ada (WHATWG): an empty query `?` is
    dropped, `\\` becomes `/`, dot segments are resolved. Given a string
    starting with `/` it falls back to taking it as it is, as upstream does.
    """
    path = path_and_query(trial.g_url)
    if path == trial.g_url or not _WHATWG_REWRITES.search(path):
        return None
    return dataclasses.replace(trial, g_url=path)


# %XX of an unreserved character (RFC 3986, Section 2.3): A-Z a-z 0-9 - . _ ~
_UNRESERVED_ESCAPE = re.compile(r"%(2[dDeE]|3[0-9]|[46][1-9a-fA-F]|[57][0-9aA]|5[fF]|7[eE])")


def _decode_unreserved(text: str) -> str:
    return _UNRESERVED_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text)


def _rule_value_fixer(fn: Callable[[str], str]) -> Callable[[str], str | None]:
    """A line fixer applying `fn` to the value of an allow/disallow line."""

    def fix(raw: str) -> str | None:
        split = google_split(raw)
        if split is None or google_key(split[0]) not in ("allow", "disallow") or not split[1]:
            return None
        key, value, missing = split
        new_value = fn(value)
        if new_value == value:
            return None
        return f"{key}{' ' if missing else ': '}{new_value}"

    return fix


_decode_unreserved_in_rule = _rule_value_fixer(_decode_unreserved)


def decode_unreserved_escapes(trial: Trial) -> Trial | None:
    """Give Google patterns and URL with escapes of unreserved characters decoded (`%7E` -> `~`)."""
    g_text = _rewrite_lines(trial.g_text, _decode_unreserved_in_rule)
    g_url = _decode_unreserved(trial.g_url)
    if g_text is None and g_url == trial.g_url:
        return None
    return dataclasses.replace(trial, g_text=g_text or trial.g_text, g_url=g_url)


_SPACE_CONTROL_OR_STRAY_PERCENT = re.compile(r"[\x00-\x20\x7f]|%(?![0-9A-Fa-f]{2})")


def _encode_like_robotscope(value: str) -> str:
    return _SPACE_CONTROL_OR_STRAY_PERCENT.sub(lambda m: f"%{ord(m.group()):02X}", value)


_encode_in_rule = _rule_value_fixer(_encode_like_robotscope)


def encode_patterns(trial: Trial) -> Trial | None:
    """Give Google patterns with spaces, controls and stray `%` percent-encoded, as robotscope compares them."""
    g_text = _rewrite_lines(trial.g_text, _encode_in_rule)
    return None if g_text is None else dataclasses.replace(trial, g_text=g_text)


@functools.lru_cache(maxsize=8)
def _allow_index_dirs(text: str) -> tuple[str, list[int]] | None:
    out: list[str] = []
    local: list[int] = []
    added = False
    for number, raw in enumerate(split_lines(text), start=1):
        out.append(raw)
        local.append(number)
        kind, _key, value, _comment = classify(raw)
        if kind is LineKind.ALLOW and value:
            slash = value.rfind("/")
            if slash >= 0 and value[slash:].startswith("/index.htm"):
                out.append(f"Allow: {value[: slash + 1]}$")
                local.append(number)
                added = True
    return ("\n".join(out), local) if added else None


def add_index_html_allows(trial: Trial) -> Trial | None:
    """Give robotscope an extra `Allow: /dir/$` after each `Allow: /dir/index.htm...`."""
    result = _allow_index_dirs(_r_text(trial))
    if result is None:
        return None
    text, local = result
    old = trial.line_map
    line_map = tuple(local if old is None else (old[n - 1] for n in local))
    return dataclasses.replace(trial, r_data=text, line_map=line_map)


def truncate_for_google(trial: Trial) -> Trial | None:
    """Give Google only the part robotscope applies (the first 512,000 bytes, whole lines)."""
    if len(trial.g_text.encode("utf-8", "surrogatepass")) <= MAX_BYTES:
        return None
    return dataclasses.replace(trial, g_text=parse_cached(trial.g_text).text)


# Google's parser cuts a line to kMaxLineLen = 2083 * 8 - 1 bytes.
GOOGLE_MAX_LINE_BYTES = 2083 * 8 - 1


def _cut_long_line(raw: str) -> str | None:
    if len(raw) * 4 <= GOOGLE_MAX_LINE_BYTES:
        return None
    encoded = raw.encode("utf-8", "surrogatepass")
    if len(encoded) <= GOOGLE_MAX_LINE_BYTES:
        return None
    return encoded[:GOOGLE_MAX_LINE_BYTES].decode("utf-8", "ignore")


def truncate_long_lines(trial: Trial) -> Trial | None:
    """Give robotscope every line cut to Google's 16,663-byte line limit."""

    fixed = _rewrite_lines(_r_text(trial), _cut_long_line)
    return None if fixed is None else dataclasses.replace(trial, r_data=fixed)


# %XX of a printable ASCII character that is neither unreserved nor `%`, `#`,
# `*`, `$` (decoding those would change what the pattern means).
_RESERVED_ESCAPE = re.compile(r"%(2[126789bBcCfF]|3[aAbBcCdDeEfF]|40|5[bBcCdDeE]|60|7[bBcCdD])")


def _decode_reserved(text: str) -> str:
    return _RESERVED_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text)


_decode_reserved_in_rule = _rule_value_fixer(_decode_reserved)


def decode_reserved_escapes(trial: Trial) -> Trial | None:
    """Give both libraries patterns and URL with escapes of reserved characters decoded (`%2F` -> `/`).

    Both sides, since the fork's decoding also lengthens its patterns (`%2F`
    counts three): with the escapes gone both compare and count the same.
    """
    r_text = _rewrite_lines(_r_text(trial), _decode_reserved_in_rule)
    g_text = _rewrite_lines(trial.g_text, _decode_reserved_in_rule)
    r_url, g_url = _decode_reserved(trial.r_url), _decode_reserved(trial.g_url)
    if r_text is None and g_text is None and r_url == trial.r_url and g_url == trial.g_url:
        return None
    return dataclasses.replace(
        trial, r_data=r_text or trial.r_data, g_text=g_text or trial.g_text, r_url=r_url, g_url=g_url
    )


_DIGIT_IN_TOKEN = re.compile(r"^(\s*user-agent\s*:\s*[A-Za-z_-]*)[0-9][^#]*", re.IGNORECASE)


def _cut_token_at_digit(raw: str) -> str | None:
    match = _DIGIT_IN_TOKEN.match(raw)
    return None if match is None else match.group(1) + raw[match.end() :]


def strict_tokens(trial: Trial) -> Trial | None:
    """Give robotscope user-agent values cut at their first digit, as Google's token extraction reads them."""
    fixed = _rewrite_lines(_r_text(trial), _cut_token_at_digit)
    return None if fixed is None else dataclasses.replace(trial, r_data=fixed)


def _comment_usage_rule(raw: str) -> str | None:
    kind, key, _value, _comment = classify(raw)
    return "# " + raw if kind is LineKind.OTHER and (key or "").lower() in GROUP_RULE_KEYS else None


def usage_lines_as_comments(trial: Trial) -> Trial | None:
    """Give robotscope its Content-Usage and Content-Signal lines as comments (line numbers kept)."""
    fixed = _rewrite_lines(_r_text(trial), _comment_usage_rule)
    return None if fixed is None else dataclasses.replace(trial, r_data=fixed)


# --------------------------------------------------------------------------
# The list
# --------------------------------------------------------------------------


class KnownDifference(NamedTuple):
    """One deliberate difference.

    `code` names it in test output and the doc; `summary` says what differs;
    `reason` why robotscope differs (RFC 9309 section); `transformation`
    describes, and `transform` implements, the change to a trial that
    removes this difference and so confirms it as a disagreement's cause.
    `fork_only` marks differences of the fast-robotstxt fork, not upstream.
    """

    code: str
    summary: str
    reason: str
    transformation: str
    transform: Callable[[Trial], Trial | None]
    fork_only: bool = False


KNOWN_DIFFERENCES: tuple[KnownDifference, ...] = (
    KnownDifference(
        "robots-txt-implicit",
        "/robots.txt is always allowed in robotscope; Google applies the rules to it like to any path.",
        "RFC 9309, Section 2.2.2: 'The /robots.txt URI is implicitly allowed.' "
        "Google's matcher has no such rule, so `Disallow: /` disallows /robots.txt there.",
        "Let robotscope's best matching rule decide /robots.txt (ignore the implicit allow).",
        no_implicit_robots_txt,
    ),
    KnownDifference(
        "user-agent-string",
        "robotscope accepts a crawler's full User-Agent string (`Mozilla/5.0 (compatible; Googlebot/2.1; ...)`) "
        "and extracts its product token; Google's matcher compares the string as given with each group's "
        "token, so a full string matches no named group.",
        "RFC 9309, Section 2.2.1: crawlers match groups by their product token, case-insensitively; "
        "robotscope derives the token so callers can pass what they send in the HTTP header.",
        "Ask Google about the product token robotscope extracted.",
        google_gets_token,
    ),
    KnownDifference(
        "google-strict-token",
        "robotscope reads a product token as the leading letters, digits, `-` and `_` (`360Spider`, "
        "`MJ12bot`); Google's parser stops at the first digit, so `User-agent: 360Spider` names no crawler "
        "there and `MJ12bot` names `MJ`.",
        "RFC 9309, Section 2.2.1's grammar has no digits in a token, but real crawlers have them, and the "
        "standard library, Protego, texting_robots and every peer suite keep them (`Rule1TestBot` and "
        "`Rule7TestBot` are two crawlers); robotscope follows the crawlers' own names.",
        "Cut robotscope's user-agent values at their first digit.",
        strict_tokens,
    ),
    KnownDifference(
        "google-missing-colon",
        "Google reads a two-word line without a colon (`Disallow /private`) as a record; robotscope ignores it.",
        'RFC 9309, Section 2.2 grammar: a rule is `key *WS ":" *WS value`; a line without the colon '
        "is not a record. Google accepts whitespace as the separator as a 'Google-specific optimization'.",
        "Rewrite such lines as `key: value` (same line number) before parsing with robotscope.",
        fix_missing_colons,
    ),
    KnownDifference(
        "google-key-typos",
        "Google accepts misspelled keys (`User agent`, `useragent`, `dissallow`, `disalow`, `site-map`, ...) "
        "and any key that merely starts with a known one (`Disallowed:`, `User-agents:`); robotscope does not.",
        "RFC 9309, Section 2.2: the keys are exactly `user-agent`, `allow` and `disallow` (case-insensitive); "
        "Section 2.2.4: other records are not rules. Google's `kAllowFrequentTypos` and prefix matching "
        "of keys are its own extensions.",
        "Rewrite such keys to their canonical spelling (same line number) before parsing with robotscope.",
        fix_key_typos,
    ),
    KnownDifference(
        "google-index-html-allow",
        "Google's `Allow: /dir/index.html` (or `.htm`) also allows `/dir/` exactly (as `Allow: /dir/$`); "
        "robotscope applies the pattern as written.",
        "RFC 9309, Section 2.2.2: rules match by the path pattern alone; the index.htm normalisation is a "
        "'Google-specific optimization' in robots.cc (HandleAllow).",
        "Add `Allow: /dir/$` after every `Allow: /dir/index.htm...` line before parsing with robotscope.",
        add_index_html_allows,
    ),
    KnownDifference(
        "fork-url-parsing",
        "The fast-robotstxt fork parses a full URL with ada (WHATWG URL Standard): an empty query (`/search?`) "
        "is dropped, `\\` becomes `/`, dot segments are resolved. robotscope matches the path and query as "
        "written, as upstream Google does.",
        "RFC 9309, Section 2.2.2 matches rules against the path (and query) of the URI as given; "
        "robotscope does no WHATWG rewriting. Upstream google/robotstxt keeps `?`, `\\` and dot segments too.",
        "Give Google the raw path and query (which the fork takes unparsed) instead of the full URL.",
        google_gets_path,
        fork_only=True,
    ),
    KnownDifference(
        "unreserved-escape-decoding",
        "robotscope decodes escapes of unreserved characters (`%7E` -> `~`, `%41` -> `A`) in patterns and URLs; "
        "Google keeps them, so its pattern is longer and can win a longest-match tie it would otherwise lose.",
        "RFC 9309, Section 2.2.2: percent-encoded unreserved characters (RFC 3986, Section 2.3) are "
        "unencoded prior to comparison; the rule length is that of the compared pattern.",
        "Decode unreserved escapes in Google's patterns and URL.",
        decode_unreserved_escapes,
    ),
    KnownDifference(
        "pattern-encoding-length",
        "robotscope percent-encodes spaces, control characters and a stray `%` in patterns "
        "(`/a b` -> `/a%20b`, `/100%` -> `/100%25`); Google leaves them, so the two count different "
        "pattern lengths and can pick different winners (the fork still matches them, as it decodes "
        "escapes while comparing).",
        "RFC 9309, Section 2.2.2: characters outside the allowed range are percent-encoded before "
        "comparison, and 'the most specific match found MUST be used' measured in octets of the compared "
        "(encoded) pattern.",
        "Percent-encode spaces, controls and stray `%` in Google's patterns.",
        encode_patterns,
    ),
    KnownDifference(
        "fork-escape-decoding",
        "The fork compares every `%XX` as the character it encodes, so `%2F` matches `/` and `%3F` matches `?`; "
        "robotscope (and upstream Google) keep escapes of reserved characters distinct.",
        "RFC 9309, Section 2.2.2: an escape of a reserved character is not unencoded before comparison; "
        "`/a%2Fb` and `/a/b` are different paths (RFC 3986, Section 2.2).",
        "Decode escapes of reserved characters in both libraries' patterns and URL.",
        decode_reserved_escapes,
        fork_only=True,
    ),
    KnownDifference(
        "google-no-size-limit",
        "robotscope applies only the first 512,000 bytes of a file (whole lines); Google reads all of it.",
        "RFC 9309, Section 2.5: crawlers must parse at least 500 KiB and may ignore the rest; "
        "robotscope sets the limit at exactly 500 KiB so verdicts do not depend on a size choice.",
        "Give Google only the part robotscope applies.",
        truncate_for_google,
    ),
    KnownDifference(
        "google-line-length-limit",
        "Google cuts every line to 16,663 bytes; robotscope reads lines whole.",
        "RFC 9309 sets no line length limit.",
        "Cut robotscope's lines to Google's limit.",
        truncate_long_lines,
    ),
    KnownDifference(
        "usage-rule-ends-group",
        "robotscope reads a Content-Usage (and Content-Signal) line as a rule of its group, so a user-agent "
        "line after one starts a new group; Google's parser ends a group on Allow and Disallow only, so "
        "`User-agent: a` / `Content-Usage: train-ai=n` / `User-agent: b` / `Disallow: /p` is one group there.",
        "draft-ietf-aipref-attach-05, Section 3 extends RFC 9309's grammar with `rule =/ content-usage`, and "
        "RFC 9309, Section 2.1 starts a new group at a user-agent line after a rule.",
        "Turn robotscope's Content-Usage and Content-Signal lines into comments (same line numbers).",
        usage_lines_as_comments,
    ),
)

BY_CODE = {d.code: d for d in KNOWN_DIFFERENCES}


def classify_disagreement(case: Case) -> str | None:
    """Name the known difference that explains a disagreement, or None.

    Try each transformation alone, in list order, then every pair of
    applicable ones: the first trial on which both libraries agree names the
    cause ("a+b" for a pair).
    """
    base = identity(case)
    applicable: list[KnownDifference] = []
    for difference in KNOWN_DIFFERENCES:
        trial = difference.transform(base)
        if trial is None:
            continue
        if run_trial(trial).agree:
            return difference.code
        applicable.append(difference)
    for i, first in enumerate(applicable):
        for second in applicable[i + 1 :]:
            trial = first.transform(base)
            trial = trial and second.transform(trial)
            if trial is not None and run_trial(trial).agree:
                return f"{first.code}+{second.code}"
    return None
