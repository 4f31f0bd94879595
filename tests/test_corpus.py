"""Every real-world robots.txt of the corpus parses and answers without raising."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from robotscope import LineKind, lint, parse
from robotscope.reports.compare import matrix
from robotscope.syntax.crawlers import catalogue
from robotscope.syntax.parser import split_lines

CORPUS = Path(__file__).parent / "corpus" / "robots"


def test_corpus_is_complete() -> None:
    assert len(list(CORPUS.iterdir())) == 4231


def test_every_file_parses_losslessly_and_answers() -> None:
    rules = 0
    for path in sorted(CORPUS.iterdir()):
        data = path.read_bytes()
        robots = parse(data)
        text = data.decode("utf-8", "replace").removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
        # Lines past the limit: the first MAX_OVERFLOW_LINES as Lines, the rest counted.
        kept = "".join(line.raw + "\n" for line in robots.lines + robots.overflow)
        rest = robots.overflow_text.split("\n", len(robots.overflow))[-1] if robots.overflow else ""
        assert kept + rest == (text if text.endswith("\n") or not text else text + "\n"), path.name
        last = len(robots.lines) + robots.overflow_line_count
        if last:
            assert robots.line(last).raw == split_lines(text)[-1], path.name
        rule_lines = {r.line for g in robots.groups for r in g.rules}
        assert rule_lines <= {line.number for line in robots.lines if line.kind in (LineKind.ALLOW, LineKind.DISALLOW)}
        rules += len(rule_lines)
        for url in ("/", "/index.html?x=1", "/wp-admin/", "/caf\u00e9"):
            assert robots.can_fetch("Googlebot", url) == robots.verdict("Googlebot", url).allowed
    assert rules > 150_000


def test_lint_never_raises_and_matches_the_reviewed_snapshot() -> None:
    """Finding counts per code over the corpus, reviewed by hand (see the linter issue's note).

    A change here means a check changed what it finds: review the new
    findings for false positives, then update the snapshot.
    """
    findings: Counter[str] = Counter()
    files: Counter[str] = Counter()
    for path in sorted(CORPUS.iterdir()):
        found = lint(parse(path.read_bytes()))
        json.dumps([f.as_dict() for f in found])
        findings.update(f.code for f in found)
        files.update({f.code for f in found})
    snapshot = json.loads((Path(__file__).parent / "snapshots" / "corpus_lint_codes.json").read_text())
    assert {code: {"findings": n, "files": files[code]} for code, n in findings.items()} == snapshot


def test_every_file_gives_its_structure_as_json_and_its_matrix() -> None:
    """What the web page shows of a file besides the findings (checked above), for every file."""
    crawlers = catalogue()
    for path in sorted(CORPUS.iterdir()):
        robots = parse(path.read_bytes())
        json.dumps(robots.as_dict())
        rows = matrix(robots, crawlers, ["/"])
        assert len(rows) == len(crawlers) and all(len(row.as_dict()["cells"]) == 1 for row in rows)
