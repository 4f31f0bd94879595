"""The policy table and `decide`: pure, no network."""

from __future__ import annotations

import pytest

from robotscope.access.policy import POLICIES, Cached, Outcome, decide, decide_all, is_transient
from robotscope.access.robots import parse
from robotscope.access.robots import verdict_after as verdict_for
from robotscope.syntax.model import Reason

HOUR, DAY = 3600.0, 86400.0
TRANSIENT = [
    Outcome(status=503),
    Outcome(status=500),
    Outcome(status=429),
    Outcome(error="timeout"),
    Outcome(error="dns"),
    Outcome(status=200, error="network"),
]


def test_the_table_has_the_five_rows_each_with_a_source() -> None:
    assert list(POLICIES) == ["rfc9309", "google", "bing", "naver", "yandex"]
    for name, row in POLICIES.items():
        assert row.name == name and row.sources
        assert all(source.startswith("https://") for source in row.sources)
    assert POLICIES["rfc9309"].sources[0] == "https://www.rfc-editor.org/rfc/rfc9309.html"
    assert any("UNCONFIRMED" in note for note in POLICIES["bing"].as_dict()["notes"])


@pytest.mark.parametrize("outcome", TRANSIENT)
@pytest.mark.parametrize("good", [None, 0.0])
@pytest.mark.parametrize("outage", [0.0, 13 * HOUR, 31 * DAY, 400 * DAY])
def test_a_transient_failure_is_never_allow_all(outcome: Outcome, good: float | None, outage: float) -> None:
    assert is_transient(outcome)
    for name, decision in decide_all(outcome, cached=Cached(good, 0.0), now=outage).items():
        if POLICIES[name].ok_only and outcome.error is None:
            continue  # Yandex documents any HTTP answer but 200 OK, a 5xx too, as an open site
        assert decision.action in ("disallow-all", "cached-copy")
        assert decision.explanation.startswith(POLICIES[name].title + " (")
        if good is None:
            assert decision.action == "disallow-all"


@pytest.mark.parametrize(
    ("outage", "expected"),
    [
        (0.0, "disallow-all"),
        (11 * HOUR, "disallow-all"),
        (13 * HOUR, "cached-copy"),
        (29 * DAY, "cached-copy"),
        (31 * DAY, "disallow-all"),
    ],
)
def test_google_outage_timeline(outage: float, expected: str) -> None:
    decision = decide(Outcome(status=503), "google", cached=Cached(good_fetched_at=-DAY, failing_since=0.0), now=outage)
    assert decision.action == expected and decision.explanation.startswith("Google (")


def test_rfc_uses_a_cached_copy_only_after_30_days_and_naver_at_once() -> None:
    cached = Cached(good_fetched_at=-DAY, failing_since=0.0)
    assert decide(Outcome(status=503), "rfc9309", cached=cached, now=29 * DAY).action == "disallow-all"
    assert decide(Outcome(status=503), "rfc9309", cached=cached, now=31 * DAY).action == "cached-copy"
    naver = decide(Outcome(error="timeout"), "naver", cached=cached, now=60.0)
    assert naver.action == "cached-copy" and "last good copy is used" in naver.explanation


def test_google_reads_429_as_a_server_error_and_404_as_no_file() -> None:
    assert "Google treats 429 like a server error" in decide(Outcome(status=429), "google").explanation
    assert decide(Outcome(status=404), "google").action == "allow-all"
    assert decide(Outcome(status=301, redirects=5), "google").explanation.endswith(
        "treats robots.txt as a 404: everything is allowed."
    )


def test_verdict_for_each_action() -> None:
    robots = parse("User-agent: *\nDisallow: /p\n")
    unreachable = decide(Outcome(status=503), "rfc9309")
    v = verdict_for(unreachable, None, "bot", "https://a.example/x")
    assert (v.allowed, v.reason) == (False, Reason.UNREACHABLE)
    assert verdict_for(unreachable, None, "bot", "/robots.txt").allowed  # always allowed
    missing = decide(Outcome(status=404), "rfc9309")
    assert (
        verdict_for(missing, None, "bot", "/p").allowed,
        verdict_for(missing, None, "bot", "/p").reason,
    ) == (True, Reason.UNAVAILABLE)
    assert not verdict_for(decide(Outcome(status=200), "rfc9309"), robots, "bot", "/p").allowed


@pytest.mark.parametrize(
    ("outcome", "expected"),
    [
        (Outcome(status=200), "parse"),
        (Outcome(status=200, html=True), "allow-all"),  # not a TXT file (inferred)
        (Outcome(status=204), "allow-all"),
        (Outcome(status=301, redirects=5), "allow-all"),
        (Outcome(status=401), "allow-all"),
        (Outcome(status=404), "allow-all"),
        (Outcome(status=429), "allow-all"),
        (Outcome(status=500), "allow-all"),
        (Outcome(status=503), "allow-all"),
        # No answer at all: Yandex documents nothing, RFC 9309 applies.
        (Outcome(error="timeout"), "disallow-all"),
        (Outcome(status=200, error="incomplete"), "disallow-all"),
        (Outcome(status=999), "disallow-all"),
    ],
)
def test_yandex_reads_every_answer_but_200_ok_as_an_open_site(outcome: Outcome, expected: str) -> None:
    # "The file is available to robots: the server ... responds with an HTTP code with the status
    # 200 OK ... If the file doesn't meet the requirements, the site is considered open for indexing."
    decision = decide(outcome, "yandex", cached=Cached(good_fetched_at=-DAY, failing_since=0.0), now=60.0)
    assert decision.action == expected and decision.explanation.startswith("Yandex (https://yandex.com/")
    if outcome.status in (503, 429):
        assert "200 OK" in decision.explanation and decide(outcome, "rfc9309").action == "disallow-all"
    if outcome.status == 204:
        assert "HTTP 204" in decision.explanation and "any answer but 200 OK" in decision.explanation


# One outcome per case a policy reads differently, and the words that must (and must not) say why.
CASE_OUTCOMES = {
    "redirect-loop": Outcome(status=301, redirects=1, loop=True),
    "redirects-exhausted": Outcome(status=301, redirects=5),
    "redirect-unfollowable": Outcome(status=301, redirects=0),
    "client-error": Outcome(status=404),
    "rate-limited": Outcome(status=429),
    "server-error": Outcome(status=503),
    "fetch-error": Outcome(error="timeout"),
    "html": Outcome(status=200, html=True),
}


@pytest.mark.parametrize("case", list(CASE_OUTCOMES))
@pytest.mark.parametrize("name", list(POLICIES))
def test_each_case_is_explained_by_its_own_clause_in_every_language(name: str, case: str) -> None:
    from robotscope.messages import LANGS, catalogue

    decision = decide(CASE_OUTCOMES[case], name)
    assert decision.reason.params["rule"].code == f"policy.{name}.{case}"
    for lang in LANGS:
        assert f"policy.{name}.{case}" in catalogue(lang)
        text = decision.reason.render(lang)
        assert POLICIES[name].sources[0] in text and "{" not in text


def test_explanations_are_true_for_the_case_they_describe() -> None:
    loop = decide(CASE_OUTCOMES["redirect-loop"], "google").explanation
    assert "redirect 2 points back into the chain" in loop and "a loop never reaches a file" in loop
    assert "more than the 5 followed" not in loop
    bing = decide(CASE_OUTCOMES["server-error"], "bing").explanation
    assert "Bing documents nothing for server errors" in bing and "for 429" not in bing
    naver = decide(CASE_OUTCOMES["fetch-error"], "naver").explanation
    assert "5xx" not in naver and "timeouts and network errors" in naver
    exhausted = decide(CASE_OUTCOMES["redirects-exhausted"], "google").explanation
    assert "after 5 redirects" in exhausted and "a loop" not in exhausted
