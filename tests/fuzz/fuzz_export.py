"""Fuzz target: any robots.txt exported for every server never raises, writes safe files, refuses only what it may.

With atheris installed (`pip install atheris`), from the repository root:

    python -m tests.fuzz.fuzz_export tests/fuzz/seeds_export -max_total_time=60

Without it, `check(data)` is a plain function: tests/reports/enforce/test_fuzz.py
runs it on every file of tests/fuzz/seeds_export/ (paths and Allow
exceptions, every kind of pattern, names that are no product tokens, text
that would break a configuration's syntax, bytes that are not UTF-8, ...).
Add each input a fuzzer finds there.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.fuzz.harness import fuzz, instrumented

with instrumented(__name__):
    from robotscope import parse
    from robotscope.messages import Message
    from robotscope.reports.enforce import ALL_NAMED, TARGETS, choose, plan, render
    from robotscope.reports.enforce.entries import decoded_path, sent
    from robotscope.reports.enforce.raw import REQUEST_LINE, TARGET
    from robotscope.syntax.patterns import example_target

SEEDS = Path(__file__).parent / "seeds_export"
# What a generated regex may hold: nothing a configuration's syntax reads (space, quotes, `#`, braces).
REGEX = re.compile(r"[A-Za-z0-9/_\-\\.?^$()|*+%\[\]:,;~]*")
WIDE = re.compile(r"\\x\{([0-9a-f]+)\}")


def _compiled(regex: str) -> re.Pattern[str]:
    assert REGEX.fullmatch(WIDE.sub("", regex)), regex
    return re.compile(WIDE.sub(lambda m: chr(int(m.group(1), 16)), regex))


def check(data: bytes) -> None:
    """Export `data` for every server; raise only on a bug."""
    robots = parse(data)
    made = plan(robots, choose(robots, ALL_NAMED), unverified_only=False)
    for target in TARGETS:
        result = render(made, target, "fuzz", "en", "/etc/acl")
        for _, text in result.files:
            assert all(line.replace("\t", "").isprintable() for line in text.splitlines())
        assert all("\n" not in item.render() for item in result.left)
    for group in made.groups[:5]:
        left: dict[int, Message] = {}
        by_target = sent(made, group, TARGET, "nginx", left, "en")
        by_line = sent(made, group, REQUEST_LINE, "apache", left, "en")
        by_path = decoded_path(made, group, left, "en")
        for rule in group.rules[:20]:
            probe = example_target(rule.normalised).replace("$", "").replace(" ", "%20")
            disallowed = not robots.can_fetch(group.tokens[0], "http://example.com" + probe, "rfc9309+profiles")
            for entries, subject in ((by_target, probe), (by_line, f"GET {probe} HTTP/1.1")):
                first = next((e for e in entries if _compiled(e.regex).search(subject)), None)
                assert first is None or first.allow or disallowed, (rule, probe)
        for entry in by_path:
            _compiled(entry.regex)


if __name__ == "__main__":
    fuzz(check)
