"""Fuzz target: lint, and every pure function a front end runs on a robots.txt, never raises.

With atheris installed (`pip install atheris`), from the repository root:

    python -m tests.fuzz.fuzz_lint tests/fuzz/seeds -max_total_time=60
    python -m tests.fuzz.fuzz_lint tests/fuzz/seeds -runs=100000

Without it, `check(data)` is a plain function: tests/test_lint_total.py runs
it on every file of tests/fuzz/seeds/ (hostile inputs: bracketed hosts, NULs,
lone CRs, a huge line, UTF-16, ...). Add each input a fuzzer finds there.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.fuzz.harness import fuzz, instrumented

with instrumented(__name__):
    from robotscope import lint, parse
    from robotscope.reports.compare.diff import agents_named, diff, probe_urls
    from robotscope.reports.compare.matrix import matrix
    from robotscope.reports.render import quote_lines, render_findings, sarif, summary
    from robotscope.syntax.crawlers import catalogue

SEEDS = Path(__file__).parent / "seeds"
_OTHER = parse("User-agent: *\nDisallow: /private/\nAllow: /private/ok$\n\nUser-agent: Googlebot\nDisallow: /*.pdf$\n")


def check(data: bytes) -> None:
    """Parse `data` and run on it what the CLI and the web API run; raise only on a bug."""
    robots = parse(data)
    findings = lint(robots)
    json.dumps([f.as_dict() for f in findings])
    json.dumps(robots.as_dict())
    render_findings(robots, findings, "fuzz.txt")
    summary(findings, "fuzz.txt")
    json.dumps(sarif(findings, "fuzz.txt", "0"))
    # An agent and a URL taken from the input itself: its first line, split at the first space.
    agent, _, url = data.decode("utf-8", "replace").partition("\n")[0].partition(" ")
    verdict = robots.verdict(agent, url)
    assert robots.can_fetch(agent, url) == verdict.allowed
    json.dumps(verdict.as_dict())
    if verdict.line is not None:
        quote_lines(robots, verdict.line)
    json.dumps([row.as_dict() for row in matrix(robots, catalogue(), ["/", url])])
    for old, new in ((robots, _OTHER), (_OTHER, robots)):
        flips = diff(old, new, [*probe_urls(old, new), url], [*agents_named(old, new), agent], limit=1000)
        json.dumps([flip.as_dict() for flip in flips])


if __name__ == "__main__":
    fuzz(check)
