"""Pattern compilation and the linear-time matcher."""

from __future__ import annotations

import pytest

from robotscope.syntax.patterns import Pattern, compile_pattern, matches


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("/a", Pattern(("/a",), False)),
        ("/a$", Pattern(("/a",), True)),
        ("/a*", Pattern(("/a",), False)),
        ("/a**", Pattern(("/a",), False)),
        ("/a*$", Pattern(("/a", ""), True)),
        ("*.gif$", Pattern(("", ".gif"), True)),
        ("/a$b", Pattern(("/a%24b",), False)),
        ("/a$b$", Pattern(("/a%24b",), True)),
        ("/*a*b", Pattern(("/", "a", "b"), False)),
    ],
)
def test_compile_pattern(pattern: str, expected: Pattern) -> None:
    assert compile_pattern(pattern) == expected


@pytest.mark.parametrize(
    ("pattern", "target", "expected"),
    [
        ("/a", "/a", True),
        ("/a", "/ab", True),
        ("/a", "/", False),
        ("/a$", "/a", True),
        ("/a$", "/ab", False),
        ("/*.php", "/x/index.php?q", True),
        ("/*.php$", "/x/index.php?q", False),
        ("/*.php$", "/x/index.php", True),
        ("/a*b*c", "/a-c-b-c", True),
        ("/a*b*c", "/a-c-b", False),
        ("/*ab$", "/ab", True),  # the piece may start right after the first one
        ("/a*a$", "/a", False),  # but may not overlap it
        ("*", "/anything", True),
        ("/fish*.php", "/fishheads/catfish.php?parameters", True),
        ("/fish*.php", "/Fish.PHP", False),
    ],
)
def test_matches(pattern: str, target: str, expected: bool) -> None:
    compiled = compile_pattern(pattern)
    assert matches(compiled, target) is expected
