"""Property tests (Hypothesis) of the parser and the matcher."""

from __future__ import annotations

import re
from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from robotscope import LineKind, parse
from robotscope.matcher import priority
from robotscope.patterns import compile_pattern, matches
from robotscope.urls import normalise

# Characters that make matching interesting: wildcards, anchors, escapes, non-ASCII.
PATH_CHARS = st.sampled_from(list("/ab*$%2F4~-.?=é ツ") + ["%41", "%2f", "%7E", "%e3%83%84"])
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
        meaning_kept = len(part) == 1 and (part.isascii() and part.isalnum() or part in "-._~" or not part.isascii())
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


@given(st.lists(st.tuples(st.sampled_from(["*", "bot", "other"]), rules), max_size=4), paths, st.sampled_from(["bot", "nobody"]))
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


@given(st.text(max_size=30))
def test_normalise_is_idempotent(text: str) -> None:
    once = normalise(text)
    assert normalise(once) == once
    assert re.fullmatch(r"[!-~]*", once)


# Patterns that can match anywhere (led by `*` or `/*`), many at once: the matcher's
# fast path then rules them out with one regex before scanning the keyed rules.
anywhere_patterns = st.tuples(st.sampled_from(["*", "/*"]), patterns).map("".join)


@given(st.lists(st.tuples(st.booleans(), anywhere_patterns | patterns), min_size=4, max_size=12), paths)
def test_fast_path_equals_the_full_verdict_with_many_anywhere_rules(rule_list: list[tuple[bool, str]], path: str) -> None:
    robots = parse(robots_text(rule_list))
    assert robots.can_fetch("bot", path) == robots.verdict("bot", path).allowed


# Rules that match every target (kept aside by the fast path as a fallback) and
# many rules of one bucket (which the fast path indexes by plain prefix).
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
    robots = parse(robots_text(rule_list))
    verdict = robots.verdict("bot", path)
    every_rule = [r for g in robots.groups for r in g.rules if r.normalised]
    expected = sorted((r for r in every_rule if reference_match(r.normalised, verdict.target)), key=priority)
    assert verdict.candidates == tuple(expected)
