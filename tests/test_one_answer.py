"""The same crawler, URL and file get the same answer in every front end, with the same words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from robotscope import parse
from robotscope.access.engines.registry import DEFAULT, PROFILED, names
from robotscope.cli import cli
from robotscope.reports.analysis import analyse
from robotscope.reports.compare.diff import diff
from robotscope.reports.compare.matrix import matrix
from robotscope.syntax.crawlers import select
from robotscope.syntax.parser import MAX_BYTES
from tests.conftest import Server

# Googlebot-Image obeys the Googlebot group (Google's documented fallback); AdsBot-Google ignores `*`.
FILE = "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /photos/\n"
CASES = [
    ("Googlebot-Image", "/photos/a.jpg", False),
    ("Googlebot-Image", "/private/x", True),
    ("AdsBot-Google", "/private/x", True),
]


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(("agent", "url", "allowed"), CASES)
def test_check_matrix_diff_bulk_and_the_page_agree(tmp_path: Path, agent: str, url: str, allowed: bool) -> None:
    robots_file = tmp_path / "robots.txt"
    robots_file.write_text(FILE)
    robots = parse(FILE)
    # The library.
    result = robots.answer(agent, url)
    assert result.verdict.allowed is allowed and result.rfc.allowed is not allowed and result.note is not None
    # check.
    code, out, _ = run("check", str(robots_file), agent, url, "--json")
    (view,) = json.loads(out)
    assert view["allowed"] is allowed and code == (0 if allowed else 1)
    assert [n["code"] for n in view["notes"]] == ["profile.changed"]
    # matrix.
    (row,) = matrix(robots, select(agent), [url])
    assert row.cells[0].verdict.allowed is allowed
    # diff: against an empty file (everything allowed), the pair flips exactly when the answer is "disallowed".
    flips = diff(parse(""), robots, [url], [agent])
    assert bool(flips) is (not allowed)
    # bulk.
    urls = tmp_path / "urls.txt"
    urls.write_text(url + "\n")
    code, out, _ = run("bulk", str(robots_file), "--urls", str(urls), "--agent", agent, "--json", "--no-progress")
    assert json.loads(out.splitlines()[0])["allowed"] is allowed
    # The page.
    (page,) = analyse(FILE, agent, [url], [url])["verdicts"]
    assert page["allowed"] is allowed and page["notes"][0]["code"] == "profile.changed"


# Crawlers whose operator documents a profile, each on a file where the profile changes RFC 9309's answer.
PROFILED_CASES = [
    # Googlebot-Image and Google-InspectionTool obey the Googlebot group when no group names them.
    ("Googlebot-Image", "/photos/a.jpg"),
    ("Google-InspectionTool", "/photos/a.jpg"),
    # AdsBot-Google ignores `*`.
    ("AdsBot-Google", "/private/x"),
]


@pytest.mark.parametrize(("agent", "url"), PROFILED_CASES)
def test_rfc9309_is_rfc9309_itself_everywhere(tmp_path: Path, agent: str, url: str) -> None:
    robots = parse(FILE)
    plain = robots.verdict(agent, url)
    # The library: the default, the engine named `rfc9309`, and the readings side by side are one answer...
    assert robots.verdict(agent, url, engine="rfc9309") == plain == robots.readings(agent, url)["rfc9309"]
    assert robots.can_fetch(agent, url) is robots.can_fetch(agent, url, engine="rfc9309") is plain.allowed
    # ...RFC 9309's, in which no group names the crawler, so the `*` group decides.
    assert plain.group_lines == (1,) and plain.allowed is (url != "/private/x")
    # The profile is a reading of its own, and it answers otherwise here.
    profiled = robots.verdict(agent, url, engine=PROFILED)
    assert profiled.allowed is not plain.allowed and robots.answer(agent, url).verdict == profiled
    # The command and the page say the same of each name.
    robots_file = tmp_path / "robots.txt"
    robots_file.write_text(FILE)
    for name, expected in ((DEFAULT, plain), (PROFILED, profiled)):
        _, out, _ = run("check", str(robots_file), agent, url, "--engine", name, "--json")
        (view,) = json.loads(out)
        (page,) = analyse(FILE, agent, [url], [], engine=name)["verdicts"]
        for shown in (view, page):
            assert (shown["engine"], shown["allowed"], shown["line"]) == (name, expected.allowed, expected.line)
        # Only the profiled reading notes the profile that changed RFC 9309's answer.
        assert ("profile.changed" in [n["code"] for n in view["notes"]]) is (name == PROFILED)


ONE_ANSWER_FILE = (
    "User-agent: *\nDisallow /oops\nDisallow: /dir/\nAllow: /dir/page\n\n"
    "User-agent: Googlebot\nDisallow: /g/\n\nDisallow: /after-blank/\n"
)


@pytest.mark.parametrize("name", [PROFILED, *names()])
@pytest.mark.parametrize(
    "agent", ["Googlebot", "Googlebot-Image", "AdsBot-Google", "bingbot", "Yeti", "YandexBot", "somebot"]
)
def test_each_engine_name_answers_alike_in_the_library_the_command_and_the_page(
    tmp_path: Path, name: str, agent: str
) -> None:
    robots_file = tmp_path / "robots.txt"
    robots_file.write_text(ONE_ANSWER_FILE)
    robots = parse(ONE_ANSWER_FILE)
    urls = ["/oops", "/dir/page", "/g/x", "/after-blank/x", "/robots.txt"]
    expected = [robots.verdict(agent, url, engine=name) for url in urls]
    assert [robots.can_fetch(agent, url, engine=name) for url in urls] == [v.allowed for v in expected]
    _, out, _ = run("check", str(robots_file), agent, *urls, "--engine", name, "--json")
    page = analyse(ONE_ANSWER_FILE, agent, urls, [], engine=name)["verdicts"]
    for shown in (json.loads(out), page):
        assert [(v["engine"], v["allowed"], v["line"]) for v in shown] == [(name, v.allowed, v.line) for v in expected]


def test_a_url_on_another_origin_is_flagged_with_the_file_that_applies(tmp_path: Path) -> None:
    robots_file = tmp_path / "robots.txt"
    robots_file.write_text(FILE)
    code, out, _ = run(
        "check", str(robots_file), "bot", "http://shop.example.com/x", "--origin", "https://www.example.com", "--json"
    )
    (view,) = json.loads(out)
    assert code == 0
    (note,) = view["notes"]
    assert note["code"] == "note.other-origin" and note["params"]["applies"] == "http://shop.example.com/robots.txt"
    assert "one scheme, host and port" in note["text"]
    # A path, or a URL of the same origin, gets no such note.
    _, out, _ = run(
        "check",
        str(robots_file),
        "bot",
        "/x",
        "https://www.example.com/y",
        "--origin",
        "https://www.example.com",
        "--json",
    )
    assert [v["notes"] for v in json.loads(out)] == [[], []]


def test_a_rule_past_the_limit_that_would_decide_is_named(tmp_path: Path) -> None:
    filler = "# " + "x" * 97 + "\n"
    text = "User-agent: *\nDisallow: /a\n" + filler * (MAX_BYTES // 100) + "Allow: /a/late\nDisallow: /b\n"
    robots_file = tmp_path / "robots.txt"
    robots_file.write_text(text)
    code, out, _ = run("check", str(robots_file), "bot", "/a/late/x", "/b", "--json")
    assert code == 1
    late, b = json.loads(out)
    late_line = text.count("\n") - 1
    assert late["allowed"] is False and late["notes"][0]["code"] == "note.overflow-flips"
    assert late["notes"][0]["params"]["line"] == late_line and "would have decided: allowed" in late["notes"][0]["text"]
    assert b["allowed"] is True and b["notes"][0]["code"] == "note.overflow-flips"


def test_utf16_files_get_one_clear_finding_and_the_verdict_crawlers_give(tmp_path: Path) -> None:
    robots_file = tmp_path / "robots.txt"
    robots_file.write_bytes("User-agent: *\nDisallow: /\n".encode("utf-16"))
    code, out, _ = run("lint", str(robots_file))
    assert code == 1 and "encodingNotUtf8" in out and "saved as UTF-16" in out and "\x00" not in out
    assert out.count(": error ") == 1
    code, out, _ = run("check", str(robots_file), "bot", "/x")
    assert code == 0 and "\x00" not in out
    page = analyse("User-agent: *\nDisallow: /\n".encode("utf-16").decode("utf-8", "replace"), "bot", ["/x"], [])
    assert [f["code"] for f in page["findings"]] == ["encodingNotUtf8"] and page["verdicts"][0]["allowed"] is True


@pytest.mark.parametrize(
    ("text", "url", "code", "words"),
    [
        ("User-agent: *\nDisallow: /a\nAllow: /a\n", "/a", "explain.tie-allow", "an Allow wins a tie"),
        ("User-agent: *\nDisallow: /a\nDisallow: /a\n", "/a", "explain.tie-same", "same answer"),
        ("User-agent: *\nDisallow: /a\n", "/a", "explain.only", "the only rule"),
        ("User-agent: *\nDisallow: /a\nAllow: /ab\n", "/ab", "explain.longest", "the longest of 2 matching rules"),
    ],
)
def test_verdict_texts_state_ties_and_counts_as_they_are(text: str, url: str, code: str, words: str) -> None:
    (view,) = analyse(text, "bot", [url], [])["verdicts"]
    assert view["explanation"]["code"] == code and words in view["explanation"]["text"]
    assert "1 matching rules" not in view["explanation"]["text"]


def test_korean_all_the_way_through(tmp_path: Path) -> None:
    robots_file = tmp_path / "robots.txt"
    robots_file.write_text("User-agent: *\nDisallow /oops\nDisallow: /a\n")
    code, out, _ = run("check", str(robots_file), "bot", "/a", "--lang", "ko")
    assert code == 1 and out.startswith("차단") and "번 줄" in out and "결정합니다" in out
    code, out, _ = run("lint", str(robots_file), "--lang", "ko")
    assert "콜론이 없어서" in out and "고치는 법" in out and "오류 1개" in out
    code, out, _ = run("check", str(robots_file), "bot", "/a", "--json", "--lang", "ko")
    assert "결정합니다" in json.loads(out)[0]["explanation"]["text"]


def test_language_defaults_to_the_locale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    robots_file = tmp_path / "robots.txt"
    robots_file.write_text("User-agent: *\nDisallow: /a\n")
    monkeypatch.delenv("ROBOTSCOPE_LANG", raising=False)
    monkeypatch.setenv("LC_ALL", "ko_KR.UTF-8")
    assert run("check", str(robots_file), "bot", "/a")[1].startswith("차단")
    monkeypatch.setenv("ROBOTSCOPE_LANG", "en")
    assert run("check", str(robots_file), "bot", "/a")[1].startswith("DISALLOWED")


@pytest.mark.usefixtures("isolated")
def test_no_cache_keeps_the_last_good_copy_and_forget_drops_it(server: Server, tmp_path: Path) -> None:
    cache = str(tmp_path / "robots.sqlite3")
    server.serve("/robots.txt", 200, b"User-agent: *\nDisallow: /private/\n")
    assert run("check", server.url("/private/x"), "bot", "--cache", cache)[0] == 1
    server.serve("/robots.txt", 503, b"down")
    # --no-cache fetches again (503), and Naver then uses the good copy kept seconds ago.
    code, out, _ = run("check", server.url("/private/x"), "bot", "--cache", cache, "--no-cache", "--policy", "naver")
    assert code == 1 and "cached-copy" in out and "the last good copy is used" in out
    assert server.hits["/robots.txt"] == 2
    # --forget drops it: now there is no good copy.
    code, out, _ = run("check", server.url("/x"), "bot", "--cache", cache, "--forget", "--policy", "naver")
    assert code == 1 and "there is no good copy" in out
