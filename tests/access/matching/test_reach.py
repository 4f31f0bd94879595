"""`matching.reach`: the URLs a crawler's Disallow rules may reach, and the readings asked only there."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from robotscope import parse
from robotscope.access.matching.candidates import CandidateRules
from robotscope.access.matching.reach import UrlIndex, literal_start
from robotscope.access.robots import Robots
from robotscope.syntax.model import Rule
from robotscope.syntax.patterns import compile_pattern


def test_literal_start_stops_where_an_engine_may_reencode() -> None:
    assert literal_start("/a/b.html") == ("/a/b.html", True)
    assert literal_start("/a%2Fb") == ("/a", False)
    assert literal_start("/caf\u00e9") == ("/caf", False)
    assert literal_start("*.pdf$") == ("", False)


def test_a_url_is_reached_by_its_own_start_and_by_a_start_it_may_read_as() -> None:
    index = UrlIndex(["/", "/a/b", "/a/c", "/b", "/a%2Fb/x", "https://example.com/z", "/x?q"])
    assert [index.urls[i] for i in index.reached(["/a/b"])] == ["/a/b", "/a%2Fb/x", "https://example.com/z"]
    assert [index.urls[i] for i in index.reached(["/x"])] == ["https://example.com/z", "/x?q"]
    assert index.reached(["*.pdf"]) == list(range(7))  # led by `*`: anything
    assert index.reached([]) == [5]  # a URL that is not a path is always asked


# Paths and patterns from a small alphabet that every engine reads its own way: escapes (of `/`,
# of `~`, broken), `*` and `$`, a query, a space and a non-ASCII letter.
PIECES = st.sampled_from(["/", "a", "b", "~", "%2F", "%7E", "%7e", "%", "*", "$", "?", "=", " ", "\u00e9", ".", "-"])
PATTERN = st.lists(PIECES, max_size=6).map("".join)
PATH = st.lists(PIECES.filter(lambda p: p not in ("*", "$")), max_size=6).map(lambda parts: "/" + "".join(parts))
GROUP = st.tuples(
    st.sampled_from(["*", "bot", "other", "bo"]),
    st.lists(st.tuples(st.booleans(), PATTERN), min_size=1, max_size=4),
)


def text_of(groups: list[tuple[str, list[tuple[bool, str]]]]) -> str:
    return "".join(
        f"User-agent: {agent}\n" + "".join(f"{'Allow' if allow else 'Disallow'}: {p}\n" for allow, p in rules)
        for agent, rules in groups
    )


def disputed(robots: Robots, agent: str, urls: list[str]) -> list[str]:
    return [url for url in urls if len({v.allowed for v in robots.readings(agent, url).values()}) > 1]


@settings(max_examples=300, deadline=None)
@given(st.lists(GROUP, min_size=1, max_size=4), st.lists(PATH, min_size=1, max_size=8))
def test_readings_of_skips_only_urls_every_engine_allows(
    groups: list[tuple[str, list[tuple[bool, str]]]], paths: list[str]
) -> None:
    robots = parse(text_of(groups))
    urls = list(dict.fromkeys([*paths, "https://example.com" + paths[0]]))
    index = UrlIndex(urls)
    for agent in ("bot", "Mozilla/5.0 (compatible; bot/1.0)", "somebot"):
        asked = dict(robots.readings_of(agent, index))
        skipped = [url for url in urls if url not in asked]
        assert all(all(v.allowed for v in robots.readings(agent, url).values()) for url in skipped)
        assert [url for url in asked if len({v.allowed for v in asked[url].values()}) > 1] == disputed(
            robots, agent, urls
        )
        assert all(asked[url] == robots.readings(agent, url) for url in asked)


def test_many_plain_rules_are_filed_by_their_start() -> None:
    # A target meets the rules that start it, not all 300 (each engine then tests those alone).
    rules = [Rule(False, f"/p{i}/", i + 1, f"/p{i}/") for i in range(300)]
    candidates = CandidateRules(rules, compile_pattern, lambda _: False)
    assert candidates.of("/p7/x") == [rules[7]]
    assert candidates.of("/q") == []
    starred = CandidateRules([*rules, Rule(False, "*", 301, "*")], compile_pattern, lambda _: False)
    assert [r.line for r in starred.of("/p12/")] == [13, 301]
