"""Message catalogues: every code in every language, templates that render, Korean particles."""

from __future__ import annotations

import re

import pytest

from robotscope.messages import LANGS, Message, catalogue, language, missing, particle, render

FIELD = re.compile(r"\{(\w+)(?::[^}|]*)?(?:\|[^}]*)?\}")


@pytest.mark.parametrize("lang", LANGS)
def test_every_code_has_a_translation(lang: str) -> None:
    assert missing(lang) == []
    assert set(catalogue(lang)) == set(catalogue("en"))


@pytest.mark.parametrize("code", sorted(catalogue("en")))
def test_each_template_uses_the_same_parameters_in_every_language(code: str) -> None:
    names = {lang: set(FIELD.findall(catalogue(lang)[code])) for lang in LANGS}
    assert names["ko"] <= names["en"] | {"n"}, (code, names)
    # Every template renders with its own parameters, and leaves no brace behind.
    params = dict.fromkeys(names["en"] | names["ko"], 2)
    for lang in LANGS:
        text = render(Message(code, params), lang)
        assert "{" not in text and "}" not in text.replace("{}", ""), (lang, code, text)


@pytest.mark.parametrize(
    ("word", "written", "expected"),
    [
        ("6", "으로", "으로"),  # 육으로
        ("1", "으로", "로"),  # 일로: ㄹ takes 로
        ("2", "으로", "로"),
        ("10", "으로", "으로"),  # 십으로
        ("3", "을", "을"),
        ("4", "을", "를"),
        ("100", "이", "이"),  # 백이
        ("1,000", "은", "은"),  # 천은
        ("5", "과", "와"),
        ("파일", "으로", "로"),
        ("규칙", "이", "이"),
        ("크롤러", "은", "는"),
        ("Googlebot", "은", "은"),
        ("Yeti", "은", "는"),
    ],
)
def test_korean_particles_follow_the_last_sound(word: str, written: str, expected: str) -> None:
    assert particle(word, written) == expected


def test_plural_and_nested_messages() -> None:
    assert render(Message("span.days", {"n": 3})) == "3 days"
    assert render(Message("span.days", {"n": 3}), "ko") == "3일"
    as_dict = Message("state.copy", {"outage": Message("span.hours", {"n": 13})}).as_dict("ko")
    assert as_dict["params"] == {"outage": "13시간"} and "13시간" in as_dict["text"]


@pytest.mark.parametrize(
    ("value", "lang"),
    [
        ("ko_KR.UTF-8", "ko"),
        ("ko-KR", "ko"),
        ("en_US.UTF-8", "en"),
        ("fr_FR", "en"),
        ("", "en"),
        (None, "en"),
        ("C", "en"),
    ],
)
def test_language_from_locale(value: str | None, lang: str) -> None:
    assert language(value) == lang
