"""The same proof on real files: every crawler a corpus file names, its rules on every server, probed at each rule.

For each file of the corpus and each product token its groups name, the
plan's entries are tried (as each server's rendering tries them) on
targets made from the file's own patterns: each rule's example, with a
character more, with a query, with hex digits in lower case, with a
character sent escaped. What they refuse is disallowed by the crawler's
reading; on targets a server reads exactly, a group whose rules are all
expressed exactly answers as the reading does.
"""

from __future__ import annotations

import pytest

from robotscope.access.engines.registry import PROFILED
from robotscope.messages import Message
from robotscope.reports.enforce import TARGETS, choose, plan, render
from robotscope.reports.enforce.entries import decoded_path, sent
from robotscope.reports.enforce.raw import REQUEST_LINE, TARGET
from robotscope.syntax.patterns import example_target
from tests.corpus_files import CorpusFile
from tests.reports.enforce.simulate import lighttpd_path, plain, refused, request_line

pytestmark = pytest.mark.slow  # the whole corpus
MAX_PROBES = 40  # targets per group, from its rules


def _probes(patterns: list[str]) -> list[str]:
    found: dict[str, None] = {"/": None, "/robots.txt?x": None}
    for pattern in patterns:
        base = example_target(pattern).replace("$", "")
        for probe in (base, base + "x", base + "?q=1", base[:-1], base.lower(), base.replace("a", "%61", 1)):
            found.setdefault(probe if probe.startswith("/") else "/" + probe)
    return list(found)[:MAX_PROBES]


def test_every_named_crawler_of_the_corpus_is_refused_only_where_disallowed(corpus: tuple[CorpusFile, ...]) -> None:
    checked = exact = 0
    for entry in corpus:
        robots = entry.robots
        made = plan(robots, choose(robots, "all-named"))
        for group in made.groups:
            probes = _probes([rule.normalised for rule in group.rules])
            token = group.tokens[0]
            left_sent: dict[int, Message] = {}
            left_path: dict[int, Message] = {}
            by_target = sent(made, group, TARGET, "nginx", left_sent, "en")
            by_line = sent(made, group, REQUEST_LINE, "apache", left_sent, "en")
            by_path = decoded_path(made, group, left_path, "en")
            for raw in probes:
                disallowed = not robots.can_fetch(token, "http://example.com" + raw, PROFILED)
                answers = [refused(by_target, raw), refused(by_line, request_line(raw))]
                path = lighttpd_path(raw)
                if path is not None:
                    answers.append(refused(by_path, path))
                assert not any(answers) or disallowed, (entry.name, token, raw)
                if plain(raw) and not left_sent:
                    assert answers[:2] == [disallowed, disallowed], (entry.name, token, raw)
                    exact += 1
                if path is not None and not left_path:
                    assert answers[2] == disallowed, (entry.name, token, raw, path)
                checked += 1
    assert checked > 50_000 and exact > 40_000, (checked, exact)


def test_every_corpus_file_renders_for_every_server_within_what_it_reads(corpus: tuple[CorpusFile, ...]) -> None:
    # Export never raises, and writes one printable line per directive that nginx's 4 KiB parameter holds
    # (lighttpd reads a group's User-Agent match of any length).
    files = 0
    for entry in corpus:
        made = plan(entry.robots, choose(entry.robots, "all-named"))
        for target in TARGETS:
            for _, text in render(made, target, "robots.txt", "en", "/etc/haproxy").files:
                for line in text.splitlines():
                    assert line.replace("\t", "").isprintable(), (entry.name, target, line[:80])
                    assert len(line) < 4096 or line.startswith('$HTTP["user-agent"]'), (entry.name, target)
                files += 1
    assert files > 5 * len(corpus)
