"""The `protego` reading, proven against Protego itself (the real engine, given the text as Scrapy gives it).

- The differential test asks both, on every corpus file, the URLs of
  `corpus_urls.urls_for` for the crawlers of `corpus_urls.agents_for`, and
  counts every disagreement under a code of `known_differences.py` (none may
  stay unexplained). Protego reports no lines, so the deciding line is
  checked in two ways: the line robotscope shows at that number holds the
  rule's value, and that rule alone makes Protego decide the same way
  (a Disallow alone blocks the URL; an Allow over `Disallow: /` allows it).
- The same comparison runs on seeded snippets built from the parsers'
  corners (`corpus_urls.snippets`).
- The table rows show each behaviour of the module's docstring on a
  snippet, with its deciding line, and each row is asked of Protego too.

Run with `-s` to see the agreement table.
"""

from __future__ import annotations

import time
from importlib.metadata import version
from typing import NamedTuple
from urllib.parse import urlparse

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from protego import Protego
from scrapy.robotstxt import decode_robotstxt

from robotscope import parse
from robotscope.access.engines import protego
from robotscope.access.engines import registry as engines
from robotscope.access.robots import Robots
from robotscope.messages import LANGS
from robotscope.syntax.model import Group, Reason, Rule
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

ENGINE = "protego"
CODES = [d.code for d in DIFFERENCES if d.engine == ENGINE]
SECONDS = 60.0
SNIPPETS = 3_000
PROVEN_AGAINST = "0.7.0"  # the Protego release the engine was read from (the table prints the one installed)


def real(data: str | bytes) -> Protego:
    """Protego given the file as Scrapy's ProtegoRobotParser gives it (bytes decoded by Scrapy)."""
    return Protego.parse(decode_robotstxt(data, None) if isinstance(data, bytes) else data)


def alone_agrees(rule: Rule, url: str) -> bool:
    """Whether this rule's value alone makes Protego decide as the rule does."""
    if rule.allow:
        return bool(Protego.parse(f"User-agent: *\nDisallow: /\nAllow: {rule.pattern}\n").can_fetch(url, "x"))
    return not Protego.parse(f"User-agent: *\nDisallow: {rule.pattern}\n").can_fetch(url, "x")


def without_implicit(robots: Robots, agent: str, path: str) -> bool:
    """The engine's answer from its rules alone, as if /robots.txt were not implicitly allowed."""
    found = protego.match(protego.select(robots.reading(ENGINE, protego.read), agent), path).rule
    return found is None or found.allow


# --------------------------------------------------------------------------
# The corpus, and seeded snippets
# --------------------------------------------------------------------------


def compare(tally: Tally, name: str, robots: Robots, reference: Protego, agent: str, url: str) -> None:
    """One check: the engine's verdict against Protego's answer, then the deciding line."""
    verdict = robots.verdict(agent, url, ENGINE)
    example = f"{name}: {agent!r} {url!r}: protego engine {verdict.allowed} (line {verdict.line})"
    try:
        answer = reference.can_fetch(url, agent)
    except (ValueError, UnicodeError):
        tally.differ("raises", example)
        return
    if answer == verdict.allowed:
        tally.agree()
    elif (
        verdict.reason is Reason.ROBOTS_TXT
        and urlparse(url).path != "/robots.txt"
        and without_implicit(robots, agent, verdict.target) == answer
    ):
        tally.differ("robots-txt-escaped", example)
    else:
        tally.differ(None, example + f", Protego {answer}")
    for number in verdict.group_lines[:3]:
        if "user" not in robots.line(number).raw.lower():
            tally.line_failures.append(f"{example}: group line {number} is no user-agent line")
    rule = verdict.rule
    if rule is None:
        return
    tally.line_checks += 1
    if squeezed(rule.pattern) not in squeezed(robots.line(rule.line).raw):
        tally.line_failures.append(f"{example}: line {rule.line} does not hold {rule.pattern!r}")
    elif not alone_agrees(rule, url):
        tally.line_failures.append(f"{example}: line {rule.line} alone decides otherwise")


@pytest.mark.slow  # the whole corpus and 18,000 snippets
def test_protego_agrees_with_protego_on_the_whole_corpus() -> None:
    tally = Tally(ENGINE, CODES)
    start, cpu = time.perf_counter(), time.process_time()
    for name, data, robots in corpus():
        tally.files += 1
        reference = real(data)
        for agent in agents_for(robots):
            for url in urls_for(robots):
                compare(tally, name, robots, reference, agent, url)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    print()
    installed = f"Protego {version('protego')} (read from {PROVEN_AGAINST}), Scrapy {version('scrapy')}"
    print(tally.table(seconds, f" (every file, no sampling; {installed})"))
    assert tally.files == CORPUS_FILES
    assert tally.unexplained == [], "\n".join(tally.unexplained[:20])
    assert tally.line_failures == [], "\n".join(tally.line_failures[:20])
    # The budget is SECONDS of CPU time (wall time on a busy machine says nothing); thrice that still passes.
    assert cpu < 3 * SECONDS


@pytest.mark.slow  # the whole corpus and 18,000 snippets
def test_protego_agrees_with_protego_on_seeded_snippets() -> None:
    tally = Tally(ENGINE, CODES)
    start = time.perf_counter()
    for number, (data, questions) in enumerate(snippets(seed=20240601, count=SNIPPETS)):
        tally.files += 1
        robots = Robots(data)
        reference = real(data)
        for agent, url in questions:
            compare(tally, f"snippet {number} {data!r}", robots, reference, agent, url)
    print()
    print(tally.table(time.perf_counter() - start, " (seeded snippets)"))
    assert tally.unexplained == [], "\n".join(tally.unexplained[:20])
    assert tally.line_failures == [], "\n".join(tally.line_failures[:20])


# --------------------------------------------------------------------------
# The seed case
# --------------------------------------------------------------------------


def test_seed_case_protego_allows_the_root_by_the_anchored_rule() -> None:
    text = "User-agent: *\nDisallow: /\nAllow: /$\n"
    verdict = parse(text).verdict("Googlebot", "/", ENGINE)
    assert (verdict.allowed, verdict.line, verdict.rule) == (True, 3, Rule(True, "/$", 3, "/$"))
    # `Allow: /$` also adds its literal-dollar twin `/%24` (longer, so first), which `/` does not match.
    assert [rule.normalised for rule in parse(text).verdict("a", "/$", ENGINE).candidates] == ["/%24", "/"]
    assert real(text).can_fetch("/", "Googlebot") is True
    assert parse(text).verdict("Googlebot", "/x", ENGINE).line == 2


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
    normalised: str | None = None  # the deciding rule's compared form, checked when given


ROWS = [
    # Reading the file
    Row("a BOM in bytes is dropped (Scrapy)", b"\xef\xbb\xbfUser-agent: *\nDisallow: /\n", "a", "/x", False, 2, (1,)),
    Row("a BOM in text spoils line 1", "\ufeffUser-agent: *\nDisallow: /\n", "a", "/x", True, None, ()),
    Row(
        "bytes that are not UTF-8 are dropped",
        b"User-agent: *\nDisallow: /caf\xe9\n",
        "a",
        "/caf",
        False,
        2,
        None,
        "/caf",
    ),
    Row("splitlines breaks at U+0085: same robotscope line", "User-agent: *\x85Disallow: /x\n", "a", "/x", False, 1),
    Row("line numbers count CR and CRLF", "User-agent: *\r\n\rDisallow: /x\r\n", "a", "/x", False, 3),
    Row("blank lines do not end a group", "User-agent: a\n\nDisallow: /\n", "a", "/x", False, 3, (1,)),
    Row("a comment ends the value", "User-agent: *\nDisallow: /x # not /y\n", "a", "/x", False, 2),
    Row("keys are case-insensitive", "USER-AGENT: *\nDISALLOW: /x\n", "a", "/x", False, 2),
    Row("typos of disallow are read", "User-agent: *\nDissallow: /x\n", "a", "/x", False, 2),
    Row("`user agent` is read", "User agent: *\nDisallow: /x\n", "a", "/x", False, 2, (1,)),
    Row("a line without a colon is read by words", "User-agent: *\nDisallow /x\n", "a", "/x", False, 2),
    Row(
        "... its value joined by single spaces",
        "User-agent: *\nDisallow /a   b\n",
        "a",
        "/a%20b",
        False,
        2,
        None,
        "/a%20b",
    ),
    Row("... and `user agent foo` too", "User agent foo\nDisallow: /\n", "foo", "/x", False, 2, (1,)),
    Row(
        "a known key with a colon inside its value",
        "User-agent: *\nSitemap https://e.com/s\nDisallow: /x\n",
        "a",
        "/x",
        False,
        3,
    ),
    Row(
        "an unknown directive ends a run of user-agents",
        "User-agent: a\nNoindex: /\nUser-agent: b\nDisallow: /\n",
        "a",
        "/x",
        True,
        None,
        (1,),
    ),
    Row(
        "... even written `key:value`", "User-agent: a\nx:y\nUser-agent: b\nDisallow: /\n", "a", "/x", True, None, (1,)
    ),
    Row(
        "crawl-delay ends a run of user-agents",
        "User-agent: a\nCrawl-delay: 1\nUser-agent: b\nDisallow: /\n",
        "a",
        "/x",
        True,
        None,
        (1,),
    ),
    Row(
        "sitemap does not",
        "User-agent: a\nSitemap: https://e.com/s.xml\nUser-agent: b\nDisallow: /\n",
        "a",
        "/x",
        False,
        4,
        (1,),
    ),
    Row("host does not", "User-agent: a\nHost: e.com\nUser-agent: b\nDisallow: /\n", "a", "/x", False, 4),
    Row(
        "an empty Disallow adds no rule but ends the run",
        "User-agent: a\nDisallow:\nUser-agent: b\nDisallow: /\n",
        "a",
        "/x",
        True,
        None,
        (1,),
    ),
    Row(
        "an empty User-agent after rules leaves no group",
        "User-agent: *\nDisallow: /x\nUser-agent:\nDisallow: /y\n",
        "a",
        "/y",
        True,
        None,
        (1,),
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
        "user-agent values are not decoded", "User-agent: Google%62ot\nDisallow: /\n", "Googlebot", "/x", True, None, ()
    ),
    Row(
        "`*` in a value: the value without it names a set too",
        "User-agent: googlebot*\nDisallow: /\n",
        "Googlebot",
        "/x",
        False,
        2,
        (1,),
    ),
    Row("`* foo` names ` foo`, its space kept", "User-agent: * foo\nDisallow: /\n", "foo", "/x", True, None, ()),
    Row(
        "... which fits after a `; `",
        "User-agent: * foo\nDisallow: /\n",
        "Mozilla/5.0 (compatible; foo/1.0)",
        "/x",
        False,
        2,
        (1,),
    ),
    Row(
        "groups of the same name are merged",
        "User-agent: a\nDisallow: /x\n\nUser-agent: b\nDisallow: /z\n\nUser-agent: a\nDisallow: /y\n",
        "a",
        "/y",
        False,
        8,
        (1, 7),
    ),
    # Patterns
    Row(
        "percent-escapes are normalised",
        "User-agent: *\nDisallow: /caf%c3%a9\n",
        "a",
        "/caf\u00e9/x",
        False,
        2,
        None,
        "/caf%C3%A9",
    ),
    Row("an escaped slash stays escaped", "User-agent: *\nDisallow: /a%2Fb\n", "a", "/a/b", True, None),
    Row(
        "... and matches its escape in any case",
        "User-agent: *\nDisallow: /a%2Fb\n",
        "a",
        "/a%2fb",
        False,
        2,
        None,
        "/a%2Fb",
    ),
    Row("`%3D` is `=`", "User-agent: *\nDisallow: /a=b\n", "a", "/a%3Db", False, 2),
    Row(
        "`%2A` in a pattern is a literal `*`",
        "User-agent: *\nDisallow: /a%2Ab\n",
        "a",
        "/a*b",
        False,
        2,
        None,
        "/a%2Ab",
    ),
    Row("... and not a wildcard", "User-agent: *\nDisallow: /a%2Ab\n", "a", "/axb", True, None),
    Row(
        "an absolute URL as a pattern gets a leading /",
        "User-agent: *\nDisallow: https://e.com/x\n",
        "a",
        "/https://e.com/x",
        False,
        2,
        None,
        "/https%3A//e.com/x",
    ),
    Row("a `?` in a pattern", "User-agent: *\nDisallow: /a?\n", "a", "/a?", False, 2, None, "/a%3F"),
    Row("... does not match the URL without it", "User-agent: *\nDisallow: /a?\n", "a", "/a", True, None),
    Row("`$` in the middle is literal", "User-agent: *\nDisallow: /a$b\n", "a", "/a$b", False, 2, None, "/a%24b"),
    Row("a final `$` anchors", "User-agent: *\nDisallow: /a$\n", "a", "/ab", True, None),
    Row("... and matches the whole target", "User-agent: *\nDisallow: /a$\n", "a", "/a", False, 2, None, "/a$"),
    Row(
        "... and its literal twin matches a `$`", "User-agent: *\nDisallow: /a$\n", "a", "/a$x", False, 2, None, "/a%24"
    ),
    Row(
        "Allow /index.html allows the directory",
        "User-agent: *\nDisallow: /\nAllow: /d/index.html\n",
        "a",
        "/d/",
        True,
        3,
        None,
        "/d/$",
    ),
    Row("... only the directory itself", "User-agent: *\nDisallow: /\nAllow: /d/index.html\n", "a", "/d/x", False, 2),
    Row("wildcards", "User-agent: *\nDisallow: /*.pdf$\n", "a", "/a/b.pdf", False, 2),
    Row("... anchored", "User-agent: *\nDisallow: /*.pdf$\n", "a", "/a/b.pdf?x", True, None),
    Row("... runs of `*` are one", "User-agent: *\nDisallow: /a**b*c\n", "a", "/aXbYbZc", False, 2),
    # Choosing the rule set
    Row("* scores 1", "User-agent: *\nDisallow: /\n", "anything", "/x", False, 2, (1,)),
    Row("a name at the start of the crawler's", "User-agent: foo\nDisallow: /\n", "foobar/2.0", "/x", False, 2),
    Row("not inside a word", "User-agent: bot\nDisallow: /\n", "Googlebot", "/x", True, None, ()),
    Row(
        "after a word boundary",
        "User-agent: googlebot\nDisallow: /\n",
        "Mozilla/5.0 (compatible; Googlebot/2.1)",
        "/x",
        False,
        2,
    ),
    Row("`-` and `_` are part of a word", "User-agent: bot\nDisallow: /\n", "my-bot", "/x", True, None, ()),
    Row(
        "the longest name wins",
        "User-agent: google\nDisallow: /a\n\nUser-agent: googlebot\nDisallow: /b\n",
        "Googlebot",
        "/a",
        True,
        None,
        (4,),
    ),
    Row(
        "a named set beats *",
        "User-agent: *\nDisallow: /\n\nUser-agent: googlebot\nDisallow: /p\n",
        "Googlebot",
        "/x",
        True,
        None,
        (4,),
    ),
    Row(
        "on a tie the first set wins: `a` ties with `*`",
        "User-agent: *\nDisallow: /x\n\nUser-agent: a\nDisallow: /y\n",
        "a",
        "/y",
        True,
        None,
        (1,),
    ),
    Row("no set fits: everything allowed", "User-agent: a\nDisallow: /\n", "b", "/x", True, None, ()),
    # Matching
    Row("the longest pattern wins", "User-agent: *\nAllow: /a/b\nDisallow: /a\n", "a", "/a/b", True, 2),
    Row("... whatever the order", "User-agent: *\nDisallow: /a\nAllow: /a/b\n", "a", "/a/b", True, 3),
    Row("Allow wins a tie", "User-agent: *\nDisallow: /a\nAllow: /a\n", "a", "/a", True, 3),
    Row("same length, same kind: file order", "User-agent: *\nDisallow: /a*\nDisallow: /ab\n", "a", "/abc", False, 2),
    Row("... the other way round", "User-agent: *\nDisallow: /ab\nDisallow: /a*\n", "a", "/abc", False, 2),
    Row("a `*` in the URL is `%2A`", "User-agent: *\nDisallow: /a%2A\n", "a", "/a*", False, 2),
    Row("the query is compared", "User-agent: *\nDisallow: /a?b=1\n", "a", "https://e.com/a?b=1#f", False, 2),
    Row("/robots.txt is allowed", "User-agent: *\nDisallow: /\n", "a", "/robots.txt", True, None),
    Row("... with a query", "User-agent: *\nDisallow: /\n", "a", "/robots.txt?x=1", True, None),
    Row("... with params", "User-agent: *\nDisallow: /\n", "a", "/robots.txt;v=1", True, None),
    Row("... on any host", "User-agent: *\nDisallow: /\n", "a", "https://e.com/robots.txt#x", True, None),
    Row("... but not below it", "User-agent: *\nDisallow: /\n", "a", "/robots.txt/x", False, 2),
    Row("... nor its params with a /", "User-agent: *\nDisallow: /\n", "a", "/robots.txt;a/b", False, 2),
]


@pytest.mark.parametrize("row", ROWS, ids=[row.behaviour for row in ROWS])
def test_behaviour(row: Row) -> None:
    verdict = parse(row.robots).verdict(row.agent, row.url, ENGINE)
    assert (verdict.allowed, verdict.line) == (row.allowed, row.line)
    if row.group_lines is not None:
        assert verdict.group_lines == row.group_lines
    if row.normalised is not None:
        assert verdict.rule is not None and verdict.rule.normalised == row.normalised
    assert real(row.robots).can_fetch(row.url, row.agent) is row.allowed  # the real engine agrees


def test_the_verdict_names_rules_as_written_and_as_compared() -> None:
    robots = parse("User-agent: Googlebot\nDisallow: /a*\nAllow: /caf%c3%a9\nDisallow: /caf\n")
    verdict = robots.verdict(" Googlebot/2.1 ", "https://e.com/caf\u00e9/x", ENGINE)
    assert verdict.agent_token == "googlebot/2.1"
    assert verdict.target == "/caf%C3%A9/x"
    assert verdict.rule == Rule(True, "/caf%c3%a9", 3, "/caf%C3%A9")
    assert verdict.candidates == (Rule(True, "/caf%c3%a9", 3, "/caf%C3%A9"), Rule(False, "/caf", 4, "/caf"))
    assert verdict.reason is Reason.RULE and verdict.group_lines == (1,)
    assert robots.verdict("Googlebot", "/other", ENGINE).reason is Reason.NO_MATCH
    assert robots.verdict("Bingbot", "/a", ENGINE).reason is Reason.NO_GROUP
    implicit = robots.verdict("Googlebot", "/robots.txt", ENGINE)
    assert (implicit.allowed, implicit.reason, implicit.rule) == (True, Reason.ROBOTS_TXT, None)


@pytest.mark.parametrize(
    ("url", "compared"),
    [
        ("", "/"),
        ("/", "/"),
        ("https://example.com", "/"),
        ("/a b", "/a%20b"),
        ("/a?", "/a%3F"),
        ("/a?b=c&d", "/a%3Fb=c%26d"),
        ("/a;p?q#f", "/a%3Bp%3Fq"),
        ("/a%2fb%7e", "/a%2Fb~"),
        ("/100%/off", "/100%/off"),
        ("/a*b", "/a%2Ab"),
        ("/caf%c3%a9", "/caf%C3%A9"),
        ("/%E9", "/%EF%BF%BD"),
        ("//host/x", "/x"),
        ("http://[x/a", "/a"),
    ],
)
def test_target_is_what_protego_compares(url: str, compared: str) -> None:
    assert protego.target(url) == compared


@pytest.mark.parametrize(
    ("pattern", "compared"),
    [
        ("/a", "/a"),
        ("/a*b$", "/a*b$"),
        ("/a%2a", "/a%2A"),
        ("/a%41", "/aA"),
        ("/a$b", "/a%24b"),
        ("/a b", "/a%20b"),
        ("http://e.com/x", "/http%3A//e.com/x"),
        ("/caf\u00e9$", "/caf%C3%A9$"),
    ],
)
def test_patterns_are_normalised_as_protego_does(pattern: str, compared: str) -> None:
    assert protego.normalise_pattern(pattern) == compared


# --------------------------------------------------------------------------
# The known differences, each shown
# --------------------------------------------------------------------------


def test_robots_txt_is_recognised_from_the_target() -> None:
    text = "User-agent: *\nDisallow: /\n"
    verdict = parse(text).verdict("a", "/robots%2Etxt", ENGINE)
    assert (verdict.allowed, verdict.reason, verdict.target) == (True, Reason.ROBOTS_TXT, "/robots.txt")
    assert real(text).can_fetch("/robots%2Etxt", "a") is False  # Protego looks at the path before normalising
    assert without_implicit(parse(text), "a", verdict.target) is False  # ... and its rules then block it


def test_where_protego_raises_the_engine_answers() -> None:
    text = "User-agent: *\nDisallow: /a\n"
    for url in ("http://[x/a?q", "http://[x/robots.txt"):  # urlsplit and urlparse reject the host
        with pytest.raises(ValueError):
            real(text).can_fetch(url, "a")
    assert parse(text).verdict("a", "http://[x/a?q", ENGINE).line == 2
    assert parse(text).verdict("a", "http://[x/robots.txt", ENGINE).reason is Reason.ROBOTS_TXT
    surrogate = "User-agent: *\nDisallow: /a\udce9b\n"
    with pytest.raises(UnicodeError):
        real(surrogate)
    assert parse(surrogate).verdict("a", "/ab", ENGINE).line == 2


def test_every_known_difference_of_protego_is_shown_above() -> None:
    assert CODES == ["robots-txt-escaped", "raises"]


# --------------------------------------------------------------------------
# The engine as data
# --------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_engine_describes_itself(lang: str) -> None:
    described = engines.engine(ENGINE).as_dict(lang)
    assert described["name"] == ENGINE and described["policy"] == "rfc9309"
    assert "https://github.com/scrapy/protego" in described["sources"]
    assert described["summary"] and described["notes"] and all(described["notes"])


# Names and crawlers from a small alphabet of word characters, separators and `*`, so that names
# start words of the crawler, sit inside words, repeat, and tie in length.
WORDS = st.text(alphabet="ab-_ /*", max_size=6)


@settings(max_examples=500, deadline=None)
@given(st.lists(WORDS.filter(bool), max_size=12, unique=True), WORDS)
def test_the_rule_set_looked_up_by_name_is_the_one_scoring_finds(names: list[str], crawler: str) -> None:
    # A file of many rule sets looks the crawler's best up by the names its words start.
    groups = tuple(Group(at, (name,), (at + 1,), (), ()) for at, name in enumerate(names))
    assert protego.looked_up({g.agents[0]: g for g in groups}, crawler) == protego.scanned(groups, crawler)


def test_a_file_of_many_rule_sets_chooses_as_protego_does() -> None:
    # 300 rule sets (past the lookup's threshold), names inside each other and sharing a long run.
    names = [f"bot{i}" for i in range(150)] + [f"x-bot{i}" for i in range(150)]
    text = "".join(f"User-agent: {n}\n" for n in names[:100]) + "Disallow: /shared\n"
    text += "".join(f"User-agent: {n}\nDisallow: /{n}/\n" for n in names) + "User-agent: *\nDisallow: /all\n"
    real, ours = Protego.parse(text), parse(text)
    crawlers = ["bot7", "x-bot12", "Mozilla/5.0 (compatible; bot42/1.0)", "superbot1", "other", "bot1x-bot149"]
    paths = ["/shared", "/bot7/", "/x-bot12/", "/bot42/", "/bot1/", "/x-bot149/", "/all", "/free"]
    for crawler in crawlers:
        for path in paths:
            url = "https://example.com" + path
            assert ours.can_fetch(crawler, url, "protego") == real.can_fetch(url, crawler), (crawler, path)
