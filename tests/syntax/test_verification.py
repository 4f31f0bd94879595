"""The registry of verification methods: every crawler of the operators it covers has an entry; the data holds."""

from __future__ import annotations

import re

import pytest

from robotscope.syntax import crawlers, verification

# The operators the research names (docs/verification.md): each of their catalogue crawlers needs an entry.
OPERATORS = (
    "Google",
    "Microsoft",
    "OpenAI",
    "Perplexity",
    "Apple",
    "Anthropic",
    "Yandex",
    "Naver",
    "Baidu",
    "Amazon",
    "Common Crawl",
    "DuckDuckGo",
    "Meta",
)
SUFFIX = re.compile(r"[a-z0-9-]+(\.[a-z0-9-]+)+")


@pytest.mark.parametrize("operator", OPERATORS)
def test_every_catalogue_crawler_of_the_operator_has_an_entry(operator: str) -> None:
    tokens = [c.token for c in crawlers.catalogue() if c.operator == operator]
    assert tokens, operator
    for token in tokens:
        found = verification.method(token)
        assert found is not None, token
        assert found.operator == operator, token


def test_every_entry_is_a_catalogue_crawler_of_its_operator() -> None:
    for entry in verification.methods():
        crawler = crawlers.get(entry.token)
        assert crawler is not None and crawler.operator == entry.operator, entry.token
    tokens = [entry.token.lower() for entry in verification.methods()]
    assert len(tokens) == len(set(tokens))


def test_lists_named_by_entries_exist_and_each_list_covers_a_token_of_its_operator() -> None:
    names = {source.name for source in verification.list_sources()}
    for entry in verification.methods():
        assert set(entry.lists) <= names, entry.token
    for source in verification.list_sources():
        covered = verification.tokens_of(source.name)
        assert covered, source.name
        assert {verification.method(t).operator for t in covered} == {source.operator}  # type: ignore[union-attr]
        assert source.name.endswith(".json") and source.url.startswith("https://")
        assert source.format == "google-ipranges" and set(source.families) <= {"ipv4", "ipv6"}
        assert source.snapshot in ("complete", "none")
        assert (source.snapshot == "none") == (source.snapshot_source == ""), source.name


def test_values_are_from_their_vocabularies_with_a_source_and_date() -> None:
    for entry in verification.methods():
        assert entry.signs in ("yes", "no", "experimental"), entry.token
        assert entry.confidence in ("primary", "secondary", "unverified"), entry.token
        assert entry.source.startswith("https://") and re.fullmatch(r"\d{4}-\d{2}-\d{2}", entry.checked)
        # Suffixes are matched on a label boundary: plain names, no leading dot, no wildcard.
        assert all(SUFFIX.fullmatch(suffix) for suffix in entry.rdns), entry.token
        # Any Google Cloud VM has a googleusercontent.com name: only the fetchers' gae. subdomain may be trusted.
        assert "googleusercontent.com" not in entry.rdns and "amazonaws.com" not in entry.rdns


def test_the_research_facts_are_encoded() -> None:
    anthropic = {t: verification.method(t) for t in ("ClaudeBot", "Claude-SearchBot", "Claude-User")}
    assert {m.lists for m in anthropic.values() if m} == {("anthropic-bots.json",)}
    assert verification.list_source("bing-bingbot.json").families == ("ipv4",)  # type: ignore[union-attr]
    google = [s.name for s in verification.list_sources() if s.operator == "Google"]
    assert len(google) == 5
    for token in ("Yeti", "Baiduspider", "YandexBot", "Amazonbot"):
        entry = verification.method(token)
        assert entry is not None and entry.rdns and not entry.lists, token
    for token in ("CCBot", "meta-externalagent", "Google-Extended", "Applebot-Extended"):
        assert verification.method(token).unverifiable, token  # type: ignore[union-attr]
    assert not verification.method("GPTBot").unverifiable  # type: ignore[union-attr]
    assert verification.method("gptbot") == verification.method("GPTBot") and verification.method("nobot") is None
