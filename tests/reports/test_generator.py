"""The generator: presets, defaults, round trips and lint findings on bad specs."""

from __future__ import annotations

import json
import tomllib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from robotscope import parse
from robotscope.access.preferences import CATEGORIES, usage_for
from robotscope.reports.generator import (
    OTHERS_BLOCKED_WARNING,
    STAGING_WARNING,
    InvalidSpec,
    Spec,
    build,
    generate,
    preset,
    training_crawlers,
)
from robotscope.syntax.structured import Token, serialize_dictionary
from tests.paths import DOCS


def test_default_spec_blocks_everything_and_says_so() -> None:
    result = build(preset("staging"))
    assert result.text == "User-agent: *\nDisallow: /\n"
    assert result.warnings == [STAGING_WARNING]
    assert not parse(result.text).can_fetch("Googlebot", "/")


def test_block_without_rules_gets_an_empty_disallow_and_paths_are_written_as_entered() -> None:
    text = generate({"blocks": [{"agent": "Yeti"}, {"agent": "*", "disallow": ["/Cart/", "/*.pdf$"]}]})
    assert text == "User-agent: Yeti\nDisallow:\n\nUser-agent: *\nDisallow: /Cart/\nDisallow: /*.pdf$\n"


def test_sitemaps_go_at_the_end_one_per_line() -> None:
    text = generate(
        {
            "sitemaps": ["https://a.example/s1.xml", "https://a.example/s2.xml"],
            "blocks": [{"agent": "*", "disallow": ["/x"]}],
        }
    )
    assert text.splitlines()[-3:] == ["", "Sitemap: https://a.example/s1.xml", "Sitemap: https://a.example/s2.xml"]


def test_block_ai_training_blocks_training_crawlers_and_leaves_search_alone() -> None:
    result = build(preset("block-ai-training"))
    robots = result.robots
    tokens = {c.token for c in training_crawlers()}
    assert {"GPTBot", "ClaudeBot", "CCBot", "Google-Extended", "Applebot-Extended"} <= tokens
    assert not tokens & {"Googlebot", "bingbot", "OAI-SearchBot", "PerplexityBot", "Claude-SearchBot"}
    for token in tokens:
        assert not robots.can_fetch(token, "/any/page"), token
    for token in ("Googlebot", "bingbot", "OAI-SearchBot", "PerplexityBot"):
        assert robots.can_fetch(token, "/any/page"), token
    assert "# content it fetches from now on is not used to train OpenAI's models" in result.text
    assert result.verified and result.warnings == []


def test_allow_only_and_root_only() -> None:
    allow_only = build(preset("allow-only", "Yeti"))
    assert allow_only.warnings == [OTHERS_BLOCKED_WARNING]
    only = allow_only.robots
    assert only.can_fetch("Yeti", "/x") and not only.can_fetch("Googlebot", "/x")
    root = build(preset("root-only")).robots
    assert root.can_fetch("bot", "/") and not root.can_fetch("bot", "/page")
    assert build(preset("allow-all")).robots.can_fetch("bot", "/anything")
    with pytest.raises(InvalidSpec, match="allow-only preset needs"):
        preset("allow-only")


def test_spec_file_round_trip_toml_and_json() -> None:
    toml_text = """
sitemaps = ["https://www.example.com/sitemap.xml"]

[[block]]
agent = "*"
disallow = ["/cart/", "/search"]
allow = ["/search/help"]

[[block]]
agent = "Googlebot"
disallow = ["/drafts/"]
"""
    from_toml = Spec.from_data(tomllib.loads(toml_text))
    from_json = Spec.from_data(
        json.loads(
            json.dumps({"blocks": [b._asdict() for b in from_toml.blocks], "sitemaps": list(from_toml.sitemaps)})
        )
    )
    assert from_toml == from_json
    result = build(from_toml)
    assert result.verified
    assert [(c.agent, c.url, c.allowed) for c in result.checks] == [
        ("*", "/search/help", True),
        ("*", "/search/help/x", True),
        ("*", "/cart/", False),
        ("*", "/cart/x", False),
        ("*", "/search", False),
        ("*", "/search/x", False),
        ("Googlebot", "/drafts/", False),
        ("Googlebot", "/drafts/x", False),
    ]


def test_lint_findings_on_a_bad_spec_and_a_failed_round_trip() -> None:
    result = build(
        {
            "blocks": [{"agent": "*", "disallow": ["private/", "/cart/"]}, {"agent": "*bot", "disallow": ["/x"]}],
            "sitemaps": ["/sitemap.xml"],
        }
    )
    codes = {(f.code, f.line) for f in result.findings}
    assert ("patternNoSlash", 2) in codes and ("sitemapInvalid", 8) in codes and ("agentWildcard", 5) in codes
    # `private/` matches no URL (patternNoSlash), and `*bot` names no crawler: neither does what was meant.
    failed = [c for c in result.checks if not c.ok]
    assert [(c.agent, c.url, c.effective) for c in failed] == [
        ("*", "/private/", False),
        ("*bot", "/x", True),
        ("*bot", "/x/x", True),
    ]
    assert not result.verified


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"blocks": [{"disallow": ["/"]}]}, "block 1 needs an `agent`"),
        ({"blocks": [{"agent": "*", "disallow": "/a\nUser-agent: evil"}]}, "cannot hold a line break"),
        ({"blocks": "nope"}, "`blocks` must be a list"),
        ({"blocks": [{"agent": "*", "allow": [1]}]}, "must be a list of strings"),
        ({"blocks": [{"agent": "x\nDisallow: /"}]}, "cannot hold a line break"),
    ],
)
def test_invalid_specs_are_clear_errors(data: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidSpec, match=message):
        Spec.from_data(data)


def test_spec_allows_reads_the_spec_by_product_token_then_star() -> None:
    from robotscope.reports.generator import spec_allows

    spec = Spec.from_data(
        {"blocks": [{"agent": "Googlebot/2.1", "disallow": ["/g"]}, {"agent": "*", "disallow": ["/"]}]}
    )
    assert not spec_allows(spec, "Mozilla/5.0 (compatible; Googlebot/2.1)", "/g/x")
    assert spec_allows(spec, "Googlebot", "/other")
    assert not spec_allows(spec, "Bingbot", "/other")
    assert spec_allows(Spec(()), "Bingbot", "/x")


@pytest.mark.parametrize(
    ("data", "key", "block", "text"),
    [
        (
            {"block": [{"agent": "*", "disalow": ["/private/"]}]},
            "disalow",
            1,
            "unknown key `disalow` in block 1: did you mean `disallow`?",
        ),
        (
            {"blok": [{"agent": "*", "disallow": ["/"]}]},
            "blok",
            None,
            "unknown key `blok` at the top of the spec: did you mean `block`?",
        ),
        ({"blocks": [{"agent": "*"}], "sitemap": ["https://a/s.xml"]}, "sitemap", None, "did you mean `sitemaps`?"),
        ({"blocks": [{"agent": "*", "comment": 5}]}, "comment", 1, "`comment` in block 1 must be a string"),
        ({"blocks": [{"agent": "*", "allow": {"a": 1}}]}, "allow", 1, "`allow` in block 1 must be a list of strings"),
        ({}, None, None, "the spec has no blocks and no sitemaps"),
        ({"blocks": []}, None, None, "the spec has no blocks and no sitemaps"),
    ],
)
def test_unknown_keys_wrong_types_and_empty_specs_name_the_key(
    data: dict[str, object], key: str | None, block: int | None, text: str
) -> None:
    with pytest.raises(InvalidSpec) as raised:
        Spec.from_data(data)
    assert (raised.value.key, raised.value.block) == (key, block) and text in str(raised.value)
    assert raised.value.reason.render("ko") != raised.value.reason.render("en")


def test_the_documented_spec_example_gives_the_documented_file() -> None:
    import re
    import tomllib

    from robotscope import generate

    doc = (DOCS / "generate-spec.md").read_text(encoding="utf-8")
    spec, expected = re.findall(r"```(?:toml|text)\n(.*?)```", doc, re.DOTALL)[:2]
    assert generate(tomllib.loads(spec)) == expected


# --- AI usage preferences in specs: written as given, read back as meant ---------------------------


@given(
    st.dictionaries(st.sampled_from(CATEGORIES), st.sampled_from(["y", "n"]), min_size=1),
    st.sampled_from(["/", "/blog/", "/a*.pdf$"]),
)
def test_content_usage_from_a_spec_reads_back_as_meant(preferences: dict[str, str], path: str) -> None:
    value = f"{path} {serialize_dictionary({k: Token(v) for k, v in preferences.items()})}"
    spec = Spec.from_data(
        {"blocks": [{"agent": "*", "content_usage": [value], "content_signal": "search=yes, ai-train=no"}]}
    )
    robots = parse(generate(spec))
    url = path.replace("*", "x").rstrip("$")
    found = usage_for(robots, robots.verdict("bot", url))
    assert found is not None and found.applies
    assert {k: p.value for k, p in found.usage.items() if p.value != "unknown"} == preferences
    assert {k: p.value for k, p in found.signals.items()} == {"search": "yes", "ai-train": "no"}


@pytest.mark.parametrize(
    ("block", "key"),
    [
        ({"agent": "*", "content_usage": ["/ Train-AI=n"]}, "content_usage"),
        ({"agent": "*", "content_usage": ["/ bots=n"]}, "content_usage"),
        ({"agent": "*", "content_usage": ["/ train-ai=yes"]}, "content_usage"),
        ({"agent": "*", "content_signal": "ai-train=false"}, "content_signal"),
        ({"agent": "*", "content_signal": 3}, "content_signal"),
    ],
)
def test_preferences_that_would_not_read_as_meant_are_refused(block: dict[str, object], key: str) -> None:
    with pytest.raises(InvalidSpec) as refused:
        Spec.from_data({"blocks": [block]})
    assert refused.value.key == key
