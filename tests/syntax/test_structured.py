"""RFC 9651 Dictionaries: the cases of the RFC's sections, and Hypothesis: never raises, round-trips."""

from __future__ import annotations

import importlib.util
from decimal import Decimal
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotscope.syntax.structured import (
    Date,
    DisplayString,
    InnerList,
    Item,
    Token,
    parse_dictionary,
    parse_item,
    serialize_dictionary,
    serialize_member,
)
from tests.paths import ROOT


def values(text: str) -> dict[str, object] | None:
    parsed = parse_dictionary(text)
    return (
        None
        if parsed is None
        else {k: (m.value if isinstance(m, Item) else [i.value for i in m.items]) for k, m in parsed.items()}
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("train-ai=n, search=y", {"train-ai": Token("n"), "search": Token("y")}),  # tokens
        ("a=1, b, c=?0", {"a": 1, "b": True, "c": False}),  # 4.2.2: a key alone is true
        ("a=1, a=2, b=3", {"a": 2, "b": 3}),  # 4.2.2: the last duplicate wins
        ('a="x \\"y\\"", b=:aGk=:, c=-1.5', {"a": 'x "y"', "b": b"hi", "c": Decimal("-1.5")}),
        ("b=:aGk:", {"b": b"hi"}),  # 4.2.7: missing padding accepted
        ("a=(1 2);p, b=@1700000000", {"a": [1, 2], "b": Date(1700000000)}),
        ('d=%"caf%c3%a9"', {"d": DisplayString("café")}),
        ("  a=1  ", {"a": 1}),  # 4.2: surrounding SP discarded
        ("", {}),
        ("a=n;q=1;r", {"a": Token("n")}),  # parameters parsed, kept aside
        ("*x=y", {"*x": Token("y")}),
    ],
)
def test_dictionaries(text: str, expected: dict[str, object]) -> None:
    assert values(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Train-AI=n",  # 3.2: keys are lower case: the whole field fails
        "a=1,",  # a trailing comma
        "a=1 b=2",  # no comma
        "a=1234567890123456",  # 16 digits
        "a=1.2345",  # four decimals
        "a=1.",  # a decimal ending in .
        'a="\\x"',  # an escape of neither " nor \\
        'a="open',
        "a=(1 2",
        "a=?2",
        "a=:!!:",
        "a=@1.5",
        "a=é",
        "a=,",
        "1a=1",
        'a=%"%FF"',  # 4.2.10: hex digits are lower case
    ],
)
def test_anything_else_fails_the_whole_field(text: str) -> None:
    assert parse_dictionary(text) is None


@given(st.text(max_size=60))
@settings(max_examples=2000)
def test_the_parser_never_raises(text: str) -> None:
    parsed = parse_dictionary(text)
    assert parsed is None or all(isinstance(m, Item | InnerList) for m in parsed.values())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('"https://chatgpt.com"', Item("https://chatgpt.com", {})),
        ('  "a";type=directory ', Item("a", {"type": Token("directory")})),
        ("https://chatgpt.com", Item(Token("https://chatgpt.com"), {})),
        ("?1", Item(True, {})),
        ("5;q=1", Item(5, {"q": 1})),
        ('"a", "b"', None),  # a List, not an Item
        ('"a" x', None),
        ("", None),
        ('"caf\u00e9"', None),
        ('"unclosed', None),
    ],
)
def test_items(text: str, expected: Item | None) -> None:
    assert parse_item(text) == expected


@given(st.text(max_size=60))
@settings(max_examples=1000)
def test_the_item_parser_never_raises(text: str) -> None:
    parsed = parse_item(text)
    assert parsed is None or serialize_member(parsed) is not None


keys = st.from_regex(r"[a-z*][a-z0-9_\-.*]{0,10}", fullmatch=True)
tokens = st.from_regex(r"[A-Za-z*][A-Za-z0-9!#$%&'*+\-.^_`|~:/]{0,8}", fullmatch=True).map(Token)


@given(st.dictionaries(keys, st.booleans() | tokens, max_size=6))
def test_what_the_serializer_writes_parses_back(members: dict[str, bool | Token]) -> None:
    parsed = parse_dictionary(serialize_dictionary(members))
    assert parsed is not None and {k: m.value for k, m in parsed.items() if isinstance(m, Item)} == members


def _fuzz_target() -> ModuleType:
    path = ROOT / "tests" / "fuzz" / "fuzz_structured.py"
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FUZZ = _fuzz_target()
STRUCTURED_SEEDS = sorted(FUZZ.SEEDS.iterdir())


@pytest.mark.parametrize("seed", STRUCTURED_SEEDS, ids=[p.name for p in STRUCTURED_SEEDS])
def test_the_preference_fuzz_target_passes_on_every_seed(seed: Path) -> None:
    FUZZ.check(seed.read_bytes())


def test_the_preference_seeds_hold_hostile_values() -> None:
    seeds = [path.read_bytes() for path in STRUCTURED_SEEDS]
    assert len(seeds) >= 12
    assert any(b"\xff" in seed for seed in seeds) and any(len(seed) > 10_000 for seed in seeds)
    assert any(FUZZ.parse_dictionary(seed.decode("utf-8", "replace")) is None for seed in seeds)  # fails whole


@pytest.mark.parametrize(
    "member",
    [
        '("@authority" "signature-agent";key="sig1");created=1700000000;keyid="k";tag="web-bot-auth"',
        '"https://signer.example";type=directory',
        ':AQID:;a=?0;b=-1.5;c=@12;d=%"caf%c3%a9";e=tok/en',
        '("a\\\\b\\"c" 1.250 ?1)',
    ],
)
def test_a_member_serializes_as_rfc9651_section_4_1_writes_it(member: str) -> None:
    parsed = parse_dictionary(f"m={member}")
    assert parsed is not None
    written = serialize_member(parsed["m"])
    assert parse_dictionary(f"m={written}") == parsed
    assert written == member.replace("1.250", "1.25")  # the shortest decimal form (Section 4.1.5)


@given(st.text(max_size=300))
def test_whatever_parses_serializes_and_parses_back(text: str) -> None:
    parsed = parse_dictionary(text)
    if parsed is not None:
        for key, member in parsed.items():
            assert parse_dictionary(f"{key}={serialize_member(member)}") == {key: member}
