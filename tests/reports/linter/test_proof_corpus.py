"""Every fix lint keeps, on every corpus file, changes no verdict: checked here with probes of its own.

The linter's proof (`reports.linter.proof`) keeps a fix only when applying it
changes no verdict. This test does not trust it: it applies the kept edits
itself (all of a file's together, as `lint --fix` does, and the first one
alone), derives its own URLs (each rule's example target, with `/` and a
character added, and the edited lines' rules first) and asks `Robots` under
RFC 9309 and Google's reading for the crawlers each file names.
"""

from __future__ import annotations

from collections import Counter

import pytest

from robotscope import Robots, lint, parse
from robotscope.syntax.model import Edit
from robotscope.syntax.patterns import example_target
from tests.corpus_files import CorpusFile

_READINGS = ("rfc9309", "google")


def _applied(robots: Robots, edits: list[Edit]) -> str:
    lines = robots.text.split("\n")
    for number, new in sorted((change for edit in edits for change in edit.changes), reverse=True):
        lines[number - 1 : number] = list(new)  # from the end, so the numbers above stay right
    return "\n".join(lines)


def _urls(robots: Robots, fixed: Robots, edited: set[int]) -> list[str]:
    rules = [r for version in (robots, fixed) for g in version.groups for r in g.rules if r.normalised]
    first = [r for r in rules if r.line in edited]
    targets = dict.fromkeys(example_target(r.normalised) for r in (*first, *rules))
    return list(dict.fromkeys(u for t in list(targets)[:40] for u in (t, t + "/", t + "z", t.rstrip("/") or "/")))


def _changed(robots: Robots, edits: list[Edit]) -> tuple[str, str, str] | None:
    """A crawler, URL and reading whose verdict the edits change beyond what they allow; None if none."""
    fixed = parse(_applied(robots, edits))
    toward = next((e.toward for e in edits if e.toward), None)
    edited = {n for e in edits for n, _ in e.changes}
    agents = list(dict.fromkeys(a for g in (*robots.groups, *fixed.groups) for a in g.agents if a != "*"))[:10]
    for agent in (*agents, "somebot", "googlebot"):
        for url in _urls(robots, fixed, edited):
            before = {e: robots.can_fetch(agent, url, engine=e) for e in _READINGS}
            for reading in _READINGS:
                after = fixed.can_fetch(agent, url, engine=reading)
                if after != before[reading] and (toward is None or reading == toward or after != before[toward]):
                    return agent, url, reading
    return None


@pytest.mark.slow  # the whole corpus, linted, and every kept fix applied
def test_no_kept_fix_in_the_corpus_changes_a_verdict(corpus: tuple[CorpusFile, ...]) -> None:
    kept: Counter[str] = Counter()
    dropped: Counter[str] = Counter()
    unproven: Counter[str] = Counter()
    changed = []
    for name, _, original in corpus:
        robots = parse(original.text) if original.encoding or original.truncated else original
        findings = lint(original)
        edits = {f.edit: f.code for f in findings if f.edit is not None}
        kept.update(edits.values())
        dropped.update(f.code for f in findings if f.fix.code == "fix.unproven")
        unproven.update(f.code for f in findings if f.fix.code == "fix.unchecked")
        if not edits:
            continue
        together = list(edits)
        for checked in (together, together[:1]) if len(together) > 1 else (together,):
            found = _changed(robots, checked)
            if found is not None:
                changed.append((name, [edits[e] for e in checked], found))
    print(f"\nfixes kept and checked: {sum(kept.values()):,} {dict(kept)}")
    print(f"dropped by the proof: {sum(dropped.values()):,} {dict(dropped)}")
    print(f"left unproven (same line, budget): {sum(unproven.values()):,} {dict(unproven)}")
    assert changed == []
    assert sum(kept.values()) > 10_000 and set(kept) >= {"redundantWildcard", "agentNotToken", "firstMatchOrder"}
