"""`access.classes` and `Robots.disagreements`: a class asked once, the splits of every pair."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from robotscope import parse
from robotscope.access.robots import Robots
from robotscope.syntax.model import Verdict

# Paths and patterns from a small alphabet that every engine reads its own way: escapes (of `/`,
# of `~`, broken), `*` and `$`, a query, a space and a non-ASCII letter; an empty pattern too.
PIECES = st.sampled_from(["/", "a", "b", "~", "%2F", "%7E", "%7e", "%", "*", "$", "?", "=", " ", "\u00e9", ".", "-"])
PATTERN = st.lists(PIECES, max_size=6).map("".join)
PATH = st.lists(PIECES.filter(lambda p: p not in ("*", "$")), max_size=6).map(lambda parts: "/" + "".join(parts))
# Groups naming one crawler or several (a run of user-agent lines that crawlers share), `*`, a
# token Protego and the legacy reading find inside others (`bo`), a token with a `*` in it.
NAMES = st.sampled_from(["*", "bot", "other", "bo", "msnbot", "googlebot", "yeti", "b*t"])
GROUP = st.tuples(
    st.lists(NAMES, min_size=1, max_size=3),
    st.lists(st.tuples(st.booleans(), PATTERN), max_size=4),
    st.booleans(),  # a blank line after the group (some readings end a record there)
)
AGENTS = ["bot", "other", "Mozilla/5.0 (compatible; bot/1.0)", "Googlebot", "bingbot", "Yeti", "somebot", "b"]


def text_of(groups: list[tuple[list[str], list[tuple[bool, str]], bool]]) -> str:
    return "".join(
        "".join(f"User-agent: {name}\n" for name in agents)
        + "".join(f"{'Allow' if allow else 'Disallow'}: {p}\n" for allow, p in rules)
        + ("\n" if blank else "")
        for agents, rules, blank in groups
    )


def every_pair(robots: Robots, agents: list[str], urls: list[str]) -> list[tuple[int, int, dict[str, Verdict]]]:
    """The reference: every engine asked about every crawler and URL."""
    found = []
    for url_at, url in enumerate(urls):
        for agent_at, agent in enumerate(agents):
            verdicts = robots.readings(agent, url)
            if len({v.allowed for v in verdicts.values()}) > 1:
                found.append((agent_at, url_at, dict(verdicts)))
    return found


@settings(max_examples=400, deadline=None)
@given(st.lists(GROUP, min_size=1, max_size=5), st.lists(PATH, min_size=1, max_size=8))
def test_classes_find_exactly_the_pairs_every_pair_finds(
    groups: list[tuple[list[str], list[tuple[bool, str]], bool]], paths: list[str]
) -> None:
    text = text_of(groups)
    urls = list(dict.fromkeys([*paths, "https://example.com" + paths[0]]))
    found = sorted(parse(text).disagreements(AGENTS, urls), key=lambda pair: pair[:2])
    # Same pairs, and each with every engine's whole verdict (deciding line, candidates, group lines).
    assert [(a, u, dict(v)) for a, u, v in found] == sorted(every_pair(parse(text), AGENTS, urls), key=lambda p: p[:2])


def test_progress_is_told_after_each_url_and_ends_at_the_total() -> None:
    robots = parse("User-agent: *\nDisallow: /a\n")
    told: list[tuple[int, int]] = []
    list(robots.disagreements(["bot"], ["/a", "/b", "/c"], lambda done, total: told.append((done, total))))
    assert told == [(1, 3), (2, 3), (3, 3)]
