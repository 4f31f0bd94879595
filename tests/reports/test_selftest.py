"""The self-test and `explain` in every language: messages for every case, Korean output, English kept for CI."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from click.testing import CliRunner

from robotscope.cli import cli
from robotscope.messages import LANGS, catalogue, render
from robotscope.reports import generator
from robotscope.reports.selftest import (
    CaseResult,
    description,
    load_cases,
    run_cases,
    section,
    section_number,
)
from robotscope.syntax import crawlers

CASES = load_cases()
LOCALE_VARIABLES = ("ROBOTSCOPE_LANG", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.fixture(autouse=True)
def no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --lang the output is English, whatever the locale of the machine running the tests."""
    for name in LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("lang", LANGS)
def test_every_case_has_a_description_message(lang: str) -> None:
    missing = [c["id"] for c in CASES if f"case.{c['id']}" not in catalogue(lang)]
    assert missing == [], f"cases without a case.<id> message in {lang}.json"


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case_description_and_section_render_in_every_language(case: dict[str, Any]) -> None:
    assert description(case).code == f"case.{case['id']}"
    # The English message is the case's own description, word for word.
    assert description(case).render("en") == case["description"]
    assert section(case).render("en") == case["section"]
    assert section(case).render("ko") == f"RFC 9309, {section_number(case)}절"
    korean = description(case).render("ko")
    assert korean != case["description"] and re.search("[가-힣]", korean)
    assert "을(를)" not in korean and "{" not in korean


def test_as_dict_renders_in_the_language_asked_and_names_the_code() -> None:
    result = run_cases()[0]
    english, korean = result.as_dict(), result.as_dict("ko")
    assert english["section"] == "RFC 9309, Section 5.1"
    assert english["description"] == "the * group allows /publications/"
    assert korean["section"] == "RFC 9309, 5.1절"
    assert korean["description"] == "* 그룹이 /publications/ 경로를 허용합니다"
    assert english["description_code"] == korean["description_code"] == "case.5.1-global-allow"
    assert list(english) == [
        "id",
        "section",
        "description",
        "description_code",
        "agent",
        "url",
        "expected",
        "got",
        "passed",
    ]
    same = ("id", "agent", "url", "expected", "got", "passed")
    assert {k: english[k] for k in same} == {k: korean[k] for k in same}


def test_selftest_english_ends_with_the_summary_ci_reads() -> None:
    for args in (("selftest",), ("selftest", "--lang", "en")):
        code, out, _ = run(*args)
        lines = out.splitlines()
        assert code == 0
        assert lines[-1] == f"{len(CASES)} passed, 0 failed" == "73 passed, 0 failed"
        assert lines[0].startswith("PASS  5.1-global-allow ")
        assert lines[0].endswith("RFC 9309, Section 5.1: the * group allows /publications/")


def test_selftest_in_korean() -> None:
    code, out, _ = run("selftest", "--lang", "ko")
    lines = out.splitlines()
    assert code == 0
    assert len([line for line in lines if line.startswith("통과  ")]) == len(CASES)
    assert lines[0].endswith("RFC 9309, 5.1절: * 그룹이 /publications/ 경로를 허용합니다")
    assert "RFC 9309, 2.2.2절: /robots.txt는 암묵적으로 허용됩니다" in out
    assert lines[-1] == f"{len(CASES)}개 통과, 0개 실패"
    assert "PASS" not in out and "Section" not in out and "passed" not in out


def test_selftest_json_in_korean() -> None:
    code, out, _ = run("selftest", "--json", "--lang", "ko")
    data = json.loads(out)
    assert code == 0 and len(data) == len(CASES)
    assert data[0]["section"] == "RFC 9309, 5.1절" and data[0]["description_code"] == "case.5.1-global-allow"
    assert all(case["passed"] for case in data)


def _one_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first case with the engine's answer turned around: what a broken engine prints."""
    first = run_cases()[0]
    broken = CaseResult({**first.case, "allowed": False, "line": None, "reason": "no-group"}, first.verdict)
    monkeypatch.setattr("robotscope.cli.selftest.run_cases", lambda: [broken, *run_cases()[1:]])


def test_selftest_failure_in_english(monkeypatch: pytest.MonkeyPatch) -> None:
    _one_failure(monkeypatch)
    code, out, _ = run("selftest")
    lines = out.splitlines()
    assert code == 1
    assert lines[0].startswith("FAIL  5.1-global-allow ")
    assert (
        lines[1].strip()
        == "expected disallowed, no deciding line (reason: no-group), got allowed by line 4 (reason: rule)"
    )
    assert lines[-1] == f"{len(CASES) - 1} passed, 1 failed"


def test_selftest_failure_in_korean(monkeypatch: pytest.MonkeyPatch) -> None:
    _one_failure(monkeypatch)
    code, out, _ = run("selftest", "--lang", "ko")
    lines = out.splitlines()
    assert code == 1
    assert lines[0].startswith("실패  5.1-global-allow ")
    assert (
        lines[1].strip()
        == "기대한 판정: 차단, 결정한 줄 없음 (이유: no-group) / 실제 판정: 4번 줄에 따라 허용 (이유: rule)"
    )
    assert lines[-1] == f"{len(CASES) - 1}개 통과, 1개 실패"


def test_explain_in_korean() -> None:
    code, out, _ = run("explain", "Google-Extended", "--lang", "ko")
    assert code == 0
    text = " ".join(out.split())  # the console wraps long values
    rows = {line.split("  ", 1)[0]: line for line in out.splitlines() if "  " in line}
    assert {
        "크롤러",
        "운영자",
        "용도",
        "robots.txt",
        "User-Agent",
        "차단하면",
        "참고",
        "신뢰도",
        "출처",
        "Google의 다른 크롤러",
    } <= set(rows)
    assert "자체적으로는 요청을 보내지 않습니다" in rows["robots.txt"]
    assert "(자체 User-Agent 없음)" in rows["User-Agent"]
    assert "Google-Extended는 자체적으로는 요청을 보내지 않습니다." in text
    assert "Google의 검색 크롤러(Googlebot, Googlebot-Image, Googlebot-News)는 별개이므로 영향을 받지 않습니다" in text
    # The catalogue's research data is shown as written.
    assert "Never appears as an HTTP User-Agent." in text
    for english in ("blocking it", "operator ", "are separate", "none of its own"):
        assert english not in out, english


def test_explain_rows_of_fallback_and_star_group_in_both_languages() -> None:
    assert "with no group naming it, it obeys the Googlebot group" in run("explain", "Googlebot-Image")[1]
    assert (
        "자기를 지정한 그룹이 없으면 Googlebot 그룹을 따릅니다" in run("explain", "Googlebot-Image", "--lang", "ko")[1]
    )
    assert "ignored: it obeys only groups that name it" in run("explain", "AdsBot-Google")[1]
    korean = run("explain", "AdsBot-Google", "--lang", "ko")[1]
    assert any(line.startswith("`*` 그룹 ") and "자기를 지정한 그룹만 따릅니다" in line for line in korean.splitlines())


def test_explain_json_renders_the_cost_and_names_its_code() -> None:
    english = json.loads(run("explain", "GPTBot", "--json")[1])
    korean = json.loads(run("explain", "GPTBot", "--json", "--lang", "ko")[1])
    assert english["blocking_cost"].startswith("content it fetches from now on is not used to train OpenAI's models")
    assert korean["blocking_cost"].startswith("앞으로 가져가는 콘텐츠는 OpenAI의 모델 학습에 쓰이지 않습니다")
    assert english["blocking_cost_code"] == korean["blocking_cost_code"] == "explain.cost.searchers-unaffected"
    assert json.loads(run("explain", "Googlebot", "--json")[1])["blocking_cost_code"] == "explain.cost.search"
    # The catalogue's fields are the same data in every language.
    assert {k: v for k, v in english.items() if k != "blocking_cost"} == {
        k: v for k, v in korean.items() if k != "blocking_cost"
    }


def test_explain_unknown_token_in_korean() -> None:
    code, _, err = run("explain", "Googlebott", "--lang", "ko")
    assert (
        code == 2
        and err.strip()
        == "robotscope: 'Googlebott'은 크롤러 카탈로그에 없습니다. "
        "혹시 Googlebot, Googlebot-News, Googlebot-Video를 찾으셨나요?"
    )
    code, _, err = run("explain", "NoSuchCrawlerAtAll", "--lang", "ko")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert (
        "'NoSuchCrawlerAtAll'은 크롤러 카탈로그에 없습니다. "
        "전체 목록은 `robotscope matrix --agents all`로 볼 수 있습니다" in err
    )


@pytest.mark.parametrize("crawler", crawlers.catalogue(), ids=[c.token for c in crawlers.catalogue()])
def test_every_crawler_has_its_cost_and_obeys_text_in_every_language(crawler: crawlers.Crawler) -> None:
    for text in (crawlers.blocking_cost(crawler), crawlers.obeys_text(crawler)):
        assert text.code in catalogue("en") and text.code in catalogue("ko")
        english, korean = render(text, "en"), render(text, "ko")
        assert english != korean and re.search("[가-힣]", korean)
        assert "{" not in english + korean


def test_generated_comments_stay_english() -> None:
    spec = generator.preset("block-ai-training")
    commented = [b for b in spec.blocks if b.comment]
    assert commented
    for block in commented:
        crawler = crawlers.get(block.agent)
        assert crawler is not None and block.comment == crawlers.blocking_cost(crawler).render("en")
        assert not re.search("[가-힣]", block.comment)
