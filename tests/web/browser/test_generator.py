"""The generator panel in a real browser (Debian's Chromium through Playwright), against uvicorn on 127.0.0.1.

Uses the server, browser and page fixtures of conftest.py (the launch options of every browser test).
"""

from __future__ import annotations

from typing import Any

import pytest

from .test_page import HANGUL, OUTPUT, analysed

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("isolated")]  # a real Chromium


def generated(page: Any) -> None:
    page.wait_for_function("() => !document.getElementById('generator-panel').dataset.busy")
    page.wait_for_selector("#gen-result pre.gen-text")


def test_generator_block_ai_training_then_default(page: Any, base_url: str) -> None:
    # The page says up front that a new spec blocks the whole site.
    assert "blocks the whole site" in page.inner_text("#gen-default-note")
    assert page.input_value("#gen-blocks .gen-agent") == "*"
    assert page.input_value("#gen-blocks .gen-disallow") == "/"

    page.select_option("#gen-preset", "block-ai-training")
    generated(page)
    assert "AI-training" in page.inner_text("#gen-preset-note")
    # The preset filled the form; Generate writes it from the form.
    assert page.locator("#gen-blocks .gen-block").count() > 3
    page.click("#gen-go")
    generated(page)
    text = page.inner_text("#gen-result pre.gen-text")
    assert "User-agent: GPTBot\nDisallow: /" in text
    assert page.locator("#gen-result .gen-warning").count() == 0
    assert "verified" in page.inner_text("#gen-result .gen-verified")
    googlebot = page.locator("#gen-result table.gen-checks tr.check[data-agent='Googlebot']")
    assert googlebot.count() == 1
    assert googlebot.locator("td.parsed").inner_text() == "allowed"
    assert googlebot.locator(".badge").inner_text().lower() == "yes"
    gptbot = page.locator("#gen-result table.gen-checks tr.check[data-agent='GPTBot']").first
    assert gptbot.locator("td.parsed").inner_text() == "blocked"

    page.click("#gen-use")
    analysed(page)
    assert page.input_value("#robots").rstrip("\n") == text.rstrip("\n")
    assert "User-agent: GPTBot" in page.inner_text("#structure")
    assert page.is_visible("#gen-result .gen-used")

    # Back to a new spec: User-agent: * + Disallow: /, with the staging warning in view.
    page.select_option("#gen-preset", "")
    generated(page)
    assert page.inner_text("#gen-result pre.gen-text").strip() == "User-agent: *\nDisallow: /"
    warning = page.locator("#gen-result .gen-warning")
    assert warning.count() == 1 and warning.is_visible()
    assert "blocks the whole site" in warning.inner_text() and "staging" in warning.inner_text()
    # The warning is the server's text, not a copy kept by the page.
    expected = page.request.post(base_url + "/api/generate", data={"lang": "en"}).json()["warnings"]
    assert warning.get_attribute("data-code") == expected[0]["code"] == "generate.warning.blocks-whole-site"
    assert warning.locator("span").inner_text() == expected[0]["text"]
    assert page.errors == [] and page.dialogs == []


def test_generator_texts_follow_the_language(page: Any) -> None:
    page.click("#gen-go")
    generated(page)
    assert not HANGUL.search(page.inner_text("#gen-result .gen-warning"))
    page.fill("#gen-blocks .gen-comment", "typed, not generated yet")
    page.select_option("#lang", "ko")
    # The last request is asked again in Korean; the form keeps what was typed.
    page.wait_for_function(
        "() => /[\\uac00-\\ud7a3]/.test(document.querySelector('#gen-result .gen-warning span')?.textContent)"
    )
    generated(page)
    assert HANGUL.search(page.inner_text("#gen-result .gen-findings .message"))
    assert page.input_value("#gen-blocks .gen-comment") == "typed, not generated yet"
    assert page.inner_text("#gen-go") == "만들기"


def test_a_rule_that_matches_no_url_is_marked(page: Any) -> None:
    page.fill("#gen-blocks .gen-disallow", "private\n/x")
    page.click("#gen-go")
    generated(page)
    row = page.locator("#gen-result table.gen-checks tr.check.fail")
    assert row.count() == 1
    assert "/private" in row.inner_text() and "matches no URL" in row.locator(".ineffective").inner_text()
    assert page.locator("#gen-result .ineffective").count() == 1
    assert "Round trip failed: 1 " in page.inner_text("#gen-result .gen-verified")


def test_generator_allow_only_korean_and_narrow(browser: Any, base_url: str) -> None:
    context = browser.new_context(
        viewport={"width": 375, "height": 812}, device_scale_factor=2, is_mobile=True, has_touch=True, locale="ko-KR"
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base_url + "/")
    page.wait_for_selector("body[data-ready='1']")
    assert page.inner_text("#generator-title") == "robots.txt 만들기"
    page.select_option("#gen-preset", "allow-only")
    assert page.is_visible("#gen-only")
    assert page.locator("#gen-result .error").count() == 1  # asks for the crawler first
    page.fill("#gen-only", "Yeti")
    page.click("#gen-only-apply")
    generated(page)
    assert page.inner_text("#gen-result pre.gen-text").startswith("User-agent: Yeti\nDisallow:")
    assert page.locator("#gen-result .gen-warning").count() == 1
    assert HANGUL.search(page.inner_text("#gen-result .gen-warning span"))
    page.click("#gen-add")
    assert page.locator("#gen-blocks .gen-block").count() == 3
    page.locator("#gen-blocks .gen-block").nth(2).locator(".gen-remove").click()
    assert page.locator("#gen-blocks .gen-block").count() == 2
    width = page.evaluate("() => [document.documentElement.scrollWidth, document.body.scrollWidth]")
    assert width[0] <= 375 and width[1] <= 375, width
    for selector in (
        "#gen-preset",
        "#gen-only",
        "#gen-go",
        "#gen-use",
        "#gen-add",
        "#gen-sitemaps",
        "#gen-blocks .gen-disallow",
    ):
        node = page.locator(selector).first
        node.scroll_into_view_if_needed()
        box = node.bounding_box()
        assert box is not None and box["width"] > 20 and box["x"] >= 0 and box["x"] + box["width"] <= 375, (
            selector,
            box,
        )
    page.locator("#generator-panel").scroll_into_view_if_needed()
    OUTPUT.mkdir(exist_ok=True)
    page.locator("#generator-panel").screenshot(path=str(OUTPUT / "screenshot-generator-narrow.png"))
    assert errors == []
    context.close()
