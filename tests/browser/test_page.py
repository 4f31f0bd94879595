"""The web tester in a real browser: Debian's Chromium, driven by Playwright, against uvicorn on 127.0.0.1.

Needs `apt-get install -y chromium` (the binary at /usr/bin/chromium) and the
`playwright` package; no browser download. Without Chromium these tests fail
with a message saying so; they never skip. Nothing here talks to any address
but 127.0.0.1. The main view's screenshot goes to test-output/. The server,
browser and page fixtures are in conftest.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ..conftest import Server

OUTPUT = Path(__file__).resolve().parents[2] / "test-output"
LINE_HEIGHT, PAD_TOP = 20, 8  # the editor's geometry in app.css

ROBOTS = """User-agent: *
Disallow: /private/
Allow: /private/public-
Disallow /oops

User-agent: Googlebot
Disallow: /nogoogle/
Sitemap: https://www.example.com/sitemap.xml
"""
XSS = """<script>alert(1)</script>
"><img src=x onerror=alert(1)>
User-agent: *
Disallow: /<img src=y onerror=alert(2)>
"""

pytestmark = pytest.mark.usefixtures("isolated")


def analysed(page: Any) -> None:
    """Wait until the debounced analysis of the current input has come back."""
    page.wait_for_timeout(350)
    page.wait_for_function("() => !document.body.dataset.busy")


def paste(page: Any, text: str) -> None:
    page.click("#robots")
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(text)  # what a paste does: one input event with the whole text


def highlighted(page: Any) -> int:
    return int(page.get_attribute("#editor", "data-highlight"))


def bar_line(page: Any) -> int:
    """The editor line the visible highlight bar sits on, from its position."""
    top = page.evaluate("() => document.getElementById('hl-bar').offsetTop + document.getElementById('robots').scrollTop")
    assert page.is_visible("#hl-bar")
    return (top - PAD_TOP) // LINE_HEIGHT + 1


def test_verdict_and_deciding_line(page: Any) -> None:
    paste(page, ROBOTS)
    page.fill("#agent", "Mozilla/5.0 (compatible; Bingbot/2.0; +http://www.bing.com/bingbot.htm)")
    page.fill("#urls", "https://www.example.com/private/x")
    analysed(page)
    card = page.locator(".verdict").first
    assert card.locator(".verdict-word").inner_text() == "DISALLOWED"
    assert "Line 2 decides" in card.locator(".reason").inner_text()
    assert highlighted(page) == 2 and bar_line(page) == 2
    assert "bingbot" in card.inner_text()
    rows = card.locator("table.candidates tbody tr")
    assert rows.count() == 1 and rows.first.locator("td").nth(2).inner_text() == "/private/"

    page.fill("#urls", "/private/public-page\n/nogoogle/a")
    analysed(page)
    words = page.locator(".verdict .verdict-word").all_inner_texts()
    assert words == ["ALLOWED", "ALLOWED"]
    first = page.locator(".verdict").first
    assert [r.split("\t")[-1] for r in first.locator("table.candidates tbody tr").all_inner_texts()] == ["16", "9"]
    assert highlighted(page) == 3 and bar_line(page) == 3
    # Googlebot's own group decides for Googlebot.
    page.fill("#agent", "Googlebot")
    analysed(page)
    assert page.locator(".verdict .verdict-word").all_inner_texts() == ["ALLOWED", "DISALLOWED"]
    page.locator(".verdict").nth(1).locator(".facts .line-link").first.click()
    assert highlighted(page) == 7 and bar_line(page) == 7


def test_clicking_a_finding_highlights_its_line(page: Any) -> None:
    paste(page, ROBOTS)
    analysed(page)
    finding = page.locator(".finding", has_text="missingColon")
    assert finding.count() == 1
    finding.locator(".finding-head").click()
    assert highlighted(page) == 4 and bar_line(page) == 4
    # Structure entries link to their lines too.
    page.locator("#structure .line-link", has_text="Sitemap:").click()
    assert highlighted(page) == 8


def test_korean_interface(page: Any) -> None:
    paste(page, ROBOTS)
    page.fill("#agent", "Googlebot")
    page.fill("#urls", "/nogoogle/x")
    analysed(page)
    page.select_option("#lang", "ko")
    page.wait_for_function("() => document.documentElement.lang === 'ko'")
    assert page.inner_text("label[for='agent']") == "크롤러 (토큰 또는 전체 User-Agent)"
    assert page.inner_text(".verdict .verdict-word") == "차단"
    assert page.title().startswith("robotscope — robots.txt 테스터")


def test_korean_from_browser_language(browser: Any, base_url: str) -> None:
    context = browser.new_context(locale="ko-KR")
    page = context.new_page()
    page.goto(base_url + "/")
    page.wait_for_selector("body[data-ready='1']")
    assert page.inner_text("#matcher-title") == "URL 검사"
    context.close()


def test_hostile_file_renders_as_text(page: Any) -> None:
    paste(page, XSS)
    page.fill("#agent", "<img src=z onerror=alert(3)>")
    page.fill("#urls", "/<script>alert(4)</script>")
    page.fill("#paths", "/\"><img src=w onerror=alert(5)>")
    analysed(page)
    page.wait_for_timeout(300)
    assert page.dialogs == [] and page.errors == []
    assert page.locator("img").count() == 0
    assert page.locator("script").count() == 1  # the page's own app.js
    ignored = page.inner_text("#structure")
    assert "<script>alert(1)</script>" in ignored and '"><img src=x onerror=alert(1)>' in ignored
    assert "/<script>alert(4)</script>" in page.inner_text("#verdicts")


def test_share_link_restores_the_file_and_query(page: Any, browser: Any) -> None:
    paste(page, ROBOTS)
    page.fill("#agent", "Googlebot")
    page.fill("#urls", "/nogoogle/x")
    analysed(page)
    page.wait_for_function("() => location.hash.length > 3")
    url = page.url
    other = browser.new_context().new_page()
    other.goto(url)
    other.wait_for_selector(".verdict .verdict-word")
    assert other.input_value("#robots") == ROBOTS and other.input_value("#agent") == "Googlebot"
    assert other.inner_text(".verdict .verdict-word") == "DISALLOWED"
    assert int(other.get_attribute("#editor", "data-highlight")) == 7
    other.context.close()


def test_fetch_panel_loads_a_local_robots_txt(page: Any, server: Server) -> None:
    server.serve("/robots.txt", body=ROBOTS.encode())
    server.redirect("/go", "/robots.txt")
    page.fill("#fetch-url", server.url("/anything"))
    page.click("#fetch-go")
    page.wait_for_selector("#fetch-result table.decisions")
    rows = page.locator("#fetch-result table.decisions tbody tr")
    assert rows.count() >= 4
    assert "RFC 9309" in rows.first.inner_text() and "parse the rules" in rows.first.inner_text()
    assert "200" in page.inner_text("#fetch-result .chain")
    assert page.input_value("#robots") == ROBOTS


def test_selftest_button(page: Any) -> None:
    page.click("#selftest-run")
    page.wait_for_selector("#selftest li.case")
    summary = page.inner_text("#selftest-summary")
    total = page.locator("#selftest li.case").count()
    assert summary == f"{total} of {total} cases passed, 0 failed."
    assert page.locator("#selftest li.case.fail").count() == 0


def test_narrow_viewport(browser: Any, base_url: str) -> None:
    context = browser.new_context(viewport={"width": 375, "height": 812}, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(base_url + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.click("#load-sample")
    page.wait_for_selector(".verdict")
    page.fill("#paths", "/\n/cart/\n/search/help")
    analysed(page)
    width = page.evaluate("() => [document.documentElement.scrollWidth, document.body.scrollWidth, window.innerWidth]")
    assert width[0] <= 375 and width[1] <= 375, width
    for selector in ("#robots", "#agent", "#urls", "#lang", "#load-sample", "#share", "#fetch-url", "#fetch-go", "#selftest-run"):
        page.locator(selector).scroll_into_view_if_needed()
        box = page.locator(selector).bounding_box()
        assert box is not None and box["width"] > 20 and box["x"] >= 0 and box["x"] + box["width"] <= 375, (selector, box)
    OUTPUT.mkdir(exist_ok=True)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(OUTPUT / "screenshot-narrow.png"))
    context.close()


def test_main_view_screenshot(page: Any) -> None:
    page.click("#load-sample")
    page.wait_for_selector(".verdict")
    page.fill("#paths", "/\n/cart/")
    analysed(page)
    page.locator(".finding .finding-head").first.click()
    page.evaluate("() => window.scrollTo(0, 0)")
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / "screenshot-main.png"))
    assert (OUTPUT / "screenshot-main.png").stat().st_size > 10_000
    assert page.errors == []


def test_open_and_drop_a_file(page: Any) -> None:
    page.set_input_files("#file-input", files=[{"name": "robots.txt", "mimeType": "text/plain", "buffer": ROBOTS.encode()}])
    page.wait_for_function("() => document.getElementById('robots').value.length > 0")
    assert page.input_value("#robots") == ROBOTS
    dropped = "User-agent: *\nDisallow: /dropped/\n"
    page.evaluate(
        """(text) => {
            const data = new DataTransfer();
            data.items.add(new File([text], "robots.txt", { type: "text/plain" }));
            document.getElementById("editor").dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
        }""",
        dropped,
    )
    page.wait_for_function("(t) => document.getElementById('robots').value === t", arg=dropped)
    analysed(page)
    assert "Disallow: /dropped/" in page.inner_text("#structure")
    assert page.inner_text("#gutter").split() == ["1", "2", "3"]
