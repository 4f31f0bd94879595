"""`access.build`: which build is running, told by the core's modules themselves."""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES

import pytest

from robotscope.access import build
from robotscope.access.matching import ruleset


@pytest.mark.parametrize("suffix", EXTENSION_SUFFIXES)
def test_a_core_made_of_extension_modules_is_the_compiled_build(monkeypatch: pytest.MonkeyPatch, suffix: str) -> None:
    monkeypatch.setattr(ruleset, "__file__", f"/site-packages/robotscope/access/matching/ruleset{suffix}")
    assert build.build_kind() == "compiled"
    assert build.build_name().render() == "compiled, mypyc"
    assert build.build_name().render("ko") == "컴파일됨, mypyc"


def test_a_core_of_python_files_is_the_pure_build(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ruleset, "__file__", "/site-packages/robotscope/access/matching/ruleset.py")
    assert build.build_kind() == "pure"
    assert (build.build_name().render(), build.build_name().render("ko")) == ("pure Python", "순수 파이썬")
