"""The static build (`robotscope build-site`) in Chromium, served by a plain static file server.

The site is built once (Pyodide from npm's `pyodide` package, fetched into a
temporary cache) and served by Python's `http.server` on 127.0.0.1; no
robotscope server answers its requests. Its answers are compared with the
server build's (`robotscope serve`, the `base_url` fixture) for the bundled
reference cases and a sample of the corpus. The Logs panel, which only this
build has, audits a generated log in the page and shows what
`robotscope logs` says of it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from robotscope.cli import cli
from robotscope.cli.build_site import PACKAGE
from robotscope.reports.audit.html import report
from robotscope.reports.selftest import load_cases
from tests.paths import CORPUS
from tests.reports.audit.builders import BUSY_FILES, busy_log, log_text
from tests.web.browser.pages import served, watched

pytestmark = pytest.mark.slow  # a real Chromium

SAMPLE = ("www.google.com", "en.wikipedia.org", "github.com", "www.bbc.co.uk", "aws.amazon.com", "developer.apple.com")
URLS = ["/", "/search?q=1", "/wiki/Special:Random", "/admin/", "/news/x.html", "https://www.example.com/api/v1?id=2"]
PATHS = ["/", "/search", "/private/"]
ROBOTS = (
    "User-agent: *\nDisallow: /private/\nAllow: /private/public-\nDisallow /oops\n\n"
    "User-agent: Googlebot\nDisallow: /nogoogle/\n"
)
READY_MS = 90_000  # Pyodide's first start on a loaded CI machine


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site") / "site"
    env = {"XDG_CACHE_HOME": str(tmp_path_factory.mktemp("build-cache"))}
    result = CliRunner().invoke(cli, ["build-site", str(out)], env=env)
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def static_url(site: Path) -> Iterator[str]:
    with served(site) as url:
        yield url


def opened(browser: Any, url: str, locale: str = "en-US") -> Any:
    """A new page on `url`, its engine ready; every request it makes is in `page.requests`."""
    page = watched(browser, 1280, 900, locale)
    page.set_default_timeout(20_000)
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']", state="attached", timeout=READY_MS)
    page.evaluate("() => window.robotscope.ready")
    return page


@pytest.fixture(scope="module")
def static_page(browser: Any, static_url: str) -> Iterator[Any]:
    page = opened(browser, static_url)
    yield page
    page.context.close()


@pytest.fixture(scope="module")
def server_page(browser: Any, base_url: str) -> Iterator[Any]:
    page = opened(browser, base_url + "/")
    yield page
    page.context.close()


def analyse(page: Any, body: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = page.evaluate("(body) => window.robotscope.analyse(body)", body)
    return answer


def analysed(page: Any) -> None:
    page.wait_for_timeout(350)
    page.wait_for_selector("body:not([data-busy])", state="attached")


def test_the_site_is_one_folder_with_the_core_and_its_own_pyodide(site: Path) -> None:
    built = json.loads((site / "robotscope-site.json").read_text())
    assert built["pyodide"] == "0.29.5" and (site / "pyodide" / "pyodide.asm.wasm").stat().st_size > 1_000_000
    assert '<meta name="robotscope-backend" content="pyodide">' in (site / "index.html").read_text()
    assert json.loads((site / "api" / "info.json").read_text())["fetch"] is False


def test_reference_cases_and_corpus_files_answer_as_the_server_build(static_page: Any, server_page: Any) -> None:
    bodies = []
    for case in load_cases():
        text = case["robots_raw"] if "robots_raw" in case else "\n".join(case["robots"])
        bodies.append({"text": text, "agent": case["agent"], "urls": [case["url"]], "paths": [], "lang": "en"})
    for name in SAMPLE:
        text = (CORPUS / name).read_bytes().decode("utf-8", "replace")
        for engine in ("rfc9309", "google"):
            bodies.append(
                {"text": text, "agent": "Googlebot", "urls": URLS, "paths": PATHS, "lang": "ko", "engine": engine}
            )
    assert len(bodies) > 80
    for body in bodies:
        ours, theirs = analyse(static_page, body), analyse(server_page, body)
        for key in ("verdicts", "findings", "readings", "structure", "matrix"):
            assert ours[key] == theirs[key], (key, body["text"][:60], body["agent"])
        assert ours == theirs


def test_the_self_test_runs_in_the_page(static_page: Any) -> None:
    for lang in ("en", "ko"):
        result = static_page.evaluate("(lang) => window.robotscope.selftest(lang)", lang)
        assert (result["passed"], result["total"], result["failed"]) == (73, 73, 0)
    static_page.click("#selftest-run")
    static_page.wait_for_function("() => /73/.test(document.getElementById('selftest-summary').textContent)")


def test_nothing_is_asked_of_any_other_origin_or_of_a_server(browser: Any, static_url: str) -> None:
    page = opened(browser, static_url)
    page.click("#load-sample")
    analysed(page)
    page.evaluate("() => window.robotscope.selftest('en')")
    assert page.requests and all(url.startswith(static_url) for url in page.requests), page.requests
    assert not any("/api/" in url and not url.endswith(".json") for url in page.requests)  # no JSON API
    assert page.errors == []
    # The fetch panel says the page fetches nothing, with the command to fetch by hand.
    assert page.is_hidden("#fetch-form") and page.is_visible("#fetch-offline")
    assert "curl -sL https://www.example.com/robots.txt" in page.inner_text("#fetch-offline")
    page.context.close()


def test_the_static_site_shows_no_history_panel(static_page: Any) -> None:
    # No server, so no history store: the site's info says so and the panel stays hidden.
    info = static_page.evaluate("() => fetch('api/info.json').then((r) => r.json())")
    assert info["history"] is False and info["fetch"] is False
    assert static_page.locator("#history-panel").count() == 1 and static_page.is_hidden("#history-panel")


def test_korean_and_english_in_the_static_build(browser: Any, static_url: str) -> None:
    page = opened(browser, static_url)
    page.fill("#robots", ROBOTS)
    page.fill("#agent", "Googlebot")
    page.fill("#urls", "/nogoogle/x")
    analysed(page)
    page.wait_for_selector(".verdict .verdict-word")
    assert page.inner_text(".verdict .verdict-word") == "DISALLOWED"
    page.select_option("#lang", "ko")
    page.wait_for_function("() => document.documentElement.lang === 'ko'")
    page.wait_for_function("() => /결정합니다/.test(document.querySelector('.verdict .reason').textContent)")
    assert page.inner_text(".verdict .verdict-word") == "차단"
    assert page.errors == []
    page.context.close()


@pytest.mark.parametrize("direction", ["server-to-static", "static-to-server"])
def test_a_share_link_made_in_one_build_opens_in_the_other(
    browser: Any, static_url: str, base_url: str, direction: str
) -> None:
    made_in, opened_in = (
        (base_url + "/", static_url) if direction == "server-to-static" else (static_url, base_url + "/")
    )
    page = opened(browser, made_in)
    page.fill("#robots", ROBOTS)
    page.fill("#agent", "Googlebot")
    page.fill("#urls", "/nogoogle/x")
    page.select_option("#lang", "ko")
    page.wait_for_function("() => document.documentElement.lang === 'ko'")
    analysed(page)
    page.wait_for_function("() => location.hash.length > 3")
    link = page.url[page.url.index("#") :]
    page.context.close()
    other = opened(browser, opened_in + link)
    other.wait_for_function("() => document.querySelector('.verdict .verdict-word')?.textContent === '차단'")
    assert other.input_value("#robots") == ROBOTS and other.input_value("#agent") == "Googlebot"
    assert other.input_value("#lang") == "ko" and int(other.get_attribute("#editor", "data-highlight")) == 7
    other.context.close()


def test_the_response_box_in_the_static_build_answers_as_the_server_build(static_page: Any, server_page: Any) -> None:
    # The static page fetches nothing: a pasted response is how it learns how the file was served.
    response = "HTTP/1.1 200 OK\nContent-Type: text/html\nX-Robots-Tag: bingbot: noindex\n"
    body = {"text": "<html><body>Just a moment...</body></html>", "agent": "Bingbot", "response": response}
    static, server = analyse(static_page, body)["response"], analyse(server_page, body)["response"]
    assert static == server and static["decisions"]["naver"]["action"] == "parse"
    # How the file was served is judged alike too: a text/plain label in another charset than UTF-8.
    body = {"text": ROBOTS, "response": "HTTP/1.1 200 OK\nContent-Type: text/plain; charset=iso-8859-1\n"}
    static, server = analyse(static_page, body)["response"], analyse(server_page, body)["response"]
    assert static == server and [n["code"] for n in static["notes"]] == ["response.charset"]
    static_page.fill("#response", body["response"])
    static_page.wait_for_selector("#response-result .response-notes")
    assert "Served with charset iso-8859-1" in static_page.inner_text("#response-result .response-notes")
    static_page.fill("#response", "HTTP/1.1 503 Service Unavailable\n")
    static_page.wait_for_function(  # the charset's answer, a parse, is on screen until the 503's comes
        "() => document.querySelector('#response-result table.decisions .badge')?.textContent === 'disallow everything'"
    )
    analysed(static_page)
    words = static_page.locator("#response-result table.decisions tbody .badge").all_inner_texts()
    assert words == ["disallow everything"] * 4 + ["allow everything"]  # Yandex: open
    assert static_page.errors == []


LOG_SITE = "https://shop.example"
LOG_ROBOTS = BUSY_FILES[1][1]  # GPTBot and CCBot disallowed, /private/ and /cart/ to every crawler
HOSTILE = '203.0.113.9 - - [02/Nov/2026:10:00:00 +0000] "<img src=x onerror=alert(1)> \u202e" 200 1 "-" "Googlebot"'


def cli_view(tmp_path: Path, log: str) -> dict[str, Any]:
    """What `robotscope logs --json` says of `log` against LOG_ROBOTS with the shipped lists and no DNS."""
    (tmp_path / "access.log").write_text(log)
    (tmp_path / "robots.txt").write_text(LOG_ROBOTS)
    lists = str(PACKAGE / "syntax" / "iplists")  # the snapshots the page has: no list a store keeps
    args = ["logs", str(tmp_path / "access.log"), "--robots", str(tmp_path / "robots.txt"), "--site", LOG_SITE]
    done = CliRunner().invoke(cli, [*args, "--lists", lists, "--no-dns", "--json", "--format", "combined"])
    assert done.exit_code == 0, done.stderr
    view: dict[str, Any] = json.loads(done.stdout)
    return view


def audit_in_page(page: Any, name: str, log: str, *, drop: bool) -> None:
    """Give the Logs panel `log` (chosen in the file dialog, or dropped on it) and LOG_ROBOTS; wait for the report."""
    if drop:
        page.evaluate(
            """([name, text]) => {
                const data = new DataTransfer();
                data.items.add(new File([text], name, { type: "text/plain" }));
                document.getElementById("logs-drop").dispatchEvent(
                    new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
            }""",
            [name, log],
        )
    else:
        page.set_input_files(
            "#logs-file-input", files=[{"name": name, "mimeType": "text/plain", "buffer": log.encode()}]
        )
    page.wait_for_function("(name) => document.getElementById('logs-file').textContent.startsWith(name)", arg=name)
    page.fill("#logs-robots", LOG_ROBOTS)
    page.fill("#logs-site", LOG_SITE)
    page.click("#logs-go")
    page.wait_for_selector("#logs-result[data-requests]", state="attached", timeout=120_000)


def shown_counts(page: Any) -> dict[str, int]:
    """The counts the report shows: each class's card, and the requests of the totals' line."""
    cards = page.eval_on_selector_all(
        "#logs-result .cards li", "lis => lis.map(li => [li.dataset.class, li.querySelector('b').textContent])"
    )
    return {kind: int(text.replace(",", "")) for kind, text in cards}


def test_a_log_chosen_in_the_logs_panel_is_audited_in_the_page_as_the_command_line_audits_it(
    browser: Any, static_url: str, tmp_path: Path
) -> None:
    log = log_text("combined", busy_log(days=20))
    assert len(log.encode()) > 2 * 1024 * 1024  # two slices of the page's
    expected = cli_view(tmp_path, log)
    page = opened(browser, static_url)
    assert page.is_visible("#logs-panel")
    before = len(page.requests)
    audit_in_page(page, "access.log", log, drop=False)
    assert page.requests[before:] == []  # the log went nowhere: not a request was made while it was audited
    assert shown_counts(page) == expected["classes"] and sum(expected["classes"].values()) == expected["audited"]
    result = page.locator("#logs-result")
    assert int(result.get_attribute("data-requests")) == expected["requests"] > 15_000
    assert page.evaluate("() => document.getElementById('logs-progress').value") == len(log.encode())
    assert f"{expected['requests']:,} lines read as combined" in page.inner_text("#logs-status")
    # The charts the command line's report draws (20 days: a bar per 6 hours), the same counts in them.
    bars = page.eval_on_selector_all(
        "#logs-result [data-section=requests-chart] rect.bar", "rs => rs.map(r => +r.dataset.count)"
    )
    assert len(bars) == report(expected, "en").split("violations-chart")[0].count('class="bar"') == 80 * 5
    assert sum(bars) == expected["requests"]
    assert page.locator("#logs-result g.marker").count() == 1  # one file, in force from the start
    # The report in Korean, drawn again from the audit kept in the worker, not audited again.
    page.select_option("#lang", "ko")
    page.wait_for_function("() => document.querySelector('#logs-result h1')?.textContent === '서버 로그 감사'")
    assert (
        shown_counts(page) == expected["classes"]
        and page.inner_text("#logs-title") == "서버 로그: 누가 robots.txt를 지켰나"
    )
    assert all(url.startswith(static_url) for url in page.requests) and page.errors == []
    page.context.close()


def test_hostile_lines_dropped_in_the_logs_panel_stay_text(browser: Any, static_url: str) -> None:
    log = log_text("combined", busy_log(days=1)[:50]) + HOSTILE + "\n" + "x" * 40_000 + "\n"
    page = opened(browser, static_url)
    audit_in_page(page, "<b>evil</b>.log", log, drop=True)
    report = page.locator("#logs-result")
    assert report.locator("img, script, iframe, b:has-text('evil')").count() == 0
    bad = page.inner_text("#logs-result [data-section=bad-lines]")
    assert "<img src=x onerror=alert(1)>" in bad and "\\u202e" in bad and "<b>evil</b>.log" in bad
    assert "longer than 32,768 bytes" in bad  # the long line: one bad line, never held
    assert page.errors == []
    page.context.close()


def test_the_served_page_has_no_logs_panel(server_page: Any) -> None:
    # Its back end has no `logs`: logs on the server's machine are for `robotscope logs`.
    assert server_page.locator("#logs-panel").count() == 1 and server_page.is_hidden("#logs-panel")
    assert server_page.evaluate("() => document.querySelector('link[href=\"static/audit.css\"]')") is None


def test_stop_ends_the_audit_with_the_lines_read_so_far(static_page: Any) -> None:
    log = log_text("combined", busy_log(days=1))
    static_page.set_input_files(
        "#logs-file-input", files=[{"name": "a.log", "mimeType": "text/plain", "buffer": log.encode()}]
    )
    static_page.fill("#logs-robots", LOG_ROBOTS)
    # Stop pressed before the first slice is read: the audit finishes at once, on nothing.
    static_page.evaluate(
        "() => { document.getElementById('logs-go').click(); document.getElementById('logs-stop').click(); }"
    )
    static_page.wait_for_selector("#logs-result[data-requests]", state="attached", timeout=60_000)
    assert static_page.get_attribute("#logs-result", "data-requests") == "0"
    assert "Stopped: the audit covers the lines read so far." in static_page.inner_text("#logs-status")
    assert static_page.is_hidden("#logs-stop") and static_page.is_enabled("#logs-go")


def test_the_export_panel_writes_in_the_page_what_the_server_writes(static_page: Any, server_page: Any) -> None:
    robots = "User-agent: GPTBot\nDisallow: /private/\nDisallow: /*.pdf$\n\nUser-agent: Code\nDisallow: /\n"
    shown = []
    for page in (static_page, server_page):
        page.fill("#robots", robots)
        for target in ("haproxy", "lighttpd"):
            page.select_option("#export-target", target)
            page.select_option("#export-choice", "all-named")
            page.click("#export-go")
            page.wait_for_function("() => !document.getElementById('export-panel').dataset.busy")
            page.wait_for_selector("#export-result .export-complete")
            files = page.locator("#export-result pre.export-text").all_inner_texts()
            said = page.locator("#export-result .export-warning").evaluate_all("(n) => n.map((x) => x.dataset.code)")
            shown.append((target, files, said))
    static, server = shown[:2], shown[2:]
    assert static == server
    assert static[1][2] == ["enforce.left.query", "enforce.collateral"]  # lighttpd: `$`; `Code`: Visual Studio Code
    assert static_page.errors == []
