"""`robotscope watch` against a real local site that changes its robots.txt between runs, and a real webhook."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from robotscope.cli import cli
from robotscope.cli.options import seconds_of
from robotscope.history import HistoryStore
from tests.conftest import Server, respond
from tests.hostile import SlowServer, trickle
from tests.reports.watch.samples import CLOUDFLARE_BLOCK, GOOD

pytestmark = pytest.mark.usefixtures("isolated")

STAGING = b"User-agent: *\nDisallow: /\n"


class Site:
    """A site on 127.0.0.1 whose robots.txt the test changes: a status and body, and another body for GPTBot."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.status = 200
        self.body = GOOD
        self.for_gptbot: bytes | None = None
        self.agents: list[str] = []
        server.routes["/robots.txt"] = self._answer

    def _answer(self, handler: BaseHTTPRequestHandler) -> None:
        agent = handler.headers.get("User-Agent", "")
        self.agents.append(agent)
        body = self.for_gptbot if self.for_gptbot is not None and "GPTBot" in agent else self.body
        respond(handler, self.status, body)

    @property
    def url(self) -> str:
        return self.server.url("/")


@pytest.fixture
def site(server: Server) -> Site:
    return Site(server)


def watch(store: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["watch", *args, "--store", str(store)])
    return result.exit_code, result.stdout, result.stderr


def run_json(site: Site, store: Path, *args: str) -> tuple[int, dict[str, Any]]:
    code, out, _ = watch(store, site.url, "--json", *args)
    return code, json.loads(out)


def alerts(document: dict[str, Any]) -> list[dict[str, Any]]:
    return [alert for origin in document["origins"] for alert in origin["alerts"]]


def test_the_same_file_twice_is_one_version_and_the_second_run_says_nothing(site: Site, tmp_path: Path) -> None:
    store = tmp_path / "h.sqlite3"
    code, first = run_json(site, store)
    assert code == 0 and [a["code"] for a in alerts(first)] == ["firstSeen"]
    # Fetched as the browser (first: the reference), Googlebot and GPTBot, once each.
    assert [a.split("/")[0][:7] for a in site.agents] == ["Mozilla", "Mozilla", "Mozilla"]
    assert "Googlebot" in site.agents[1] and "GPTBot" in site.agents[2]
    code, second = run_json(site, store)
    assert code == 0 and alerts(second) == []
    assert [f["new"] for f in second["origins"][0]["fetches"]] == [False, False, False]
    with HistoryStore(store) as kept:
        assert len(kept.versions(site.url)) == 1
        assert len(kept.fetches(site.url)) == 6


def test_a_staging_deploy_is_the_top_alert_naming_googlebot_and_the_line(site: Site, tmp_path: Path) -> None:
    store = tmp_path / "h.sqlite3"
    run_json(site, store)
    site.body = STAGING
    code, document = run_json(site, store)
    assert code == 1  # --fail-on major by default
    top = alerts(document)[0]
    assert top["code"] == "siteBlocked" and top["severity"] == "critical"
    assert "Googlebot" in top["agents"]
    assert top["after"] == [{"line": 2, "text": "Disallow: /"}]
    # The text output says the same, worst first.
    site.body = GOOD
    watch(store, site.url)
    site.body = STAGING
    code, out, _ = watch(store, site.url)
    lines = out.splitlines()
    assert code == 1 and lines[1].startswith("  critical siteBlocked: Googlebot")
    assert "after: line 2: Disallow: /" in lines[2]


def test_a_503_is_a_failure_with_each_engines_consequence_not_a_version(site: Site, tmp_path: Path) -> None:
    store = tmp_path / "h.sqlite3"
    run_json(site, store)
    site.status = 503
    code, document = run_json(site, store)
    assert code == 1
    top = alerts(document)[0]
    assert top["code"] == "fetchFailed" and top["severity"] == "critical"
    text = top["text"]
    assert "everything is disallowed" in text and "Yandex" in text and "the site is open" in text
    assert [f["failure"] for f in document["origins"][0]["fetches"]] == ["5xx", "5xx", "5xx"]
    with HistoryStore(store) as kept:
        assert len(kept.versions(site.url)) == 1  # the 503 is no version
    site.status = 200
    code, document = run_json(site, store)
    assert code == 0 and [a["code"] for a in alerts(document)] == ["fetchRecovered"]


def test_cloudflares_managed_block_is_named(site: Site, tmp_path: Path) -> None:
    store = tmp_path / "h.sqlite3"
    run_json(site, store)
    site.body = CLOUDFLARE_BLOCK + GOOD
    _, document = run_json(site, store)
    found = {a["code"]: a for a in alerts(document)}
    assert "edgeBlockAdded" in found
    assert "Cloudflare" in found["edgeBlockAdded"]["text"] and "GPTBot" in found["edgeBlockAdded"]["text"]


def test_a_file_served_differently_to_gptbot_is_flagged(site: Site, tmp_path: Path) -> None:
    site.for_gptbot = STAGING
    _, document = run_json(site, tmp_path / "h.sqlite3")
    found = [a for a in alerts(document) if a["code"] == "servedDifferently"]
    assert len(found) == 1 and found[0]["agents"][0] == "browser" and found[0]["agents"][1] == "GPTBot"
    assert found[0]["details"][0]["code"] == "aiBlocked" and found[0]["details"][0]["agents"] == ["GPTBot"]


def test_history_at_gives_the_version_in_force(site: Site, tmp_path: Path) -> None:
    store = tmp_path / "h.sqlite3"
    run_json(site, store)
    between = datetime.now(UTC).isoformat()
    time.sleep(1.1)  # the store keeps seconds: the second version is seen after `between`
    site.body = STAGING
    run_json(site, store)
    for moment, expected in ((between, GOOD), (datetime.now(UTC).isoformat(), STAGING)):
        shown = CliRunner().invoke(cli, ["history", site.url, "--store", str(store), "--at", moment, "--json"])
        assert shown.exit_code == 0, shown.stderr
        assert json.loads(shown.stdout)["version"]["sha256"] == __import__("hashlib").sha256(expected).hexdigest()


def test_an_expectation_that_fails_is_an_alert(site: Site, tmp_path: Path) -> None:
    expect = tmp_path / "expect.toml"
    expect.write_text('[[allow]]\nagent = "Googlebot"\nurl = "/products/"\n')
    run_json(site, tmp_path / "h.sqlite3", "--expect", str(expect))
    site.body = STAGING
    _, document = run_json(site, tmp_path / "h.sqlite3", "--expect", str(expect))
    assert "expectAllow" in [a["code"] for a in alerts(document)]


def test_fail_on_never_exits_0_and_info_counts_a_first_version(site: Site, tmp_path: Path) -> None:
    site.body = STAGING
    assert watch(tmp_path / "a.sqlite3", site.url, "--fail-on", "never")[0] == 0
    assert watch(tmp_path / "b.sqlite3", site.url, "--fail-on", "info")[0] == 1


class Receiver:
    """A webhook receiver on 127.0.0.1: keeps each POSTed JSON body; answers `status`."""

    def __init__(self, status: int = 200) -> None:
        self.bodies: list[dict[str, Any]] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                receiver.bodies.append(json.loads(self.rfile.read(length)))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.01,), daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/hook"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    made = Receiver()
    yield made
    made.close()


def test_the_webhook_receives_the_alerts_as_json_and_as_slack(site: Site, tmp_path: Path, receiver: Receiver) -> None:
    store = tmp_path / "h.sqlite3"
    watch(store, site.url)
    site.body = STAGING
    code, _, _ = watch(store, site.url, "--webhook", receiver.url)
    assert code == 1
    sent = receiver.bodies[-1]
    assert sent["origin"] == site.url.rstrip("/") and sent["worst"] == "critical"
    assert sent["alerts"][0]["code"] == "siteBlocked"
    site.body = GOOD
    watch(store, site.url, "--webhook", receiver.url, "--webhook-format", "slack")
    slack = receiver.bodies[-1]
    assert set(slack) == {"text", "blocks"} and site.url.rstrip("/") in slack["text"]


def test_nothing_is_sent_when_nothing_changed(site: Site, tmp_path: Path, receiver: Receiver) -> None:
    store = tmp_path / "h.sqlite3"
    watch(store, site.url, "--fail-on", "never")
    before = len(receiver.bodies)
    assert watch(store, site.url, "--webhook", receiver.url)[0] == 0
    assert len(receiver.bodies) == before


def test_a_webhook_that_fails_is_reported_and_exits_1(site: Site, tmp_path: Path) -> None:
    refusing = Receiver(status=500)
    try:
        code, out, err = watch(tmp_path / "h.sqlite3", site.url, "--webhook", refusing.url, "--fail-on", "never")
    finally:
        refusing.close()
    assert code == 1 and "did not take the alerts" in err and "HTTP 500" in err
    assert "firstSeen" in out  # the run is still shown


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--once", "--every", "1h"], "exclude each other"),
        (["--every", "5s"], "at least 10 s"),
        (["--every", "soon"], "“soon”"),
        (["--agents", " , "], "empty"),
    ],
)
def test_bad_usage_is_one_line_and_exit_2(site: Site, tmp_path: Path, args: list[str], said: str) -> None:
    code, _, err = watch(tmp_path / "h.sqlite3", site.url, *args)
    assert code == 2 and said in err and len(err.strip().splitlines()) == 1


def test_a_url_without_a_robots_txt_is_exit_2(tmp_path: Path) -> None:
    code, _, err = watch(tmp_path / "h.sqlite3", "ftp://example.com/")
    assert code == 2 and err.startswith("robotscope: ftp://example.com/")


def test_durations() -> None:
    assert [seconds_of(v) for v in ("30s", "15m", "1h", "1d", "90", "1.5h")] == [30, 900, 3600, 86400, 90, 5400]
    assert seconds_of("1w") is None and seconds_of("") is None and seconds_of("-1m") is None


def test_every_runs_until_ctrl_c_and_stops_cleanly(site: Site, tmp_path: Path) -> None:
    command = [sys.executable, "-m", "robotscope.cli", "watch", site.url, "--every", "10s", "--json"]
    command += ["--store", str(tmp_path / "h.sqlite3")]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert process.stdout is not None
        first = process.stdout.readline()  # the first run's document, then the watch sleeps
        assert json.loads(first)["run"] == 1
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0 and "stopped after 1 run" in err and "Traceback" not in err


def test_each_fetch_says_new_back_or_unchanged(site: Site, tmp_path: Path) -> None:
    store = tmp_path / "h.sqlite3"
    first = watch(store, site.url)[1].splitlines()[0]
    assert first.count("new version") == 3  # the browser brought it to the store; new to this run for all
    site.body = STAGING
    watch(store, site.url)
    site.body = GOOD
    again = watch(store, site.url)[1].splitlines()[0]
    assert again.count(" back") == 3 and "new version" not in again
    same = watch(store, site.url)[1].splitlines()[0]
    assert same.count("unchanged") == 3


def test_the_sitemaps_first_urls_are_asked_when_the_file_changes(site: Site, tmp_path: Path) -> None:
    page = site.server.url("/catalog/item-7.html")
    urlset = f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>{page}</loc></url></urlset>'
    site.server.serve("/sitemap.xml", body=urlset.encode(), headers={"Content-Type": "application/xml"})
    listed = f"Sitemap: {site.server.url('/sitemap.xml')}\n".encode()
    site.body = b"User-agent: *\nDisallow: /cart/\n" + listed
    store = tmp_path / "h.sqlite3"
    run_json(site, store)
    run_json(site, store)
    assert site.server.hits["/sitemap.xml"] == 0  # neither a first version nor an unchanged one flips anything
    site.body = b"User-agent: *\nDisallow: /cart/\nDisallow: /*.html$\n" + listed
    _, document = run_json(site, store)
    assert site.server.hits["/sitemap.xml"] == 1
    flipped = [url for alert in alerts(document) for url in alert["urls"]]
    assert page in flipped


def test_a_webhook_that_trickles_its_answer_is_cut_at_the_deadline(site: Site, tmp_path: Path) -> None:
    # The status line one byte at a time, never finished within the deadline: the run still ends.
    slow = SlowServer(lambda _: trickle(b"HTTP/1.1 200 OK\r\n" * 100), pause=0.2)
    try:
        started = time.process_time()
        code, _, err = watch(
            tmp_path / "h.sqlite3", site.url, "--webhook", slow.url("/hook"), "--timeout", "1", "--fail-on", "never"
        )
    finally:
        slow.close()
    assert code == 1 and "no answer within 1 s" in err
    assert time.process_time() - started < 30  # CPU, not wall: the wait costs none
