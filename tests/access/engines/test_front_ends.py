"""Every front end gives each engine's answer the same way: the library, check, matrix, diff, bulk and the page.

The readings themselves are proven against the real engines in this
folder's other tests; these tests hold the front ends to them: the same
crawler, URL, file and engine get the same verdict and deciding line
everywhere; `--engine all` shows every reading; `operator` picks the
crawler's own; the default reading says in one line when the operator's
reading answers otherwise; `robotscope readings` lists what splits (exit 1,
for CI); explanations follow the engine's precedence; the fetch policy
follows the engine.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from robotscope import parse
from robotscope.access.engines.registry import (
    ALL,
    DEFAULT,
    OPERATOR,
    PROFILED,
    names,
    operator_engine,
    resolve,
)
from robotscope.cli import cli
from robotscope.messages import catalogue
from robotscope.reports.analysis import analyse
from robotscope.reports.compare.diff import diff
from robotscope.reports.compare.matrix import matrix
from robotscope.syntax.crawlers import select
from robotscope.syntax.model import Reason
from robotscope.web.app import create_app
from tests.conftest import Server

# Seed 001: RFC 9309 and Protego allow `/` by line 3 (`/$` is longer); Python 3.12's first-match
# robotparser blocks it by line 2 (and reads `$` literally).
SEED = "User-agent: *\nDisallow: /\nAllow: /$\n"
# Google reads line 2 (no colon) and line 3 (a typo) as rules; RFC 9309 ignores both. A blank line
# splits the Googlebot group for the 1994 readings; Allow below Disallow is read otherwise first-match.
MIXED = (
    "User-agent: *\nDisallow /oops\nDissallow: /typo\nDisallow: /dir/\nAllow: /dir/page\n\n"
    "User-agent: Googlebot\nDisallow: /g/\n\nDisallow: /after-blank/\n"
)
CASES = [
    (SEED, "Googlebot", "/"),
    (SEED, "somebot", "/x"),
    (MIXED, "Googlebot", "/after-blank/x"),
    (MIXED, "Googlebot-Image", "/g/a.png"),
    (MIXED, "bingbot", "/oops"),
    (MIXED, "Yeti", "/typo"),
    (MIXED, "somebot", "/dir/page"),
    (MIXED, "YandexBot", "/dir/x"),
]
CHOICES = [PROFILED, *names(), OPERATOR]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def written(tmp_path: Path, text: str, name: str = "robots.txt") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("choice", CHOICES)
@pytest.mark.parametrize(("text", "agent", "url"), CASES)
def test_every_front_end_gives_the_engines_verdict_and_line(
    tmp_path: Path, text: str, agent: str, url: str, choice: str
) -> None:
    robots = parse(text)
    name = resolve(choice, agent)
    expected = robots.verdict(agent, url, engine=name)
    want = (expected.allowed, expected.line)
    if name != PROFILED:  # the front ends' default reading is no engine of the seven
        assert robots.readings(agent, url)[name] == expected
    robots_file = written(tmp_path, text)
    # check
    code, out, _ = run("check", robots_file, agent, url, "--engine", choice, "--json")
    (view,) = json.loads(out)
    assert (view["allowed"], view["line"], view["engine"]) == (*want, name) and code == (0 if expected.allowed else 1)
    # matrix, library and CLI
    (row,) = matrix(robots, select(agent), [url], choice)
    assert (row.cells[0].verdict.allowed, row.cells[0].verdict.line) == want
    _, out, _ = run("matrix", robots_file, url, "--agents", agent, "--engine", choice, "--json")
    (cli_row,) = json.loads(out)["rows"]
    assert (cli_row["cells"][0]["allowed"], cli_row["cells"][0]["line"]) == want
    # diff: against an empty file, the pair flips exactly when the engine blocks it
    flips = diff(parse(""), robots, [url], [agent], engine=choice)
    assert bool(flips) is (not expected.allowed)
    if flips:
        assert flips[0].engine == name and flips[0].new.line == expected.line
    code, out, _ = run(
        "diff",
        written(tmp_path, "", "empty.txt"),
        robots_file,
        "--agents",
        agent,
        "--urls",
        written(tmp_path, url + "\n", "urls.txt"),
        "--engine",
        choice,
        "--json",
    )
    assert [(f["engine"], f["new"]["line"]) for f in json.loads(out)["flips"]] == (
        [] if expected.allowed else [(name, expected.line)]
    )
    # bulk
    _, out, _ = run(
        "bulk",
        robots_file,
        "--urls",
        str(tmp_path / "urls.txt"),
        "--agent",
        agent,
        "--engine",
        choice,
        "--json",
        "--no-progress",
    )
    line = json.loads(out.splitlines()[0])
    assert (line["allowed"], line["line"], line["engine"]) == (*want, name)
    # the page
    (page,) = analyse(text, agent, [url], [], engine=choice)["verdicts"]
    assert (page["allowed"], page["line"], page["engine"]) == (*want, name)


def test_operator_reads_each_crawler_by_its_operators_engine() -> None:
    # A catalogue crawler of an operator without an engine of its own: RFC 9309 with its documented profile.
    agents = ("Googlebot", "Googlebot-Image", "bingbot", "Yeti", "YandexBot", "GPTBot", "Applebot", "somebot")
    assert [operator_engine(a) for a in agents] == [
        "google",
        "google",
        "bing",
        "naver",
        "yandex",
        PROFILED,
        PROFILED,
        DEFAULT,
    ]
    full = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
    assert operator_engine(full) == "google"


def test_the_library_takes_the_same_engine_choices() -> None:
    robots = parse("User-agent: *\nDisallow /oops\n")
    assert robots.verdict("Googlebot", "/oops", engine=OPERATOR) == robots.verdict(
        "Googlebot", "/oops", engine="google"
    )
    assert (
        not robots.verdict("Googlebot", "/oops", engine=OPERATOR).allowed
        and robots.verdict("somebot", "/oops", engine=OPERATOR).allowed
    )
    with pytest.raises(ValueError, match="readings"):
        robots.verdict("Googlebot", "/oops", engine=ALL)
    with pytest.raises(ValueError) as unknown:
        robots.verdict("Googlebot", "/oops", engine="gogle")
    assert "google" in str(unknown.value) and "'all'" not in str(unknown.value) and ", all," not in str(unknown.value)


def test_engine_all_shows_every_reading_of_seed_001(tmp_path: Path) -> None:
    code, out, _ = run("check", written(tmp_path, SEED), "Googlebot", "/", "--engine", ALL, "--json")
    assert code == 1  # an engine blocks it
    (view,) = json.loads(out)
    table = {name: (r["allowed"], r["line"], r["reason"]) for name, r in view["readings"].items()}
    assert list(table) == names() and view["split"] is True
    assert table["rfc9309"] == table["protego"] == table["google"] == (True, 3, "rule")  # Python 3.14's column too
    assert table["legacy"] == (False, 2, "rule")  # Python 3.12's column
    code, out, _ = run("check", written(tmp_path, SEED), "Googlebot", "/", "--engine", ALL)
    assert out.splitlines()[0] == "/: the engines disagree"
    assert "  legacy   DISALLOWED line 2 (Disallow: /)" in out and "  protego  ALLOWED    line 3 (Allow: /$)" in out
    # A URL no rule matches names why, in words, not a code.
    code, out, _ = run(
        "check", written(tmp_path, "User-agent: *\nDisallow /oops\n"), "Googlebot", "/x", "--engine", ALL
    )
    assert code == 0 and "  rfc9309  ALLOWED    no rule matches" in out and "no-matching-rule" not in out
    assert out.splitlines()[0] == "/x: every engine agrees"


def test_every_reason_has_words_in_every_language() -> None:
    for lang in ("en", "ko"):
        assert {f"reason.{r.value}" for r in Reason} <= set(catalogue(lang))


def test_allow_above_disallow_for_first_match_crawlers(tmp_path: Path) -> None:
    """Seed 004: first-match crawlers need the Allow above the Disallow; RFC 9309 does not care."""
    below = "User-agent: *\nDisallow: /dir/\nAllow: /dir/page\n"
    above = "User-agent: *\nAllow: /dir/page\nDisallow: /dir/\n"
    for text in (below, above):
        assert parse(text).verdict("bot", "/dir/page").allowed is True
    assert (
        parse(below).verdict("bot", "/dir/page", engine="legacy").line,
        parse(below).verdict("bot", "/dir/page", engine="legacy").allowed,
    ) == (2, False)
    assert parse(above).verdict("bot", "/dir/page", engine="legacy").allowed is True


@pytest.mark.parametrize(
    ("text", "url", "allowed", "code", "words"),
    [
        (SEED, "/", False, "explain.first-only", "the only rule of the group that matches /"),
        (
            "User-agent: *\nDisallow: /dir/\nAllow: /dir/page\n",
            "/dir/page",
            False,
            "explain.first",
            "stands first in the group",
        ),
        (
            "User-agent: *\nDisallow:\nDisallow: /\n",
            "/x",
            True,
            "explain.first-empty",
            "an empty Disallow matches every URL and allows it",
        ),
    ],
)
def test_first_match_explanations_speak_of_order_not_length(
    tmp_path: Path, text: str, url: str, allowed: bool, code: str, words: str
) -> None:
    _, out, _ = run("check", written(tmp_path, text), "bot", url, "--engine", "legacy", "--json")
    (view,) = json.loads(out)
    assert view["allowed"] is allowed and view["explanation"]["code"] == code and words in view["explanation"]["text"]
    assert "length" not in view["explanation"]["text"] and "longest" not in view["explanation"]["text"]
    # The rule is shown as written: an empty Disallow stays a Disallow, though it allows.
    assert view["rule"]["kind"] == "disallow"
    _, out, _ = run("check", written(tmp_path, text), "bot", url, "--engine", "legacy", "--lang", "ko")
    assert "결정합니다" in out


def test_the_default_reading_names_the_operators_other_answer(tmp_path: Path) -> None:
    robots_file = written(tmp_path, "User-agent: *\nDisallow /oops\nDisallow: /dir/\nAllow: /dir/page\n")
    code, out, _ = run("check", robots_file, "Googlebot", "/oops", "--json")
    (view,) = json.loads(out)
    assert view["allowed"] is True and code == 0
    (note,) = [n for n in view["notes"] if n["code"].startswith("engine.split")]
    assert note["code"] == "engine.split.reads-disallow" and note["params"]["line"] == 2
    assert (
        note["text"] == "Google reads line 2 `Disallow /oops` as a rule, so googlebot is blocked from /oops; "
        "RFC 9309 ignores that line"
    )
    # Both deciding lines when the line is a rule for both readings.
    _, out, _ = run("check", robots_file, "Googlebot", "/dir/page", "--engine", "legacy", "--json")
    (view,) = json.loads(out)
    assert [n["code"] for n in view["notes"]] == ["engine.split"]
    assert "Google reads this file differently" in view["notes"][0]["text"]
    # No note for a crawler whose operator reads it the same way, nor for an unknown crawler.
    _, out, _ = run("check", robots_file, "somebot", "/oops", "--json")
    assert json.loads(out)[0]["notes"] == []


def test_matrix_and_diff_say_what_check_says(tmp_path: Path) -> None:
    robots_file = written(tmp_path, "User-agent: *\nDisallow /oops\n")
    # matrix, in the CLI and in the core the page uses: the same note as `check`
    _, out, _ = run("matrix", robots_file, "/oops", "--agents", "Googlebot,GPTBot", "--json")
    cells = {row["crawler"]["token"]: row["cells"][0] for row in json.loads(out)["rows"]}
    assert [n["code"] for n in cells["Googlebot"]["notes"]] == ["engine.split.reads-disallow"] and cells["GPTBot"][
        "notes"
    ] == []
    (row,) = matrix(parse("User-agent: *\nDisallow /oops\n"), select("Googlebot"), ["/oops"])
    assert [n.code for n in row.cells[0].extra] == ["engine.split.reads-disallow"]
    # --engine all: each engine that reads it otherwise, with its deciding line
    _, out, _ = run("matrix", robots_file, "/oops", "--agents", "Googlebot", "--engine", ALL)
    assert "read otherwise by google L2, protego L2" in out
    # diff: a flip's note (the profile that changed the answer), and the pairs only the operators' engines flip
    old = written(tmp_path, "User-agent: *\nDisallow: /private/\n", "old.txt")
    new = written(
        tmp_path,
        "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /img/\nDisallow /oops\n",
        "new.txt",
    )
    urls = written(tmp_path, "/oops\n/img/a.png\n", "urls.txt")
    code, out, _ = run("diff", old, new, "--urls", urls, "--agents", "Googlebot-Image,Googlebot", "--json")
    data = json.loads(out)
    image = next(f for f in data["flips"] if f["agent"] == "Googlebot-Image")
    assert code == 1 and image["url"] == "/img/a.png" and [n["code"] for n in image["notes"]] == ["profile.changed"]
    assert data["operator_only_flips"] == 2  # /oops for both: Google reads line 6 as a rule
    _, out, _ = run("diff", old, new, "--urls", urls, "--agents", "Googlebot-Image,Googlebot")
    assert "2 more pairs flip as the crawlers' own operators read the files" in out and "(1) " in out


def test_a_crawler_that_ignores_the_star_group_is_explained_so(tmp_path: Path) -> None:
    code, out, _ = run("check", written(tmp_path, "User-agent: *\nDisallow: /cart/\n"), "AdsBot-Google", "/cart/x")
    assert code == 0 and out.splitlines()[1] == (
        "  No group names adsbot-google, and adsbot-google ignores the `*` group (as its operator documents), "
        "so every URL is allowed."
    )
    _, out, _ = run("check", written(tmp_path, "User-agent: googlebot\nDisallow: /\n"), "somebot", "/x")
    assert "there is no `*` group" in out


def test_readings_command_lists_lines_and_splits_and_fails_for_ci(tmp_path: Path) -> None:
    code, out, _ = run("readings", written(tmp_path, MIXED), "somebot", "--json")
    assert code == 1
    data = json.loads(out)
    lines = {item["line"]: item["engines"] for item in data["lines"]}
    assert lines[2]["google"] == "Disallow: /oops" and lines[2]["rfc9309"] == "-"
    assert lines[3]["google"] == "Disallow: /typo" and lines[3]["legacy"] == "-"
    split = next(s for s in data["splits"] if s["url"] == "/oops")
    assert split["agent"] == "somebot" and split["split"] is True
    assert {
        name: (r["allowed"], r["line"], r["reason"])
        for name, r in split["readings"].items()
        if name in ("rfc9309", "google")
    } == {
        "rfc9309": (True, None, "no-matching-rule"),
        "google": (False, 2, "rule"),
    }
    # A file every engine reads alike passes.
    code, out, _ = run("readings", written(tmp_path, "User-agent: *\nDisallow: /private/\n"), "Googlebot")
    assert code == 0, out


def test_lint_points_at_a_line_engines_read_differently(tmp_path: Path) -> None:
    _code, out, _ = run(
        "lint", written(tmp_path, "User-agent: *\nDisallow: /a\n\nDisallow: /b\nDisallow: /c\n"), "--json"
    )
    found = [f for f in json.loads(out) if f["code"] == "readsDifferently"]
    (finding,) = found  # one finding for the run of lines the blank line cuts off, not one per rule
    assert finding["line"] == 4 and finding["message"]["code"] == "lint.readsDifferently.run"
    assert (
        "lines 4\u20135 (2 rules)" in finding["message"]["text"]
        and "Yandex, urllib.robotparser ignore them" in finding["message"]["text"]
    )
    assert finding["fix"]["code"] == "fix.readsDifferently.blank" and finding["fix"]["params"]["line"] == 3
    assert finding["fix"]["text"].startswith("delete the empty line 3: Yandex, urllib.robotparser end the group there")
    # A second `*` group, which the first-match reading drops whole, gets the general fix.
    _, out, _ = run("lint", written(tmp_path, "User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n"), "--json")
    (finding,) = [f for f in json.loads(out) if f["code"] == "readsDifferently"]
    assert finding["line"] == 5 and finding["fix"]["code"] == "fix.readsDifferently"


@pytest.mark.usefixtures("isolated")
@pytest.mark.parametrize(
    ("args", "policy"),
    [
        ((), "rfc9309"),
        (("--engine", "naver"), "naver"),
        (("--engine", "operator"), "google"),
        (("--engine", "google", "--policy", "bing"), "bing"),
    ],
)
def test_the_fetch_policy_follows_the_engine(
    server: Server, tmp_path: Path, args: tuple[str, ...], policy: str
) -> None:
    server.serve("/robots.txt", 200, b"User-agent: *\nDisallow: /private/\n")
    code, out, _ = run(
        "check", server.url("/private/x"), "Googlebot", "--cache", str(tmp_path / "c.sqlite3"), "--json", *args
    )
    assert code == 1 and json.loads(out)[0]["robots_txt"]["policy"] == policy


def api(method: str, path: str, **kwargs: Any) -> httpx.Response:
    """One request to a fresh app, in process (its analysis workers closed after)."""
    app = create_app()

    async def go() -> httpx.Response:
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1:8000"
        ) as client:
            return await client.request(method, path, **kwargs)

    try:
        return asyncio.run(go())
    finally:
        app.state.workers.close()


@pytest.mark.usefixtures("isolated")
def test_the_web_api_takes_an_engine_and_lists_them() -> None:
    info = api("GET", "/api/info", params={"lang": "ko"}).json()
    assert [e["name"] for e in info["engines"]] == [PROFILED, *names()]
    assert all(e["summary"] and e["sources"] for e in info["engines"])
    assert info["engines"][1 + names().index("legacy")]["precedence"] == "first"
    body: dict[str, Any] = {"text": SEED, "agent": "Googlebot", "urls": ["/"], "paths": ["/"], "engine": "legacy"}
    answer = api("POST", "/api/analyse", json=body).json()
    assert answer["verdicts"][0]["allowed"] is False and answer["verdicts"][0]["engine"] == "legacy"
    assert answer["engine"] == "legacy" and [e["name"] for e in answer["engines"]] == [PROFILED, *names()]
    (cell,) = answer["matrix"]["purposes"][0]["rows"][0]["cells"]
    assert cell["engine"] == "legacy" and cell["allowed"] is False
    (reading,) = answer["readings"]["urls"]
    assert reading["split"] is True and reading["readings"]["legacy"]["line"] == 2
    bad = api("POST", "/api/analyse", json={**body, "engine": "nonsense"})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad-field"
    assert "legacy" in bad.json()["error"]["message"]
