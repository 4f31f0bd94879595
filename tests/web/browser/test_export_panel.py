"""The export panel in a real browser (Debian's Chromium through Playwright), against uvicorn on 127.0.0.1.

Uses the server, browser and page fixtures of conftest.py. The static build's panel is in test_static_site.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from robotscope import parse
from robotscope.reports.api import EXPORT_ACL_DIR
from robotscope.reports.enforce import export

from .test_page import HANGUL, OUTPUT

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("isolated")]  # a real Chromium

ROBOTS = (
    "User-agent: GPTBot\nUser-agent: ClaudeBot\nDisallow: /private/\nAllow: /private/open/\nDisallow: /*.pdf$\n\n"
    "User-agent: *\nDisallow: /admin/\n"
)


def exported(page: Any) -> None:
    page.wait_for_function("() => !document.getElementById('export-panel').dataset.busy")
    page.wait_for_selector("#export-result .export-complete, #export-result .error")


def write(page: Any, target: str, choice: str, tokens: str = "") -> None:
    page.select_option("#export-target", target)
    page.select_option("#export-choice", choice)
    if tokens:
        page.fill("#export-list", tokens)
    page.click("#export-go")
    exported(page)


def test_the_rules_of_the_file_with_comments_warnings_and_downloads(page: Any, tmp_path: Path) -> None:
    page.fill("#robots", ROBOTS)
    assert page.is_hidden("#export-list")
    assert page.locator("#export-target option").all_inner_texts() == [
        "nginx",
        "apache",
        "caddy",
        "haproxy",
        "lighttpd",
    ]
    page.select_option("#export-choice", "list")
    assert page.is_visible("#export-list")
    write(page, "lighttpd", "list", "GPTBot, ClaudeBot")
    _, result = export(parse(ROBOTS), "lighttpd", "GPTBot, ClaudeBot", lang="en", acl_dir=EXPORT_ACL_DIR)
    shown = page.inner_text("#export-result pre.export-text")
    assert shown.rstrip("\n") == result.files[0][1].rstrip("\n")
    assert "# robots.txt line 3: Disallow: /private/" in shown and "# robots.txt line 4: Allow: /private/open/" in shown
    # What lighttpd cannot express is said above the file: `$` looks past the path.
    assert "Rules left to robots.txt alone" in page.inner_text("#export-result .export-complete")
    warnings = page.locator("#export-result .export-warning")
    assert warnings.count() == 1 and warnings.get_attribute("data-code") == "enforce.left.query"
    assert "line 5 `Disallow: /*.pdf$`" in warnings.inner_text()
    with page.expect_download() as download:
        page.click("#export-result .export-download")
    saved = tmp_path / "saved.conf"
    download.value.save_as(saved)
    assert download.value.suggested_filename == "robotscope.conf"
    assert saved.read_text(encoding="utf-8") == result.files[0][1]
    assert page.errors == []


def test_haproxy_shows_each_file_and_copies_it(page: Any) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.fill("#robots", ROBOTS)
    write(page, "haproxy", "all-named")
    names = page.locator("#export-result .export-file").evaluate_all("(nodes) => nodes.map((n) => n.dataset.name)")
    assert names == ["robotscope.cfg", "robotscope-agents-1.regex"]  # GPTBot and ClaudeBot: one group
    assert f"-f {EXPORT_ACL_DIR}/robotscope-agents-1.regex" in page.inner_text("#export-result pre.export-text")
    assert "The server refuses everything" in page.inner_text("#export-result .export-complete")
    page.locator("#export-result .export-copy").nth(1).click()
    page.wait_for_function("() => document.querySelectorAll('.export-copied')[1].textContent !== ''")
    assert page.locator("#export-result .export-copied").nth(1).inner_text() == "Copied."
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied == page.locator("#export-result pre.export-text").nth(1).inner_text()
    assert copied.splitlines()[1:] == [
        "(?:^|[\\x09\\x20(,;])(?:GPTBot)(?:[\\x09\\x20),/;]|$)",
        "(?:^|[\\x09\\x20(,;])(?:ClaudeBot)(?:[\\x09\\x20),/;]|$)",
    ]


def test_a_name_that_is_no_product_token_is_refused_with_the_reason(page: Any) -> None:
    page.fill("#robots", ROBOTS)
    write(page, "nginx", "list", "ChatGPT Agent")
    assert page.inner_text("#export-result .error") == (
        "Could not write the rules: `ChatGPT Agent` is no product token (letters, digits, `-` and `_` only): "
        "it has a space"
    )


def test_collateral_and_notes_and_korean(page: Any) -> None:
    page.fill("#robots", "User-agent: Code\nUser-agent: Google-Extended\nDisallow: /\n")
    write(page, "caddy", "all-named")
    warning = page.locator("#export-result .export-warning")
    assert warning.get_attribute("data-code") == "enforce.collateral" and "Visual Studio Code" in warning.inner_text()
    notes = page.locator("#export-result .export-notes li")
    assert "enforce.skipped.control" in notes.evaluate_all("(nodes) => nodes.map((n) => n.dataset.code)")
    page.select_option("#lang", "ko")
    page.wait_for_function(
        "() => /[\\uac00-\\ud7a3]/.test(document.querySelector('#export-result .export-warning')?.textContent)"
    )
    exported(page)
    assert page.inner_text("#export-title") == "서버에서 막기"
    assert HANGUL.search(page.inner_text("#export-result pre.export-text"))  # the file's own comments
    assert page.inner_text("#export-go") == "규칙 쓰기"
    page.locator("#export-panel").scroll_into_view_if_needed()
    OUTPUT.mkdir(exist_ok=True)
    page.locator("#export-panel").screenshot(path=str(OUTPUT / "screenshot-export.png"))
    assert page.errors == []
