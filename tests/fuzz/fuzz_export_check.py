"""Fuzz target: `export --check` on any configuration of any server never raises, and says only what it may.

With atheris installed (`pip install atheris`), from the repository root:

    python -m tests.fuzz.fuzz_export_check tests/fuzz/seeds_export_check -max_total_time=60

The input's first line names the server (anything else picks one by its
length); the rest is the configuration, checked against one robots.txt for
the crawlers it names. Without atheris, `check(data)` is a plain function:
tests/reports/enforce/test_fuzz.py runs it on every file of
tests/fuzz/seeds_export_check/ (ai.robots.txt-style files and robotscope's
own exports for each server, regexes that backtrack, unclosed blocks, bytes
that are not UTF-8). Add each input a fuzzer finds there.
"""

from __future__ import annotations

from pathlib import Path

from tests.fuzz.harness import fuzz, instrumented

with instrumented(__name__):
    from robotscope import parse
    from robotscope.reports.enforce import TARGETS
    from robotscope.reports.enforce.check import check as check_config
    from robotscope.reports.enforce.check import check_view

SEEDS = Path(__file__).parent / "seeds_export_check"
ROBOTS = parse(
    "User-agent: GPTBot\nUser-agent: Spider\nDisallow: /\n\n"
    "User-agent: PerplexityBot\nDisallow: /private/\nAllow: /private/open/\n\nUser-agent: *\nDisallow: /*.pdf$\n"
)


def check(data: bytes) -> None:
    """Check the configuration `data` holds; raise only on a bug."""
    first, _, rest = data.decode("utf-8", "replace").partition("\n")
    target = first if first in TARGETS else TARGETS[len(first) % len(TARGETS)]
    report = check_config(ROBOTS, target, rest, "all-named", "fuzz.conf", load=lambda name: "GPTBot\n# x\n  Spider\n")
    lines = max(1, len(rest.splitlines()))
    for item in report.unreadable:
        assert item.file is not None or 1 <= item.line <= lines, item
        assert "\n" not in item.as_message("fuzz.conf").render("ko")
    for finding in report.findings:
        assert finding.paths and "\n" not in finding.message.render()
        assert finding.kind != "let-through" or finding.probe.chosen
    assert report.consistent == (not report.findings and not report.unreadable and report.cut is None)
    assert report.decided <= report.requests
    check_view(report, "en")


if __name__ == "__main__":
    fuzz(check)
