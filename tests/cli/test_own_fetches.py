"""`page` and `watch`, against sites on 127.0.0.1, say which of their own fetches a site's verification would pass."""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from robotscope.cli import cli
from robotscope.cli.watch import _show
from robotscope.reports.verification import own_fetches
from tests.conftest import Server, respond

pytestmark = pytest.mark.usefixtures("isolated")
HTML = {"Content-Type": "text/html"}
HEADING = (
    "fetched as (a site that verifies crawlers sees these fetches come from this machine, "
    "not from the operators' addresses):"
)
GOOGLEBOT = (
    "would verify: no, since Google publishes IP lists and reverse-DNS names to check Googlebot and a fetch from "
    "this machine fails them; the answer a site gave may differ from what the real Googlebot gets"
)
CCBOT = "cannot be told apart from the real CCBot: Common Crawl publishes no way to verify it"
OWN = "robotscope's own agent: no claim"


class Recording:
    """A site that serves robots.txt and a page, and keeps the User-Agent of every request."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.agents: list[tuple[str, str]] = []
        server.routes["/robots.txt"] = self._answer(b"User-agent: *\nDisallow: /private/\n")
        server.routes["/p"] = self._answer(b"<html><head><title>p</title></head></html>", HTML)

    def _answer(self, body: bytes, headers: dict[str, str] | None = None) -> Any:
        def answer(handler: BaseHTTPRequestHandler) -> None:
            self.agents.append((handler.path, handler.headers.get("User-Agent", "")))
            respond(handler, 200, body, headers)

        return answer


@pytest.fixture
def site(server: Server) -> Recording:
    return Recording(server)


def page(site: Recording, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["page", site.server.url("/p"), "--no-cache", "--timeout", "5", *args])
    assert result.exit_code in (0, 1), result.stderr
    return result.exit_code, result.stdout


def test_page_says_once_what_each_user_agent_it_sent_would_verify_as(site: Recording) -> None:
    _, out = page(site, "--agent", "Googlebot", "--agent", "CCBot", "--agent", "Googlebot-Image", "--lang", "en")
    lines = out.splitlines()
    own = next(ua for path, ua in site.agents if path == "/robots.txt")
    assert own.startswith("robotscope/")  # robots.txt went out as robotscope itself, the page as each crawler
    assert lines[1:5] == [HEADING, f"  {own}: {OWN}", f"  Googlebot: {GOOGLEBOT}", f"  CCBot: {CCBOT}"]
    assert lines[5].startswith("  Googlebot-Image: would verify: no, since Google publishes")
    assert sum(line.startswith("  Googlebot: would verify") for line in lines) == 1
    korean = page(site, "--agent", "Googlebot", "--lang", "ko")[1].splitlines()
    assert korean[1].startswith("보낸 에이전트") and korean[3].startswith("  Googlebot: 확인 통과: 아니요.")


def test_page_json_has_the_statements(site: Recording) -> None:
    _, out = page(site, "--agent", "Googlebot", "--agent", "CCBot", "--json")
    data = json.loads(out)
    own, google, cc = data["fetched_as"]
    robots = dict(site.agents)["/robots.txt"]
    assert (own["agent"], own["user_agent"], own["would_verify"]) == (robots, robots, "no-claim")
    assert own["token"] is None and own["methods"] == [] and own["text"] == OWN
    assert google["user_agent"] == data["crawlers"][0]["user_agent"] and "Googlebot/2.1" in google["user_agent"]
    assert (google["would_verify"], google["token"], google["operator"]) == ("no", "Googlebot", "Google")
    assert google["methods"] == ["ip-list", "reverse-dns"] and google["message"]["code"] == "verify.own.fails"
    assert (cc["would_verify"], cc["operator"], cc["methods"]) == ("indistinguishable", "Common Crawl", [])
    assert cc["text"] == CCBOT


def test_a_user_agent_given_is_the_claim_judged(site: Recording) -> None:
    # --user-agent replaces every crawler's string: what a site sees is that string's claim, said once.
    _, out = page(site, "--agent", "Googlebot", "--agent", "bingbot", "--user-agent", "CCBot/2.0", "--json")
    data = json.loads(out)
    assert [(f["agent"], f["would_verify"]) for f in data["fetched_as"][1:]] == [("CCBot/2.0", "indistinguishable")]
    assert [ua for path, ua in site.agents if path == "/p"] == ["CCBot/2.0"]


class Watched:
    """A site whose robots.txt is served to anyone, each User-Agent kept."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.agents: list[str] = []

        def answer(handler: BaseHTTPRequestHandler) -> None:
            self.agents.append(handler.headers.get("User-Agent", ""))
            respond(handler, 200, b"User-agent: *\nDisallow: /private/\n")

        server.routes["/robots.txt"] = answer


def watch(store: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["watch", *args, "--store", str(store), "--fail-on", "never"])
    assert result.exit_code == 0, result.stderr
    return result.exit_code, result.stdout


AGENTS = "browser,Googlebot,CCBot,robotscope/9.9"


def test_watch_says_once_per_agent_not_per_origin(server: Server, other_server: Server, tmp_path: Path) -> None:
    one, two = Watched(server), Watched(other_server)
    _, out = watch(tmp_path / "h.sqlite3", server.url("/"), other_server.url("/"), "--agents", AGENTS, "--lang", "en")
    lines = out.splitlines()
    start = lines.index(HEADING)
    assert lines[start - 1].startswith("2 origins watched") and lines.count(HEADING) == 1
    assert lines[start + 1 :] == [
        "  browser: names no crawler robotscope knows: no claim it can judge",
        f"  Googlebot: {GOOGLEBOT}",
        f"  CCBot: {CCBOT}",
        f"  robotscope/9.9: {OWN}",
    ]
    # Each origin was fetched as each of them: the statements are about the requests the sites got.
    assert len(one.agents) == len(two.agents) == 4 and one.agents[3] == "robotscope/9.9"
    assert "Googlebot/2.1" in one.agents[1] and one.agents[2].startswith("CCBot/")


def test_watch_json_has_the_statements_in_every_run(server: Server, tmp_path: Path) -> None:
    Watched(server)
    for _ in range(2):
        _, out = watch(tmp_path / "h.sqlite3", server.url("/"), "--agents", AGENTS, "--json", "--lang", "ko")
        document = json.loads(out)
        said = [(f["agent"], f["would_verify"], f["token"], f["methods"]) for f in document["fetched_as"]]
        assert said == [
            ("browser", "unknown", None, []),
            ("Googlebot", "no", "Googlebot", ["ip-list", "reverse-dns"]),
            ("CCBot", "indistinguishable", "CCBot", []),
            ("robotscope/9.9", "no-claim", None, []),
        ]
        assert document["fetched_as"][1]["text"].startswith("확인 통과: 아니요.")


def test_a_later_run_of_a_watch_does_not_repeat_them(capsys: pytest.CaptureFixture[str]) -> None:
    # `--every` prints each run: the statements with the first, not again every 15 minutes.
    fetched_as = own_fetches([("Googlebot", "Googlebot/2.1")])
    _show([], fetched_as, [], 1, False, "en")
    assert HEADING in capsys.readouterr().out
    _show([], fetched_as, [], 2, False, "en")
    assert HEADING not in capsys.readouterr().out
