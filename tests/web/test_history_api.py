"""The history endpoints of the web API (`robotscope serve --store PATH`), through the ASGI app.

The store is filled through `HistoryStore.record` with hand-made fetch
results (tests/history/results.py) and a clock the tests move.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from robotscope.history import HistoryStore
from robotscope.watching.timeline import MAX_SHOWN, stored_timeline
from robotscope.web import create_app
from tests.clock import Clock
from tests.history.results import ORIGIN, failed, fetched
from tests.web.test_api import call

pytestmark = pytest.mark.usefixtures("isolated")

OPEN = b"User-agent: *\nDisallow: /private/\n"
CLOSED = b"User-agent: *\nDisallow: /\n"
KOREAN = "# 한국어 주석\nUser-agent: *\nDisallow: /비밀/\n".encode()
LATIN1 = "# café\nUser-agent: *\nDisallow: /x\n".encode("latin-1")
OTHER = "https://other.example:8443"
HANGUL = re.compile("[\uac00-\ud7a3]")
HOUR = 3600.0


def fill(path: Path) -> None:
    """example.com: a file, a timeout, the staging file (`Disallow: /`) as Googlebot; other.example: two files."""
    clock = Clock(1_764_547_200.0)  # 2025-12-01T00:00:00Z
    with HistoryStore(path, now=clock) as store:
        store.record(ORIGIN, "browser", fetched(OPEN))
        clock.now += HOUR
        store.record(ORIGIN, "GPTBot", failed("timeout"))
        clock.now += HOUR
        store.record(ORIGIN, "Googlebot", fetched(CLOSED))
        store.record(OTHER, "browser", fetched(KOREAN, origin=OTHER))
        clock.now += HOUR
        store.record(OTHER, "browser", fetched(LATIN1, origin=OTHER))


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("store") / "history.sqlite3"
    fill(path)
    return path


@pytest.fixture(scope="module")
def app(store: Path) -> Iterator[Any]:
    app = create_app(store=store)
    yield app
    app.state.workers.close()


def digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}


def test_info_says_whether_a_store_is_served(app: Any) -> None:
    assert call(app, "GET", "/api/info").json()["history"] is True
    bare = create_app()
    assert call(bare, "GET", "/api/info").json()["history"] is False


@pytest.mark.parametrize(
    "path", ["/api/history", f"/api/history?origin={ORIGIN}", f"/api/history/version?origin={ORIGIN}&id=1"]
)
def test_without_a_store_the_history_endpoints_answer_404(path: str) -> None:
    r = call(create_app(), "GET", path)
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "no-store" and "--store" in r.json()["error"]["message"]
    assert r.headers["x-content-type-options"] == "nosniff"


def test_the_origins_the_store_holds(app: Any) -> None:
    r = call(app, "GET", "/api/history")
    assert r.status_code == 200 and r.json() == {"origins": [ORIGIN, OTHER]}
    assert "default-src 'self'" in r.headers["content-security-policy"]


def test_the_timeline_has_each_version_and_the_alerts_of_a_disallow_all_deploy(app: Any) -> None:
    r = call(app, "GET", "/api/history", params={"origin": ORIGIN + "/any/page"})
    assert r.status_code == 200
    data = r.json()
    assert data["origin"] == ORIGIN and data["count"] == 2
    first, second = data["versions"]
    assert (first["number"], first["status"], first["size"]) == (1, 200, len(OPEN))
    assert first["short"] == hashlib.sha256(OPEN).hexdigest()[:12] and first["agents"] == ["browser"]
    assert first["first_seen"] == "2025-12-01T00:00:00Z" and first["alerts"] == [] and first["worst"] is None
    assert second["first_seen"] == second["last_seen"] == "2025-12-01T02:00:00Z" and second["agents"] == ["Googlebot"]
    # The staging file is the top alert, naming Googlebot and the line that does it.
    top = second["alerts"][0]
    assert (top["code"], top["severity"], second["worst"]) == ("siteBlocked", "critical", "critical")
    assert "Googlebot" in top["agents"] and {"line": 2, "text": "Disallow: /"} in top["after"]
    assert "Googlebot" in top["text"] and "Disallow: /" in top["text"]
    assert data["failure_count"] == 1
    assert data["failures"] == [{"at": "2025-12-01T01:00:00Z", "agent": "GPTBot", "failure": "timeout", "status": None}]


def test_the_alerts_come_in_the_language_asked_for(app: Any) -> None:
    data = call(app, "GET", "/api/history", params={"origin": ORIGIN, "lang": "ko"}).json()
    assert HANGUL.search(data["versions"][1]["alerts"][0]["text"])


def test_the_timeline_is_computed_in_the_worker_pool(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    pool = app.state.workers
    ran: list[Any] = []
    real = pool.run

    def run(function: Any, *args: Any) -> bytes:
        ran.append((function, args))
        answer: bytes = real(function, *args)
        return answer

    monkeypatch.setattr(pool, "run", run)
    assert call(app, "GET", "/api/history", params={"origin": ORIGIN}).status_code == 200
    assert [function for function, _ in ran] == [stored_timeline]


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"origin": ""}, "bad-origin"),
        ({"origin": "ftp://example.com"}, "bad-origin"),
        ({"origin": "https://"}, "bad-origin"),
        ({"origin": "https://example.com/" + "a" * 9000}, "bad-origin"),
    ],
)
def test_a_bad_origin_is_400(app: Any, params: dict[str, str], code: str) -> None:
    for path in ("/api/history", "/api/history/version"):
        r = call(app, "GET", path, params={**params, "id": "1"})
        assert r.status_code == 400, (path, r.text)
        assert r.json()["error"]["code"] == code and r.json()["error"]["message"]


@pytest.mark.parametrize("wanted", [None, "", "x", "-1", "1.0", "²", "1" * 19, " 1"])
def test_a_bad_version_id_is_400(app: Any, wanted: str | None) -> None:
    params = {"origin": ORIGIN} if wanted is None else {"origin": ORIGIN, "id": wanted}
    r = call(app, "GET", "/api/history/version", params=params)
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad-id"


def test_what_the_store_does_not_hold_is_404(app: Any) -> None:
    r = call(app, "GET", "/api/history", params={"origin": "https://nothing.example"})
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown-origin"
    for origin, wanted in ((ORIGIN, "99"), (ORIGIN, "3")):  # version 3 is other.example's
        r = call(app, "GET", "/api/history/version", params={"origin": origin, "id": wanted})
        assert r.status_code == 404 and r.json()["error"]["code"] == "unknown-version"


def test_a_version_text_keeps_unicode_and_non_utf8_bytes(app: Any) -> None:
    versions = call(app, "GET", "/api/history", params={"origin": OTHER}).json()["versions"]
    for version, body in zip(versions, (KOREAN, LATIN1), strict=True):
        r = call(app, "GET", "/api/history/version", params={"origin": OTHER, "id": str(version["id"])})
        assert r.status_code == 200
        data = r.json()
        assert data["origin"] == OTHER and data["id"] == version["id"] and data["short"] == version["short"]
        assert data["text"] == body.decode("utf-8", "replace")  # what the editor shows, as a fetch loads it
        assert base64.b64decode(data["base64"]) == body  # and the bytes, exactly
    assert "비밀" in call(app, "GET", "/api/history/version", params={"origin": OTHER, "id": "3"}).json()["text"]


def test_the_store_is_never_written(store: Path) -> None:
    before = digest(store.parent)
    app = create_app(store=store)
    try:
        for params in ({}, {"origin": ORIGIN}, {"origin": OTHER, "lang": "ko"}):
            assert call(app, "GET", "/api/history", params=params).status_code == 200
        assert call(app, "GET", "/api/history/version", params={"origin": ORIGIN, "id": "2"}).status_code == 200
        assert call(app, "POST", "/api/history", json={}).json()["error"]["code"] == "not-found"  # GET only
    finally:
        app.state.workers.close()
    after = digest(store.parent)
    assert after == before or set(after) - set(before) <= {"history.sqlite3-shm", "history.sqlite3-wal"}
    assert after["history.sqlite3"] == before["history.sqlite3"]


def test_a_store_that_goes_missing_is_503_and_not_made_again(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    fill(path)
    app = create_app(store=path)
    path.unlink()
    r = call(app, "GET", "/api/history")
    assert r.status_code == 503 and r.json()["error"]["code"] == "store-unavailable"
    assert not path.exists()


def test_only_the_newest_versions_are_listed(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    clock = Clock()
    with HistoryStore(path, now=clock) as store:
        for n in range(MAX_SHOWN + 2):
            clock.now += HOUR
            store.record(ORIGIN, "browser", fetched(OPEN + f"Disallow: /{n}/\n".encode()))
    app = create_app(store=path)
    try:
        data = call(app, "GET", "/api/history", params={"origin": ORIGIN}).json()
    finally:
        app.state.workers.close()
    assert data["count"] == MAX_SHOWN + 2 and len(data["versions"]) == MAX_SHOWN
    assert [v["number"] for v in data["versions"]] == list(range(3, MAX_SHOWN + 3))
    assert data["versions"][0]["alerts"]  # compared with version 2, which is not listed


def serve(monkeypatch: pytest.MonkeyPatch, args: list[str]) -> tuple[Any, list[Any]]:
    """`robotscope serve ARGS --no-browser` with uvicorn's server recording the app instead of serving it."""
    import uvicorn
    from click.testing import CliRunner

    from robotscope.cli import serve as serve_module

    apps: list[Any] = []

    class Server:
        def __init__(self, config: Any) -> None:
            self.config = config

        def run(self, sockets: list[Any]) -> None:
            apps.append(self.config.app)

    class Bound:  # no address is bound
        def __init__(self, host: str, port: int) -> None:
            self.port = port

        def getsockname(self) -> tuple[str, int]:
            return ("", self.port)

    monkeypatch.setattr(uvicorn, "Server", Server)
    monkeypatch.setattr(serve_module, "listen", Bound)
    return CliRunner().invoke(serve_module.serve, [*args, "--no-browser"]), apps


def test_serve_with_a_store_shows_it(monkeypatch: pytest.MonkeyPatch, store: Path) -> None:
    result, apps = serve(monkeypatch, ["--store", str(store)])
    assert result.exit_code == 0, result.output
    (app,) = apps
    assert call(app, "GET", "/api/info").json()["history"] is True
    assert call(app, "GET", "/api/history").json()["origins"] == [ORIGIN, OTHER]
    app.state.workers.close()


@pytest.mark.parametrize("kind", ["missing", "damaged", "folder"])
def test_serve_refuses_a_store_it_cannot_read_in_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, kind: str
) -> None:
    path = tmp_path / "history.sqlite3"
    if kind == "damaged":
        path.write_bytes(b"not a database" * 100)
    if kind == "folder":
        path.mkdir()
    result, apps = serve(monkeypatch, ["--store", str(path)])
    assert result.exit_code == 2 and apps == []
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("robotscope: ") and str(path) in lines[0], result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ([] if kind == "missing" else ["history.sqlite3"])
    if kind == "damaged":
        assert path.read_bytes() == b"not a database" * 100
