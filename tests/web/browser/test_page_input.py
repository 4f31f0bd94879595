"""The page when its input is refused or replaced: a share link too large to open, a paste over the
editor's limit, a fetch that replaces the editor's text. Chromium against uvicorn on 127.0.0.1.
"""

from __future__ import annotations

import base64
import json
import zlib
from typing import Any

import pytest

from robotscope.access.served import served_findings
from robotscope.reports.analysis import LIMITS
from tests.conftest import Server
from tests.web.browser.test_page import HANGUL, ROBOTS, analysed, paste

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("isolated")]  # a real Chromium

RESULT_PANELS = ("verdicts", "readings", "findings", "structure", "matrix")


def link(query: dict[str, str], size: int = 0) -> str:
    """A `#z=` share link of `query`, its text padded with `size` spaces (a deflate bomb when large)."""
    data = json.dumps(query).encode()
    if size:
        data = data.replace(b'"t": "', b'"t": "' + b" " * size, 1)
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)  # raw deflate, as CompressionStream("deflate-raw")
    packed = packer.compress(data) + packer.flush()
    return "#z=" + base64.urlsafe_b64encode(packed).decode().rstrip("=")


def test_a_share_link_that_unpacks_past_the_limit_is_refused_unopened(browser: Any, base_url: str) -> None:
    # 64 MiB of spaces in 64 KB of link: the page stops unpacking past twice the editor's limit.
    bomb = link({"t": "User-agent: *\n", "a": "Googlebot", "u": "/x", "p": "/"}, size=64 * 1024 * 1024)
    assert len(bomb) < 100_000
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base_url + "/" + bomb)
    page.wait_for_selector("body[data-ready='1']", timeout=20_000)
    limit = f"{2 * LIMITS['max_body']:,}"
    assert page.inner_text("#status") == (
        f"This share link unpacks to more than {limit} bytes, more than the editor takes "
        f"({LIMITS['max_body']:,} bytes): it was not opened."
    )
    assert page.input_value("#robots") == "" and page.input_value("#agent") == ""
    # The same link put into the address bar of an open page, then a good one: the good one opens.
    page.evaluate("(hash) => { location.hash = hash; }", bomb + "&again")  # another fragment, the same link
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('unpacks to more than')")
    page.evaluate("(hash) => { location.hash = hash; }", link({"t": ROBOTS, "a": "Googlebot", "u": "/x", "p": "/"}))
    page.wait_for_function("(text) => document.querySelector('#robots').value === text", arg=ROBOTS)
    assert errors == []
    context.close()


def test_a_refused_paste_clears_every_result_of_the_previous_file(page: Any) -> None:
    page.set_default_timeout(30_000)  # a megabyte through the page: generous on a loaded machine
    paste(page, ROBOTS)
    page.fill("#agent", "Googlebot")
    page.fill("#urls", "/nogoogle/x")
    analysed(page)
    page.wait_for_selector("#verdicts .verdict")
    assert page.locator("#findings .finding").count() > 0 and page.locator("#matrix table").count() == 1
    big = "Disallow: /x\n" * (LIMITS["max_body"] // 13 + 1)
    # Put in as a paste puts it (one input event); typing a megabyte through the keyboard would take minutes.
    page.evaluate(
        "(text) => { const area = document.querySelector('#robots'); area.value = text;"
        " area.dispatchEvent(new Event('input', { bubbles: true })); }",
        big,
    )
    page.wait_for_function("() => document.querySelector('#status').classList.contains('error')")
    assert "too large" in page.inner_text("#status")
    for panel in RESULT_PANELS:
        shown = page.locator(f"#{panel}")
        assert shown.locator(".stale").count() == 1, panel
        assert shown.inner_text().strip() == page.inner_text(f"#{panel} .stale").strip(), panel
    assert page.locator("#verdicts .verdict, #findings .finding, #matrix table, #structure .group").count() == 0
    assert page.inner_text("#findings-count") == "" and page.get_attribute("#editor", "data-highlight") is None
    # A new language says the same in its words; a text within the limit brings the results back.
    in_korean_status = "() => /[\\uac00-\\ud7a3]/.test(document.querySelector('#verdicts .stale').textContent)"
    page.select_option("#lang", "ko")
    page.wait_for_function(in_korean_status)
    paste(page, ROBOTS)
    page.wait_for_selector("#verdicts .verdict")
    assert page.locator(".stale").count() == 0
    assert page.errors == []


def test_the_fetch_panel_offers_back_the_text_it_replaced(page: Any, server: Server) -> None:
    server.serve("/robots.txt", body=ROBOTS.encode())
    mine = "User-agent: *\nDisallow: /mine/\n"
    paste(page, mine)
    analysed(page)
    assert page.is_hidden("#fetch-swap")
    page.fill("#fetch-url", server.url("/"))
    page.click("#fetch-go")
    page.wait_for_selector("#fetch-result table.decisions")
    assert page.input_value("#robots") == ROBOTS
    assert page.is_visible("#fetch-swap")
    assert page.inner_text("#fetch-swap-note") == "The fetched file replaced the text that was in the editor."
    assert page.get_attribute("#fetch-swap-note", "role") == "status"  # announced to screen readers
    page.click("#fetch-swap-go")
    assert page.input_value("#robots") == mine
    assert page.evaluate("() => document.activeElement.id") == "fetch-swap-go"  # focus stays on the button
    assert page.inner_text("#fetch-swap-go") == "Load the fetched text again"
    analysed(page)
    assert "/mine/" in page.inner_text("#structure")
    # Text typed after a swap is kept: the next swap keeps it as the other text.
    paste(page, ROBOTS + "Disallow: /edited/\n")
    page.click("#fetch-swap-go")
    assert page.input_value("#robots") == ROBOTS
    page.click("#fetch-swap-go")
    assert page.input_value("#robots") == ROBOTS + "Disallow: /edited/\n"
    page.select_option("#lang", "ko")
    page.wait_for_function("() => document.documentElement.lang === 'ko'")
    assert HANGUL.search(page.inner_text("#fetch-swap-go")) and HANGUL.search(page.inner_text("#fetch-swap-note"))
    assert page.errors == []


def test_a_fetch_into_an_empty_editor_offers_no_restore(page: Any, server: Server) -> None:
    server.serve("/robots.txt", body=ROBOTS.encode())
    page.click("#clear")
    page.fill("#fetch-url", server.url("/"))
    page.click("#fetch-go")
    page.wait_for_selector("#fetch-result table.decisions")
    assert page.input_value("#robots") == ROBOTS and page.is_hidden("#fetch-swap")


def decision_words(page: Any) -> list[str]:
    words: list[str] = page.locator("#response-result table.decisions tbody .badge").all_inner_texts()
    return words


def test_the_response_box_shows_what_each_engine_does_with_a_pasted_response(page: Any, browser: Any) -> None:
    paste(page, ROBOTS)
    page.fill("#agent", "Googlebot")
    page.fill("#urls", "/nogoogle/x")
    page.fill("#response", "HTTP/1.1 503 Service Unavailable\nRetry-After: 120\nX-Robots-Tag: googlebot: noindex\n")
    page.wait_for_selector("#response-result table.decisions")
    assert decision_words(page) == ["disallow everything"] * 4 + ["allow everything"]  # Yandex: open
    assert "Google stops crawling for 12 hours" in page.inner_text("#response-result table.decisions")
    tags = page.locator("#response-result table.robots-tags tbody tr").all_inner_texts()
    assert [row.split("\t") for row in tags] == [["googlebot", "noindex"], ["every other crawler", "none"]]
    # A text/html 200 is parsed, with RFC 9309's media type noted; a redirect is followed.
    page.fill("#response", "HTTP/2 200\ncontent-type: text/html; charset=utf-8\n")
    page.wait_for_function("() => document.querySelector('#response-result').textContent.includes('text/html')")
    assert decision_words(page) == ["parse the rules"] * 5
    assert "RFC 9309 (Section 2.3) requires text/plain" in page.inner_text("#response-result .response-notes")
    page.fill("#response", "HTTP/1.1 301 Moved Permanently\nLocation: https://www.example.com/robots.txt\n")
    page.wait_for_function(
        "() => document.querySelector('#response-result .badge.action').textContent === 'follow the redirect'"
    )
    assert decision_words(page) == ["follow the redirect"] * 5
    # The response travels in the share link.
    page.wait_for_function("() => location.hash.length > 3")
    analysed(page)
    other = browser.new_context(locale="en-US").new_page()
    other.goto(page.url)
    other.wait_for_selector("#response-result table.decisions")
    assert other.input_value("#response") == page.input_value("#response")
    assert decision_words(other) == ["follow the redirect"] * 5
    other.context.close()
    page.select_option("#lang", "ko")
    page.wait_for_function(
        "() => /[\\uac00-\\ud7a3]/.test(document.querySelector('#response-result td.why').textContent)"
    )
    assert page.errors == []


def test_the_response_box_survives_a_hostile_paste(page: Any) -> None:
    paste(page, ROBOTS)
    garbage = "".join(chr(c) for c in range(1, 0x250) if c not in (10, 13)) * 50  # controls, Latin: one long line
    hostile = "HTTP/1.1 404 Not Found\n" + garbage + "\n" + "no header here\n" * 4000
    page.evaluate(
        "(text) => { const box = document.querySelector('#response'); box.value = text;"
        " box.dispatchEvent(new Event('input', { bubbles: true })); }",
        hostile,
    )
    page.wait_for_selector("#response-result .response-problems")
    assert decision_words(page) == ["allow everything"] * 5
    notes = page.inner_text("#response-result .response-notes")
    assert "Only the first 65,536 characters of the pasted response were read." in notes
    problems = page.locator("#response-result .response-problems li")
    assert problems.count() == 20 and problems.first.inner_text().startswith("line 2 a line of 29,")
    assert "\x01" not in page.inner_text("#response-result")
    assert page.errors == []


def served_text(page: Any) -> str:
    text: str = page.inner_text("#fetch-result ul.served")
    return text


def test_the_fetch_panel_and_the_response_box_say_how_the_file_was_served(page: Any, server: Server) -> None:
    # The fetch's `served` findings are the server's texts, the response box's notes the same judgment.
    labelled = "text/html; charset=utf-8"
    server.serve("/robots.txt", body=ROBOTS.encode(), headers={"Content-Type": labelled})
    page.fill("#fetch-url", server.url("/"))
    page.click("#fetch-go")
    page.wait_for_selector("#fetch-result ul.served li.finding")
    (said,) = served_findings(200, labelled)
    assert page.inner_text("#fetch-result h3 >> nth=1") == "How the file was served"
    shown = served_text(page)
    assert page.get_attribute("#fetch-result ul.served li.finding", "data-code") == "contentType"
    assert "sev-warning" in page.get_attribute("#fetch-result ul.served li.finding", "class")
    assert said.message.render("en") in shown and said.fix.render("en") in shown
    page.select_option("#lang", "ko")
    page.wait_for_function(
        "() => /[\\uac00-\\ud7a3]/.test(document.querySelector('#fetch-result ul.served .message')?.textContent)"
    )
    assert said.message.render("ko") in served_text(page)
    page.select_option("#lang", "en")
    # A text/plain label in another charset than UTF-8 is said too; a plain UTF-8 one says nothing.
    server.serve("/robots.txt", body=ROBOTS.encode(), headers={"Content-Type": "text/plain; charset=iso-8859-1"})
    page.click("#fetch-go")
    page.wait_for_function(
        "() => document.querySelector('#fetch-result ul.served')?.textContent.includes('charset iso-8859-1')"
    )
    assert "sev-info" in page.get_attribute("#fetch-result ul.served li.finding", "class")
    server.serve("/robots.txt", body=ROBOTS.encode(), headers={"Content-Type": "text/plain; charset=utf-8"})
    page.click("#fetch-go")
    page.wait_for_function(
        "() => document.querySelector('#fetch-result table.decisions')"
        " && !document.querySelector('#fetch-result ul.served')"
    )
    page.fill("#response", "HTTP/1.1 200 OK\nContent-Type: text/plain; charset=iso-8859-1\n")
    page.wait_for_selector("#response-result .response-notes")
    assert "Served with charset iso-8859-1, but RFC 9309" in page.inner_text("#response-result .response-notes")
    assert page.errors == []
