"""The History panel of a server started with a history store (`robotscope serve --store PATH`).

Chromium against uvicorn on 127.0.0.1; the store is filled through
`HistoryStore.record` with hand-made fetch results: a file, then the
staging file (`Disallow: /`), whose change is a critical alert.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from robotscope.history import HistoryStore
from robotscope.web import create_app
from tests.clock import Clock
from tests.history.results import ORIGIN, failed, fetched
from tests.web.browser.conftest import serving
from tests.web.browser.test_page import HANGUL, analysed, paste

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("isolated")]  # a real Chromium

FIRST = "# 상품 페이지는 열어 둡니다\nUser-agent: *\nDisallow: /private/\n"
STAGING = "User-agent: *\nDisallow: /\n"
MINE = "User-agent: *\nDisallow: /mine/\n"


@pytest.fixture(scope="module")
def history_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    path = tmp_path_factory.mktemp("store") / "history.sqlite3"
    clock = Clock(1_764_547_200.0)  # 2025-12-01T00:00:00Z
    with HistoryStore(path, now=clock) as store:
        store.record(ORIGIN, "browser", fetched(FIRST.encode()))
        clock.now += 3600
        store.record(ORIGIN, "GPTBot", failed("timeout"))
        clock.now += 3600
        store.record(ORIGIN, "browser", fetched(STAGING.encode()))
    with serving(create_app(store=path)) as url:
        yield url


def opened(browser: Any, url: str, locale: str) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.errors = []
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(url + "/")
    page.wait_for_selector("body[data-ready='1']")
    return page


def timeline(page: Any) -> Any:
    page.select_option("#history-origin", ORIGIN)
    page.wait_for_selector("#history-result ol.timeline li")
    return page.locator("#history-result ol.timeline > li")


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
def test_the_history_panel_shows_the_versions_and_loads_one(browser: Any, history_url: str, locale: str) -> None:
    page = opened(browser, history_url, locale)
    korean = locale.startswith("ko")
    assert page.evaluate("() => document.documentElement.lang") == ("ko" if korean else "en")
    assert page.is_visible("#history-panel")
    title = page.inner_text("#history-title")
    assert bool(HANGUL.search(title)) is korean and title != "history.title"
    paste(page, MINE)
    analysed(page)
    items = timeline(page)
    assert items.count() == 2
    first, second = items.nth(0), items.nth(1)
    assert "2025-12-01T00:00:00Z" in first.inner_text() and "2025-12-01T02:00:00Z" in second.inner_text()
    assert "200" in first.inner_text() and first.get_attribute("data-worst") == "none"
    # The staging deploy: its worst alert is critical, and says what it does, in the page's language.
    assert second.get_attribute("data-worst") == "critical"
    badge = second.locator(".history-alert .badge")
    assert badge.get_attribute("data-code") == "siteBlocked"
    assert badge.inner_text().lower() == ("심각" if korean else "critical")
    alert = second.locator(".history-alert-text").inner_text()
    assert "Disallow: /" in alert and bool(HANGUL.search(alert)) is korean
    assert "timeout" in page.inner_text("#history-result .history-failures").lower()
    # A click loads the first version; the text it replaced is offered back.
    assert page.is_hidden("#history-swap")
    first.locator("button.history-version").click()
    page.wait_for_function("(text) => document.getElementById('robots').value === text", arg=FIRST)
    assert page.is_visible("#history-swap") and bool(HANGUL.search(page.inner_text("#history-swap-note"))) is korean
    analysed(page)
    assert "/private/" in page.inner_text("#structure")
    page.click("#history-swap-go")
    assert page.input_value("#robots") == MINE
    assert page.errors == []
    page.context.close()


def test_a_new_language_asks_the_alerts_again(browser: Any, history_url: str) -> None:
    page = opened(browser, history_url, "en-US")
    alert = timeline(page).nth(1).locator(".history-alert-text")
    assert not HANGUL.search(alert.inner_text())
    page.select_option("#lang", "ko")
    alert_text = "document.querySelector('#history-result .history-alert-text')?.textContent ?? ''"
    page.wait_for_function(f"() => /[\\uac00-\\ud7a3]/.test({alert_text})")
    assert page.input_value("#history-origin") == ORIGIN
    assert page.errors == []
    page.context.close()


def test_without_a_store_there_is_no_history_panel(page: Any) -> None:
    assert page.is_hidden("#history-panel")
    assert page.evaluate("() => fetch('/api/history').then((r) => r.status)") == 404
