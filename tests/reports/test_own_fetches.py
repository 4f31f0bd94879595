"""What a site that verifies crawlers makes of robotscope's own fetches: one statement per User-Agent string."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from robotscope.messages import message
from robotscope.reports.verification import ReverseDns, Status, WouldVerify, judge, own_fetch, own_fetches
from robotscope.syntax.crawlers import Crawler, catalogue
from robotscope.syntax.ipindex import AddressIndex
from robotscope.syntax.iplists import shipped, snapshot
from robotscope.syntax.verification import list_sources, method
from tests.fuzz.fuzz_own_fetches import SEEDS, check
from tests.fuzz.harness import run_briefly

GOOGLEBOT_UA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
THIS_MACHINE = "192.0.2.7"  # TEST-NET-1 (RFC 5737): in no operator's list, as a user's machine is not


def test_a_googlebot_claim_would_not_verify_and_says_by_what() -> None:
    found = own_fetch("Googlebot", GOOGLEBOT_UA)
    assert found.would_verify is WouldVerify.NO and found.token == "Googlebot" and found.operator == "Google"
    assert found.methods == ("ip-list", "reverse-dns")
    text = found.reason.render("en")
    assert text.startswith("would verify: no, since Google publishes IP lists and reverse-DNS names to check Googlebot")
    assert text.endswith("the answer a site gave may differ from what the real Googlebot gets")
    assert "확인 통과: 아니요" in found.reason.render("ko")


def test_each_kind_of_agent_has_its_statement() -> None:
    said = {f.agent: f for f in own_fetches([(a, a) for a in ("GPTBot", "YandexBot", "CCBot", "AhrefsBot")])}
    assert said["GPTBot"].methods == ("ip-list",) and said["YandexBot"].methods == ("reverse-dns",)
    assert said["CCBot"].would_verify is WouldVerify.INDISTINGUISHABLE and said["CCBot"].methods == ()
    assert said["CCBot"].reason.render("en") == (
        "cannot be told apart from the real CCBot: Common Crawl publishes no way to verify it"
    )
    # In the catalogue, not in the registry: robotscope does not know, so it does not say "publishes nothing".
    assert said["AhrefsBot"].would_verify is WouldVerify.UNKNOWN and said["AhrefsBot"].token == "AhrefsBot"
    assert "has no method for AhrefsBot" in said["AhrefsBot"].reason.render("en")


def test_robotscopes_own_agent_and_a_browser_claim_no_crawler() -> None:
    own = own_fetch("robotscope/0.2.0", "robotscope/0.2.0")
    assert own.would_verify is WouldVerify.NO_CLAIM and own.reason.render("en") == "robotscope's own agent: no claim"
    browser = own_fetch("browser", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/142.0.0.0 Safari/537.36")
    assert browser.would_verify is WouldVerify.UNKNOWN and browser.token is None


def test_each_user_agent_string_is_said_once_under_its_first_label() -> None:
    google = "G/1 Googlebot/2.1"
    found = own_fetches([("robotscope/1", "robotscope/1"), ("Googlebot", google), ("x", google)])
    assert [(f.agent, f.user_agent) for f in found] == [("robotscope/1", "robotscope/1"), ("Googlebot", google)]


def test_the_json_shape() -> None:
    data = own_fetch("GPTBot", "GPTBot/1.1").as_dict("ko")
    assert set(data) == {"agent", "user_agent", "would_verify", "token", "operator", "methods", "text", "message"}
    assert data["would_verify"] == "no" and data["methods"] == ["ip-list"]
    assert data["message"]["code"] == "verify.own.fails"
    assert data["message"]["params"]["methods"] == ["IP 목록"] and data["text"] == data["message"]["text"]
    json.dumps(data, ensure_ascii=False)


@pytest.mark.parametrize("crawler", catalogue(), ids=lambda c: c.token)
def test_the_statement_agrees_with_the_verdict_on_a_fetch_from_this_machine(crawler: Crawler) -> None:
    # A crawler's documented User-Agent sent from an address in no list, whose reverse DNS fails: what
    # `judge` says of that request is what the statement promises (all the operators' lists at hand).
    agent = crawler.request_user_agent if crawler.user_agent else crawler.token
    found = own_fetch(crawler.token, agent)
    index = AddressIndex(snapshot(name) for name in shipped())
    available = [source.name for source in list_sources()]
    fails = ReverseDns(Status.SPOOFED, message("verify.undated"))
    verdict = judge(THIS_MACHINE, agent, index, available, fails)
    if found.token != crawler.token:
        # The documented string names another crawler first (a family token): judged as that one too.
        assert verdict.token == found.token
    expected = {
        WouldVerify.NO: Status.SPOOFED,
        WouldVerify.INDISTINGUISHABLE: Status.UNVERIFIABLE,
        WouldVerify.UNKNOWN: Status.UNVERIFIABLE,  # judge reads a token the registry lacks as unverifiable
    }
    assert verdict.status is expected[found.would_verify], (found, verdict)
    registered = method(found.token or "")
    assert (found.would_verify is WouldVerify.UNKNOWN) == (registered is None)


@given(st.lists(st.tuples(st.text(max_size=40), st.text(max_size=300)), max_size=8))
def test_any_agents_get_one_statement_per_user_agent_string(sent: list[tuple[str, str]]) -> None:
    found = own_fetches(sent)
    assert [f.user_agent for f in found] == list(dict.fromkeys(ua for _, ua in sent))
    for each in found:
        each.reason.render("ko")
        assert bool(each.methods) == (each.would_verify is WouldVerify.NO)
        assert (each.token is None) <= (each.would_verify in (WouldVerify.NO_CLAIM, WouldVerify.UNKNOWN))


def test_a_huge_user_agent_string_is_answered() -> None:
    huge = "Mozilla/5.0 (" + "a; " * 300_000 + "compatible; Googlebot/2.1)"
    assert own_fetch("huge", huge).would_verify is WouldVerify.NO


@pytest.mark.parametrize("seed", sorted(SEEDS.iterdir()), ids=lambda p: p.name)
def test_every_seed_runs_without_error(seed: Path) -> None:
    check(seed.read_bytes())


def test_the_target_runs_under_atheris(tmp_path: Path) -> None:
    run_briefly("tests.fuzz.fuzz_own_fetches", SEEDS, tmp_path, 2000)
