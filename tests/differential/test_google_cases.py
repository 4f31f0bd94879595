"""Each deliberate difference from Google's library, on a hand-written robots.txt.

For every code in known_differences.py there is at least one snippet here
that asserts both answers (robotscope's and Google's) and that the corpus
classifier names exactly that code for it.
"""

from __future__ import annotations

import pathlib
import sys
from typing import NamedTuple

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))

from known_differences import (
    BY_CODE,
    KNOWN_DIFFERENCES,
    Case,
    classify_disagreement,
    google,
    identity,
    run_trial,
)

import robotscope

HOST = "https://example.com"


class Example(NamedTuple):
    code: str
    robots_txt: str
    agent: str
    url: str
    robotscope_allows: bool
    google_allows: bool


LATE_RULE = "User-agent: *\n" + ("# filler to push the next rule past 512,000 bytes\n" * 11_000) + "Disallow: /late\n"
LONG = "a" * 17_000

EXAMPLES: dict[str, Example] = {
    "robots-txt-disallowed": Example(
        "robots-txt-implicit", "User-agent: *\nDisallow: /\n", "Googlebot", HOST + "/robots.txt", True, False
    ),
    "full-user-agent-string": Example(
        "user-agent-string",
        "User-agent: Googlebot\nDisallow: /\n",
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        HOST + "/page",
        False,
        True,
    ),
    "digit-in-token": Example(
        "google-strict-token", "User-agent: MJ12bot\nDisallow: /\n", "MJ12bot", HOST + "/page", False, True
    ),
    "disallow-without-colon": Example(
        "google-missing-colon", "User-agent: *\nDisallow /private\n", "Googlebot", HOST + "/private/x", True, False
    ),
    "user-agent-without-colon": Example(
        "google-missing-colon",
        "User-agent *\nDisallow: /private\n",
        "Googlebot",
        HOST + "/private/x",
        True,
        False,
    ),
    "dissallow-typo": Example(
        "google-key-typos", "User-agent: *\nDissallow: /private\n", "Googlebot", HOST + "/private/x", True, False
    ),
    "user-agent-with-space": Example(
        "google-key-typos", "User agent: *\nDisallow: /private\n", "Googlebot", HOST + "/private/x", True, False
    ),
    "key-with-suffix": Example(
        "google-key-typos", "User-agent: *\nDisallowed: /private\n", "Googlebot", HOST + "/private/x", True, False
    ),
    "index-html-allows-directory": Example(
        "google-index-html-allow",
        "User-agent: *\nDisallow: /dir/\nAllow: /dir/index.html\n",
        "Googlebot",
        HOST + "/dir/",
        False,
        True,
    ),
    "empty-query-dropped": Example(
        "fork-url-parsing", "User-agent: *\nDisallow: /search?\n", "Googlebot", HOST + "/search?", False, True
    ),
    "dot-segments-resolved": Example(
        "fork-url-parsing",
        "User-agent: *\nDisallow: /private/\n",
        "Googlebot",
        HOST + "/public/../private/x",
        True,
        False,
    ),
    "backslash-becomes-slash": Example(
        "fork-url-parsing", "User-agent: *\nDisallow: /a\\b\n", "Googlebot", HOST + "/a\\b", False, True
    ),
    "escaped-tilde-is-longer-for-google": Example(
        "unreserved-escape-decoding",
        "User-agent: *\nDisallow: /%7Ea\nAllow: /~ab\n",
        "Googlebot",
        HOST + "/~abc",
        True,
        False,
    ),
    "space-in-pattern-is-longer-for-robotscope": Example(
        "pattern-encoding-length",
        "User-agent: *\nDisallow: /a b\nAllow: /a%20\n",
        "Googlebot",
        HOST + "/a%20b/c",
        False,
        True,
    ),
    "escaped-slash-matches-slash-in-fork": Example(
        "fork-escape-decoding", "User-agent: *\nDisallow: /a%2Fb\n", "Googlebot", HOST + "/a/b", True, False
    ),
    "rule-past-512000-bytes": Example("google-no-size-limit", LATE_RULE, "Googlebot", HOST + "/late", True, False),
    "line-longer-than-google-reads": Example(
        "google-line-length-limit",
        f"User-agent: *\nDisallow: /{LONG}\n",
        "Googlebot",
        HOST + "/" + "a" * 16_700,
        True,
        False,
    ),
    "content-usage-ends-the-run-of-user-agents": Example(
        "usage-rule-ends-group",
        "User-agent: a\nContent-Usage: / train-ai=n\nUser-agent: GPTBot\nDisallow: /p\n",
        "a",
        HOST + "/p",
        True,
        False,
    ),
}


def _case(example: Example) -> Case:
    return Case(example.robots_txt.encode("utf-8"), example.agent, example.url)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_difference_example(name: str) -> None:
    example = EXAMPLES[name]
    robots = robotscope.parse(example.robots_txt)
    assert robots.can_fetch(example.agent, example.url) is example.robotscope_allows
    assert robots.verdict(example.agent, example.url).allowed is example.robotscope_allows
    google_allows, _line = google(example.robots_txt, example.agent, example.url)
    assert google_allows is example.google_allows
    assert classify_disagreement(_case(example)) == example.code


def test_every_known_difference_has_an_example() -> None:
    assert {e.code for e in EXAMPLES.values()} == {d.code for d in KNOWN_DIFFERENCES}
    assert set(BY_CODE) == {d.code for d in KNOWN_DIFFERENCES}  # codes are unique


def test_every_transformation_is_inert_when_its_cause_is_absent() -> None:
    plain = Case(b"User-agent: *\nDisallow: /private\n", "Googlebot", HOST + "/private/x")
    for difference in KNOWN_DIFFERENCES:
        assert difference.transform(identity(plain)) is None, difference.code


# Where upstream google/robotstxt differs from RFC 9309 but the fork in
# fast-robotstxt was changed to agree with it (and with robotscope).
AGREEMENTS = {
    # Upstream matches a `*` in the URL against a literal `*` in the pattern
    # and not against `%2A` (google/robotstxt issue 57); RFC 9309, 2.2.3.
    "escaped-star-in-pattern": ("User-agent: *\nDisallow: /a%2Ab\n", HOST + "/a*b", False, 2),
    "literal-dollar-in-url": ("User-agent: *\nDisallow: /price%24\n", HOST + "/price$", False, 2),
    # Both compare non-ASCII as UTF-8 escapes.
    "non-ascii-pattern": ("User-agent: *\nDisallow: /caf\u00e9\n", HOST + "/caf%C3%A9/menu", False, 2),
    # Both merge every group naming the crawler.
    "merged-groups": (
        "User-agent: googlebot\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nAllow: /a/b\n",
        HOST + "/a/b/c",
        True,
        8,
    ),
}


@pytest.mark.parametrize("name", sorted(AGREEMENTS))
def test_agreement(name: str) -> None:
    text, url, allowed, line = AGREEMENTS[name]
    outcome = run_trial(identity(Case(text.encode(), "Googlebot", url)))
    assert outcome.agree, outcome
    assert outcome.r_allowed is outcome.g_allowed is allowed
    assert outcome.r_line == outcome.g_line == line
