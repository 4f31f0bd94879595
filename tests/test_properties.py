"""Property tests (Hypothesis) of the parser, the matcher, and everything run on file content."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from robotscope import LineKind, Robots, Verdict, lint, parse
from robotscope.access.engines import rfc9309
from robotscope.access.engines.registry import PROFILED, names, run
from robotscope.access.matching import tuning
from robotscope.access.matching.explain import candidates
from robotscope.access.matching.precedence import priority
from robotscope.access.matching.rulebook import Rulebook
from robotscope.access.matching.selection import GroupIndex, select_groups
from robotscope.reports.compare.diff import agents_named, diff, probe_urls
from robotscope.reports.compare.matrix import matrix
from robotscope.reports.generator import InvalidSpec, Spec, build
from robotscope.reports.render import quote_lines, render_findings, sarif, summary
from robotscope.syntax.crawlers import catalogue
from robotscope.syntax.patterns import compile_pattern, example_target, matches
from robotscope.syntax.urls import _normalised, normalise, target

# Characters that make matching interesting: wildcards, anchors, escapes, non-ASCII.
PATH_CHARS = st.sampled_from([*list("/ab*$%2F4~-.?=é ツ"), "%41", "%2f", "%7E", "%e3%83%84"])
paths = st.lists(PATH_CHARS, max_size=12).map(lambda parts: "/" + "".join(parts))
patterns = st.lists(PATH_CHARS, max_size=8).map(lambda parts: "".join(parts))
rules = st.lists(st.tuples(st.booleans(), patterns), max_size=8)


def robots_text(rule_list: list[tuple[bool, str]], agent: str = "*") -> str:
    body = "".join(f"{'Allow' if allow else 'Disallow'}: {pattern}\n" for allow, pattern in rule_list)
    return f"User-agent: {agent}\n{body}"


@given(st.binary(max_size=2000))
@settings(max_examples=300)
def test_parse_never_raises_on_any_bytes(data: bytes) -> None:
    robots = parse(data)
    for line in robots.lines:
        assert "\n" not in line.raw and "\r" not in line.raw
    robots.verdict("Googlebot", "/x")
    robots.can_fetch("Mozilla/5.0 (compatible; Googlebot/2.1)", "https://example.com/")


@given(st.text(alphabet=st.sampled_from(list("Ua:sergt-* /\n\r#\tDiloAwé")), max_size=300))
def test_lines_are_lossless(text: str) -> None:
    robots = parse(text)
    expected = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if expected[-1] == "":
        expected.pop()
    assert [line.raw for line in robots.lines] == expected
    assert [line.number for line in robots.lines] == list(range(1, len(expected) + 1))


@given(rules, st.randoms(use_true_random=False), paths)
def test_rule_order_inside_a_group_never_changes_the_verdict(
    rule_list: list[tuple[bool, str]], rnd: object, path: str
) -> None:
    shuffled = list(rule_list)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    first = parse(robots_text(rule_list)).verdict("bot", path)
    second = parse(robots_text(shuffled)).verdict("bot", path)
    assert first.allowed == second.allowed
    assert first.reason == second.reason
    if first.rule is not None and second.rule is not None:
        assert (first.rule.length, first.rule.allow) == (second.rule.length, second.rule.allow)


def equivalent_encoding(parts: list[tuple[str, bool]]) -> str:
    """Percent-encode the chosen parts where that keeps the meaning.

    Only single unreserved or non-ASCII characters, and never right after a
    `%` that could make an escape with them.
    """
    out = "/"
    for part, encode in parts:
        meaning_kept = len(part) == 1 and ((part.isascii() and part.isalnum()) or part in "-._~" or not part.isascii())
        if encode and meaning_kept and "%" not in out[-2:]:
            out += "".join(f"%{b:02x}" for b in part.encode("utf-8"))
        else:
            out += part
    return out


@given(rules, st.lists(st.tuples(PATH_CHARS, st.booleans()), max_size=12))
def test_a_path_and_its_percent_encoded_equivalent_get_the_same_verdict(
    rule_list: list[tuple[bool, str]], parts: list[tuple[str, bool]]
) -> None:
    robots = parse(robots_text(rule_list))
    path = "/" + "".join(part for part, _ in parts)
    encoded = equivalent_encoding(parts)
    assert robots.verdict("bot", path).allowed == robots.verdict("bot", encoded).allowed
    assert robots.verdict("bot", path).line == robots.verdict("bot", encoded).line


@given(
    st.lists(st.tuples(st.sampled_from(["*", "bot", "other"]), rules), max_size=4),
    paths,
    st.sampled_from(["bot", "nobody"]),
)
@settings(suppress_health_check=[HealthCheck.too_slow])
def test_a_verdict_line_is_a_rule_of_a_group_that_applies(
    groups: list[tuple[str, list[tuple[bool, str]]]], path: str, agent: str
) -> None:
    robots = parse("\n".join(robots_text(r, a) for a, r in groups))
    verdict = robots.verdict(agent, path)
    assert robots.can_fetch(agent, path) == verdict.allowed
    if verdict.line is None:
        return
    line = robots.line(verdict.line)
    assert line.kind in (LineKind.ALLOW, LineKind.DISALLOW)
    assert line.group is not None
    group = robots.groups[line.group]
    applying = [g for g in robots.groups if agent in g.agents] or [g for g in robots.groups if "*" in g.agents]
    assert group in applying
    assert set(verdict.group_lines) == {n for g in applying for n in g.agent_lines}


@cache
def reference_match(pattern: str, target: str) -> bool:
    """Naive recursive glob matcher: the definition, not the fast algorithm."""
    anchored = pattern.endswith("$")
    body = (pattern[:-1] if anchored else pattern).replace("$", "%24")

    def go(p: int, t: int) -> bool:
        if p == len(body):
            return t == len(target) or not anchored
        if body[p] == "*":
            return any(go(p + 1, k) for k in range(t, len(target) + 1))
        return t < len(target) and target[t] == body[p] and go(p + 1, t + 1)

    return go(0, 0)


@given(st.text(alphabet="ab*$/", max_size=8), st.text(alphabet="ab/", max_size=10))
@settings(max_examples=500)
def test_matcher_equals_a_naive_reference(pattern: str, target: str) -> None:
    compiled = compile_pattern(pattern)
    expected = reference_match(pattern, target)
    assert matches(compiled, target) is expected


_HEX_DIGITS = "0123456789abcdefABCDEF"
_ESCAPES = [f"%{a}{b}" for a in _HEX_DIGITS for b in _HEX_DIGITS]


def test_normalise_fast_paths_agree_on_every_escape() -> None:
    # Every two-digit escape, every cut-short one, alone and between other characters.
    for piece in [*_ESCAPES, *(f"%{a}" for a in _HEX_DIGITS), "%", "%g0"]:
        for text in (piece, f"/a{piece}b", f"{piece}{piece}"):
            assert normalise(text) == _normalised(text), text


@given(
    st.lists(
        st.sampled_from(_ESCAPES) | st.sampled_from(["%", "/", "a", "Z", "_", " ", "\u00e9", "*", "$"]), max_size=8
    ).map("".join)
    | st.text(max_size=20)
)
@settings(max_examples=500)
def test_normalise_fast_paths_change_nothing(text: str) -> None:
    # The fast paths return the text as it is only where the full normalisation would too.
    assert normalise(text) == _normalised(text)


@given(st.text(max_size=30))
def test_normalise_is_idempotent(text: str) -> None:
    once = normalise(text)
    assert normalise(once) == once
    assert re.fullmatch(r"[!-~]*", once)


@contextlib.contextmanager
def tuned(**values: int) -> Iterator[None]:
    """The matcher's tuning constants set to `values` while rule sets are built and asked."""
    saved = {name: getattr(tuning, name) for name in values}
    for name, value in values.items():
        setattr(tuning, name, value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(tuning, name, value)


def in_parts() -> contextlib.AbstractContextManager[None]:
    """Every rule set in parts by head, however few its rules, each part tried in turn."""
    return tuned(SMALL=0)


def indexed() -> contextlib.AbstractContextManager[None]:
    """Every rule set in parts, each indexed by its literals, however few its rules."""
    return tuned(SMALL=0, INDEX_FROM=0)


def every_path() -> contextlib.AbstractContextManager[None]:
    """Indexed, with every rule filed in every slot, every literal filed by its pieces, every group of
    them refined and every target read by its segments: each path of the index taken at once."""
    return tuned(SMALL=0, INDEX_FROM=0, RARE=0, REFINE_FROM=0, FEW_SHORT=0, FEW_DIRECT=0, LONG_TARGET=0)


def rarest_only() -> contextlib.AbstractContextManager[None]:
    """Indexed by each rule's rarest literal alone: the exact match sorts out the rest."""
    return tuned(SMALL=0, INDEX_FROM=0, SLOTS=1)


# A small set (tried in turn), and the index with each of its choices.
LAYOUTS = (contextlib.nullcontext, in_parts, indexed, every_path, rarest_only)


@given(
    st.lists(st.lists(st.sampled_from(["*", "a", "b", "A", "c-d", "a/1"]), min_size=1, max_size=3), max_size=6),
    st.sampled_from(["a", "b", "c-d", "*", "zz", ""]),
)
def test_the_groups_selected_are_those_naming_the_token_else_the_star_groups(
    groups: list[list[str]], token: str
) -> None:
    # The definition (RFC 9309, Section 2.2.1), against the scan of small files and the one-lookup index of large ones.
    text = "".join("".join(f"User-agent: {a}\n" for a in agents) + "Disallow: /x\n" for agents in groups)
    robots = parse(text)
    named = tuple(g for g in robots.groups if token in g.agents)
    expected = named or tuple(g for g in robots.groups if "*" in g.agents)
    assert select_groups(robots.groups, token) == expected
    assert GroupIndex(robots.groups).select(token) == expected


# Patterns that can match anywhere (led by `*` or `/*`), many at once.
anywhere_patterns = st.tuples(st.sampled_from(["*", "/*"]), patterns).map("".join)


@given(st.lists(st.tuples(st.booleans(), anywhere_patterns | patterns), min_size=4, max_size=12), paths)
def test_fast_path_equals_the_full_verdict_with_many_anywhere_rules(
    rule_list: list[tuple[bool, str]], path: str
) -> None:
    for layout in LAYOUTS:
        with layout():
            robots = parse(robots_text(rule_list))
            assert robots.can_fetch("bot", path) == robots.verdict("bot", path).allowed


# Key-less patterns with every kind of ending: open, `$`, `*$` (which ends anywhere), `*`.
anywhere_endings = st.tuples(st.sampled_from(["*", "/*"]), patterns, st.sampled_from(["", "$", "*$", "*"])).map("".join)


@given(st.lists(anywhere_endings, min_size=1, max_size=3), paths)
@settings(max_examples=500)
def test_few_anywhere_rules_are_found_by_their_literals(found: list[str], path: str) -> None:
    # One or a few key-less rules: the index finds them by the literals they need.
    for layout in LAYOUTS:
        with layout():
            robots = parse(robots_text([(False, pattern) for pattern in found]))
            verdict = robots.verdict("bot", path)
            expected = [
                r
                for g in robots.groups
                for r in g.rules
                if r.normalised and reference_match(r.normalised, verdict.target)
            ]
            assert verdict.candidates == tuple(sorted(expected, key=priority))
            assert robots.can_fetch("bot", path) == verdict.allowed


# Rules that match every target and many rules sharing their start.
match_everything = st.sampled_from(["/", "*", "/*", "*$", "**", "/**", "/*$", "/***"])
one_bucket = st.lists(st.sampled_from(list("ab/*$")), max_size=5).map(lambda parts: "/a" + "".join(parts))


@given(
    st.lists(st.tuples(st.booleans(), one_bucket), min_size=24, max_size=40),
    st.lists(st.tuples(st.booleans(), match_everything | anywhere_patterns | patterns), max_size=10),
    one_bucket.filter(lambda p: "*" not in p and "$" not in p) | paths,
)
@settings(max_examples=300)
def test_fast_path_picks_the_rule_the_full_verdict_picks(
    bucket: list[tuple[bool, str]], others: list[tuple[bool, str]], path: str
) -> None:
    for layout in LAYOUTS:
        with layout():
            robots = parse(robots_text(bucket + others))
            verdict = robots.verdict("bot", path)
            best = verdict.candidates[0] if verdict.candidates else None
            assert robots.rules_for("bot").winner(verdict.target) == best


@given(
    st.lists(st.tuples(st.booleans(), match_everything | one_bucket | anywhere_patterns | patterns), max_size=30),
    one_bucket.filter(lambda p: "*" not in p and "$" not in p) | paths,
)
@settings(max_examples=300)
def test_candidates_are_every_rule_that_matches_best_first(rule_list: list[tuple[bool, str]], path: str) -> None:
    # The definition: every non-empty rule of the group, tried with the naive matcher.
    for layout in LAYOUTS:
        with layout():
            robots = parse(robots_text(rule_list))
            verdict = robots.verdict("bot", path)
            every_rule = [r for g in robots.groups for r in g.rules if r.normalised]
            expected = sorted((r for r in every_rule if reference_match(r.normalised, verdict.target)), key=priority)
            assert verdict.candidates == tuple(expected)


# --- Never raises: every pure function a front end calls on file content -------------
#
# The parser never raises; neither may anything the CLI, the web API or a library
# user runs on what it returns: lint (whose sitemap and pattern checks once raised
# on `Sitemap: https://[oops]/s.xml`), the structure as JSON, the crawler matrix,
# diff, verdicts for any agent and URL, and the renderers.

# Values built to break URL and pattern handling: brackets, ports, escapes, anchors, controls, non-ASCII.
JUNK_PIECES = [
    "http://",
    "https://",
    "ftp://",
    "//",
    "[",
    "]",
    "[::1",
    "[::1]",
    "[oops]",
    "[v1.x]",
    ":",
    ":99999",
    ":-1",
    "@",
    "%",
    "%4",
    "%zz",
    "%00",
    "%2F",
    "*",
    "**",
    "$",
    "?",
    "#",
    "/",
    " ",
    "\t",
    "\x00",
    "\x0b",
    "\x7f",
    "é",
    "ツ",
    "\uff0f",
    "\u2100",
    "\ufeff",
    "\ud800",
    "\U0001f600",
    "a",
    "Z",
    "0",
    "-",
    "_",
    ".",
    "..",
    "example.com",
    "xn--",
    "robots.txt",
    "<html>",
    "app.js",
    ".css",
    "/static/",
]
junk = st.lists(st.sampled_from(JUNK_PIECES) | st.text(max_size=3), max_size=10).map("".join)
KEYS = [
    "User-agent",
    "user-agent",
    "USER-AGENT",
    "Disallow",
    "Allow",
    "Sitemap",
    "sitemap",
    "Crawl-delay",
    "Host",
    "Noindex",
    "Useragent",
    "Dissallow",
    "Site-map",
    "Content-Signal",
    "Foo",
    "",
    " Disallow",
    "Disallow ",
]
record_lines = st.one_of(
    st.tuples(st.sampled_from(KEYS), st.sampled_from([":", ": ", " : ", "", " "]), junk).map("".join),
    st.tuples(
        st.sampled_from(["User-agent: ", "user-agent:"]),
        st.sampled_from(["*", "Googlebot", "*bot", "Yeti Mobile", "", "bot/1.0"]) | junk,
    ).map("".join),
    junk.map(lambda value: "# " + value),
    junk,
)
robots_like = st.tuples(st.lists(record_lines, max_size=25), st.sampled_from(["\n", "\r\n", "\r"])).map(
    lambda parts: parts[1].join(parts[0])
)
agents_junk = st.sampled_from(["*", "Googlebot", "Mozilla/5.0 (compatible; Googlebot/2.1)", "", " ", "\x00"]) | junk


def everything_a_front_end_runs(robots: Robots, agent: str, url: str) -> None:
    """Run each pure function a front end calls on a parsed file, checking the JSON they return."""
    findings = lint(robots)
    json.dumps([f.as_dict() for f in findings])
    json.dumps(robots.as_dict())
    render_findings(robots, findings, "robots.txt")
    summary(findings, "robots.txt")
    json.dumps(sarif(findings, "robots.txt", "0"))
    verdict = robots.verdict(agent, url)
    assert robots.can_fetch(agent, url) == verdict.allowed
    json.dumps(verdict.as_dict())
    if verdict.line is not None:
        quote_lines(robots, verdict.line)
    json.dumps([row.as_dict() for row in matrix(robots, catalogue(), ["/", url])])
    other = parse("User-agent: *\nDisallow: /private/\n")
    for old, new in ((robots, other), (other, robots)):
        flips = diff(old, new, [*probe_urls(old, new), url], [*agents_named(old, new), agent])
        json.dumps([f.as_dict() for f in flips])


@given(st.binary(max_size=2000), agents_junk, junk)
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow], deadline=None)
def test_front_end_functions_never_raise_on_any_bytes(data: bytes, agent: str, url: str) -> None:
    everything_a_front_end_runs(parse(data), agent, url)


@given(robots_like, agents_junk, junk)
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
def test_front_end_functions_never_raise_on_robots_like_text(text: str, agent: str, url: str) -> None:
    everything_a_front_end_runs(parse(text), agent, url)
    everything_a_front_end_runs(parse(text.encode("utf-8", "surrogatepass")), agent, url)


@given(
    st.lists(st.tuples(agents_junk, st.lists(junk, max_size=3), st.lists(junk, max_size=3)), min_size=1, max_size=4),
    st.lists(junk, max_size=3),
)
@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow], deadline=None)
def test_generator_never_raises_on_any_spec_it_accepts(
    blocks: list[tuple[str, list[str], list[str]]], sitemaps: list[str]
) -> None:
    data = {"blocks": [{"agent": a, "allow": al, "disallow": dis} for a, al, dis in blocks], "sitemaps": sitemaps}
    try:
        spec = Spec.from_data(data)
    except InvalidSpec:
        return  # refused with its reason (a line break, `#`, no agent), as documented
    generated = build(spec)
    json.dumps([f.as_dict() for f in generated.findings])


# --- Every reading's can_fetch is its verdict's answer -----------------------------------

# Groups naming crawlers with documented profiles (and their fallbacks), the misspelt and colon-less
# lines some readings take for rules, and a blank line that ends a group for others.
reading_files = st.lists(
    st.tuples(
        st.sampled_from(["*", "googlebot", "adsbot-google", "bot", "msnbot", "yandex"]),
        rules,
        st.sampled_from(["", "Disallow /a\n", "Dissallow: /b\n", "\nDisallow: /c\n"]),
    ),
    max_size=5,
).map(lambda groups: "\n".join(robots_text(r, a) + extra for a, r, extra in groups))
reading_agents = st.sampled_from(
    [
        "Googlebot",
        "Googlebot-Image",
        "AdsBot-Google",
        "Google-InspectionTool",
        "bingbot",
        "YandexBot",
        "Applebot",
        "bot",
        "nobody",
    ]
)


@given(reading_files, paths, reading_agents)
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
def test_can_fetch_is_the_verdicts_answer_under_every_reading(text: str, path: str, agent: str) -> None:
    robots = parse(text)
    for name in (PROFILED, *names()):
        assert robots.can_fetch(agent, path, engine=name) is robots.verdict(agent, path, engine=name).allowed, name
    # `rfc9309` and `rfc9309+profiles` answer from the façade's indexed rule sets: their generic
    # steps (the engine's select and match, as every other reading runs) give the same verdict.
    fresh = parse(text)
    for chosen in (rfc9309.ENGINE, rfc9309.PROFILED):
        assert run(chosen, fresh, agent, path) == robots.verdict(agent, path, engine=chosen.name), chosen.name


# --- The indexes behind lint and diff answer as the matcher does ------------------------

# Up to 12 groups, most naming bot: a token named in 8 groups or more is answered from one merged index.
group_files = st.lists(st.tuples(st.sampled_from(["*", "bot", "bot", "bot", "other"]), rules), max_size=12).map(
    lambda groups: "\n".join(robots_text(r, a) for a, r in groups)
)


@given(group_files, paths, st.sampled_from(["bot", "other", "*", "nobody"]))
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
def test_rulebook_answers_as_the_matcher(text: str, path: str, token: str) -> None:
    robots = parse(text)
    ruleset = robots.rules_for("" if token == "*" else token)  # the `*` crawler's product token is empty
    book = Rulebook(robots.group_index)
    verdict_target = target(path)
    assert book.groups(token) == ruleset.groups
    assert sorted(book.matching(token, verdict_target), key=priority) == list(candidates(ruleset, verdict_target))
    assert book.best(token, verdict_target) == ruleset.winner(verdict_target)
    assert book.allows(token, verdict_target) == ruleset.allows(verdict_target)


@given(
    st.lists(st.tuples(st.booleans(), one_bucket), min_size=30, max_size=60),
    one_bucket.filter(lambda p: "*" not in p and "$" not in p) | paths,
)
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
def test_rulebook_finds_every_rule_that_matches_among_many_wildcards(
    rule_list: list[tuple[bool, str]], path: str
) -> None:
    # Many wildcard rules under one start: found by their literals among the target's substrings.
    robots = parse(robots_text(rule_list))
    verdict_target = target(path)
    every_rule = [r for g in robots.groups for r in g.rules if r.normalised]
    expected = sorted((r for r in every_rule if reference_match(r.normalised, verdict_target)), key=priority)
    assert sorted(Rulebook(robots.group_index).matching("*", verdict_target), key=priority) == expected


class _Answers:
    """A `Robots` behind the `Answers` protocol only, so that `diff` asks it about every pair."""

    def __init__(self, robots: Robots) -> None:
        self.robots = robots

    def verdict(self, agent: str, url: str) -> Verdict:
        return self.robots.verdict(agent, url)


@given(group_files, group_files, st.lists(paths, max_size=4))
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
def test_diff_of_two_files_equals_asking_every_pair(old_text: str, new_text: str, extra: list[str]) -> None:
    old, new = parse(old_text), parse(new_text)
    urls = probe_urls(old, new) + extra + ["/robots.txt"]
    agents = [*agents_named(old, new), "nobody", "Mozilla/5.0 (compatible; bot/1.0)"]
    assert diff(old, new, urls, agents) == diff(_Answers(old), _Answers(new), urls, agents)


# --- The checks that index rules find what their plain definitions find ---------------

few_patterns = st.sampled_from(
    ["/a", "/a/", "/ab", "/a*", "/a*b", "/a*b$", "/", "/*", "/a$", "*b", "/a/b/c", "/b", "/ab/c*d"]
)
overlapping_files = st.lists(
    st.tuples(st.sampled_from(["*", "x", "y", "z"]), st.lists(st.tuples(st.booleans(), few_patterns), max_size=6)),
    max_size=6,
).map(lambda groups: "\n".join(robots_text(r, a) for a, r in groups))


def first_match_definition(robots: Robots) -> dict[int, int]:
    """Rule line -> the line of the other kind firstMatchOrder names, trying every pair of the group.

    A first-match parser reads a pattern literally, as a prefix of the path
    (`*` alone matches every path): for a rule's example path it stops at
    the earliest shorter rule above that begins it. A rule is named when
    that stop is of the other kind.
    """
    named = {}
    for group in robots.groups:
        for rule in (r for r in group.rules if r.normalised):
            path = example_target(rule.normalised)
            stops = [
                r
                for r in group.rules
                if r.normalised
                and r.line < rule.line
                and path.startswith(prefix := "" if r.normalised == "*" else r.normalised)
                and len(prefix) < rule.length
            ]
            first = min(stops, key=lambda r: r.line, default=None)
            if first is not None and first.allow != rule.allow:
                named[rule.line] = first.line
    return named


def shadowed_definition(robots: Robots) -> dict[int, int]:
    """Shadowed line -> the line that beats it, for the first crawler (in file order) whose groups hold both."""
    named: dict[int, int] = {}
    for token in dict.fromkeys(t for g in robots.groups for t in g.agents):
        merged = [r for g in robots.groups if token in g.agents for r in g.rules if r.normalised]
        for rule in merged:
            same = [r for r in merged if r.normalised == rule.normalised]
            winner = min(same, key=lambda r: (not r.allow, r.line))
            if rule is not winner:
                named.setdefault(rule.line, winner.line)
    return named


@given(overlapping_files)
@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
def test_indexed_checks_find_what_their_definitions_find(text: str) -> None:
    robots = parse(text)
    findings = lint(robots)
    assert {f.line: f.lines for f in findings if f.code == "firstMatchOrder"} == {
        line: tuple(sorted((line, other))) for line, other in first_match_definition(robots).items()
    }
    assert {f.line: f.lines for f in findings if f.code == "shadowedRule"} == {
        line: tuple(sorted((line, winner))) for line, winner in shadowed_definition(robots).items()
    }


@given(
    st.lists(st.tuples(st.booleans(), st.text(alphabet="ab*$/.%", max_size=8)), min_size=1, max_size=12),
    st.lists(st.text(alphabet="ab/.$%", max_size=12), min_size=1, max_size=4),
)
@settings(suppress_health_check=[HealthCheck.too_slow])
def test_the_engines_rule_filter_keeps_every_rule_that_matches(rules: list[tuple[bool, str]], paths: list[str]) -> None:
    # Google's and Protego's readings test only the rules `CandidateRules` lets through once a
    # selection has many: forced on for every selection, their verdicts are the same as without.
    from robotscope.access.engines import google, protego  # their MANY_RULES, set for the test

    text = "User-agent: *\n" + "".join(f"{'Allow' if allow else 'Disallow'}: /{pattern}\n" for allow, pattern in rules)
    saved = (google.MANY_RULES, protego.MANY_RULES)  # type: ignore[attr-defined]
    try:
        google.MANY_RULES = protego.MANY_RULES = 0  # type: ignore[attr-defined]
        filtered = parse(text)
        with_filter = [filtered.verdict("bot", "/" + p, name) for name in ("google", "protego") for p in paths]
        assert filtered.reading("google", google.read).prepared  # the filter was built
    finally:
        google.MANY_RULES, protego.MANY_RULES = saved  # type: ignore[attr-defined]
    whole = parse(text)
    assert with_filter == [whole.verdict("bot", "/" + p, name) for name in ("google", "protego") for p in paths]
