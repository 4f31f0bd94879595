"""Differential test: robotscope against Google's robots.txt library on the whole corpus.

For every file of tests/corpus/robots/, URLs are generated from the file's
own rule patterns (and a few fixed paths), and for a few crawlers robotscope's
`can_fetch` is compared with Google's `is_allowed`; where both were decided
by a rule, robotscope's `verdict().line` is compared with Google's
`matching_line`. Every disagreement must be explained by one of the
deliberate differences in known_differences.py: the classifier removes one
known difference at a time from the inputs and names the first whose removal
makes the two libraries agree. Anything left is listed and fails the test.

Run with `-s` to see the per-category summary.
"""

from __future__ import annotations

import collections
import functools
import pathlib
import sys
import time
from typing import NamedTuple

import pytest
import robotstxt  # Google's library, PyPI fast-robotstxt: a test dependency, never skipped

sys.path.insert(0, str(pathlib.Path(__file__).parent))

from known_differences import (
    BY_CODE,
    KNOWN_DIFFERENCES,
    Case,
    classify_disagreement,
    google,
    google_rule_line,
    google_rule_values,
    split_lines,
)

import robotscope
from tests.corpus_files import corpus_files
from tests.paths import CORPUS, DOCS

DOC = DOCS / "differences-from-google.md"

HOST = "https://example.com"
AGENTS = ("Googlebot", "Bingbot", "SomeRandomBot")  # the last one is named by no file: `*` groups
FIXED_PATHS = (
    "/",
    "/index.html",
    "/robots.txt",
    "/robots.txt?x=1",
    "/caf\u00e9/men\u00fc.html",  # non-ASCII
    "/%7Euser/caf%c3%a9/a%2fb",  # percent-encoded, lower-case hex, an escaped slash
    "/search?q=a b&page=2",  # with a query
    "/100%/off",  # a stray %
    "/wp-admin/admin-ajax.php",
    "/private/index.htm",
)

pytestmark = pytest.mark.slow  # the whole corpus against Google's library
MAX_PATTERNS = 30  # rule patterns per file to build URLs from (spread over the file)
MIN_COMPARISONS = 300_000
MIN_FILES = 4_231


class Disagreement(NamedTuple):
    file: str
    agent: str
    url: str
    r_allowed: bool
    r_line: int | None
    g_allowed: bool
    g_line: int | None
    category: str | None

    def describe(self) -> str:
        return (
            f"{self.file}: agent={self.agent!r} url={self.url!r}: "
            f"robotscope={'allow' if self.r_allowed else 'disallow'} (line {self.r_line}), "
            f"google={'allow' if self.g_allowed else 'disallow'} (line {self.g_line})"
        )


class Run(NamedTuple):
    files: int
    comparisons: int
    line_comparisons: int
    disagreements: tuple[Disagreement, ...]
    seconds: float


def paths_for(text: str) -> list[str]:
    """The URL paths to test a file with: fixed ones and ones built from its patterns."""
    patterns = list(dict.fromkeys(google_rule_values(text)))
    if len(patterns) > MAX_PATTERNS:
        step = len(patterns) / MAX_PATTERNS
        patterns = [patterns[int(i * step)] for i in range(MAX_PATTERNS)]
    paths = list(FIXED_PATHS)
    for pattern in patterns:
        base = pattern.replace("*", "x1")
        base = base.removesuffix("$")
        if not base.startswith("/"):
            base = "/" + base
        paths.append(base)
        paths.append(base + "zz/q?y=1")
    return list(dict.fromkeys(paths))


def agents_for(robots: robotscope.Robots) -> list[str]:
    """The fixed crawlers plus the first product token the file names itself."""
    agents = list(AGENTS)
    lowered = {a.lower() for a in agents}
    for group in robots.groups:
        for token in group.agents:
            if token != "*" and token not in lowered:
                return [*agents, token]
    return agents


def compare_file(name: str, data: bytes, robots: robotscope.Robots) -> tuple[int, int, list[Disagreement]]:
    text = data.decode("utf-8", "replace")
    g_lines = split_lines(text)
    comparisons = line_comparisons = 0
    found = []
    agents = agents_for(robots)
    for path in paths_for(text):
        url = HOST + path
        # Crawlers that get the same groups get the same verdict: ask once.
        r_lines: dict[tuple[int, ...], int | None] = {}
        for agent in agents:
            comparisons += 1
            r_allowed = robots.can_fetch(agent, url)
            g_allowed, g_raw_line = google(text, agent, url)
            g_line = google_rule_line(g_lines, g_raw_line)
            r_line = None
            if g_line is not None or r_allowed != g_allowed:
                groups = robots.rules_for(agent).group_lines
                if groups not in r_lines:
                    r_lines[groups] = robots.verdict(agent, url).line
                r_line = r_lines[groups]
            if r_line is not None and g_line is not None:
                line_comparisons += 1
            if r_allowed != g_allowed or (r_line is not None and g_line is not None and r_line != g_line):
                category = classify_disagreement(Case(data, agent, url))
                found.append(Disagreement(name, agent, url, r_allowed, r_line, g_allowed, g_line, category))
    return comparisons, line_comparisons, found


@functools.cache
def corpus_run() -> Run:
    start = time.perf_counter()
    files = comparisons = line_comparisons = 0
    disagreements: list[Disagreement] = []
    for name, data, robots in corpus_files():
        n, lines, found = compare_file(name, data, robots)
        files += 1
        comparisons += n
        line_comparisons += lines
        disagreements.extend(found)
    return Run(files, comparisons, line_comparisons, tuple(disagreements), time.perf_counter() - start)


def category_counts(run: Run) -> collections.Counter[str | None]:
    return collections.Counter(d.category for d in run.disagreements)


def test_corpus_is_compared_in_full() -> None:
    run = corpus_run()
    assert run.files == len(list(CORPUS.iterdir())) >= MIN_FILES
    assert run.comparisons >= MIN_COMPARISONS, run.comparisons
    assert run.line_comparisons >= MIN_COMPARISONS // 10, run.line_comparisons
    # Most comparisons agree: disagreements are the exception, not the rule.
    assert len(run.disagreements) < run.comparisons // 50


def test_every_disagreement_is_a_known_difference() -> None:
    run = corpus_run()
    unexplained = [d for d in run.disagreements if d.category is None]
    shown = "\n".join(d.describe() for d in unexplained[:50])
    assert not unexplained, f"{len(unexplained)} unexplained disagreements with Google:\n{shown}"


def test_categories_are_documented_codes() -> None:
    for category in category_counts(corpus_run()):
        if category is not None:
            for code in category.split("+"):
                assert code in BY_CODE, category


def test_summary() -> None:
    run = corpus_run()
    counts = category_counts(run)
    print(
        f"\nrobotscope vs Google (fast-robotstxt {robotstxt.__version__}): {run.files} files, "
        f"{run.comparisons} comparisons ({run.line_comparisons} with both decided by a rule), "
        f"{len(run.disagreements)} disagreements, {run.seconds:.1f}s"
    )
    files = collections.defaultdict(set)
    for d in run.disagreements:
        files[d.category].add(d.file)
    order = [d.code for d in KNOWN_DIFFERENCES]
    for category, n in sorted(
        counts.items(), key=lambda kv: (kv[0] is None, order.index(kv[0]) if kv[0] in order else 99, kv[0] or "")
    ):
        print(f"  {category or 'UNEXPLAINED'}: {n} disagreements in {len(files[category])} files")
    assert sum(counts.values()) == len(run.disagreements)


def test_every_code_is_in_the_doc() -> None:
    doc = DOC.read_text(encoding="utf-8")
    for difference in KNOWN_DIFFERENCES:
        assert f"`{difference.code}`" in doc, difference.code
