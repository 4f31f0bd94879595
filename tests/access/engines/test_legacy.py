"""The `legacy` reading, proven against Python 3.11's `urllib.robotparser` (the real engine, in this interpreter).

- The differential test asks both, on every corpus file, the URLs of
  `corpus_urls.urls_for` for the crawlers of `corpus_urls.agents_for`, and
  counts every disagreement under a code of `known_differences.py` (none may
  stay unexplained). urllib reports no lines, so the deciding line is
  checked in two ways: the line robotscope shows at that number holds the
  rule's value, and that rule alone (as `Disallow:`) makes urllib block the
  URL, i.e. it matches.
- The same comparison runs on seeded snippets built from the parsers'
  corners (`corpus_urls.snippets`).
- The table rows show each behaviour of the module's docstring on a
  snippet, with its deciding line, and each row is asked of urllib too.
- The seed case of the issue: `Disallow: /` then `Allow: /$`.

Run with `-s` to see the agreement table.
"""

from __future__ import annotations

import sys
import time
from typing import NamedTuple
from urllib.robotparser import RobotFileParser

import pytest
from hypothesis import given
from hypothesis import strategies as st

from robotscope import parse
from robotscope.access.engines import legacy
from robotscope.access.engines import registry as engines
from robotscope.access.robots import Robots
from robotscope.messages import LANGS
from robotscope.syntax.model import Reason, Rule
from tests.access.engines.corpus_urls import (
    CORPUS_FILES,
    Tally,
    agents_for,
    corpus,
    snippets,
    squeezed,
    urls_for,
)
from tests.access.engines.known_differences import DIFFERENCES

ENGINE = "legacy"
CODES = [d.code for d in DIFFERENCES if d.engine == ENGINE]
SECONDS = 60.0
SNIPPETS = 3_000
SEED = "User-agent: *\nDisallow: /\nAllow: /$\n"  # the example


def stdlib(text: str) -> RobotFileParser:
    """Python's parser given `text` the way its own `read()` gives it a body: `splitlines()`."""
    parser = RobotFileParser()
    parser.parse(text.splitlines())
    return parser


def stdlib_allows(data: str | bytes, agent: str, url: str) -> bool:
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    return stdlib(text).can_fetch(agent, url)


def alone_matches(rule: Rule, agent: str, url: str) -> bool:
    """Whether urllib, given only this rule's value as a Disallow, blocks the URL (the rule matches it)."""
    return not stdlib(f"User-agent: *\nDisallow: {rule.pattern}\n").can_fetch(agent, url)


# --------------------------------------------------------------------------
# The corpus, and seeded snippets
# --------------------------------------------------------------------------


def reference(data: str | bytes) -> tuple[RobotFileParser | None, str | None]:
    """urllib's parser for a file, and the known difference that stands in when the real engine raises."""
    if isinstance(data, str):
        text = data
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            # read() would raise: the answers are confirmed against urllib given the replaced text.
            return stdlib(data.decode("utf-8", "replace")), "invalid-utf8"
    try:
        return stdlib(text), None
    except ValueError:
        return None, "urlparse-error"


def compare(
    tally: Tally, name: str, robots: Robots, real: RobotFileParser | None, cause: str | None, agent: str, url: str
) -> None:
    """One check: the engine's verdict against urllib's answer, then the deciding line."""
    verdict = robots.verdict(agent, url, ENGINE)
    example = f"{name}: {agent!r} {url!r}: legacy {verdict.allowed} (line {verdict.line})"
    try:
        answer = None if real is None else real.can_fetch(agent, url)
    except ValueError:
        tally.differ("urlparse-error", example)
        return
    if answer is None:
        tally.differ(cause, example)  # the real parse raised
        return
    if answer != verdict.allowed:
        tally.differ(None, example + f", urllib {answer}")
    elif cause is not None:
        tally.differ(cause, example)
    else:
        tally.agree()
    for number in verdict.group_lines[:3]:
        if "user-agent" not in robots.line(number).raw.lower():
            tally.line_failures.append(f"{example}: group line {number} is no user-agent line")
    rule = verdict.rule
    if rule is None:
        return
    tally.line_checks += 1
    if squeezed(rule.pattern) not in squeezed(robots.line(rule.line).raw):
        tally.line_failures.append(f"{example}: line {rule.line} does not hold {rule.pattern!r}")
    elif not rule.pattern:
        if not verdict.allowed:
            tally.line_failures.append(f"{example}: an empty rule that disallows")
    elif not alone_matches(rule, agent, url):
        tally.line_failures.append(f"{example}: line {rule.line} alone does not match")


@pytest.mark.slow  # the whole corpus and 18,000 snippets
def test_legacy_agrees_with_urllib_on_the_whole_corpus() -> None:
    # The reference is the first-match robotparser of Python <= 3.12 (3.11's, here); the RFC 9309 one of
    # gh-138907 would allow `/` on the seed file.
    assert not stdlib(SEED).can_fetch("a", "/"), (
        f"Python {sys.version.split()[0]}'s urllib.robotparser is not first-match"
    )
    tally = Tally(ENGINE, CODES)
    start, cpu = time.perf_counter(), time.process_time()
    for name, data, robots in corpus():
        tally.files += 1
        real, cause = reference(data)
        for agent in agents_for(robots):
            for url in urls_for(robots):
                compare(tally, name, robots, real, cause, agent, url)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    print()
    print(tally.table(seconds, f" (every file, no sampling; Python {sys.version.split()[0]})"))
    assert tally.files == CORPUS_FILES
    assert tally.unexplained == [], "\n".join(tally.unexplained[:20])
    assert tally.line_failures == [], "\n".join(tally.line_failures[:20])
    # The budget is SECONDS of CPU time (wall time on a busy machine says nothing); thrice that still passes.
    assert cpu < 3 * SECONDS


@pytest.mark.slow  # the whole corpus and 18,000 snippets
def test_legacy_agrees_with_urllib_on_seeded_snippets() -> None:
    tally = Tally(ENGINE, CODES)
    start = time.perf_counter()
    for number, (data, questions) in enumerate(snippets(seed=20240601, count=SNIPPETS)):
        tally.files += 1
        robots = Robots(data)
        real, cause = reference(data)
        for agent, url in questions:
            compare(tally, f"snippet {number} {data!r}", robots, real, cause, agent, url)
    print()
    print(tally.table(time.perf_counter() - start, " (seeded snippets)"))
    assert tally.unexplained == [], "\n".join(tally.unexplained[:20])
    assert tally.line_failures == [], "\n".join(tally.line_failures[:20])


# --------------------------------------------------------------------------
# The seed case
# --------------------------------------------------------------------------


def test_seed_case_three_readings() -> None:
    """RFC 9309 and Protego allow `/` (longest match: `/$` is longer); urllib <= 3.12 blocks it (first match)."""
    robots = parse(SEED)
    columns = {name: robots.verdict("Googlebot", "/", name) for name in ("rfc9309", "protego", "legacy")}
    assert {name: (v.allowed, v.line) for name, v in columns.items()} == {
        "rfc9309": (True, 3),
        "protego": (True, 3),
        "legacy": (False, 2),
    }
    legacy_verdict = columns["legacy"]
    assert legacy_verdict.rule == Rule(False, "/", 2, "/")
    assert legacy_verdict.candidates == (Rule(False, "/", 2, "/"),)  # `/$` is literal: it does not match `/`
    # Python 3.11's standard library, the real engine, agrees with `legacy`.
    assert stdlib_allows(SEED, "Googlebot", "/") is False
    # `$` is an ordinary character there: only a URL with a literal `$` reaches line 3, after line 2 decided.
    assert robots.verdict("Googlebot", "/$", ENGINE).line == 2


# --------------------------------------------------------------------------
# Each behaviour of the module's docstring, with its deciding line
# --------------------------------------------------------------------------


class Row(NamedTuple):
    behaviour: str
    robots: str | bytes
    agent: str
    url: str
    allowed: bool
    line: int | None
    group_lines: tuple[int, ...] | None = None  # checked when given


ROWS = [
    # Reading the file
    Row("a BOM in bytes spoils line 1", b"\xef\xbb\xbfUser-agent: *\nDisallow: /\n", "a", "/x", True, None, ()),
    Row("without the BOM the same file blocks", b"User-agent: *\nDisallow: /\n", "a", "/x", False, 2, (1,)),
    Row("a BOM in text spoils line 1 too", "\ufeffUser-agent: *\nDisallow: /\n", "a", "/x", True, None, ()),
    Row(
        "splitlines breaks at form feed: same robotscope line",
        "User-agent: *\x0cDisallow: /x\n",
        "a",
        "/x",
        False,
        1,
        (1,),
    ),
    Row(
        "form feed before LF makes an empty line: a record end",
        "User-agent: *\x0c\nDisallow: /x\n",
        "a",
        "/x",
        True,
        None,
        (),
    ),
    Row("U+2028 breaks a line", "User-agent: *\nDisallow: /a\u2028Disallow: /x\n", "a", "/x", False, 2),
    Row(
        "line numbers count CR and CRLF",
        "User-agent: *\r\n\rUser-agent: b\rDisallow: /x\r\n",
        "b",
        "/x",
        False,
        4,
        (3,),
    ),
    Row("a blank line ends the record", "User-agent: *\nDisallow: /a\n\nDisallow: /x\n", "a", "/x", True, None, (1,)),
    Row(
        "user-agent lines without a rule are dropped at a blank line",
        "User-agent: a\n\nDisallow: /\n",
        "a",
        "/x",
        True,
        None,
        (),
    ),
    Row(
        "... and a later * record applies instead",
        "User-agent: a\n\nUser-agent: *\nDisallow: /x\n",
        "a",
        "/x",
        False,
        4,
        (3,),
    ),
    Row("a line of spaces is no record end", "User-agent: *\n  \nDisallow: /\n", "a", "/x", False, 3),
    Row("a comment line is no record end", "User-agent: *\n# note\nDisallow: /\n", "a", "/x", False, 3),
    Row("a comment ends the value", "User-agent: *\nDisallow: /x # not /y\n", "a", "/x", False, 2),
    Row("a line without a colon is ignored", "User-agent: *\nDisallow /\n", "a", "/x", True, None, ()),
    Row("keys are case-insensitive and stripped", "USER-AGENT : *\nDISALLOW :  /x\n", "a", "/x", False, 2),
    Row("typos are not keys", "User-agent: *\nDissallow: /x\nUser agent: a\nDisallow: /y\n", "a", "/y", False, 4, (1,)),
    Row("user-agent values are percent-decoded", "User-agent: Google%62ot\nDisallow: /\n", "Googlebot", "/x", False, 2),
    Row(
        "a user-agent after rules starts a record",
        "User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n",
        "b",
        "/x",
        True,
        None,
        (3,),
    ),
    Row(
        "... which gets its own rules",
        "User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n",
        "b",
        "/y",
        False,
        4,
        (3,),
    ),
    Row(
        "consecutive user-agent lines share a record",
        "User-agent: a\nUser-agent: b\nDisallow: /\n",
        "b",
        "/x",
        False,
        3,
        (1, 2),
    ),
    Row(
        "rules before any user-agent are ignored",
        "Disallow: /\nUser-agent: *\nDisallow: /x\n",
        "a",
        "/y",
        True,
        None,
        (2,),
    ),
    Row(
        "crawl-delay ends the user-agent run",
        "User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /\n",
        "a",
        "/x",
        True,
        None,
        (1,),
    ),
    Row(
        "... so the rule is b's only",
        "User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /\n",
        "b",
        "/x",
        False,
        4,
        (3,),
    ),
    Row(
        "an invalid request-rate ends it too",
        "User-agent: a\nRequest-rate: x\nUser-agent: b\nDisallow: /\n",
        "a",
        "/x",
        True,
        None,
        (1,),
    ),
    Row(
        "a record with only a crawl-delay is kept",
        "User-agent: a\nCrawl-delay: 1\n\nUser-agent: *\nDisallow: /\n",
        "a",
        "/x",
        True,
        None,
        (1,),
    ),
    Row(
        "sitemap changes nothing",
        "User-agent: a\nSitemap: https://e.com/s.xml\nUser-agent: b\nDisallow: /\n",
        "a",
        "/x",
        False,
        4,
        (1, 3),
    ),
    Row(
        "an unknown key changes nothing",
        "User-agent: a\nNoindex: /\nUser-agent: b\nDisallow: /\n",
        "a",
        "/x",
        False,
        4,
        (1, 3),
    ),
    Row(
        "the first * record is the default",
        "User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n",
        "x",
        "/a",
        False,
        2,
        (1,),
    ),
    Row(
        "a later * record is dropped",
        "User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n",
        "x",
        "/b",
        True,
        None,
        (1,),
    ),
    Row(
        "a later record naming * and foo is dropped, for foo too",
        "User-agent: *\nDisallow: /a\n\nUser-agent: foo\nUser-agent: *\nDisallow: /b\n",
        "foo",
        "/b",
        True,
        None,
        (1,),
    ),
    Row(
        "a first record naming * and foo is the default",
        "User-agent: foo\nUser-agent: *\nDisallow: /b\n",
        "x",
        "/b",
        False,
        3,
        (1, 2),
    ),
    # Rule paths
    Row("`*` is literal", "User-agent: *\nDisallow: /*.pdf\n", "a", "/x.pdf", True, None, (1,)),
    Row("... and matches a literal `*`", "User-agent: *\nDisallow: /*.pdf\n", "a", "/*.pdf", False, 2),
    Row("`$` is literal", "User-agent: *\nDisallow: /a$\n", "a", "/a", True, None),
    Row("... and matches a literal `$`", "User-agent: *\nDisallow: /a$\n", "a", "/a$b", False, 2),
    Row("a trailing `?` disappears from a rule", "User-agent: *\nDisallow: /a?\n", "a", "/abc", False, 2),
    Row("a query in a rule", "User-agent: *\nDisallow: /a?b=1\n", "a", "/a?b=1&c", False, 2),
    Row("... is compared quoted", "User-agent: *\nDisallow: /a?b=1\n", "a", "/a?b=2", True, None),
    Row("an escaped slash in a rule is a slash", "User-agent: *\nDisallow: /a%2Fb\n", "a", "/a/b", False, 2),
    Row("non-ASCII rules match escaped URLs", "User-agent: *\nDisallow: /caf\u00e9\n", "a", "/caf%C3%A9", False, 2),
    Row("an empty Disallow allows everything", "User-agent: *\nDisallow:\nDisallow: /\n", "a", "/x", True, 2),
    Row("Allow exists", "User-agent: *\nAllow: /a/b\nDisallow: /a\n", "a", "/a/b", True, 2),
    # Choosing the record
    Row("substring match of the crawler's name", "User-agent: bot\nDisallow: /\n", "Googlebot", "/x", False, 2, (1,)),
    Row(
        "the name is cut at `/`",
        "User-agent: googlebot\nDisallow: /\n",
        "Mozilla/5.0 (compatible; Googlebot/2.1)",
        "/x",
        True,
        None,
        (),
    ),
    Row(
        "... so a whole User-Agent is `mozilla`",
        "User-agent: Mozilla\nDisallow: /\n",
        "Mozilla/5.0 (compatible; Googlebot/2.1)",
        "/x",
        False,
        2,
    ),
    Row(
        "a value with a version matches nothing",
        "User-agent: Googlebot/2.1\nDisallow: /\n",
        "Googlebot",
        "/x",
        True,
        None,
        (),
    ),
    Row("an empty user-agent applies to everyone", "User-agent:\nDisallow: /\n", "Googlebot", "/x", False, 2, (1,)),
    Row(
        "the first record that applies, alone",
        "User-agent: google\nDisallow: /a\n\nUser-agent: googlebot\nDisallow: /b\n",
        "Googlebot",
        "/b",
        True,
        None,
        (1,),
    ),
    Row(
        "a named record beats * wherever it stands",
        "User-agent: *\nDisallow: /\n\nUser-agent: googlebot\nDisallow: /p\n",
        "Googlebot",
        "/x",
        True,
        None,
        (4,),
    ),
    Row("no record: everything allowed", "User-agent: a\nDisallow: /\n", "b", "/x", True, None, ()),
    # Matching
    Row(
        "the first matching rule in file order decides",
        "User-agent: *\nDisallow: /a\nAllow: /a/b\n",
        "a",
        "/a/b",
        False,
        2,
    ),
    Row("prefix match", "User-agent: *\nDisallow: /a\n", "a", "/abc", False, 2),
    Row("URLs are decoded before they are compared", "User-agent: *\nDisallow: /a/b\n", "a", "/a%2fb", False, 2),
    Row(
        "full URLs: scheme and host dropped", "User-agent: *\nDisallow: /a\n", "a", "https://example.com/a?x", False, 2
    ),
    Row("the fragment is compared", "User-agent: *\nDisallow: /a%23b\n", "a", "/a#b", False, 2),
    Row("... as part of the path", "User-agent: *\nDisallow: /a%23b\n", "a", "/a", True, None),
    Row("no implicit /robots.txt", "User-agent: *\nDisallow: /\n", "a", "/robots.txt", False, 2),
]


@pytest.mark.parametrize("row", ROWS, ids=[row.behaviour for row in ROWS])
def test_behaviour(row: Row) -> None:
    verdict = parse(row.robots).verdict(row.agent, row.url, ENGINE)
    assert (verdict.allowed, verdict.line) == (row.allowed, row.line)
    if row.group_lines is not None:
        assert verdict.group_lines == row.group_lines
    assert stdlib_allows(row.robots, row.agent, row.url) is row.allowed  # the real engine agrees


def test_the_verdict_names_rules_as_written_and_as_compared() -> None:
    robots = parse("User-agent: Googlebot\nDisallow: /a*\nAllow: /caf%C3%A9?\nDisallow: /caf\n")
    verdict = robots.verdict("Googlebot/2.1", "https://e.com/caf\u00e9/x", ENGINE)
    assert verdict.agent_token == "googlebot"
    assert verdict.target == "/caf%C3%A9/x"
    assert verdict.rule == Rule(True, "/caf%C3%A9?", 3, "/caf%C3%A9")
    assert verdict.candidates == (Rule(True, "/caf%C3%A9?", 3, "/caf%C3%A9"), Rule(False, "/caf", 4, "/caf"))
    assert verdict.reason is Reason.RULE and verdict.group_lines == (1,)
    nothing = robots.verdict("Googlebot", "/other", ENGINE)
    assert (nothing.allowed, nothing.reason, nothing.rule, nothing.candidates) == (True, Reason.NO_MATCH, None, ())
    assert robots.verdict("Bingbot", "/a*", ENGINE).reason is Reason.NO_GROUP


@pytest.mark.parametrize(
    ("url", "compared"),
    [
        ("", "/"),
        ("/", "/"),
        ("/a b", "/a%20b"),
        ("/a?b=c&d", "/a%3Fb%3Dc%26d"),
        ("/a;p?q#f", "/a%3Bp%3Fq%23f"),
        ("/a%2fb", "/a/b"),
        ("/100%/off", "/100%25/off"),
        ("https://example.com", "/"),
        ("https://example.com/x/y?z", "/x/y%3Fz"),
        ("/caf\u00e9", "/caf%C3%A9"),
    ],
)
def test_target_is_what_urllib_compares(url: str, compared: str) -> None:
    assert legacy.target(url) == compared
    # urllib agrees: a rule of exactly that path matches, and one a character longer does not.
    assert not stdlib(f"User-agent: *\nDisallow: {compared}\n").can_fetch("a", url)
    assert stdlib(f"User-agent: *\nDisallow: {compared}~\n").can_fetch("a", url)


# --------------------------------------------------------------------------
# The known differences, each shown
# --------------------------------------------------------------------------


def test_invalid_utf8_is_read_with_replacement_where_urllib_raises() -> None:
    data = b"User-agent: *\nDisallow: /caf\xe9\n"
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")  # what RobotFileParser.read() does with the body
    verdict = parse(data).verdict("a", "/caf\ufffd/x", ENGINE)
    assert (verdict.allowed, verdict.line, verdict.rule) == (False, 2, Rule(False, "/caf\ufffd", 2, "/caf%EF%BF%BD"))
    assert stdlib(data.decode("utf-8", "replace")).can_fetch("a", "/caf\ufffd/x") is False


def test_values_urlparse_rejects_are_compared_as_written() -> None:
    text = "User-agent: *\nDisallow: //[x\n"
    with pytest.raises(ValueError):
        stdlib(text)
    verdict = parse(text).verdict("a", "/x", ENGINE)
    assert (verdict.allowed, verdict.candidates) == (True, ())
    assert parse(text).verdict("a", "//[x/y", ENGINE).line == 2
    with pytest.raises(ValueError):
        stdlib("User-agent: *\nDisallow: /\n").can_fetch("a", "http://[x/")
    assert parse("User-agent: *\nDisallow: /\n").verdict("a", "http://[x/", ENGINE).allowed is False


def test_every_known_difference_of_legacy_is_shown_above() -> None:
    assert CODES == ["invalid-utf8", "urlparse-error"]


# --------------------------------------------------------------------------
# The engine as data
# --------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_engine_describes_itself(lang: str) -> None:
    described = engines.engine(ENGINE).as_dict(lang)
    assert described["name"] == ENGINE and described["policy"] == "rfc9309"
    assert "https://www.robotstxt.org/orig.html" in described["sources"]
    assert described["summary"] and described["notes"] and all(described["notes"])


def test_line_numbers_follow_robotscope_not_splitlines() -> None:
    pieces = list(legacy.numbered_lines("a\x0cb\r\nc\rd\x85e\n\nf"))
    assert pieces == [(1, "a"), (1, "b"), (2, "c"), (3, "d"), (3, "e"), (4, ""), (5, "f")]


@given(st.text(alphabet="ab:\r\n\x0b\x85 ", max_size=60))
def test_a_run_of_empty_lines_is_given_once_and_every_other_line_keeps_its_number(text: str) -> None:
    # What `str.splitlines` gives, numbered as robotscope numbers lines (LF, CRLF and CR end them).
    every, number = [], 1
    for piece in text.splitlines(keepends=True):
        body = piece[:-2] if piece.endswith("\r\n") else piece[:-1] if piece[-1] in "\n\r\x0b\x85" else piece
        every.append((number, body))
        number += piece.endswith(("\n", "\r"))
    given = list(legacy.numbered_lines(text))
    assert [p for p in given if p[1]] == [p for p in every if p[1]] and set(given) <= set(every)
    # Each run of empty lines is still there, as its first line: the standard library ends a record at it.
    assert {n for n, body in every if not body and (n - 1, "") not in every} <= {n for n, body in given if not body}


def test_millions_of_empty_lines_are_skipped_in_one_search() -> None:
    given = list(legacy.numbered_lines("User-agent: *\n" + "\n" * 1_000_000 + "Disallow: /x\n"))
    assert given == [(1, "User-agent: *"), (2, ""), (1_000_002, "Disallow: /x")]
