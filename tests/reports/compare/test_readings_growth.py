"""`splits`, what `robotscope readings` compares: its work grows with the file, not with its square."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest

from robotscope import parse
from robotscope.access import robots as robots_module
from robotscope.cli.readings import progress_bar
from robotscope.reports.compare.readings import default_agents, probes, splits


def name(i: int) -> str:
    """A distinct crawler name for each i, letters only (Google's reading ends a token at a digit)."""
    letters = ""
    while True:
        i, digit = divmod(i, 26)
        letters += chr(ord("a") + digit)
        if not i:
            return "bot" + letters + "x"


def bad_bot_list(n: int) -> str:
    """n/4 crawlers with a group each (their own rule), and a `*` group of n/2 rules: a common real shape."""
    named = "".join(f"User-agent: {name(i)}\nDisallow: /own{i}/\n" for i in range(n // 4))
    # `*.pdf$` is a wildcard for RFC 9309 and a literal for the 1996 parser: the readings split there.
    shared = "".join(f"Disallow: /shared{i}/\n" for i in range(n // 2))
    return named + "User-agent: *\nDisallow: /*.pdf$\n" + shared


def shared_group(n: int) -> str:
    """One group naming n/4 crawlers, with n/4 rules; each crawler has a group of its own too."""
    crawlers = [name(i) for i in range(n // 4)]
    shared = "".join(f"User-agent: {c}\n" for c in crawlers) + "".join(f"Disallow: /s{i}/\n" for i in range(n // 4))
    return shared + "".join(f"User-agent: {c}\nDisallow: /o{i}/\n" for i, c in enumerate(crawlers))


def verdicts_asked(
    n: int, monkeypatch: pytest.MonkeyPatch, shape: Callable[[int], str] = bad_bot_list
) -> tuple[int, int]:
    """The engine verdicts `splits` computes on the file of size n, and the splits it finds."""
    calls = 0
    real = vars(robots_module)["run"]  # the engines' runner, as the façade calls it

    def counted(*args: Any) -> Any:
        nonlocal calls
        calls += 1
        return real(*args)

    monkeypatch.setattr(robots_module, "run", counted)
    robots = parse(shape(n))
    urls, _ = probes(robots)
    found = splits(robots, default_agents(robots), urls)
    return calls, len(found)


def test_the_verdicts_asked_grow_linearly_with_the_file(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every crawler was asked about every URL: 4x the verdicts for 2x the file (1,000 real lines
    # took 8.9 s, 2,000 lines 34 s). A crawler is asked only where one of its Disallow rules may match.
    small, found_small = verdicts_asked(400, monkeypatch)
    large, found_large = verdicts_asked(800, monkeypatch)
    assert found_small > 0 and found_large == found_small  # the crawlers no group names, at the .pdf URL
    assert large <= 2.2 * small


def test_crawlers_sharing_a_large_group_are_asked_once_per_url(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each of n/4 crawlers was asked about each of the shared group's n/4 URLs (2,000 lines: 122 s).
    # Crawlers that choose the same groups reaching a URL are one question (`access.classes`); each
    # crawler is still asked at its own URL, where the readings split (the 1996 parser reads only
    # the shared group, the first it meets).
    small, found_small = verdicts_asked(400, monkeypatch, shared_group)
    large, found_large = verdicts_asked(800, monkeypatch, shared_group)
    assert found_small >= 100 and found_large >= 2 * found_small - 2
    assert large <= 2.2 * small


def test_progress_is_told_after_each_url() -> None:
    robots = parse(bad_bot_list(40))
    told: list[tuple[int, int]] = []
    urls = probes(robots)[0]
    splits(robots, default_agents(robots), urls, lambda done, total: told.append((done, total)))
    assert told == [(i, len(urls)) for i in range(1, len(urls) + 1)]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_line_is_drawn_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stderr", io.StringIO())
    assert progress_bar("en") is None
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    show: Callable[[int, int], None] | None = progress_bar("en")
    assert show is not None
    show(1, 3)
    show(3, 3)
    assert terminal.getvalue() == ("\rcomparing the readings: 1 of 3 URLs\rcomparing the readings: 3 of 3 URLs\n")
