"""The `google` reading against gpyrobotstxt: one comparison, and the transformations that confirm each difference.

A `Trial` says what each side is given: the bytes robotscope's `google`
reading parses (`mine`), the bytes gpyrobotstxt parses (`theirs`), the
crawler and the URL, and whether robotscope applies the crawler catalogue's
profiles. `outcome` runs both. Each deliberate difference listed for the
`google` engine in known_differences.py has a transformation here
(`TRANSFORMS`, by code): given a trial, it returns one with that difference
removed, or None when the cause is absent. `classify` names the difference
whose removal (alone, or with one other) makes the two sides agree.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable
from typing import NamedTuple

import robotscope
from robotscope.access.engines import google
from robotscope.access.engines.base import Parsed, Selection
from robotscope.access.engines.registry import run
from robotscope.syntax.crawlers import recognise
from robotscope.syntax.tokens import product_token
from tests.access.engines.google_library import Library
from tests.access.engines.known_differences import DIFFERENCES, KnownDifference


def listed() -> dict[str, KnownDifference]:
    """The differences known_differences.py lists for the `google` engine, by code."""
    return {d.code: d for d in DIFFERENCES if d.engine == "google"}


@dataclasses.dataclass(frozen=True)
class Trial:
    mine: bytes
    theirs: bytes
    agent: str
    url: str
    profiles: bool = True


class Outcome(NamedTuple):
    """Both answers: allowed, and the deciding line (None: no rule decided)."""

    mine_allowed: bool
    mine_line: int | None
    theirs_allowed: bool
    theirs_line: int | None

    @property
    def agree(self) -> bool:
        return self.mine_allowed == self.theirs_allowed and self.mine_line == self.theirs_line


def _token_only(parsed: Parsed, agent: str) -> Selection:
    token = product_token(agent)
    return Selection(token, google.groups_for(parsed, token))


# The google reading with the catalogue's profiles left out: the library's own group choice.
WITHOUT_PROFILES = dataclasses.replace(google.ENGINE, select=_token_only)


@functools.lru_cache(maxsize=16)
def parsed(data: bytes) -> robotscope.Robots:
    return robotscope.parse(data)


@functools.lru_cache(maxsize=16)
def library(data: bytes) -> Library:
    return Library(data)


def mine(data: bytes, agent: str, url: str, profiles: bool = True) -> tuple[bool, int | None]:
    verdict = run(google.ENGINE if profiles else WITHOUT_PROFILES, parsed(data), agent, url)
    return verdict.allowed, verdict.line


def outcome(trial: Trial) -> Outcome:
    return Outcome(
        *mine(trial.mine, trial.agent, trial.url, trial.profiles), *library(trial.theirs).ask(trial.agent, trial.url)
    )


# --------------------------------------------------------------------------
# The transformations, one per known difference
# --------------------------------------------------------------------------

Transform = Callable[[Trial], Trial | None]


def read_first_500_kib(trial: Trial) -> Trial | None:
    """Give the library only the first 512,000 bytes, as Google's crawler does."""
    if len(trial.theirs) <= google.SIZE_LIMIT:
        return None
    return dataclasses.replace(trial, theirs=trial.theirs[: google.SIZE_LIMIT])


def without_profiles(trial: Trial) -> Trial | None:
    """Let robotscope choose groups by the crawler's own token, as the library does (no catalogue fallbacks)."""
    crawler = recognise(trial.agent)
    if not trial.profiles or crawler is None or crawler.operator != google.OPERATOR:
        return None
    return dataclasses.replace(trial, profiles=False)


def _both(trial: Trial, fix: Callable[[bytes], bytes]) -> Trial | None:
    mine_fixed, theirs_fixed = fix(trial.mine), fix(trial.theirs)
    if mine_fixed == trial.mine and theirs_fixed == trial.theirs:
        return None
    return dataclasses.replace(trial, mine=mine_fixed, theirs=theirs_fixed)


def _replace_invalid_utf8(data: bytes) -> bytes:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("utf-8", "replace").encode("utf-8")
    return data


def replace_invalid_utf8(trial: Trial) -> Trial | None:
    """Give both sides the file with bytes that are not UTF-8 replaced by U+FFFD, as the port decodes each line."""
    return _both(trial, _replace_invalid_utf8)


# What `str.strip()` and `str.isspace()` take for whitespace but absl::ascii_isspace does not.
_UNICODE_SPACE = re.compile("[\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")


def _drop_unicode_spaces(data: bytes) -> bytes:
    text = data.decode("utf-8", "surrogateescape")
    fixed = _UNICODE_SPACE.sub("", text)
    return data if fixed == text else fixed.encode("utf-8", "surrogateescape")


def drop_unicode_spaces(trial: Trial) -> Trial | None:
    """Give both sides the file without the characters only Python calls whitespace (NBSP, U+3000, \\x1c-\\x1f, ...)."""
    return _both(trial, _drop_unicode_spaces)


_COLONLESS_RUN = re.compile(rb"(?m)^([ \t]*[^ \t:#\r\n]+)[ \t]{2,}(?=[^ \t:#\r\n]+[ \t]*(?:#[^\r\n]*)?\r?$)")


def single_separator(trial: Trial) -> Trial | None:
    """Give both sides each two-word line without a colon with one space between its words."""
    return _both(trial, lambda data: _COLONLESS_RUN.sub(rb"\1 ", data))


_AFTER_NUL = re.compile(rb"\x00[^\r\n]*")


def cut_at_nul(trial: Trial) -> Trial | None:
    """Give both sides each line cut at its first NUL byte, as upstream's C strings end there."""
    return _both(trial, lambda data: _AFTER_NUL.sub(b"", data))


_DIASLOW = re.compile(rb"(?im)^([ \t]*)(diaslow)")


def hide_diaslow(trial: Trial) -> Trial | None:
    """Give the library `diaslow` keys spelt so that it does not take them for `disallow` (upstream does not)."""
    fixed = _DIASLOW.sub(rb"\1x-\2", trial.theirs)
    return None if fixed == trial.theirs else dataclasses.replace(trial, theirs=fixed)


TRANSFORMS: dict[str, Transform] = {
    "google-size-limit": read_first_500_kib,
    "google-catalogue-profiles": without_profiles,
    "gpyrobotstxt-invalid-utf8": replace_invalid_utf8,
    "gpyrobotstxt-unicode-whitespace": drop_unicode_spaces,
    "gpyrobotstxt-separator-run": single_separator,
    "gpyrobotstxt-nul-byte": cut_at_nul,
    "gpyrobotstxt-diaslow": hide_diaslow,
}


def classify(data: bytes, agent: str, url: str) -> str | None:
    """The code of the known difference that explains a disagreement ("a+b" for two together), or None."""
    base = Trial(data, data, agent, url)
    applicable: list[tuple[str, Transform]] = []
    for code, transform in TRANSFORMS.items():
        trial = transform(base)
        if trial is None:
            continue
        if outcome(trial).agree:
            return code
        applicable.append((code, transform))
    for i, (first_code, first) in enumerate(applicable):
        for second_code, second in applicable[i + 1 :]:
            trial = first(base)
            trial = trial and second(trial)
            if trial is not None and outcome(trial).agree:
                return f"{first_code}+{second_code}"
    return None
