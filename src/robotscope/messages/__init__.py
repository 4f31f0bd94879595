"""Texts users read, as data: a `Message` is a code plus parameters, rendered per language.

Every explanation, lint finding and fix, fetch decision, self-test
description and front-end label is a `Message`; `render(message, lang)`
turns it into a sentence from the catalogue of that language
(`en.json`, `ko.json` beside this file). Front ends never glue English
sentences together: they pass messages on and render them once, in the
user's language.

Template syntax (the same in every catalogue):

- `{name}`: the parameter, as text; a list is joined with ", "; a nested
  `Message` is rendered in the same language.
- `{name:,}`: a Python format specification (here thousands separators).
- `{name|plural:rule:rules}`: the number and the singular or plural word
  ("1 rule", "2 rules"); `{name|pick:has:have}` the word alone. English
  only needs them.
- `{name|join:; }`: a list joined with the text after `join:` (", " by default).
- `{name|을}`: the parameter followed by the Korean particle that fits its
  last sound: 을/를, 은/는, 이/가, 과/와, 으로/로 (and 이라는/라는,
  이에요/예요). Written with the form that follows a final consonant.
  Numbers are read as Korean numerals (`6으로`, `1로`, `10으로`); Hangul by its
  final consonant; Latin letters by an approximation of how they are read.

Pure: stdlib only, no I/O beyond reading the two catalogues shipped in the
package, so it runs under Pyodide too.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from importlib.resources import files
from typing import Any, NamedTuple

LANGS = ("en", "ko")
DEFAULT_LANG = "en"


class Message(NamedTuple):
    """A text as data: its catalogue `code` and the `params` its template uses."""

    code: str
    params: Mapping[str, Any] = {}

    def render(self, lang: str = DEFAULT_LANG) -> str:
        return render(self, lang)

    def as_dict(self, lang: str = DEFAULT_LANG) -> dict[str, Any]:
        """`{"code", "params", "text"}`: the data, and the text in `lang`."""
        return {"code": self.code, "params": _plain(self.params, lang), "text": render(self, lang)}


def message(code: str, **params: Any) -> Message:
    """`Message(code, params)`, spelt as a call: `message("lint.blocksAll.star", line=3)`."""
    return Message(code, params)


def _plain(value: Any, lang: str) -> Any:
    """JSON-ready parameters: nested messages become their rendered text."""
    if isinstance(value, Message):
        return render(value, lang)
    if isinstance(value, Mapping):
        return {key: _plain(item, lang) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item, lang) for item in value]
    return value


@cache
def catalogue(lang: str) -> Mapping[str, str]:
    """The templates of `lang`, by code."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGS)}")
    data = files(__name__).joinpath(f"{lang}.json").read_text(encoding="utf-8")
    templates: dict[str, str] = json.loads(data)
    return templates


def language(value: str | None) -> str:
    """The supported language for a locale or language tag (`ko_KR.UTF-8`, `ko-KR`, `en`), else the default."""
    if not value:
        return DEFAULT_LANG
    base = re.split(r"[_.@-]", value.strip().lower(), maxsplit=1)[0]
    return base if base in LANGS else DEFAULT_LANG


_FIELD = re.compile(r"\{(\w+)(?::([^}|]*))?(?:\|([^}]*))?\}")


def render(msg: Message, lang: str = DEFAULT_LANG) -> str:
    """The text of `msg` in `lang` (falling back to English for a code only English has)."""
    template = catalogue(lang).get(msg.code)
    if template is None:
        template = catalogue(DEFAULT_LANG).get(msg.code)
        if template is None:
            raise KeyError(f"no message {msg.code!r} in any catalogue")
        lang = DEFAULT_LANG
    params = msg.params

    def field(match: re.Match[str]) -> str:
        name, spec, filter_ = match.group(1), match.group(2), match.group(3)
        value = params[name]
        text = _text(value, spec, lang)
        if filter_ is None:
            return text
        if filter_.startswith("join:"):
            items = value if isinstance(value, list | tuple) else [value]
            return filter_[5:].join(_text(item, spec, lang) for item in items)
        if filter_.startswith(("plural:", "pick:")):
            kind, one, many = filter_.split(":", 2)
            word = one if value == 1 else many
            return f"{text} {word}" if kind == "plural" else word
        return text + particle(text, filter_)

    return _FIELD.sub(field, template)


def _text(value: Any, spec: str | None, lang: str) -> str:
    if isinstance(value, Message):
        return render(value, lang)
    if isinstance(value, list | tuple):
        return ", ".join(_text(item, spec, lang) for item in value)
    if spec:
        return format(value, spec)
    return str(value)


# Korean particles: (after a final consonant, after a vowel). 으로/로 also takes 로 after ㄹ.
_PARTICLES = {
    "을": ("을", "를"),
    "은": ("은", "는"),
    "이": ("이", "가"),
    "과": ("과", "와"),
    "으로": ("으로", "로"),
    "이라는": ("이라는", "라는"),
    "이에요": ("이에요", "예요"),
}
# How the last digit of a number is read: 0 영, 1 일, 2 이, 3 삼, 4 사, 5 오, 6 육, 7 칠, 8 팔, 9 구
# (None: no final consonant; "ㄹ" for 일, 칠, 팔). Trailing zeros: 십, 백, 천, 만.
_DIGIT_END = {
    "0": "ㅇ",
    "1": "ㄹ",
    "2": None,
    "3": "ㅁ",
    "4": None,
    "5": None,
    "6": "ㄱ",
    "7": "ㄹ",
    "8": "ㄹ",
    "9": None,
}
_TENS_END = {1: "ㅂ", 2: "ㄱ", 3: "ㄴ"}  # 십, 백, 천; 만 and beyond end in ㄴ
# Latin letters as Korean readers sound them out at the end of a word: b, c(k), k, m, n, p, t and
# -ng end in a consonant (`bot` 봇, `Googlebot` 구글봇); l in ㄹ (`html` 에이치티엠엘).
_LATIN_CONSONANT = frozenset("bckmnpt")


def final_sound(text: str) -> str | None:
    """The final consonant the text ends in when read aloud in Korean: a jamo, or None for a vowel."""
    stripped = text.rstrip(" `'\")]}.,")
    if not stripped:
        return None
    last = stripped[-1]
    if "\uac00" <= last <= "\ud7a3":
        index = (ord(last) - 0xAC00) % 28
        return None if index == 0 else ("ㄹ" if index == 8 else "ㄱ")  # which consonant matters only for ㄹ
    number = stripped.replace(",", "")
    if number[-1].isdigit():
        digits = re.search(r"\d+$", number)
        assert digits is not None
        run = digits.group()
        zeros = len(run) - len(run.rstrip("0"))
        if zeros and run.strip("0"):
            return _TENS_END.get(zeros, "ㄴ")
        return _DIGIT_END[run[-1]]
    lowered = stripped.lower()
    if lowered.endswith("ng"):
        return "ㅇ"
    if lowered[-1] == "l" or lowered.endswith("le"):  # `Google` 구글, `Apple` 애플
        return "ㄹ"
    if lowered[-1] in _LATIN_CONSONANT:
        return "ㄱ"
    return None


def particle(text: str, written: str) -> str:
    """The Korean particle `written` (given in its after-consonant form) that fits after `text`."""
    forms = _PARTICLES.get(written)
    if forms is None:
        raise KeyError(f"unknown particle {written!r}")
    end = final_sound(text)
    if written == "으로":
        return forms[1] if end is None or end == "ㄹ" else forms[0]
    return forms[1] if end is None else forms[0]


def missing(lang: str) -> list[str]:
    """Codes English has and `lang` lacks (a test keeps this empty)."""
    have = catalogue(lang)
    return sorted(code for code in catalogue(DEFAULT_LANG) if code not in have)


__all__ = ["DEFAULT_LANG", "LANGS", "Message", "catalogue", "language", "message", "missing", "particle", "render"]
