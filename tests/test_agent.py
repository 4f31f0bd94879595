"""`robotscope.agent.gate`: the answer `may_fetch` gives, without MCP, against sites on 127.0.0.1.

What decides lives below the gate (RSL License scoping in access.preferences,
the operator's word in access.scope, the answer in reports.gate); the gate
fetches through the fetcher, behind the SSRF guard unless told otherwise.
"""

from __future__ import annotations

import re
from pathlib import Path

import anyio
import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from robotscope.access.policy import Outcome, decide
from robotscope.access.preferences import licenses_for
from robotscope.access.robots import parse
from robotscope.access.scope import fetch_scope
from robotscope.agent import InvalidRequest, gate, gate_async
from robotscope.cache import RobotsCache
from robotscope.mcp import Settings, call
from robotscope.mcp.schemas import MAY_FETCH_OUTPUT
from robotscope.reports.gate import POLICY, Evidence, gate_answer
from tests.conftest import Server
from tests.hostile import HANG, SlowServer, finishes, trickle

pytestmark = pytest.mark.usefixtures("isolated")

OUTPUT = Draft202012Validator(MAY_FETCH_OUTPUT)


def test_license_urls_follow_rsl_group_scoping() -> None:
    robots = parse(
        "License: https://l.example/site.xml\n"
        "License: /relative.xml\n"
        "User-agent: GPTBot\n"
        "Disallow: /private/\n"
        "License: https://l.example/gpt.xml\n"
        "\n"
        "User-agent: *\n"
        "Allow: /\n"
    )
    gpt = robots.verdict("GPTBot", "/a")
    other = robots.verdict("Googlebot", "/a")
    assert [r.value for r in licenses_for(robots, gpt.group_lines)] == ["https://l.example/gpt.xml"]
    # The relative value is no license (RSL 1.0 4.4: an absolute URL), and the GPTBot group's is not global.
    assert [(r.value, r.line) for r in licenses_for(robots, other.group_lines)] == [("https://l.example/site.xml", 1)]
    assert licenses_for(parse("User-agent: *\nDisallow:\n"), other.group_lines) == ()


@pytest.mark.parametrize(
    ("agent", "initiated_by", "applies", "operator"),
    [
        ("ChatGPT-User", "user", "partial", "OpenAI"),
        ("Perplexity-User", "user", "no", "Perplexity"),
        ("Claude-User", "user", "yes", "Anthropic"),
        ("Mozilla/5.0 (compatible; Google-Read-Aloud; +https://support.google.com/)", "user", "no", "Google"),
        ("Perplexity-User", "model", "yes", "Perplexity"),
        ("MyAgent/1.0", "user", "unknown", None),
        ("MyAgent/1.0", "model", "yes", None),
    ],
)
def test_the_operators_word_on_robots_txt_by_who_started_the_fetch(
    agent: str, initiated_by: str, applies: str, operator: str | None
) -> None:
    scope = fetch_scope(agent, initiated_by)
    assert (scope.applies, scope.operator) == (applies, operator)
    assert scope.as_dict("ko")["explanation"]["text"]


def test_the_gate_reads_a_site_as_may_fetch_does(server: Server) -> None:
    server.serve("/robots.txt", body=b"User-agent: Googlebot\nDisallow: /shop\n\nUser-agent: *\nDisallow: /\n")
    answer = gate(server.url("/shop/1"), "Googlebot/2.1", allow_private=True)
    # Googlebot by Google's own reading: its group, line 2.
    assert (answer.allowed, answer.line, answer.reason) == (False, 2, "rule")
    assert answer.as_dict()["reading"] == "google"
    assert gate(server.url("/about"), "Googlebot", allow_private=True).allowed is True
    assert gate(server.url("/about"), "MyAgent", allow_private=True).line == 5
    # One fetch: the cache answered the rest.
    assert server.hits["/robots.txt"] == 1
    result = anyio.run(
        call,
        Settings(allow_private_fetch=True, cache=RobotsCache()),
        "may_fetch",
        {
            "url": server.url("/shop/1"),
            "user_agent": "Googlebot/2.1",
        },
    )
    same = gate(server.url("/shop/1"), "Googlebot/2.1", allow_private=True).as_dict()
    assert result.structured_content == same


@pytest.mark.parametrize(
    ("status", "allowed", "action"),
    [(503, False, "disallow-all"), (429, False, "disallow-all"), (404, True, "allow-all")],
)
def test_an_unreachable_robots_txt_allows_nothing_a_missing_one_everything(
    server: Server, status: int, allowed: bool, action: str
) -> None:
    server.serve("/robots.txt", status=status)
    answer = gate(server.url("/x"), "MyAgent", allow_private=True).as_dict()
    assert answer["allowed"] is allowed and answer["policy"]["action"] == action
    assert answer["robots_txt"]["status"] == status


def test_a_robots_txt_that_never_finishes_is_unreachable_at_the_deadline() -> None:
    slow = SlowServer(
        lambda n: trickle(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\nUser-agent: *\n"), pause=0.05
    )
    try:
        answer = gate(slow.url("/x"), "MyAgent", allow_private=True, cache=False, timeout=1.0)
    finally:
        slow.close()
    assert answer.allowed is False and answer.reason == "robots-txt-unreachable"
    assert answer.as_dict()["robots_txt"]["error"]["kind"] == "timeout"


def test_a_name_that_never_resolves_is_unreachable_at_the_deadline(tmp_path: Path) -> None:
    """The guard's look at the target before the cache is asked is within the one deadline too."""

    async def never(host: str, port: int) -> list[str]:
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    cache = RobotsCache(tmp_path / "cache.sqlite3")
    for _ in range(2):  # the second time with the failure cached
        answer = finishes(
            lambda: anyio.run(lambda: gate_async("http://slow.example/", "A", cache=cache, timeout=1.0, resolve=never)),
            within=HANG,
        )
        assert answer.allowed is False and answer.reason == "robots-txt-unreachable"
        assert answer.as_dict()["robots_txt"]["error"]["kind"] == "timeout"


def test_a_refused_target_closes_the_cache_the_fetch_opened(monkeypatch: pytest.MonkeyPatch) -> None:
    closed: list[RobotsCache] = []
    monkeypatch.setattr(RobotsCache, "close", lambda self: closed.append(self))
    for url in ("http://127.0.0.1/", "http://[::ffff:10.0.0.1]/"):
        assert gate(url, "A").reason == "refused-target"  # the default cache, opened (and owned) by the fetch
    assert len(closed) == 2


def test_a_private_site_is_refused_even_when_its_robots_txt_is_cached(server: Server) -> None:
    server.serve("/robots.txt", body=b"User-agent: *\nAllow: /\n")
    assert gate(server.url("/"), "MyAgent", allow_private=True).allowed is True
    refused = gate(server.url("/"), "MyAgent")
    assert (refused.allowed, refused.reason) == (False, "refused-target")
    assert server.hits["/robots.txt"] == 1


def test_a_cached_chain_through_a_private_address_is_refused(tmp_path: Path) -> None:
    """A copy cached by a fetch without the guard (the command line's) went through a redirect to an
    intranet address: the guarded gate checks the chain's hosts before it answers from it."""
    addresses = {"public.example": "93.184.216.34", "intranet.example": "10.0.0.7"}

    async def resolve(host: str, port: int) -> list[str]:
        return [addresses[host]]

    def site(request: httpx.Request) -> httpx.Response:
        if request.url.host in ("public.example", addresses["public.example"]):
            return httpx.Response(302, headers={"Location": "http://intranet.example/robots.txt"})
        return httpx.Response(200, stream=httpx.ByteStream(b"User-agent: *\nDisallow: /internal-only/\n"))

    cache = RobotsCache(tmp_path / "cache.sqlite3")
    transport = httpx.MockTransport(site)
    url = "http://public.example/internal-only/x"
    unguarded = anyio.run(
        lambda: gate_async(url, "A", allow_private=True, cache=cache, transport=transport, resolve=resolve)
    )
    assert unguarded.line == 2  # read from the intranet's file, and cached under public.example
    guarded = anyio.run(lambda: gate_async(url, "A", cache=cache, transport=transport, resolve=resolve))
    assert (guarded.allowed, guarded.reason, guarded.line) == (False, "refused-target", None)
    assert "10.0.0.7" in guarded.as_dict()["robots_txt"]["error"]["message"]


@pytest.mark.parametrize(
    ("url", "agent", "initiated_by", "said"),
    [
        (
            "https://example.com/" + "a" * 100_000,
            "A",
            "model",
            "the URL has 100,020 characters; at most 8,192 are read",
        ),
        ("javascript:alert(1)", "A", "model", "`javascript:alert(1)` is not an http or https URL"),
        ("https://example.com/", "   ", "model", "the agent is empty"),
        ("https://example.com/", "A\x00B", "model", "control character (U+0000)"),
        ("https://example.com/", "A" * 9000, "model", "the user agent has 9,000 characters"),
        ("https://example.com/", "A", "robot", "initiated_by is `robot`: give one of model, user"),
    ],
)
def test_a_question_the_gate_cannot_answer_is_one_clear_error(
    url: str, agent: str, initiated_by: str, said: str
) -> None:
    with pytest.raises(InvalidRequest) as raised:
        gate(url, agent, initiated_by)
    assert said in str(raised.value) and len(str(raised.value)) < 300


# Hosts the standard library reads and httpx cannot request: an octal IPv4 part, an A-label idna refuses.
@pytest.mark.parametrize("host", ["0177.0.0.1", "xn--a.com"])
@pytest.mark.parametrize("allow_private", [False, True])
def test_a_host_the_fetcher_cannot_request_is_an_invalid_request(host: str, allow_private: bool) -> None:
    url = f"http://{host}/x"
    said = f"`{url}` has an invalid host name `{host}`"
    with pytest.raises(InvalidRequest, match=re.escape(said)):
        gate(url, "A", allow_private=allow_private)
    # The MCP tools that fetch say the same as a tool error, not as an internal error.
    settings = Settings(allow_private_fetch=allow_private)
    for tool, args in (("may_fetch", {"url": url, "user_agent": "A"}), ("lint_robots", {"url": url})):
        result = anyio.run(call, settings, tool, args)
        assert result.is_error and [block.text for block in result.content] == [said]  # type: ignore[union-attr]


@given(
    text=st.text(st.sampled_from("UuSer-agntDisalow: */$?#\nLicense:htps/.Content-Usg=ny,GPTBot"), max_size=300),
    agent=st.sampled_from(["GPTBot", "Googlebot-Image", "ChatGPT-User", "MyAgent/1.0", "*"]),
    path=st.text(st.sampled_from("/a*$?=%b"), max_size=20),
    status=st.sampled_from([200, 404, 500, 429]),
    initiated_by=st.sampled_from(["model", "user"]),
)
def test_every_gate_answer_fits_may_fetchs_output_schema(
    text: str, agent: str, path: str, status: int, initiated_by: str
) -> None:
    robots = parse(text) if status == 200 else None
    decision = decide(Outcome(status=status), POLICY)
    evidence = Evidence("https://example.com/robots.txt", status, 1_800_000_000.0, sha256="0" * 64)
    answer = gate_answer("https://example.com/" + path, agent, initiated_by, decision, robots, evidence)
    data = answer.as_dict("ko")
    OUTPUT.validate(data)
    # A file the rules cannot come from allows all (404) or nothing (5xx, 429), never from a rule.
    if robots is None:
        assert data["allowed"] is (status == 404) and data["line"] is None
