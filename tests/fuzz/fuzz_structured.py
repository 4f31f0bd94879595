"""Fuzz target: Content-Usage and Content-Signal lines, from the RFC 9651 parser to every answer, never raise.

With atheris installed (`pip install atheris`), from the repository root:

    python -m tests.fuzz.fuzz_structured tests/fuzz/seeds_structured -max_total_time=60
    python -m tests.fuzz.fuzz_structured tests/fuzz/seeds_structured -runs=100000

Without it, `check(data)` is a plain function: tests/syntax/test_structured.py
runs it on every file of tests/fuzz/seeds_structured/ (each a value as it
follows `Content-Usage:`; inner lists, parameters, every bare item type,
broken escapes, bytes that are not UTF-8, ...). Add each input a fuzzer
finds there.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.fuzz.harness import fuzz, instrumented

with instrumented(__name__):
    from robotscope import lint, parse
    from robotscope.access.preferences import USAGE, signal_line, usage_rule
    from robotscope.syntax.structured import Item, Token, parse_dictionary, serialize_dictionary

SEEDS = Path(__file__).parent / "seeds_structured"
VALUES = ("y", "n", "unknown")


def check(data: bytes) -> None:
    """Read `data` as a preference value, on its own and in a robots.txt; raise only on a bug."""
    value = data.decode("utf-8", "surrogateescape")
    members = parse_dictionary(value)
    if members is not None:
        # What robotscope writes back (tokens and booleans without parameters) reads back the same.
        plain = {
            key: member.value
            for key, member in members.items()
            if isinstance(member, Item) and not member.params and isinstance(member.value, bool | Token)
        }
        assert parse_dictionary(serialize_dictionary(plain)) == {key: Item(v, {}) for key, v in plain.items()}
    line = value.replace("\r", " ").replace("\n", " ")  # one line, as a file holds it
    robots = parse(
        f"User-agent: a\nContent-Usage: {line}\nContent-Signal: {line}\nUser-agent: GPTBot\n"
        f"Disallow: /p\nContent-Usage: /q {line}\n"
    )
    # A usage preference is a rule: the user-agent line after it starts a group (attach §3).
    assert [group.agents for group in robots.groups] == [("a",), ("gptbot",)]
    for record in robots.records:
        json.dumps((usage_rule(record) if record.key == USAGE else signal_line(record))._asdict())
    for agent, url in (("a", "/x"), ("GPTBot", "/q/1"), ("GPTBot", "/p")):
        verdict = robots.verdict(agent, url)
        json.dumps(verdict.as_dict())
        if verdict.usage is not None and verdict.usage.applies:
            assert all(p.value in VALUES for p in verdict.usage.usage.values())
        json.dumps({name: v.as_dict() for name, v in robots.readings(agent, url).items()})
    json.dumps([finding.as_dict() for finding in lint(robots)])


if __name__ == "__main__":
    fuzz(check)
