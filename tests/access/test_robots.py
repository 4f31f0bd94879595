"""A parsed Robots crosses process boundaries cheaply, and its caches stay bounded and shared."""

from __future__ import annotations

import pickle

from robotscope import parse
from tests.paths import CORPUS

FILES = ("docs.oracle.com", "www.google.com", "en.wikipedia.org", "github.com")


def test_a_queried_robots_pickles_to_an_equal_object_that_answers_alike() -> None:
    for name in FILES:
        data = (CORPUS / name).read_bytes()
        robots = parse(data)
        asked = [("Googlebot", "/search?q=1"), ("GPTBot", "/"), ("ExampleBot/1.0", "/wiki/Special:Random")]
        before = [robots.verdict(agent, url) for agent, url in asked]
        robots.verdict("Googlebot", "/x", engine="google")  # engine caches, closures included
        assert robots.lines  # builds the lazily built line view
        sent = pickle.dumps(robots)
        assert len(sent) < len(data) + 200  # the input, not the caches or the parsed groups
        back = pickle.loads(sent)
        assert back == robots and hash(back) == hash(robots) and back is not robots
        assert back.groups == robots.groups and back.size == robots.size
        assert [back.verdict(agent, url) for agent, url in asked] == before


def test_robots_of_different_inputs_or_limits_differ() -> None:
    assert parse("User-agent: *\nDisallow: /a\n") != parse("User-agent: *\nDisallow: /b\n")
    assert parse("User-agent: *\n") == parse("User-agent: *\n")


def test_many_user_agent_strings_of_one_crawler_share_one_rule_set() -> None:
    robots = parse((CORPUS / "docs.oracle.com").read_bytes())
    agents = [f"Mozilla/5.0 (compatible; Googlebot/2.1) build/{i}" for i in range(2_000)]
    answers = {robots.can_fetch(agent, "/en/java/") for agent in agents}
    # One rule set built, by identity (no patching: the compiled build's classes cannot be patched).
    sets = [robots.rules_for(agent) for agent in agents]
    assert all(each is sets[0] for each in sets) and len(answers) == 1
    kept = robots._sets()
    assert len({id(shared) for shared in kept._shared.values()}) == 1
    assert len(kept.by_agent) <= 256 and [k for k in kept._shared if isinstance(k, str)] == ["googlebot"]
