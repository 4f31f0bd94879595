"""The literal index and candidate selection: exact where they must be, supersets where they may be.

`Target.pieces` must hold every piece of a target (a missed one would hide a
rule that matches); `Literals.present` confirms each literal, so it is exact;
`Candidates.mask` may hold rules that do not match but never misses one that
does, and `first`/`every` are exactly the naive matcher's answers. The shape
family of benchmarks/shapes.py, built to defeat one index or another, is
checked whole against a naive scan of every rule.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotscope import parse
from robotscope.access.matching import tuning
from robotscope.access.matching.candidates import Candidates, bits, ones
from robotscope.access.matching.literals import END, Literals, Target, keys_of
from robotscope.access.matching.parts import head_of
from robotscope.access.matching.precedence import priority
from robotscope.access.matching.tuning import GRAM
from robotscope.syntax.patterns import compile_pattern, matches
from tests.paths import ROOT
from tests.test_properties import LAYOUTS, reference_match, tuned


def _module(name: str) -> ModuleType:
    path = ROOT / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # a dataclass looks its module up while it is made
    spec.loader.exec_module(module)
    return module


SHAPES = _module("shapes")

# Texts from an alphabet where pieces repeat, cross `/`s and sit between two of them.
TEXT = st.text(alphabet="ab/c", max_size=40)
LITERAL = st.text(alphabet="ab/c", min_size=1, max_size=5)


@given(TEXT)
@settings(max_examples=500)
def test_a_targets_pieces_are_every_piece_of_it(text: str) -> None:
    assert Target(text).pieces == {text[i : i + GRAM] for i in range(len(text) - GRAM + 1)}


@given(TEXT, LITERAL)
def test_a_literal_is_in_the_distinct_segments_when_it_is_in_the_target(text: str, literal: str) -> None:
    assert Target(text).contains(literal) is (literal in text)


@given(st.lists(st.tuples(LITERAL, st.booleans()), max_size=40), TEXT)
@settings(max_examples=300)
def test_present_is_exactly_the_literals_the_target_has(literals: list[tuple[str, bool]], text: str) -> None:
    keys = {literal + END if ends else literal for literal, ends in literals}
    expected = {key for key in keys if (text.endswith(key[:-1]) if key.endswith(END) else key in text)}
    for values in ({}, {"FEW_DIRECT": 0, "LONG_TARGET": 0}, {"FEW_DIRECT": 0, "REFINE_FROM": 0, "FEW_SHORT": 0}):
        with tuned(**values):
            present = Literals(keys).present(text)
            assert sorted(present) == sorted(expected)  # each once


def test_bits_and_ones_are_inverse() -> None:
    positions = [0, 3, 64, 65, 999]
    assert list(ones(bits(positions, 1000))) == positions
    assert bits([7], 1000) == 1 << 7
    assert bits([], 0) == 0  # an empty part


ANY_PATTERN = st.text(alphabet="ab/c*$", min_size=1, max_size=8)


@given(st.lists(ANY_PATTERN, min_size=1, max_size=40), st.text(alphabet="ab/c", max_size=20))
@settings(max_examples=500)
def test_candidates_find_every_rule_that_matches_and_the_first(patterns: list[str], path: str) -> None:
    target = "/" + path
    compiled = [compile_pattern(pattern) for pattern in patterns]
    expected = [i for i, pattern in enumerate(patterns) if reference_match(pattern, target)]
    for values in ({}, {"RARE": 0}, {"SLOTS": 1}, {"FEW_DIRECT": 0, "REFINE_FROM": 0, "FEW_SHORT": 0, "RARE": 0}):
        with tuned(**values):
            index = Candidates(compiled)
            assert set(expected) <= set(ones(index.mask(target)))
            assert index.every(target) == expected
            assert index.first(target) == (expected[0] if expected else None)


def test_a_rule_is_keyed_by_what_a_target_must_hold() -> None:
    assert keys_of(compile_pattern("/private/")) == []  # its start alone
    assert keys_of(compile_pattern("/a$")) == ["/a" + END]
    assert keys_of(compile_pattern("/*x*.pdf$")) == ["x", ".pdf" + END]
    assert keys_of(compile_pattern("*a*$")) == ["a"]  # `*$` ends anywhere


def test_the_first_ask_builds_masks_within_the_budget() -> None:
    # Masks are kept while they fit `MASK_BITS`: a crawl of many distinct literals stays bounded.
    with tuned(MASK_BITS=4 * 300):
        index = Candidates([compile_pattern(f"/*w{i % 50}z*x{i}z") for i in range(300)])
        for i in range(50):
            assert index.first(f"/w{i}z/x{i}z") == i
        assert len(index._cache) <= 4


def _naive(rules: list[tuple[bool, str]], target: str) -> list[int]:
    """The positions of every rule that matches, best first: each rule tried with the linear matcher."""
    found = [i for i, (_, pattern) in enumerate(rules) if matches(compile_pattern(pattern), target)]
    return sorted(found, key=lambda i: (-len(rules[i][1]), not rules[i][0], i))


@pytest.mark.parametrize("shape", SHAPES.SHAPES, ids=lambda shape: shape.name)
@given(st.integers(1, 400), st.integers(0, 10**6))
@settings(max_examples=25)
def test_every_shape_small_agrees_with_a_naive_scan(shape: Any, size: int, seed: int) -> None:
    # A shape at a few hundred rules, under every layout, on URLs like its rules' and long ones.
    text = "User-agent: *\n" + "\n".join(shape.lines(size)) + "\n"
    robots_rules = [(line.startswith("Allow"), line.split(": ", 1)[1]) for line in shape.lines(size)]
    rng = random.Random(seed)
    urls = [*shape.short_urls(6, seed), "/" + "/".join(rng.choices(shape.vocabulary[:8], k=200))]
    for layout in LAYOUTS:
        with layout():
            robots = parse(text)
            for url in urls:
                verdict = robots.verdict("bot", url)
                lines = [robots_rules[i] for i in _naive(robots_rules, verdict.target)]
                assert [(r.allow, r.normalised) for r in verdict.candidates] == lines
                assert robots.can_fetch("bot", url) is verdict.allowed


@pytest.mark.slow
@pytest.mark.parametrize("shape", SHAPES.SHAPES, ids=lambda shape: shape.name)
def test_every_shape_whole_agrees_with_a_naive_scan(shape: Any) -> None:
    # 20,000 rules: the fast path, the full verdict and a scan of every rule, on short and 8,000-character URLs.
    robots = parse(shape.text())
    ruleset = robots.rules_for("bot")
    rules = list(ruleset.rules)
    heads = {head_of(rule.normalised) for rule in rules}
    assert any(ruleset._parts.part(head)._index is not None for head in heads)  # the big part is indexed
    for url in [*shape.short_urls(40), shape.long_url(0), shape.long_url(1)]:
        verdict = robots.verdict("bot", url)
        found = [r for r in rules if matches(compile_pattern(r.normalised), verdict.target)]
        assert verdict.candidates == tuple(sorted(found, key=priority))
        assert ruleset.winner(verdict.target) == (verdict.candidates[0] if found else None)
        assert robots.can_fetch("bot", url) is verdict.allowed
    assert len(rules) > tuning.SMALL


@pytest.mark.slow
@pytest.mark.parametrize("shape", SHAPES.SHAPES, ids=lambda shape: shape.name)
def test_a_check_tries_about_the_rules_that_match_whatever_the_shape(
    shape: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Counted, not timed: on 20,000 rules and an 8,000-character URL the exact match is tried on
    # few rules beyond those that match (the old buckets tried thousands on some shapes).
    tried = []

    def counted(pattern: Any, target: str) -> bool:
        tried.append(pattern)
        return matches(pattern, target)

    robots = parse(shape.text())
    monkeypatch.setattr("robotscope.access.matching.candidates.matches", counted)
    for i in range(3):
        verdict = robots.verdict("bot", shape.long_url(i))
        assert len(tried) <= 2 * len(verdict.candidates) + 64, (shape.name, len(tried), len(verdict.candidates))
        tried.clear()
