"""The `google` reading, proven against Google's upstream parser (gpyrobotstxt, its pure-Python port).

- The corpus: every file of tests/corpus/robots/ is asked about with URLs
  built from its own rule patterns and a few fixed paths, for Googlebot,
  Bingbot, a crawler no file names and the first crawler the file names;
  robotscope's `google` verdict and deciding line must equal the library's
  on every check, except where a difference listed for the `google` engine
  in known_differences.py explains it (its transformation, in
  google_differences.py, removes the cause and the two then agree). The
  deciding lines are compared on every check (None where no rule of
  priority above 0 decided), not only where both name one. The whole corpus
  is compared, no sampling: gpyrobotstxt parses each file once and its
  handler calls are replayed per question (google_library.py; a test checks
  the replay against `allowed_by_robots`), about 30 s. Lines the port
  crashes on are blanked for it (`gpyrobotstxt-crash`). Run with `-s` for
  the table.
- Google's page "How Google interprets the robots.txt specification"
  (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt):
  its URL matching examples, its order of precedence examples and its
  grouping examples, each with the deciding line.
- The seed examples, the catalogue's fallbacks, and each listed difference on
  a short file.
"""

from __future__ import annotations

import collections
import functools
import time
from typing import NamedTuple

import pytest

import robotscope
from robotscope.access.engines import google
from robotscope.access.engines import registry as engines
from robotscope.messages import message, render
from robotscope.syntax.model import Reason
from tests.access.engines.google_differences import TRANSFORMS, Trial, classify, listed, mine, outcome
from tests.access.engines.google_library import Library, allowed_by_robots, crash_free
from tests.corpus_files import corpus_files
from tests.paths import CORPUS

HOST = "https://example.com"

# --------------------------------------------------------------------------
# The corpus, against the library
# --------------------------------------------------------------------------

AGENTS = ("Googlebot", "Bingbot", "SomeRandomBot")  # the last is named by no file: the `*` groups
FIXED_PATHS = (
    "/",
    "/robots.txt",
    "/caf\u00e9/men\u00fc.html",  # not ASCII, as written (Google does not escape the URL)
    "/%7Euser/caf%c3%a9/a%2fb",  # percent-encoded, lower-case hex
    "/search?q=a b&page=2",  # a query
    "/100%/off",  # a stray %
    "/index.html",
    "/private/",
)
MAX_PATTERNS = 10  # rule patterns per file to build URLs from: two URLs each
MAX_UNUSUAL = 5  # of which at most this many unusual ones (escapes, spaces, non-ASCII, index.htm, a `$` inside)
SUFFIX = "zz/q?y=1"
MIN_FILES = 4_231
MIN_CHECKS = 250_000


def _unusual(pattern: str) -> bool:
    body = pattern.removesuffix("$")
    return not (body.isascii() and body.isprintable()) or any(c in body for c in "% $") or "index.htm" in body


def _spread(items: list[str], n: int) -> list[str]:
    if len(items) <= n:
        return items
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


def patterns_for(robots: robotscope.Robots, library: Library) -> list[str]:
    """The file's rule patterns as both sides read them (the library's whole file, the reading's as written and
    escaped), in line order, unusual ones first: at most MAX_PATTERNS."""
    found = [(args[0], args[1]) for name, args in library.events if name in ("handle_allow", "handle_disallow")]
    for group in robots.reading("google", google.read).groups:
        found += [(rule.line, rule.normalised) for rule in group.rules]
        found += [(rule.line, rule.pattern) for rule in group.rules]
    patterns = [p for p in dict.fromkeys(p for _, p in sorted(found)) if p]
    unusual = _spread([p for p in patterns if _unusual(p)], MAX_UNUSUAL)
    rest = _spread([p for p in patterns if not _unusual(p)], MAX_PATTERNS - len(unusual))
    return unusual + rest


def paths_for(robots: robotscope.Robots, library: Library) -> list[str]:
    """Fixed paths, and each pattern with `*` filled in and `$` dropped, alone and with a suffix and a query."""
    paths = list(FIXED_PATHS)
    for pattern in patterns_for(robots, library):
        base = pattern.replace("*", "x1").removesuffix("$")
        base = base if base.startswith("/") else "/" + base
        paths += [base, base + SUFFIX]
    return list(dict.fromkeys(paths))


def agents_for(robots: robotscope.Robots) -> list[str]:
    """The fixed crawlers and the first crawler the file names (as RFC 9309 reads its token: `MJ12bot` whole)."""
    lowered = {a.lower() for a in AGENTS}
    for group in robots.groups:
        for token in group.agents:
            if token != "*" and token not in lowered:
                return [*AGENTS, token]
    return list(AGENTS)


class Disagreement(NamedTuple):
    file: str
    agent: str
    url: str
    mine: tuple[bool, int | None]
    theirs: tuple[bool, int | None]
    code: str | None

    def describe(self) -> str:
        return f"{self.file}: {self.agent} {self.url!r}: google reading {self.mine}, gpyrobotstxt {self.theirs}"


class CorpusRun(NamedTuple):
    files: int
    checks: int
    line_checks: int  # checks where both named a deciding line
    disagreements: tuple[Disagreement, ...]
    blanked: tuple[str, ...]  # files with lines the port would crash on (blanked for it)
    seconds: float


def compare_file(name: str, data: bytes, robots: robotscope.Robots) -> tuple[int, int, list[Disagreement]]:
    library = Library(data)
    checks = line_checks = 0
    found = []
    agents = agents_for(robots)
    for path in paths_for(robots, library):
        url = HOST + path
        for agent in agents:
            checks += 1
            verdict = robots.verdict(agent, url, "google")
            ours = (verdict.allowed, verdict.line)
            theirs = library.ask(agent, url)
            line_checks += ours[1] is not None and theirs[1] is not None
            if ours != theirs:
                found.append(Disagreement(name, agent, url, ours, theirs, classify(data, agent, url)))
    return checks, line_checks, found


@functools.cache
def corpus_run() -> CorpusRun:
    start = time.perf_counter()
    files = checks = line_checks = 0
    disagreements: list[Disagreement] = []
    blanked = []
    for name, data, robots in corpus_files():
        n, lines, found = compare_file(name, data, robots)
        files += 1
        checks += n
        line_checks += lines
        disagreements += found
        if crash_free(data) != data:
            blanked.append(name)
    return CorpusRun(files, checks, line_checks, tuple(disagreements), tuple(blanked), time.perf_counter() - start)


@pytest.mark.slow  # the whole corpus
def test_the_whole_corpus_is_compared() -> None:
    run = corpus_run()
    assert run.files == len(list(CORPUS.iterdir())) >= MIN_FILES
    assert run.checks >= MIN_CHECKS, run.checks
    assert run.line_checks >= run.checks // 10, run.line_checks


@pytest.mark.slow  # the whole corpus
def test_every_disagreement_is_a_listed_difference() -> None:
    run = corpus_run()
    unexplained = [d for d in run.disagreements if d.code is None]
    shown = "\n".join(d.describe() for d in unexplained[:40])
    assert not unexplained, f"{len(unexplained)} unexplained disagreements with gpyrobotstxt:\n{shown}"
    codes = listed()
    for d in run.disagreements:
        assert d.code is not None and all(code in codes for code in d.code.split("+")), d.code


@pytest.mark.slow  # the whole corpus
def test_agreement_table() -> None:
    run = corpus_run()
    counts = collections.Counter(d.code for d in run.disagreements)
    files = collections.defaultdict(set)
    for d in run.disagreements:
        files[d.code].add(d.file)
    agreements = run.checks - len(run.disagreements)
    print(
        f"\ngoogle reading vs gpyrobotstxt: {run.files} files, {run.checks:,} checks "
        f"({run.line_checks:,} with a deciding line on both sides), {agreements:,} agreements "
        f"({100 * agreements / run.checks:.3f} %), {len(run.disagreements):,} disagreements, {run.seconds:.1f}s"
    )
    for code in [*TRANSFORMS, *sorted(str(c) for c in counts if c not in TRANSFORMS)]:
        if counts.get(code) or code in TRANSFORMS:
            print(f"  {code or 'UNEXPLAINED'}: {counts.get(code, 0):,} disagreements in {len(files[code])} files")
    print(f"  (lines the port would crash on, blanked for it: {len(run.blanked)} files)")
    assert sum(counts.values()) == len(run.disagreements)


@pytest.mark.slow  # the whole corpus
def test_the_replay_is_the_library() -> None:
    """`Library.ask` (one parse, replayed) answers as gpyrobotstxt's own `allowed_by_robots`, on a sample."""
    sample = [p for p in sorted(CORPUS.iterdir()) if p.stat().st_size < 20_000][::60]
    assert len(sample) > 50
    for path in sample:
        data = crash_free(path.read_bytes())
        robots, library = robotscope.parse(data), Library(data)
        for path_ in paths_for(robots, library)[:12:3]:
            for agent in agents_for(robots)[::2]:
                url = HOST + path_
                assert library.ask(agent, url)[0] == allowed_by_robots(data, agent, url), (path.name, agent, url)


def test_every_listed_difference_has_a_transformation_and_a_reason() -> None:
    codes = listed()
    assert set(TRANSFORMS) <= set(codes)
    for code, difference in codes.items():
        assert difference.summary and difference.reason, code
    assert "gpyrobotstxt-crash" in codes  # the harness blanks those lines rather than transform them


# --------------------------------------------------------------------------
# Each listed difference on a short file
# --------------------------------------------------------------------------


class Example(NamedTuple):
    code: str
    robots_txt: bytes
    agent: str
    path: str
    mine: tuple[bool, int | None]  # the google reading: allowed, deciding line
    theirs: tuple[bool, int | None]  # gpyrobotstxt


LATE = b"User-agent: *\n" + b"# filler pushing the next line past 512,000 bytes\n" * 11_000 + b"Disallow: /late\n"

DIFFERENCE_EXAMPLES = {
    "rule-past-500-kib": Example("google-size-limit", LATE, "Googlebot", "/late", (True, None), (False, 11_002)),
    "image-crawler-obeys-googlebot": Example(
        "google-catalogue-profiles",
        b"User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /private\n",
        "Googlebot-Image",
        "/photo.jpg",
        (True, None),
        (False, 2),
    ),
    "adsbot-ignores-star": Example(
        "google-catalogue-profiles",
        b"User-agent: *\nDisallow: /\n",
        "AdsBot-Google",
        "/landing",
        (True, None),
        (False, 2),
    ),
    "latin-1-pattern": Example(
        "gpyrobotstxt-invalid-utf8",
        b"User-agent: *\nDisallow: /soci\xe9t\xe9\n",
        "Googlebot",
        "/soci%E9t%E9/a",
        (False, 2),
        (True, None),
    ),
    "no-break-space-ends-pattern": Example(
        "gpyrobotstxt-unicode-whitespace",
        "User-agent: *\nDisallow: /a\u00a0\n".encode(),
        "Googlebot",
        "/a",
        (True, None),
        (False, 2),
    ),
    "two-spaces-for-the-colon": Example(
        "gpyrobotstxt-separator-run",
        b"User-agent: *\nDisallow   /oops\n",
        "Googlebot",
        "/oops",
        (False, 2),
        (True, None),
    ),
    "nul-ends-the-line": Example(
        "gpyrobotstxt-nul-byte", b"User-agent: *\nDisallow: /a\x00b\n", "Googlebot", "/ax", (False, 2), (True, None)
    ),
    "diaslow-is-no-upstream-typo": Example(
        "gpyrobotstxt-diaslow", b"User-agent: *\nDiaslow: /x\n", "Googlebot", "/x", (True, None), (False, 2)
    ),
}


@pytest.mark.parametrize("name", sorted(DIFFERENCE_EXAMPLES))
def test_difference_example(name: str) -> None:
    example = DIFFERENCE_EXAMPLES[name]
    url = HOST + example.path
    base = Trial(example.robots_txt, example.robots_txt, example.agent, url)
    assert outcome(base) == (*example.mine, *example.theirs)
    fixed = TRANSFORMS[example.code](base)
    assert fixed is not None and outcome(fixed).agree
    assert classify(example.robots_txt, example.agent, url) == example.code
    assert example.code in listed()


@pytest.mark.parametrize(
    "name", ["no-break-space-ends-pattern", "two-spaces-for-the-colon", "diaslow-is-no-upstream-typo"]
)
def test_upstream_parser_compiled_sides_with_the_reading(name: str) -> None:
    """The C++ build of upstream's parser in fast-robotstxt (a fork; its line parser is upstream's but for NUL
    bytes, and it takes text, not octets) answers these as the google reading does, not as the port."""
    import robotstxt

    example = DIFFERENCE_EXAMPLES[name]
    matcher = robotstxt.RobotsMatcher()
    allowed = matcher.is_allowed(example.robots_txt.decode(), example.agent, example.path)
    assert (allowed, matcher.matching_line or None) == example.mine != example.theirs


def test_the_port_crashes_where_upstream_reads_nothing() -> None:
    """`gpyrobotstxt-crash`: a line with neither a colon nor a space or tab raises TypeError in the port."""
    data = b"User-agent: *\nnonsense\nDisallow: /x\n"
    with pytest.raises(TypeError):
        allowed_by_robots(data, "Googlebot", HOST + "/x")
    assert crash_free(data) == b"User-agent: *\n\nDisallow: /x\n"
    assert mine(data, "Googlebot", HOST + "/x") == (False, 3) == Library(data).ask("Googlebot", HOST + "/x")


# --------------------------------------------------------------------------
# Google's page: URL matching, order of precedence, groups
# --------------------------------------------------------------------------

# Google's table of path values and the URLs each matches or does not match.
URL_MATCHING = {
    "/": (["/", "/fish", "/a/b.html?c=d"], []),
    "/*": (["/", "/fish", "/a/b.html?c=d"], []),
    "/$": (["/"], ["/fish", "/index.html", "/?q=1"]),
    "/fish": (
        ["/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fishheads/yummy.html", "/fish.php?id=anything"],
        ["/Fish.asp", "/catfish", "/?id=fish", "/desert/fish"],
    ),
    "/fish*": (
        ["/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fishheads/yummy.html", "/fish.php?id=anything"],
        ["/Fish.asp", "/catfish", "/?id=fish", "/desert/fish"],
    ),
    "/fish/": (
        ["/fish/", "/fish/?id=anything", "/fish/salmon.htm"],
        ["/fish", "/fish.html", "/animals/fish/", "/Fish/Salmon.asp"],
    ),
    "/*.php": (
        [
            "/index.php",
            "/filename.php",
            "/folder/filename.php",
            "/folder/filename.php?parameters",
            "/folder/any.php.file.html",
            "/filename.php/",
        ],
        ["/", "/windows.PHP"],
    ),
    "/*.php$": (
        ["/filename.php", "/folder/filename.php"],
        ["/filename.php?parameters", "/filename.php/", "/filename.php5", "/windows.PHP"],
    ),
    "/fish*.php": (["/fish.php", "/fishheads/catfish.php?parameters"], ["/Fish.PHP"]),
}
MATCHING_CASES = [
    (pattern, path, matched)
    for pattern, (yes, no) in URL_MATCHING.items()
    for matched, paths in ((True, yes), (False, no))
    for path in paths
]


@pytest.mark.parametrize(("pattern", "path", "matched"), MATCHING_CASES)
def test_google_url_matching_examples(pattern: str, path: str, matched: bool) -> None:
    robots_txt = f"User-agent: *\nDisallow: {pattern}\n"
    verdict = robotscope.parse(robots_txt).verdict("Googlebot", HOST + path, "google")
    assert verdict.allowed is not matched
    assert verdict.line == (2 if matched else None)
    assert (verdict.rule.pattern if verdict.rule else None) == (pattern if matched else None)
    assert Library(robots_txt.encode()).ask("Googlebot", HOST + path) == (verdict.allowed, verdict.line)


# Google's order of precedence examples: the URL, the rules, and which of them applies.
PRECEDENCE = [
    ("/page", ["Allow: /p", "Disallow: /"], 0),  # the more specific rule
    ("/folder/page", ["Allow: /folder", "Disallow: /folder"], 0),  # conflicting rules: the least restrictive
    ("/page.htm", ["Allow: /page", "Disallow: /*.htm"], 1),  # matches more characters of the URL
    ("/page.php5", ["Allow: /page", "Disallow: /*.ph"], 0),  # equally long: the least restrictive
    ("/", ["Allow: /$", "Disallow: /"], 0),  # the more specific rule
    ("/page.htm", ["Allow: /$", "Disallow: /"], 1),  # the allow applies to the root only
]


@pytest.mark.parametrize(("path", "rules", "applies"), PRECEDENCE)
def test_google_order_of_precedence_examples(path: str, rules: list[str], applies: int) -> None:
    robots_txt = "User-agent: *\n" + "".join(f"{rule}\n" for rule in rules)
    verdict = robotscope.parse(robots_txt).verdict("Googlebot", HOST + path, "google")
    winner = rules[applies]
    assert verdict.allowed is winner.startswith("Allow")
    assert verdict.line == 2 + applies
    assert verdict.rule is not None and f"{winner.split(':')[0]}: {verdict.rule.pattern}" == winner
    assert verdict.candidates[0] == verdict.rule
    assert Library(robots_txt.encode()).ask("Googlebot", HOST + path) == (verdict.allowed, verdict.line)


GROUPING = (
    "user-agent: a\n"  # 1
    "disallow: /c\n"  # 2
    "\n"
    "user-agent: b\n"  # 4
    "disallow: /d\n"  # 5
    "\n"
    "user-agent: e\n"  # 7
    "user-agent: f\n"  # 8
    "disallow: /g\n"  # 9
    "\n"
    "user-agent: h\n"  # 11
)
MERGING = (
    "user-agent: googlebot-news\n"  # 1
    "disallow: /fish\n"  # 2
    "\n"
    "user-agent: *\n"  # 4
    "disallow: /carrots\n"  # 5
    "\n"
    "user-agent: googlebot-news\n"  # 7
    "disallow: /shrimp\n"  # 8
)
OTHER_RECORDS = (
    "user-agent: a\n"  # 1
    "sitemap: https://example.com/sitemap.xml\n"  # 2
    "\n"
    "user-agent: b\n"  # 4
    "disallow: /\n"  # 5
)
SPECIFIC_GROUP = (
    "user-agent: googlebot-news\n"  # 1
    "disallow: /group-1\n"  # 2
    "\n"
    "user-agent: *\n"  # 4
    "disallow: /group-2\n"  # 5
    "\n"
    "user-agent: googlebot\n"  # 7
    "disallow: /group-3\n"  # 8
)

# (file, crawler, path, allowed, deciding line, user-agent lines of the groups used)
GROUP_CASES = [
    (GROUPING, "a", "/c", False, 2, (1,)),
    (GROUPING, "b", "/c", True, None, (4,)),
    (GROUPING, "e", "/g", False, 9, (7, 8)),
    (GROUPING, "f", "/g", False, 9, (7, 8)),
    (GROUPING, "h", "/g", True, None, (11,)),
    (MERGING, "Googlebot-News", "/fish", False, 2, (1, 7)),
    (MERGING, "Googlebot-News", "/shrimp", False, 8, (1, 7)),
    (MERGING, "Googlebot-News", "/carrots", True, None, (1, 7)),
    (MERGING, "SomeRandomBot", "/carrots", False, 5, (4,)),
    (OTHER_RECORDS, "a", "/x", False, 5, (1, 4)),
    (OTHER_RECORDS, "b", "/x", False, 5, (1, 4)),
    (SPECIFIC_GROUP, "Googlebot-News", "/group-1", False, 2, (1,)),
    (SPECIFIC_GROUP, "Googlebot", "/group-3", False, 8, (7,)),
    (SPECIFIC_GROUP, "Googlebot", "/group-2", True, None, (7,)),
    (SPECIFIC_GROUP, "Storebot-Google", "/group-2", False, 5, (4,)),
    (SPECIFIC_GROUP, "Otherbot", "/group-2", False, 5, (4,)),
]


@pytest.mark.parametrize(("robots_txt", "agent", "path", "allowed", "line", "group_lines"), GROUP_CASES)
def test_google_group_examples(
    robots_txt: str, agent: str, path: str, allowed: bool, line: int | None, group_lines: tuple[int, ...]
) -> None:
    verdict = robotscope.parse(robots_txt).verdict(agent, HOST + path, "google")
    assert (verdict.allowed, verdict.line, verdict.group_lines) == (allowed, line, group_lines)
    assert Library(robots_txt.encode()).ask(agent, HOST + path) == (allowed, line)


# --------------------------------------------------------------------------
# The seed examples, the fallbacks, and the details of the reading
# --------------------------------------------------------------------------

SEEDS = [
    ("User-agent: *\nDisallow /oops\n", "/oops", 2, "/oops"),  # no colon: two words read as a record
    ("User-agent: *\nDissallow: /x\n", "/x", 2, "/x"),  # a typo Google's parser accepts
]


@pytest.mark.parametrize(("robots_txt", "path", "line", "pattern"), SEEDS)
def test_seed_examples_are_rules_for_google_only(robots_txt: str, path: str, line: int, pattern: str) -> None:
    robots = robotscope.parse(robots_txt)
    assert robots.verdict("Googlebot", HOST + path, "rfc9309").allowed
    verdict = robots.verdict("Googlebot", HOST + path, "google")
    assert not verdict.allowed and verdict.reason is Reason.RULE and verdict.line == line
    assert verdict.rule is not None and verdict.rule.line == line and verdict.rule.pattern == pattern
    assert not verdict.rule.allow and verdict.candidates == (verdict.rule,)
    assert verdict.group_lines == (1,) and verdict.agent_token == "googlebot"
    assert Library(robots_txt.encode()).ask("Googlebot", HOST + path) == (False, line)


def test_googlebot_image_reads_the_googlebot_group() -> None:
    robots = robotscope.parse("User-agent: Googlebot\nDisallow: /private/\n\nUser-agent: *\nDisallow: /\n")
    verdict = robots.verdict("Googlebot-Image", HOST + "/private/a.jpg", "google")
    assert (verdict.allowed, verdict.line, verdict.group_lines) == (False, 2, (1,))
    assert verdict.agent_token == "googlebot-image"
    assert robots.verdict("Googlebot-Image", HOST + "/a.jpg", "google").allowed
    # Its own group, once there is one, wins over the fallback.
    own = robotscope.parse("User-agent: Googlebot\nDisallow: /\n\nUser-agent: Googlebot-Image\nDisallow: /x\n")
    assert own.verdict("Googlebot-Image", HOST + "/a.jpg", "google").allowed
    # The library knows no fallbacks: it reads `*` for Googlebot-Image.
    assert Library(b"User-agent: Googlebot\nDisallow: /private/\n\nUser-agent: *\nDisallow: /\n").ask(
        "Googlebot-Image", HOST + "/a.jpg"
    ) == (False, 5)


def test_adsbot_ignores_the_star_group_and_others_do_not_fall_back() -> None:
    robots = robotscope.parse("User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /g\n")
    ads = robots.verdict("AdsBot-Google", HOST + "/x", "google")
    assert ads.allowed and ads.reason is Reason.NO_GROUP and ads.group_lines == ()
    # Applebot's documented fallback to Googlebot is Apple's, not Google's: the google reading does not apply it.
    assert robots.verdict("Applebot", HOST + "/x", "google").group_lines == (1,)


@pytest.mark.parametrize(
    ("robots_txt", "agent", "named"),
    [
        ("User-agent: MJ12bot\nDisallow: /\n", "MJ12bot", False),  # the line names `mj`
        ("User-agent: MJ12bot\nDisallow: /\n", "MJ", True),
        ("User-agent: 360Spider\nDisallow: /\n", "Spider", False),  # names nothing
        ("User-agent: Googlebot/2.1 (+http://www.google.com/bot.html)\nDisallow: /\n", "Googlebot", True),
        ("User-agent: googleBOT\nDisallow: /\n", "Googlebot", True),  # case-insensitive
        ("User-agent: Googlebot-News\nDisallow: /\n", "Googlebot", False),  # whole names only
    ],
)
def test_agent_names_as_google_extracts_them(robots_txt: str, agent: str, named: bool) -> None:
    verdict = robotscope.parse(robots_txt).verdict(agent, HOST + "/x", "google")
    assert verdict.group_lines == ((1,) if named else ())
    assert Library(robots_txt.encode()).ask(agent, HOST + "/x")[0] == verdict.allowed


def test_star_followed_by_more_is_the_global_group() -> None:
    robots = robotscope.parse("User-agent: * foo\nDisallow: /\n")
    assert robots.verdict("SomeRandomBot", HOST + "/x", "google").line == 2
    parsed = robots.reading("google", google.read)
    assert parsed.groups[0].agents == ("*",)
    assert robotscope.parse("User-agent: *bot\nDisallow: /\n").verdict("SomeRandomBot", HOST + "/x", "google").allowed
    # RFC 9309's grammar has `*` only as a whole product token: the line names no crawler.
    rfc = robots.verdict("SomeRandomBot", HOST + "/x")
    assert rfc.allowed and rfc.reason is Reason.NO_GROUP and robots.groups[0].agents == ()
    (finding,) = [f for f in robotscope.lint(robots) if f.code == "agentWildcard"]
    assert (
        "names no crawler" in finding.message.render() and "Google's parser reads it as `*`" in finding.message.render()
    )


def test_a_user_agent_line_after_rules_starts_a_group_other_records_do_not() -> None:
    robots_txt = (
        "User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /x\nSitemap: https://e.com/s\n"
        "User-agent: c\nDisallow: /y\n"
    )
    parsed = robotscope.parse(robots_txt).reading("google", google.read)
    assert [g.agents for g in parsed.groups] == [("a", "b"), ("c",)]
    assert [g.agent_lines for g in parsed.groups] == [(1, 3), (6,)]
    assert parsed.groups[0].records[0].key == "crawl-delay"


def test_rules_before_any_user_agent_belong_to_no_group() -> None:
    robots = robotscope.parse("Disallow: /x\nUser-agent: *\nDisallow: /y\n")
    assert robots.verdict("Googlebot", HOST + "/x", "google").allowed
    assert robots.verdict("Googlebot", HOST + "/y", "google").line == 3


@pytest.mark.parametrize(
    ("robots_txt", "path", "line"),
    [
        ("User-agent: *\nDisallowed: /x\n", "/x", 2),  # a key read by its start
        ("User agent: *\nDisallow: /x\n", "/x", 2),
        ("Useragent: *\nDisalow: /x\n", "/x", 2),
        ("User-agent: *\nDisallow: /a /b\n", "/a", None),  # with a colon the value is `/a /b`
        ("User-agent: *\nDisallow /a /b\n", "/a", None),  # three words without a colon: nothing
        ("User-agent *\nDisallow\t/x\n", "/x", 2),
        ("\ufeffUser-agent: *\nDisallow: /x\n", "/x", 2),  # a BOM
        ("User-agent: *  # all\nDisallow: /x # not /y\n", "/x", 2),  # comments
        ("User-agent: *\r\nDisallow: /a\r\rDisallow: /x\r\n", "/x", 4),  # CR, LF and CRLF
        ("User-agent: *\nAllow: /x\nDisallow: /x\n", "/x", 2),  # a tie: the allow
        ("User-agent: *\nDisallow: /x\nDisallow: /*\nDisallow: /x\n", "/x", 2),  # equal lengths: the earliest
        ("User-agent: *\nDisallow:\n", "/x", None),  # an empty pattern decides nothing
        ("User-agent: *\nDisallow: /robots.txt\n", "/robots.txt", 2),  # not implicitly allowed
        ("User-agent: *\nDisallow: /\n", "/robots.txt", 2),
        ("User-agent: *\nDisallow: /a$b\n", "/a$b", 2),  # `$` inside a pattern is itself
        ("User-agent: *\nDisallow: /a*b\n", "/a*b", 2),
        ("User-agent: *\nDisallow: /caf\u00e9\n", "/caf%C3%A9", 2),  # patterns escaped, the URL as written
        ("User-agent: *\nDisallow: /caf\u00e9\n", "/caf\u00e9", None),
        ("User-agent: *\nDisallow: /caf%c3%a9\n", "/caf%C3%A9", 2),
        ("User-agent: *\nDisallow: /caf%C3%A9\n", "/caf%c3%a9", None),
        ("User-agent: *\nDisallow: /%7Euser\n", "/~user", None),  # no unreserved decoding
    ],
)
def test_reading_details(robots_txt: str, path: str, line: int | None) -> None:
    verdict = robotscope.parse(robots_txt).verdict("Googlebot", HOST + path, "google")
    assert verdict.line == line
    assert Library(robots_txt.encode()).ask("Googlebot", HOST + path) == (verdict.allowed, verdict.line)


def test_google_lengths_count_the_escaped_pattern() -> None:
    """`%7E` counts three for Google (one in the rfc9309 reading), so `Disallow: /%7Ea` beats `Allow: /~ab` there."""
    robots_txt = "User-agent: *\nDisallow: /%7Ea\nAllow: /%7Ea*\n"
    verdict = robotscope.parse(robots_txt).verdict("Googlebot", HOST + "/%7Eab", "google")
    assert [(r.line, r.length) for r in verdict.candidates] == [(3, 6), (2, 5)]
    caf = robotscope.parse("User-agent: *\nDisallow: /caf\u00e9\n").verdict("Googlebot", "/caf%C3%A9", "google")
    assert caf.rule is not None and caf.rule.normalised == "/caf%C3%A9" and caf.rule.length == 10


def test_index_html_allows_the_directory() -> None:
    robots_txt = "User-agent: *\nDisallow: /dir/\nAllow: /dir/index.html\n"
    robots = robotscope.parse(robots_txt)
    verdict = robots.verdict("Googlebot", HOST + "/dir/", "google")
    assert verdict.allowed and verdict.line == 3
    assert (
        verdict.rule is not None and verdict.rule.pattern == "/dir/index.html" and verdict.rule.normalised == "/dir/$"
    )
    assert [c.line for c in verdict.candidates] == [3, 2]
    assert not robots.verdict("Googlebot", HOST + "/dir/x", "google").allowed
    assert not robots.verdict("Googlebot", HOST + "/dir/", "rfc9309").allowed
    for path in ("/dir/", "/dir/x", "/dir/index.html"):
        theirs = Library(robots_txt.encode()).ask("Googlebot", HOST + path)
        ours = robots.verdict("Googlebot", HOST + path, "google")
        assert theirs == (ours.allowed, ours.line)


def test_the_line_length_cut() -> None:
    long_pattern = "/" + "a" * 17_000
    robots_txt = f"User-agent: *\nDisallow: {long_pattern}\n"
    robots = robotscope.parse(robots_txt)
    kept = google.MAX_LINE_BYTES - len("Disallow: ")
    rule = robots.reading("google", google.read).groups[0].rules[0]
    assert len(rule.normalised) == kept == 16_653
    assert not robots.verdict("Googlebot", HOST + long_pattern[:kept], "google").allowed
    assert Library(robots_txt.encode()).ask("Googlebot", HOST + long_pattern[:kept]) == (False, 2)


def test_the_500_kib_limit() -> None:
    robots = robotscope.parse(LATE)
    assert robots.verdict("Googlebot", HOST + "/late", "google").allowed
    assert robots.reading("google", google.read).size == len(LATE)
    # A line straddling the limit is read up to it (inferred: the crawler keeps the first 500 KiB).
    head = b"User-agent: *\n" + b"#" * (google.SIZE_LIMIT - 14 - len(b"Disallow: /cut")) + b"\n"
    straddling = robotscope.parse(head + b"Disallow: /cut-here\n").verdict("Googlebot", HOST + "/cut", "google")
    assert straddling.rule is not None and straddling.rule.pattern == "/cu"


def test_the_target_is_the_path_and_query_as_written() -> None:
    assert google.target("https://example.com/a b/%7e?q=*$#frag") == "/a b/%7e?q=*$"
    assert google.target("https://example.com") == "/"
    assert google.target("https://example.com?q=1") == "/?q=1"
    assert google.target("//example.com/x") == "/x"
    assert google.target("/a/b;p?q") == "/a/b;p?q"
    assert google.target("https://example.com#/frag") == "/"


def test_the_engine() -> None:
    engine = engines.engine("google")
    assert engine is google.ENGINE and engine.policy == "google" and engine.operator == "Google"
    assert engines.operator_engine("Googlebot") == "google"
    robots = robotscope.parse("User-agent: *\nDisallow /oops\n")
    assert robots.verdict("Googlebot", "/oops", engine="google") == robots.verdict("Googlebot", "/oops", "google")
    for lang in ("en", "ko"):
        described = engine.as_dict(lang)
        assert described["summary"] and len(described["notes"]) == 2
    assert render(message("engine.google.summary"), "ko") != render(message("engine.google.summary"), "en")


def test_hostile_input_never_raises() -> None:
    for data in (b"", b"\x00\xff\xfe", b"\r\n" * 1000, b":" * 5000, "User-agent: *\nDisallow: /\udcff\n", b"\xef\xbb"):
        robots = robotscope.parse(data)
        verdict = robots.verdict("Googlebot", HOST + "/x", "google")
        assert verdict.allowed in (True, False)


def test_a_url_normalising_leaves_alone_is_googles_target_as_it_stands() -> None:
    # What `SplitFilter` relies on to skip Google's verdict for most URLs.
    from robotscope.syntax.urls import plain_target

    google_engine = engines.engine("google")
    checked = 0
    for path in sorted(CORPUS.iterdir())[::8]:
        robots = robotscope.parse(path.read_bytes())
        for rule in (r for g in robots.groups for r in g.rules):
            for url in (rule.pattern, "https://" + path.name + rule.pattern, rule.pattern + "?a=1;b"):
                plain = plain_target(url)
                if plain is not None:
                    checked += 1
                    assert google_engine.target(url) == plain[1], url
    assert checked > 10_000
