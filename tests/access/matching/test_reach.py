"""`matching.reach`: the URLs a crawler's rules may reach (readings: `tests/access/test_classes.py`)."""

from __future__ import annotations

from robotscope.access.matching.candidates import CandidateRules
from robotscope.access.matching.reach import UrlIndex, literal_start
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


def test_many_plain_rules_are_filed_by_their_start() -> None:
    # A target meets the rules that start it, not all 300 (each engine then tests those alone).
    rules = [Rule(False, f"/p{i}/", i + 1, f"/p{i}/") for i in range(300)]
    candidates = CandidateRules(rules, compile_pattern, lambda _: False)
    assert candidates.of("/p7/x") == [rules[7]]
    assert candidates.of("/q") == []
    starred = CandidateRules([*rules, Rule(False, "*", 301, "*")], compile_pattern, lambda _: False)
    assert [r.line for r in starred.of("/p12/")] == [13, 301]
