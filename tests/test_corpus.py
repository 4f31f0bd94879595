"""Every real-world robots.txt of the corpus parses, answers and lints without raising, each file parsed once."""

from __future__ import annotations

import contextlib
import json
from collections import Counter

import pytest

from robotscope import LineKind, lint, parse
from robotscope.access.engines.registry import PROFILED, names
from robotscope.access.matching.ruleset import RuleSet
from robotscope.reports.compare.diff import probe_urls
from robotscope.reports.compare.matrix import matrix
from robotscope.reports.compare.readings import default_agents, probes
from robotscope.syntax.crawlers import catalogue
from robotscope.syntax.parser import split_lines
from robotscope.syntax.patterns import compile_pattern, matches
from robotscope.syntax.urls import target
from tests.corpus_files import CorpusFile
from tests.paths import CORPUS, SNAPSHOTS
from tests.test_properties import indexed

pytestmark = pytest.mark.slow


def test_corpus_is_complete(corpus: tuple[CorpusFile, ...]) -> None:
    assert len(corpus) == len(list(CORPUS.iterdir())) == 4231


def test_every_file_parses_losslessly_and_answers(corpus: tuple[CorpusFile, ...]) -> None:
    rules = 0
    for name, data, robots in corpus:
        text = data.decode("utf-8", "replace").removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
        # Lines past the limit: the first MAX_OVERFLOW_LINES as Lines, the rest counted.
        kept = "".join(line.raw + "\n" for line in robots.lines + robots.overflow)
        rest = robots.overflow_text.split("\n", len(robots.overflow))[-1] if robots.overflow else ""
        assert kept + rest == (text if text.endswith("\n") or not text else text + "\n"), name
        last = len(robots.lines) + robots.overflow_line_count
        if last:
            assert robots.line(last).raw == split_lines(text)[-1], name
        rule_lines = {r.line for g in robots.groups for r in g.rules}
        assert rule_lines <= {line.number for line in robots.lines if line.kind in (LineKind.ALLOW, LineKind.DISALLOW)}
        rules += len(rule_lines)
    assert rules > 150_000


# Crawlers with documented profiles beside plain ones, and operators' own.
AGENTS = ("Googlebot", "Googlebot-Image", "AdsBot-Google", "bingbot", "GPTBot")


def test_can_fetch_is_the_verdicts_answer_under_every_reading_on_every_file(corpus: tuple[CorpusFile, ...]) -> None:
    # URLs made from each file's own rules (and a few fixed ones), so that rules decide.
    checked = 0
    for name, _, robots in corpus:
        urls = ["/", "/robots.txt", "/caf\u00e9", *probe_urls(robots)[1:4]]
        for agent in AGENTS:
            for reading in (PROFILED, *names()):
                for url in urls:
                    verdict = robots.verdict(agent, url, engine=reading)
                    assert robots.can_fetch(agent, url, engine=reading) is verdict.allowed, (name, agent, reading, url)
                    checked += 1
    assert checked > 900_000


def test_lint_never_raises_and_matches_the_reviewed_snapshot(corpus: tuple[CorpusFile, ...]) -> None:
    """Finding counts per code over the corpus, reviewed by hand (see the linter issue's note).

    A change here means a check changed what it finds: review the new
    findings for false positives, then update the snapshot.
    """
    findings: Counter[str] = Counter()
    files: Counter[str] = Counter()
    for _, _, robots in corpus:
        found = lint(robots)
        json.dumps([f.as_dict() for f in found])
        findings.update(f.code for f in found)
        files.update({f.code for f in found})
    snapshot = json.loads((SNAPSHOTS / "corpus_lint_codes.json").read_text())
    assert {code: {"findings": n, "files": files[code]} for code, n in findings.items()} == snapshot


def test_every_file_gives_its_structure_as_json_and_its_matrix(corpus: tuple[CorpusFile, ...]) -> None:
    """What the web page shows of a file besides the findings (checked above), for every file."""
    crawlers = catalogue()
    for _, _, robots in corpus:
        json.dumps(robots.as_dict())
        rows = matrix(robots, crawlers, ["/"])
        assert len(rows) == len(crawlers) and all(len(row.as_dict()["cells"]) == 1 for row in rows)


def test_the_index_never_misses_a_rule_on_any_file(corpus: tuple[CorpusFile, ...]) -> None:
    # Every file's rule sets, as built (lists, parts) and with every part indexed by literal, find
    # exactly the rules a scan of every rule finds, on URLs made from the file's own rules.
    checked = 0
    for name, _, robots in corpus:
        urls = ["/", "/caf%C3%A9?x=1", *(target(url) for url in probe_urls(robots)[:12])]
        for agent in ("Googlebot", "ExampleUnknownCrawler"):
            groups = robots.rules_for(agent).groups
            for layout in (contextlib.nullcontext, indexed):
                with layout():
                    ruleset = RuleSet("bot", groups)
                for url in urls:
                    scanned = [r for r in ruleset.rules if matches(compile_pattern(r.normalised), url)]
                    assert ruleset.matching(url) == scanned, (name, agent, url)
                    assert ruleset.winner(url) == (scanned[0] if scanned else None), (name, agent, url)
                    checked += 1
    assert checked > 100_000


def test_readings_find_the_pairs_asking_every_pair_finds_on_every_file(corpus: tuple[CorpusFile, ...]) -> None:
    # `readings` asks one crawler per class (`access.classes`); here every crawler the file names
    # (and the operators' and an unnamed one) ten URLs from its rules, pair by pair.
    compared = 0
    for name, data, robots in corpus:
        agents = default_agents(robots)[:16]
        urls = probes(robots)[0][:10]
        fresh = parse(data)  # its own caches: the classes' prepared selections are not the reference's
        found = sorted(fresh.disagreements(agents, urls), key=lambda pair: pair[:2])
        asked = [(a, u, robots.readings(agent, url)) for a, agent in enumerate(agents) for u, url in enumerate(urls)]
        expected = [pair for pair in asked if len({v.allowed for v in pair[2].values()}) > 1]
        assert found == expected, name
        compared += len(agents) * len(urls)
    assert compared > 50_000
