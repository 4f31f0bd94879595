"""The IP lists' verifier without DNS: the core's, which the web page's audit runs under Pyodide."""

from __future__ import annotations

import pytest

from robotscope.reports import listclaims
from robotscope.reports.listclaims import ListVerifier
from robotscope.reports.verification import judge
from robotscope.verifying.verifier import Verifier
from tests.reports.audit.builders import ANYWHERE, CHATGPT_USER, GOOGLE, OPENAI_GPTBOT, START, agent

CLAIMS = [
    (GOOGLE, agent("Googlebot")),
    (ANYWHERE, agent("Googlebot")),
    (OPENAI_GPTBOT, agent("GPTBot")),
    (CHATGPT_USER, agent("ChatGPT-User")),
    ("198.51.100.7", agent("CCBot")),
    ("2001:db8::1", agent("bingbot")),
    (ANYWHERE, "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0"),
]


def test_its_verdicts_are_the_dns_free_verifiers() -> None:
    pure, edge = ListVerifier(), Verifier()
    for address, user_agent in CLAIMS:
        assert pure.verify(address, user_agent, START) == edge.verify(address, user_agent, START)
    assert [pure.verify(a, u, START).status.value for a, u in CLAIMS[:3]] == ["verified", "spoofed", "verified"]
    with pytest.raises(ValueError):
        pure.verify("not-an-address", agent("Googlebot"), START)


def test_a_repeat_is_answered_from_the_cache_and_the_caches_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    def counted(address: str, *args: object) -> object:
        asked.append(address)
        return judge(address, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(listclaims, "judge", counted)
    verifier = ListVerifier(verdicts=3, agents=2)
    first = verifier.verify(GOOGLE, agent("Googlebot"), START)
    # Another string naming the same crawler: the verdict kept, given to that string.
    again = verifier.verify(GOOGLE, "Googlebot/2.1 (+http://www.google.com/bot.html)", START + 60)
    assert asked == [GOOGLE] and again.status == first.status and again.agent.startswith("Googlebot/2.1")
    for at in range(10):
        verifier.verify(f"203.0.113.{at}", agent("Googlebot"), START)
    assert verifier.cached() == (3, 2) and len(asked) == 11
    assert verifier.known(GOOGLE, agent("Googlebot"), START) is None  # evicted: the least recently used
