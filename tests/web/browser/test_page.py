"""The web tester in a real browser: Debian's Chromium, driven by Playwright, against uvicorn on 127.0.0.1.

Needs `apt-get install -y chromium` (the binary at /usr/bin/chromium) and the
`playwright` package; no browser download. Without Chromium these tests fail
with a message saying so; they never skip. Nothing here talks to any address
but 127.0.0.1, and one test checks the page does not either. The main view's
screenshots go to test-output/. The server, browser and page fixtures are in
conftest.py.
"""

from __future__ import annotations

import base64
import json
import re
from typing import Any

import pytest

from tests.conftest import Server
from tests.paths import ROOT

OUTPUT = ROOT / "test-output"
LINE_HEIGHT, PAD_TOP = 20, 8  # the editor's geometry in app.css
HANGUL = re.compile("[\uac00-\ud7a3]")

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
# Line 13 decides /drafts/x, line 3 decides /private/y; line 5 has no colon (a finding).
DRAFTS = """# robots.txt
User-agent: *
Disallow: /private/
Allow: /private/public/
Disallow /oops
# the rest is for drafts
Allow: /drafts/public/



# drafts are not for crawlers
Allow: /drafts/ok
Disallow: /drafts/
"""

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("isolated")]  # a real Chromium


def analysed(page: Any) -> None:
    """Wait until the debounced analysis of the current input has come back."""
    page.wait_for_timeout(350)
    page.wait_for_function("() => !document.body.dataset.busy")


def in_korean(page: Any) -> None:
    """Switch to Korean and wait until the analysis has come back in Korean."""
    page.select_option("#lang", "ko")
    page.wait_for_function("() => document.documentElement.lang === 'ko'")
    page.wait_for_function(
        "() => /[\\uac00-\\ud7a3]/.test(document.querySelector('#findings .message, #verdicts .reason').textContent)"
    )
    analysed(page)


def paste(page: Any, text: str) -> None:
    page.click("#robots")
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(text)  # what a paste does: one input event with the whole text


def highlighted(page: Any) -> int:
    return int(page.get_attribute("#editor", "data-highlight"))


def bar_line(page: Any) -> int:
    """The editor line the visible highlight bar sits on, from its position."""
    top = page.evaluate(
        "() => document.getElementById('hl-bar').offsetTop + document.getElementById('robots').scrollTop"
    )
    assert page.is_visible("#hl-bar")
    return int(top - PAD_TOP) // LINE_HEIGHT + 1


def api_analyse(page: Any, base_url: str, **body: Any) -> dict[str, Any]:
    """What the server answers for `body`: the page must show exactly its texts."""
    response = page.request.post(base_url + "/api/analyse", data=body)
    assert response.ok
    answer: dict[str, Any] = response.json()
    return answer


def test_verdict_and_deciding_line(page: Any, base_url: str) -> None:
    paste(page, ROBOTS)
    page.fill("#agent", "Mozilla/5.0 (compatible; Bingbot/2.0; +http://www.bing.com/bingbot.htm)")
    page.fill("#urls", "https://www.example.com/private/x")
    analysed(page)
    card = page.locator(".verdict").first
    assert card.locator(".verdict-word").inner_text() == "DISALLOWED"
    assert card.locator(".reason").inner_text().startswith("Line 2 (Disallow: /private/) decides")
    assert highlighted(page) == 2 and bar_line(page) == 2
    assert page.get_attribute("#hl-bar", "title") == "line 2 decides https://www.example.com/private/x"
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
    assert page.get_attribute("#hl-bar", "data-decides") == "/nogoogle/a"


def test_reasons_and_notes_are_the_servers_texts(page: Any, base_url: str) -> None:
    tie = "User-agent: *\nDisallow: /a\nAllow: /a\nDisallow: /ab\n\nUser-agent: Googlebot\nDisallow: /g/\n"
    paste(page, tie)
    page.fill("#agent", "somebot")
    page.fill("#urls", "/a\n/abc\n/zzz")
    analysed(page)
    expected = api_analyse(page, base_url, text=tie, agent="somebot", urls=["/a", "/abc", "/zzz"], lang="en")
    reasons = page.locator(".verdict .reason").all_inner_texts()
    assert reasons == [v["explanation"]["text"] for v in expected["verdicts"]]
    # Only a real tie between an allow and a disallow says that an allow wins it.
    assert [("an Allow wins a tie" in r) for r in reasons] == [True, False, False]
    assert "3 matching rules" in reasons[1]

    # Applebot follows the Googlebot group (Apple documents it), which changes the answer for /ab.
    page.fill("#agent", "Applebot")
    page.fill("#urls", "/ab")
    analysed(page)
    expected = api_analyse(page, base_url, text=tie, agent="Applebot", urls=["/ab"], lang="en")["verdicts"][0]
    card = page.locator(".verdict").first
    assert card.locator(".verdict-word").inner_text() == "ALLOWED"
    notes = card.locator(".notes .note")
    assert notes.all_inner_texts() == [n["text"] for n in expected["notes"]]
    assert notes.first.get_attribute("data-code") == "profile.changed"
    assert "RFC 9309 alone would say disallowed" in notes.first.inner_text()
    assert expected["profile"]["text"] in notes.first.inner_text()
    # Where the profile applies without changing the answer, the card says what it is.
    page.fill("#urls", "/a")
    analysed(page)
    expected = api_analyse(page, base_url, text=tie, agent="Applebot", urls=["/a"], lang="en")["verdicts"][0]
    assert expected["notes"] == [] and page.locator(".verdict .notes").count() == 0
    assert page.inner_text(".verdict .facts .profile") == expected["profile"]["text"]


def test_highlight_bar_marks_the_deciding_line_of_the_verdict_in_view(page: Any) -> None:
    paste(page, DRAFTS)
    page.fill("#agent", "Googlebot")
    page.fill("#urls", "/drafts/x\n/private/y")
    analysed(page)
    # After the analysis: the first verdict's deciding line, and the bar says so.
    assert bar_line(page) == 13 and highlighted(page) == 13
    assert page.get_attribute("#hl-bar", "title") == "line 13 decides /drafts/x"
    assert page.inner_text("#hl-note") == "line 13 decides /drafts/x"
    cards = page.locator("#verdicts .verdict")
    assert "selected" in cards.nth(0).get_attribute("class") and "selected" not in cards.nth(1).get_attribute("class")
    # A finding's line is highlighted, but the bar does not claim it decides anything.
    page.locator(".finding[data-code='missingColon'] .finding-head").click()
    assert bar_line(page) == 5
    assert page.get_attribute("#hl-bar", "title") == "line 5" and page.get_attribute("#hl-bar", "data-decides") is None
    assert page.locator("#verdicts .verdict.selected").count() == 0
    # Clicking another card moves the bar to that card's deciding line.
    cards.nth(1).locator(".reason").click()
    assert bar_line(page) == 3
    assert page.get_attribute("#hl-bar", "title") == "line 3 decides /private/y"
    assert "selected" in cards.nth(1).get_attribute("class") and "selected" not in cards.nth(0).get_attribute("class")
    # The card stays the one in view when the analysis runs again.
    page.fill("#agent", "Bingbot")
    analysed(page)
    assert bar_line(page) == 3 and page.get_attribute("#hl-bar", "data-decides") == "/private/y"


def test_clicking_a_finding_highlights_its_line(page: Any) -> None:
    paste(page, ROBOTS)
    analysed(page)
    finding = page.locator(".finding", has_text="missingColon")
    assert finding.count() == 1
    finding.locator(".finding-head").click()
    assert highlighted(page) == 4 and bar_line(page) == 4
    assert page.get_attribute("#hl-bar", "title") == "line 4"
    # Structure entries link to their lines too.
    page.locator("#structure .line-link", has_text="Sitemap:").click()
    assert highlighted(page) == 8 and page.get_attribute("#hl-bar", "title") == "line 8"


def test_an_invalid_url_is_an_error_row_not_a_verdict(page: Any) -> None:
    paste(page, ROBOTS)
    page.fill("#agent", "Googlebot")
    page.fill("#urls", "javascript:alert(1)\n/nogoogle/x")
    page.fill("#paths", "/\njavascript:x")
    analysed(page)
    rows = page.locator("#verdicts .verdict")
    assert rows.count() == 2
    invalid = rows.first
    assert "invalid-url" in invalid.get_attribute("class")
    assert invalid.locator(".verdict-word").inner_text() == "NOT CHECKED"
    assert invalid.locator(".reason.error").inner_text() == (
        "`javascript:alert(1)` is neither a path starting with / nor an http or https URL"
    )
    assert invalid.locator(".facts, table.candidates").count() == 0
    assert (
        "allowed" not in invalid.get_attribute("class").split()
        and "disallowed" not in invalid.get_attribute("class").split()
    )
    assert rows.nth(1).locator(".verdict-word").inner_text() == "DISALLOWED"
    assert bar_line(page) == 7  # the first real verdict's deciding line
    # Invalid matrix paths are listed under the matrix, not as a column.
    assert page.locator("table.matrix thead th").all_inner_texts() == ["Crawler", "/"]
    listed = page.locator("#matrix .invalid-paths")
    assert "neither a path starting with /" in listed.inner_text() and listed.locator("code").all_inner_texts() == [
        "javascript:x"
    ]


def test_korean_switch_turns_server_texts_korean(page: Any) -> None:
    paste(page, ROBOTS)
    page.fill("#agent", "Googlebot")
    page.fill("#urls", "/nogoogle/x\njavascript:x")
    analysed(page)
    assert not HANGUL.search(page.inner_text("#verdicts .reason"))
    in_korean(page)
    assert page.inner_text("label[for='agent']") == "크롤러 (토큰 또는 전체 User-Agent)"
    assert page.inner_text(".verdict .verdict-word") == "차단"
    assert page.title().startswith("robotscope — robots.txt 테스터")
    assert HANGUL.search(page.locator(".verdict .reason").first.inner_text())
    assert HANGUL.search(page.locator(".verdict.invalid-url .reason").inner_text())
    assert HANGUL.search(page.locator(".finding .message").first.inner_text())
    assert HANGUL.search(page.locator(".finding .fix").first.inner_text())
    assert page.get_attribute("#hl-bar", "title") == "7번 줄이 /nogoogle/x의 판정을 결정합니다"
    assert page.errors == []


def test_korean_from_browser_language(browser: Any, base_url: str) -> None:
    context = browser.new_context(locale="ko-KR")
    page = context.new_page()
    page.goto(base_url + "/")
    page.wait_for_selector("body[data-ready='1']")
    assert page.inner_text("#matcher-title") == "URL 검사"
    assert page.evaluate("() => document.documentElement.lang") == "ko"
    context.close()


def test_hostile_file_renders_as_text(page: Any) -> None:
    paste(page, XSS)
    page.fill("#agent", "<img src=z onerror=alert(3)>")
    page.fill("#urls", "/<script>alert(4)</script>")
    page.fill("#paths", '/"><img src=w onerror=alert(5)>')
    analysed(page)
    page.wait_for_timeout(300)
    assert page.dialogs == [] and page.errors == []
    assert page.locator("img").count() == 0
    assert page.locator("script").count() == 1  # the page's own js/main.js
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


def test_share_link_made_in_korean_opens_in_korean(page: Any, browser: Any) -> None:
    paste(page, ROBOTS)
    page.fill("#agent", "Googlebot")
    page.fill("#urls", "/nogoogle/x")
    analysed(page)
    page.wait_for_function("() => location.hash.length > 3")
    english = page.url
    in_korean(page)
    page.wait_for_function("(before) => location.href !== before", arg=english)
    context = browser.new_context(locale="en-US")
    other = context.new_page()
    other.goto(page.url)
    other.wait_for_selector(".verdict .verdict-word")
    assert other.evaluate("() => document.documentElement.lang") == "ko"
    assert other.input_value("#lang") == "ko"
    assert other.inner_text(".verdict .verdict-word") == "차단"
    assert HANGUL.search(other.inner_text(".verdict .reason"))
    assert other.input_value("#robots") == ROBOTS
    context.close()


def test_share_link_without_a_language_still_opens(browser: Any, base_url: str) -> None:
    # A link made before links carried a language: {t, a, u, p} only, as #j= (uncompressed).
    query = {"t": ROBOTS, "a": "Googlebot", "u": "/nogoogle/x", "p": "/"}
    fragment = base64.urlsafe_b64encode(json.dumps(query).encode()).decode().rstrip("=")
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    page.goto(f"{base_url}/#j={fragment}")
    page.wait_for_selector(".verdict .verdict-word")
    assert page.evaluate("() => document.documentElement.lang") == "en"
    assert page.input_value("#robots") == ROBOTS and page.inner_text(".verdict .verdict-word") == "DISALLOWED"
    context.close()


def test_fetch_panel_loads_a_local_robots_txt(page: Any, server: Server) -> None:
    server.serve("/robots.txt", body=ROBOTS.encode())
    page.fill("#fetch-url", server.url("/anything"))
    page.click("#fetch-go")
    page.wait_for_selector("#fetch-result table.decisions")
    rows = page.locator("#fetch-result table.decisions tbody tr")
    assert rows.count() >= 4
    assert "RFC 9309" in rows.first.inner_text() and "parse the rules" in rows.first.inner_text()
    assert "200" in page.inner_text("#fetch-result .chain")
    assert page.input_value("#robots") == ROBOTS
    # The fetched file applies to its own origin: a URL elsewhere says so, as `check` does.
    page.fill("#agent", "Googlebot")
    page.fill("#urls", "https://elsewhere.example/x")
    page.wait_for_function(
        "() => document.querySelector('#verdicts').textContent.includes('applies to one scheme, host and port only')"
    )
    # A new language asks for the decisions again, in that language, and leaves the editor alone.
    paste(page, ROBOTS + "Disallow: /edited/\n")
    in_korean(page)
    page.wait_for_function("() => /[\\uac00-\\ud7a3]/.test(document.querySelector('#fetch-result td.why').textContent)")
    assert page.inner_text("#fetch-result table.decisions thead").split() == ["엔진", "판단", "이유"]
    assert page.input_value("#robots") == ROBOTS + "Disallow: /edited/\n"
    assert server.hits["/robots.txt"] == 2


def test_korean_decisions_wrap_by_words(browser: Any, base_url: str, server: Server) -> None:
    server.serve("/robots.txt", status=503)
    context = browser.new_context(viewport={"width": 375, "height": 812}, locale="ko-KR")
    page = context.new_page()
    page.goto(base_url + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#fetch-url", server.url("/"))
    page.click("#fetch-go")
    page.wait_for_selector("#fetch-result table.decisions")
    why = page.locator("#fetch-result td.why").first
    assert why.evaluate("(node) => getComputedStyle(node).wordBreak") == "keep-all"
    # The sentence column gets the room: no one-syllable-per-line column.
    table = page.locator("#fetch-result table.decisions").bounding_box()
    assert why.bounding_box()["width"] >= 0.4 * table["width"], (why.bounding_box(), table)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 375, width
    page.locator("#fetch-panel").screenshot(path=str(OUTPUT / "screenshot-fetch-ko-narrow.png"))
    context.close()


def test_selftest_button(page: Any) -> None:
    page.click("#selftest-run")
    page.wait_for_selector("#selftest li.case")
    summary = page.inner_text("#selftest-summary")
    total = page.locator("#selftest li.case").count()
    assert summary == f"{total} of {total} cases passed, 0 failed."
    assert page.locator("#selftest li.case.fail").count() == 0
    assert not HANGUL.search(page.inner_text("#selftest .desc >> nth=0"))
    # Descriptions and sections are the server's: a new language asks for them again.
    page.select_option("#lang", "ko")
    page.wait_for_function("() => /[\\uac00-\\ud7a3]/.test(document.querySelector('#selftest .desc').textContent)")
    assert page.inner_text("#selftest-summary") == f"{total}개 중 {total}개 통과, 0개 실패."
    assert "절" in page.inner_text("#selftest .section >> nth=0")


def test_narrow_viewport(browser: Any, base_url: str) -> None:
    context = browser.new_context(
        viewport={"width": 375, "height": 812}, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.goto(base_url + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.click("#load-sample")
    page.wait_for_selector(".verdict")
    page.fill("#paths", "/\n/cart/\n/search/help")
    analysed(page)
    width = page.evaluate("() => [document.documentElement.scrollWidth, document.body.scrollWidth, window.innerWidth]")
    assert width[0] <= 375 and width[1] <= 375, width
    for selector in (
        "#robots",
        "#agent",
        "#urls",
        "#lang",
        "#load-sample",
        "#share",
        "#fetch-url",
        "#fetch-go",
        "#selftest-run",
    ):
        page.locator(selector).scroll_into_view_if_needed()
        box = page.locator(selector).bounding_box()
        assert box is not None and box["width"] > 20 and box["x"] >= 0 and box["x"] + box["width"] <= 375, (
            selector,
            box,
        )
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


def drop(page: Any, data: bytes) -> None:
    """Drop a file holding `data` on the editor, as a user dragging it from the desktop."""
    page.evaluate(
        (
            "(bytes) => {\n"
            "            const data = new DataTransfer();\n"
            '            data.items.add(new File([new Uint8Array(bytes)], "robots.txt", { type: "text/plain" }));\n'
            '            document.getElementById("editor").dispatchEvent('
            'new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));\n'
            "        }"
        ),
        list(data),
    )


def test_open_and_drop_a_file(page: Any) -> None:
    page.set_input_files(
        "#file-input", files=[{"name": "robots.txt", "mimeType": "text/plain", "buffer": ROBOTS.encode()}]
    )
    page.wait_for_function("() => document.getElementById('robots').value.length > 0")
    assert page.input_value("#robots") == ROBOTS
    dropped = "User-agent: *\nDisallow: /dropped/\n"
    drop(page, dropped.encode())
    page.wait_for_function("(t) => document.getElementById('robots').value === t", arg=dropped)
    analysed(page)
    assert "Disallow: /dropped/" in page.inner_text("#structure")
    assert page.inner_text("#gutter").split() == ["1", "2", "3"]


@pytest.mark.parametrize(
    ("data", "encoding"),
    [
        (b"\xff\xfe" + "User-agent: *\nDisallow: /x\n".encode("utf-16-le"), "UTF-16-LE"),  # with its BOM
        ("User-agent: *\nDisallow: /x\n".encode("utf-16-be"), "UTF-16-BE"),  # told by its NULs
    ],
)
@pytest.mark.parametrize("how", ["input", "drop"])
def test_a_utf16_file_is_read_as_its_bytes(page: Any, data: bytes, encoding: str, how: str) -> None:
    if how == "input":
        page.set_input_files("#file-input", files=[{"name": "robots.txt", "mimeType": "text/plain", "buffer": data}])
    else:
        drop(page, data)
    page.wait_for_selector(".finding[data-code='encodingNotUtf8']")
    # Not converted: the bytes read as UTF-8, as a crawler (and the server) reads them.
    assert page.input_value("#robots") == data.decode("utf-8", "replace")
    assert "\x00" in page.input_value("#robots")
    assert encoding in page.inner_text("#status") and "not UTF-8" in page.inner_text("#status")
    assert "warn" in page.get_attribute("#status", "class")


def test_no_request_leaves_the_page_origin(page: Any, base_url: str) -> None:
    page.click("#load-sample")
    page.wait_for_selector(".verdict")
    page.fill("#paths", "/\n/cart/")
    analysed(page)
    in_korean(page)
    page.click("#selftest-run")
    page.wait_for_selector("#selftest li.case")
    assert any("/api/analyse" in url for url in page.requests)
    outside = [url for url in page.requests if not url.startswith(base_url + "/")]
    assert outside == []
    assert page.errors == []


# Seed 001: `Disallow: /` then `Allow: /$`. RFC 9309 and Protego allow `/` by line 3; the first-match
# reading of Python 3.12's robotparser blocks it by line 2. Line 4 has no colon: only Google (and Protego) read it.
SEED = "User-agent: *\nDisallow: /\nAllow: /$\nDisallow /oops\n"


def reading_rows(page: Any, url: str) -> dict[str, tuple[str, str, bool]]:
    """Each engine's row for `url` in the readings panel: verdict word, deciding line text, highlighted."""
    rows = page.locator(f'#readings section.reading[data-url="{url}"] tbody tr[data-engine]')
    out = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        cells = row.locator("td")
        out[row.get_attribute("data-engine")] = (
            cells.nth(0).inner_text(),
            cells.nth(1).inner_text(),
            "differs" in (row.get_attribute("class") or ""),
        )
    return out


def test_readings_panel_shows_every_engine_and_marks_the_split(page: Any, base_url: str) -> None:
    paste(page, SEED)
    page.fill("#agent", "Googlebot")
    page.fill("#urls", "/\n/public")
    analysed(page)
    rows = reading_rows(page, "/")
    assert set(rows) == {"rfc9309", "google", "bing", "naver", "yandex", "legacy", "protego"}
    assert rows["rfc9309"][0] == "ALLOWED" and rows["rfc9309"][1].startswith("3") and not rows["rfc9309"][2]
    assert rows["protego"][0] == "ALLOWED" and rows["protego"][1].startswith("3")
    assert rows["legacy"][0] == "DISALLOWED" and rows["legacy"][1].startswith("2") and rows["legacy"][2]
    assert page.get_attribute('#readings section.reading[data-url="/"]', "class") == "reading split"
    # The page's row texts are the server's explanations.
    server = api_analyse(page, base_url, text=SEED, agent="Googlebot", urls=["/"], paths=[], lang="en")
    legacy = page.locator('#readings section.reading[data-url="/"] tr[data-why="legacy"] td.why').inner_text()
    assert legacy == server["readings"]["urls"][0]["readings"]["legacy"]["explanation"]["text"]
    assert legacy == "Line 2 (Disallow: /) decides: it is the only rule of the group that matches /."  # no length
    # Every engine blocks /public, so that table is not a split.
    assert page.get_attribute('#readings section.reading[data-url="/public"]', "class") == "reading"
    # The deciding line of each engine is a link to it.
    page.locator('#readings section.reading[data-url="/"] tr[data-engine="legacy"] .line-link').click()
    assert highlighted(page) == 2 and bar_line(page) == 2
    page.locator('#readings section.reading[data-url="/"] tr[data-engine="protego"] .line-link').click()
    assert highlighted(page) == 3
    # The lines read differently: line 4 is a rule for Google and Protego only.
    item = page.locator('#readings ol.line-readings > li[data-line="4"]')
    assert "Disallow: /oops" in item.inner_text() and "Google" in item.inner_text()


def test_engine_menu_changes_the_verdicts_and_travels_in_the_share_link(page: Any, browser: Any) -> None:
    paste(page, SEED)
    page.fill("#agent", "Googlebot")
    page.fill("#urls", "/")
    analysed(page)
    assert page.locator(".verdict .verdict-word").all_inner_texts() == ["ALLOWED"]
    options = page.locator("#engine option").all_inner_texts()
    assert options[0] == "RFC 9309 with crawler profiles (default)" and options[-1] == "each crawler's own engine"
    assert "RFC 9309" in options and "urllib.robotparser" in options
    page.select_option("#engine", "legacy")
    analysed(page)
    assert page.locator(".verdict .verdict-word").all_inner_texts() == ["DISALLOWED"]
    assert page.locator(".verdict").first.locator(".facts .engine").inner_text() == "urllib.robotparser"
    assert "first-match" in page.inner_text("#engine-note")
    # Now the default reading is the one that answers otherwise for `/`.
    assert reading_rows(page, "/")["rfc9309"][2] and not reading_rows(page, "/")["legacy"][2]
    # Each crawler by its operator's engine: Google reads `Disallow /oops`, RFC 9309 ignores it.
    page.select_option("#engine", "operator")
    paste(page, "User-agent: *\nDisallow /oops\n")
    page.fill("#urls", "/\n/oops")
    analysed(page)
    assert page.locator(".verdict .verdict-word").all_inner_texts() == ["ALLOWED", "DISALLOWED"]
    page.fill("#agent", "somebot")
    analysed(page)
    assert page.locator(".verdict .verdict-word").all_inner_texts() == ["ALLOWED", "ALLOWED"]
    page.fill("#agent", "Googlebot")
    analysed(page)
    page.wait_for_function("() => location.hash.length > 3")
    other = browser.new_context(locale="en-US").new_page()
    other.goto(page.url)
    other.wait_for_selector(".verdict .verdict-word")
    assert other.input_value("#engine") == "operator"
    assert other.locator(".verdict .verdict-word").all_inner_texts() == ["ALLOWED", "DISALLOWED"]
    other.context.close()


def test_readings_panel_in_korean(page: Any) -> None:
    paste(page, SEED)
    page.fill("#agent", "Googlebot")
    page.fill("#urls", "/")
    analysed(page)
    in_korean(page)
    assert page.inner_text("#readings-title") == "해석: 엔진마다 어떻게 읽는지"
    section = page.locator('#readings section.reading[data-url="/"]')
    assert section.locator(".reading-state").inner_text() == "엔진마다 판정이 다릅니다"
    assert HANGUL.search(section.locator('tr[data-why="legacy"] td.why').inner_text())
    assert page.locator("#engine option").first.inner_text() == "RFC 9309 + 크롤러 프로필 (기본)"


def test_a_verdict_card_shows_the_usage_preferences_that_apply(page: Any) -> None:
    paste(page, "User-agent: *\nAllow: /\nDisallow: /drafts/\nContent-Usage: train-ai=n\nContent-Signal: ai-train=no\n")
    page.fill("#agent", "GPTBot")
    page.fill("#urls", "/blog/x\n/drafts/y")
    analysed(page)
    cards = page.locator(".verdict")
    assert "train-ai=n (line 4)" in cards.nth(0).locator(".usage").inner_text()
    assert "ai-train=no (line 5)" in cards.nth(0).locator(".usage").inner_text()
    assert "may not fetch" in cards.nth(1).locator(".usage").inner_text()
    in_korean(page)
    assert "4번 줄" in page.locator(".verdict .usage").first.inner_text()


def test_the_page_panel_checks_a_live_page_for_each_crawler(page: Any, server: Server) -> None:
    server.serve("/robots.txt", 200, b"User-agent: *\nDisallow: /private/\n")
    server.serve(
        "/private/p",
        200,
        b'<html><head><meta name="robots" content="noindex"></head></html>',
        {"Content-Type": "text/html"},
    )
    page.fill("#page-url", server.url("/private/p"))
    page.fill("#page-agents", "Googlebot, GPTBot")
    page.click("#page-go")
    page.wait_for_selector("#page-result .page-crawler")
    cards = page.locator("#page-result .page-crawler")
    assert cards.count() == 2 and cards.nth(0).locator("h3").inner_text() == "Googlebot"
    assert "line 2 (Disallow: /private/)" in cards.nth(0).inner_text()
    assert cards.nth(0).locator("li[data-code='blockedNoindex']").count() == 1
    # Once per User-Agent the server sent: robotscope's own for robots.txt, then each crawler's.
    claims = page.locator("#page-result ul.fetched-as li")
    assert [claims.nth(i).get_attribute("data-verify") for i in range(claims.count())] == ["no-claim", "no", "no"]
    assert claims.nth(1).inner_text().startswith("Googlebot: would verify: no, since Google publishes")
    page.select_option("#lang", "ko")  # the panel asks again, in Korean
    page.wait_for_function(
        "() => /[\\uac00-\\ud7a3]/.test(document.querySelector('#page-result li')?.textContent || '')"
    )
    assert page.errors == []


def test_the_generator_writes_usage_preferences_from_its_preset_and_fields(page: Any) -> None:
    page.select_option("#gen-preset", "ai-preferences")
    page.wait_for_function(
        "() => /Content-Usage: \\/ train-ai=n/.test(document.getElementById('gen-result').textContent)"
    )
    assert page.input_value("#gen-blocks .gen-usage") == "/ train-ai=n"
    assert page.input_value("#gen-blocks .gen-signal") == "search=yes, ai-train=no"
    assert "Content-Signal: search=yes, ai-train=no" in page.inner_text("#gen-result")
