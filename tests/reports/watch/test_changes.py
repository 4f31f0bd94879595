"""`changes`: each alert kind with its deciding lines, and the ranking that puts a `Disallow: /` deploy first."""

from __future__ import annotations

import json

import pytest

from robotscope.messages import LANGS
from robotscope.reports.watch.alerts import Alert, Evidence, Severity, ranked
from robotscope.reports.watch.changes import changes
from tests.reports.watch.samples import CLOUDFLARE_BLOCK, GOOD, STAGING, seen


def codes(alerts: list[Alert]) -> list[str]:
    return [a.code for a in alerts]


def only(alerts: list[Alert], code: str) -> Alert:
    found = [a for a in alerts if a.code == code]
    assert len(found) == 1, codes(alerts)
    return found[0]


def test_a_staging_deploy_is_the_top_alert_naming_googlebot_and_the_line() -> None:
    alerts = changes(seen(GOOD), seen(STAGING))
    top = alerts[0]
    assert (top.code, top.severity) == ("siteBlocked", Severity.CRITICAL)
    assert "Googlebot" in top.agents and "*" in top.agents and "bingbot" in top.agents
    assert "/" in top.urls
    assert top.after == (Evidence(2, "Disallow: /"),)
    # Googlebot's own group decided nothing at / before: no line, the reason instead.
    assert top.before == ()
    assert "line 2: Disallow: /" in top.text() and "Googlebot" in top.text()


def test_a_named_search_crawler_losing_urls_is_major_with_both_lines() -> None:
    newer = GOOD.replace(
        b"User-agent: Googlebot\nDisallow: /cart/\n", b"User-agent: Googlebot\nDisallow: /cart/\nDisallow: /shoes/\n"
    )
    alerts = changes(seen(GOOD), seen(newer), urls=["/shoes/red"])
    lost = only(alerts, "searchLost")
    assert lost.severity is Severity.MAJOR and lost.agents == ("Googlebot",)
    assert set(lost.urls) == {"/shoes/", "/shoes/red"} and lost.url_count == 2
    assert lost.after == (Evidence(8, "Disallow: /shoes/"),)


def test_an_ai_crawler_blocked_at_the_root_is_major_and_at_some_urls_minor() -> None:
    whole = changes(seen(GOOD), seen(GOOD + b"\nUser-agent: GPTBot\nDisallow: /\n"))
    blocked = only(whole, "aiBlocked")
    assert (blocked.severity, blocked.agents) == (Severity.MAJOR, ("GPTBot",))
    assert blocked.after == (Evidence(12, "Disallow: /"),)
    part = changes(seen(GOOD), seen(GOOD + b"\nUser-agent: GPTBot\nDisallow: /blog/\n"))
    assert only(part, "aiBlocked").severity is Severity.MINOR
    back = changes(seen(GOOD + b"\nUser-agent: GPTBot\nDisallow: /\n"), seen(GOOD))
    unblocked = only(back, "aiUnblocked")
    assert unblocked.severity is Severity.MAJOR and unblocked.before == (Evidence(12, "Disallow: /"),)


def test_a_503_after_a_good_version_is_critical_with_each_policys_consequence() -> None:
    alerts = changes(seen(GOOD), seen(b"", 503))
    assert codes(alerts) == ["fetchFailed"]  # no flips across an outage: the failure says what crawlers do
    failed = alerts[0]
    assert failed.severity is Severity.CRITICAL
    actions = failed.message.params["actions"]
    assert actions == {
        "rfc9309": "disallow-all",
        "google": "disallow-all",  # for 12 hours, then the last good copy
        "bing": "disallow-all",
        "naver": "cached-copy",
        "yandex": "allow-all",
    }
    assert "Google" in failed.text() and "12 hours" in failed.text()


def test_a_transport_failure_and_the_same_outage_again() -> None:
    down = seen(b"", None, failure="timeout")
    assert codes(changes(seen(GOOD), down)) == ["fetchFailed"]
    assert changes(down, down) == []  # nothing changed


def test_a_404_after_a_good_version_is_major_and_recovering_is_info() -> None:
    gone = changes(seen(GOOD), seen(b"Not found", 404, content_type="text/html"))
    assert only(gone, "fileMissing").severity is Severity.MAJOR
    back = changes(seen(b"", 404), seen(GOOD))
    assert only(back, "fetchRecovered").severity is Severity.INFO
    assert codes(changes(seen(b"", 503), seen(GOOD))) == ["fetchRecovered"]


def test_an_html_page_served_with_200_is_flagged() -> None:
    page = b"<!DOCTYPE html><html><head><title>Shop</title></head><body>Welcome</body></html>"
    alerts = changes(seen(GOOD), seen(page, content_type="text/html; charset=utf-8"))
    html = only(alerts, "htmlServed")
    assert html.severity is Severity.MAJOR and "text/html" in html.text()
    assert "challengeServed" not in codes(alerts)


@pytest.mark.parametrize(
    ("body", "headers", "vendor"),
    [
        (b"<!DOCTYPE html><html><head><title>Just a moment...</title></head>", {}, "Cloudflare"),
        (b"<html><script src='/cdn-cgi/challenge-platform/h/b/orchestrate'></script>", {}, "Cloudflare"),
        (b"<html>", {"cf-mitigated": "challenge"}, "Cloudflare"),
        (b"<html><title>Attention Required! | Cloudflare</title>", {}, "Cloudflare"),
        (b"<html>Request unsuccessful. Incapsula incident ID: 123-456</html>", {}, "Imperva"),
        (b"<html><iframe src='https://geo.captcha-delivery.com/captcha/?initialCid=x'>", {}, "DataDome"),
        (b"<HTML><HEAD><TITLE>Access Denied</TITLE></HEAD>Reference #18.6a2c1002.1", {}, "Akamai"),
    ],
)
def test_a_bot_challenge_page_is_named_by_its_vendor(body: bytes, headers: dict[str, str], vendor: str) -> None:
    alerts = changes(seen(GOOD), seen(body, headers=headers, content_type="text/html"))
    found = only(alerts, "challengeServed")
    assert found.severity is Severity.MAJOR and found.message.params["vendor"] == vendor
    assert "htmlServed" not in codes(alerts)


def test_cloudflares_managed_block_is_named_with_the_crawlers_it_blocks() -> None:
    edge = seen(CLOUDFLARE_BLOCK + GOOD, headers={"cf-ray": "8f1e2d3c4b5a6978-AMS"})
    alerts = changes(seen(GOOD), edge)
    block = only(alerts, "edgeBlockAdded")
    assert block.severity is Severity.MAJOR and block.message.params["vendor"] == "Cloudflare"
    assert block.agents == (
        "Amazonbot",
        "Applebot-Extended",
        "Bytespider",
        "CCBot",
        "ClaudeBot",
        "Google-Extended",
        "GPTBot",
        "meta-externalagent",
    )
    assert block.after == (Evidence(1, "# BEGIN Cloudflare Managed content"),)
    assert (block.message.params["first"], block.message.params["last"]) == (1, 31)
    assert "cf-ray" in block.text()
    # The flips it causes: the eight AI crawlers lose the whole site, each by its line of the block.
    blocked = only(alerts, "aiBlocked")
    assert set(blocked.agents) == set(block.agents) and len(blocked.after) == 8
    # Its Content-signal line changes the preferences every other crawler is given.
    assert only(alerts, "preferencesChanged").message.params["after"] == "ai-train=no, search=yes"
    back = changes(edge, seen(GOOD))
    assert back[0].code == "aiUnblocked" and only(back, "edgeBlockRemoved").severity is Severity.MINOR


def test_the_block_is_found_whatever_the_markers_case() -> None:
    lowered = CLOUDFLARE_BLOCK.replace(b"BEGIN Cloudflare Managed content", b"begin CLOUDFLARE managed CONTENT")
    assert "edgeBlockAdded" in codes(changes(seen(GOOD), seen(lowered + GOOD)))


def test_a_file_past_the_limit_and_back() -> None:
    big = GOOD + b"# padding\n" * 52_000
    alerts = changes(seen(GOOD), seen(big[:512_000], truncated=True))
    assert only(alerts, "oversize").severity is Severity.MAJOR
    assert only(changes(seen(big[:512_000], truncated=True), seen(GOOD)), "oversizeGone").severity is Severity.INFO


def test_sitemap_lines_added_and_removed_with_their_lines() -> None:
    newer = GOOD.replace(b"sitemap.xml", b"sitemap-index.xml")
    alerts = changes(seen(GOOD), seen(newer))
    added, removed = only(alerts, "sitemapAdded"), only(alerts, "sitemapRemoved")
    assert added.urls == ("https://shop.example/sitemap-index.xml",) and added.after[0].line == 9
    assert removed.urls == ("https://shop.example/sitemap.xml",) and removed.before[0].line == 9
    assert removed.severity is Severity.MINOR and added.severity is Severity.INFO


def test_a_content_usage_change_names_the_crawlers_and_lines() -> None:
    older = b"User-agent: *\nContent-Usage: train-ai=y\nAllow: /\n"
    newer = b"User-agent: *\nContent-Usage: train-ai=n\nAllow: /\n"
    change = only(changes(seen(older), seen(newer)), "preferencesChanged")
    assert change.severity is Severity.MINOR and "*" in change.agents
    assert change.before == (Evidence(2, "Content-Usage: train-ai=y"),)
    assert change.after == (Evidence(2, "Content-Usage: train-ai=n"),)
    assert "train-ai=y" in change.text() and "train-ai=n" in change.text()


def test_a_comment_or_whitespace_change_has_no_effect() -> None:
    alerts = changes(seen(GOOD), seen(GOOD.replace(b"# shop", b"#   the shop") + b"\n\n"))
    assert codes(alerts) == ["noEffect"] and alerts[0].severity is Severity.INFO
    assert changes(seen(GOOD), seen(GOOD)) == []


def test_the_first_version_is_summarised() -> None:
    first = changes(None, seen(GOOD + b"User-agent: GPTBot\nDisallow: /\n"))
    assert codes(first) == ["firstSeen"]
    assert first[0].agents == ("GPTBot",) and first[0].message.params["groups"] == 3
    assert codes(changes(None, seen(b"", 404))) == ["firstSeen"]
    assert codes(changes(None, seen(b"", 503))) == ["fetchFailed", "firstSeen"]


def test_ranking_is_severity_then_reach_then_code() -> None:
    said = changes(seen(GOOD), seen(STAGING))[0].message
    alerts = [
        Alert("b", Severity.INFO, said),
        Alert("a", Severity.MAJOR, said, ("x",), url_count=1),
        Alert("c", Severity.MAJOR, said, ("x", "y"), url_count=1),
        Alert("d", Severity.CRITICAL, said),
    ]
    assert codes(ranked(alerts)) == ["d", "c", "a", "b"]


@pytest.mark.parametrize("lang", LANGS)
def test_every_alert_renders_as_json_in_every_language(lang: str) -> None:
    alerts = [
        *changes(seen(GOOD), seen(STAGING)),
        *changes(seen(GOOD), seen(CLOUDFLARE_BLOCK + GOOD, headers={"cf-ray": "1"})),
        *changes(seen(GOOD), seen(b"", 503)),
        *changes(None, seen(GOOD)),
    ]
    data = json.loads(json.dumps([a.as_dict(lang) for a in alerts], ensure_ascii=False))
    assert all(item["text"] and "{" not in item["text"] for item in data)
    assert data[0]["severity"] == "critical" and data[0]["after"] == [{"line": 2, "text": "Disallow: /"}]


def test_every_header_a_marker_reads_is_kept_by_the_fetcher() -> None:
    # A challenge told by its header (cf-mitigated, x-datadome) is seen on a real fetch only if the
    # fetcher keeps that header.
    from robotscope.fetch.result import KEPT_HEADERS
    from robotscope.reports.watch import markers

    assert {name for _, name, _ in markers._HEADERS} <= set(KEPT_HEADERS)
