"""`robotscope logs --html`'s report in Chromium: it renders its charts, asks for nothing, and reads in Korean.

The report of a generated three-day log (`builders.busy_log`, the robots.txt
changed twice) is written by the CLI and served by `http.server` on
127.0.0.1. Every request the page makes is recorded. The screenshots go to
test-output/; with ROBOTSCOPE_DOCS_IMAGES=1 the English one also replaces
docs/images/logs-report.png, the one the README and docs/logs.md show:

    ROBOTSCOPE_DOCS_IMAGES=1 pytest tests/web/browser/test_logs_report.py
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from click.testing import CliRunner

from robotscope.cli import cli
from robotscope.reports.audit.html import BREACHES
from tests.paths import ROOT
from tests.reports.audit.builders import BUSY_FILES, busy_log, log_text
from tests.web.browser.pages import served, watched

pytestmark = pytest.mark.slow  # a real Chromium

OUTPUT = ROOT / "test-output"
DOCS_IMAGE = ROOT / "docs" / "images" / "logs-report.png"
SITE = "https://shop.example"


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    """The reports in English and Korean served on 127.0.0.1, and the audit's JSON view they draw."""
    folder = tmp_path_factory.mktemp("logs-report")
    (folder / "access.log").write_text(log_text("combined", busy_log()))
    snapshots = folder / "robots" / "shop.example"
    snapshots.mkdir(parents=True)
    for since, text in BUSY_FILES:
        (snapshots / f"{datetime.fromtimestamp(since, UTC):%Y-%m-%dT%H:%MZ}.txt").write_text(text)
    args = ["logs", str(folder / "access.log"), "--robots-dir", str(folder / "robots"), "--site", SITE, "--no-dns"]
    for lang in ("en", "ko"):
        done = CliRunner().invoke(cli, [*args, "--html", str(folder / f"report-{lang}.html"), "--lang", lang])
        assert done.exit_code == 0, done.stderr
    done = CliRunner().invoke(cli, [*args, "--json"])
    view = json.loads(done.stdout)
    with served(folder) as url:
        yield url, view


def opened(browser: Any, url: str, locale: str = "en-US") -> Any:
    """A page showing `url`, every request it made in `page.requests`, console errors in `page.errors`."""
    page = watched(browser, 1200, 1500, locale)
    page.goto(url, wait_until="networkidle")
    return page


def test_the_report_draws_its_charts_from_the_data_and_asks_for_nothing(browser: Any, reports: Any) -> None:
    base, view = reports
    page = opened(browser, base + "report-en.html")
    try:
        assert page.requests == [base + "report-en.html"]  # the page alone: no font, script, image or style
        assert page.errors == []  # a Content-Security-Policy violation would be one
        hours = view["hours"]
        drawn = page.eval_on_selector_all(
            "[data-section=requests-chart] rect.bar", "bars => bars.map(b => [b.dataset.series, +b.dataset.count])"
        )
        assert len(drawn) == sum(1 for hour in hours for count in hour["purposes"].values() if count)
        assert sum(count for series, count in drawn if series == "unaudited") == view["unaudited"]
        breaches = page.eval_on_selector_all(
            "[data-section=violations-chart] rect.bar", "bars => bars.map(b => +b.dataset.count)"
        )
        kinds = BREACHES  # violations, spoofs, unverified claims and requests within grace
        assert len(breaches) == sum(1 for hour in hours for kind in kinds if hour["classes"].get(kind))
        assert sum(breaches) == sum(view["classes"][kind] for kind in kinds)
        # Each version is marked: the first at the left edge (in force when the log begins), the others inside.
        markers = page.eval_on_selector_all("g.marker", "gs => gs.map(g => g.dataset.version)")
        assert markers == [str(version["number"]) for version in view["versions"]] == ["1", "2", "3"]
        lines = page.eval_on_selector_all("g.line-bar", "gs => gs.map(g => +g.dataset.count)")
        assert sum(lines) == view["classes"]["violation"]
        # Drawn, not only present: every chart has a size on the page, and its bars are laid out inside it.
        for section in ("requests-chart", "violations-chart", "lines-chart"):
            box = page.locator(f"[data-section={section}] svg.chart").bounding_box()
            assert box["width"] > 900 and box["height"] > 100, (section, box)
        tallest = page.evaluate(
            "() => Math.max(...[...document.querySelectorAll('rect.bar')].map(r => r.getBoundingClientRect().height))"
        )
        assert tallest > 100
        rows = page.locator("[data-section=crawlers] tbody tr").count()
        assert rows == len(view["crawlers"]) == 6
        OUTPUT.mkdir(exist_ok=True)
        page.screenshot(path=str(OUTPUT / "logs-report.png"))
        if os.environ.get("ROBOTSCOPE_DOCS_IMAGES") == "1":
            DOCS_IMAGE.parent.mkdir(exist_ok=True)
            shutil.copyfile(OUTPUT / "logs-report.png", DOCS_IMAGE)
    finally:
        page.context.close()


def test_the_korean_report_is_drawn_in_a_korean_font(browser: Any, reports: Any) -> None:
    base, _ = reports
    page = opened(browser, base + "report-ko.html", locale="ko-KR")
    try:
        assert page.requests == [base + "report-ko.html"] and page.errors == []
        assert page.inner_text("h1") == "서버 로그 감사"
        assert page.locator("[data-section=requests-chart] h2").inner_text() == "시간에 따른 요청, 목적별"
        legend = page.locator("[data-section=requests-chart] .legend").inner_text()
        assert "검색 엔진" in legend and "AI 학습" in legend
        # The glyphs come from a font that has them (Debian's fonts-noto-cjk), not from boxes of a fallback.
        cdp = page.context.new_cdp_session(page)
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument")["root"]["nodeId"]
        heading = cdp.send("DOM.querySelector", {"nodeId": root, "selector": "h1"})["nodeId"]
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": heading})["fonts"]
        assert any("CJK" in font["familyName"] and font["glyphCount"] >= 6 for font in fonts), fonts
        OUTPUT.mkdir(exist_ok=True)
        page.screenshot(path=str(OUTPUT / "logs-report-ko.png"))
    finally:
        page.context.close()
