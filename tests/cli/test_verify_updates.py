"""`robotscope verify --update` from a mirror on 127.0.0.1, and `verify --at` judging by the lists in force then."""

from __future__ import annotations

import gzip
import json
import sqlite3
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from robotscope.cli import cli
from robotscope.history import HistoryStore
from robotscope.history.schema import migrate
from robotscope.syntax.iplists import MAX_BYTES, snapshot
from robotscope.syntax.verification import list_sources
from tests.conftest import Server, respond
from tests.hostile import SlowServer, trickle
from tests.verifying.google_history import DROPPED, KEPT, google_store

pytestmark = pytest.mark.usefixtures("isolated")

MOVED = "198.51.100.7"  # in GPTBot's list of January 2030, not in February's
JANUARY = "2030-01-01T00:00:00Z"
FEBRUARY = "2030-02-01T00:00:00Z"


def ip_list(created: str, *prefixes: str) -> bytes:
    return json.dumps({"creationTime": created, "prefixes": [{"ipv4Prefix": p} for p in prefixes]}).encode()


def mirror(server: Server, gptbot: bytes) -> str:
    """Every registry list under /lists/ (192.0.2.0/24 in each), GPTBot's as given; the mirror's base URL."""
    for source in list_sources():
        server.serve(f"/lists/{source.name}", body=ip_list(JANUARY, "192.0.2.0/24"))
    server.serve("/lists/openai-gptbot.json", body=gptbot)
    return server.url("/lists/")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["verify", *args])
    return result.exit_code, result.stdout, result.stderr


def update(store: Path, base: str, *more: str) -> tuple[int, dict[str, Any]]:
    code, out, err = run("--update", "--update-from", base, "--store", str(store), "--json", *more)
    assert code in (0, 1), err
    said: dict[str, Any] = json.loads(out)
    return code, said


def outcomes(said: dict[str, Any]) -> dict[str, str]:
    return {found["name"]: found["outcome"] for found in said["lists"]}


def claim(*args: str) -> dict[str, Any]:
    code, out, err = run(MOVED, "--agent", "GPTBot", "--no-dns", "--json", *args)
    assert code in (0, 1), err
    found: dict[str, Any] = json.loads(out)
    return found


def test_two_versions_fetched_in_two_updates_give_two_verdicts_for_the_moved_address(
    server: Server, tmp_path: Path
) -> None:
    store = tmp_path / "history.sqlite3"
    base = mirror(server, ip_list(JANUARY, "198.51.100.0/24"))
    code, said = update(store, base)
    assert code == 0 and said["complete"] and set(outcomes(said).values()) == {"new"}
    server.serve("/lists/openai-gptbot.json", body=ip_list(FEBRUARY, "203.0.113.0/24"))  # the range moved
    code, said = update(store, base)
    assert code == 0 and outcomes(said)["openai-gptbot.json"] == "new"
    assert {o for name, o in outcomes(said).items() if name != "openai-gptbot.json"} == {"unchanged"}

    january = claim("--at", "2030-01-15", "--store", str(store))
    (one,) = january["claims"]
    assert one["status"] == "verified" and one["covering"][0]["creation_time"] == JANUARY
    assert january["lists"] == [{"list": "openai-gptbot.json", "creation_time": JANUARY}]
    february = claim("--at", "2030-02-15T12:00:00+09:00", "--store", str(store))
    assert february["claims"][0]["status"] == "spoofed"
    assert february["lists"] == [{"list": "openai-gptbot.json", "creation_time": FEBRUARY}]
    # Without --at: the newest version of each list, the stored ones included.
    assert claim("--store", str(store))["claims"][0]["status"] == "spoofed"
    # The text names the versions used.
    code, out, _ = run(MOVED, "--agent", "GPTBot", "--no-dns", "--at", "2030-01-15", "--store", str(store))
    assert code == 0
    assert out.splitlines()[0] == (
        f"lists in force at 2030-01-15T00:00:00Z: openai-gptbot.json (creationTime {JANUARY})"
    )


def test_before_any_version_the_claim_is_inconclusive_never_spoofed(server: Server, tmp_path: Path) -> None:
    store = tmp_path / "history.sqlite3"
    update(store, mirror(server, ip_list(JANUARY, "198.51.100.0/24")))
    said = claim("--at", "2000-01-01", "--store", str(store))
    assert said["claims"][0]["status"] == "inconclusive"
    assert said["lists"] == [{"list": "openai-gptbot.json", "creation_time": None}]
    code, out, _ = run("192.0.2.1", "--agent", "GPTBot", "--no-dns", "--at", "2000-01-01", "--store", str(store))
    assert code == 1 and "openai-gptbot.json (no version by then: not at hand)" in out
    # The shipped snapshot is a version of its own: in force from its creationTime.
    shipped = snapshot("openai-gptbot.json").creation_time
    assert shipped is not None and shipped < JANUARY
    between = claim("--at", "2029-12-31", "--store", str(store))
    assert between["lists"] == [{"list": "openai-gptbot.json", "creation_time": shipped}]
    assert between["claims"][0]["status"] == "spoofed"


def test_at_judges_by_googles_real_versions_an_address_google_dropped_between_them(tmp_path: Path) -> None:
    store = str(google_store(tmp_path / "history.sqlite3"))

    def googlebot(address: str, when: str) -> dict[str, Any]:
        code, out, err = run(address, "--agent", "Googlebot", "--no-dns", "--at", when, "--store", store, "--json")
        assert code in (0, 1), err
        found: dict[str, Any] = json.loads(out)
        return found

    before = googlebot(DROPPED, "2025-09-04T12:00:00Z")  # the version of 2025-09-03 is in force
    assert before["lists"] == [{"list": "google-common-crawlers.json", "creation_time": "2025-09-03T14:45:53.000000"}]
    assert (before["claims"][0]["status"], before["claims"][0]["method"]) == ("verified", "ip-list")
    after = googlebot(DROPPED, "2025-09-05")  # the version of 2025-09-04
    assert after["lists"] == [{"list": "google-common-crawlers.json", "creation_time": "2025-09-04T14:46:40.000000"}]
    assert (after["claims"][0]["status"], after["claims"][0]["method"]) == ("spoofed", "ip-list")
    assert googlebot(KEPT, "2025-09-05")["claims"][0]["status"] == "verified"  # a range both versions list
    code, out, _ = run(DROPPED, "--agent", "Googlebot", "--no-dns", "--at", "2025-09-05", "--store", store)
    assert code == 1 and out.splitlines()[0] == (
        "lists in force at 2025-09-05T00:00:00Z: google-common-crawlers.json (creationTime 2025-09-04T14:46:40.000000)"
    )


def test_at_with_lists_uses_the_folders_lists_as_the_only_versions(tmp_path: Path) -> None:
    folder = tmp_path / "lists"
    folder.mkdir()
    (folder / "openai-gptbot.json").write_bytes(ip_list(FEBRUARY, "198.51.100.0/24"))
    before = claim("--lists", str(folder), "--at", "2030-01-15")
    assert before["claims"][0]["status"] == "inconclusive"  # the shipped snapshot does not count
    after = claim("--lists", str(folder), "--at", "2030-02-15")
    assert after["claims"][0]["status"] == "verified"
    code, _, err = run(MOVED, "--agent", "GPTBot", "--lists", str(folder), "--store", str(tmp_path / "h.sqlite3"))
    assert code == 2 and "exclude each other" in err


def slow_list() -> Iterator[bytes]:
    """A status line, headers and a list, one byte per write: far past a one-second deadline."""
    yield from trickle(b"HTTP/1.1 200 OK\r\nContent-Length: 200\r\n\r\n" + ip_list(JANUARY, "192.0.2.0/24"))


def endless(handler: BaseHTTPRequestHandler) -> None:
    """A body longer than the budget, sent until the client stops reading."""
    handler.send_response(200)
    handler.send_header("Content-Length", str(MAX_BYTES + 2**20))
    handler.end_headers()
    chunk = b" " * 2**20
    try:
        for _ in range(MAX_BYTES // len(chunk) + 1):
            handler.wfile.write(chunk)
    except OSError:
        pass  # the client stopped at its budget


def stored_names(store: Path) -> set[str]:
    with HistoryStore(store, read_only=True) as kept:
        return {v.name for v in kept.list_versions()}


def test_hostile_lists_are_each_reported_by_name_and_the_others_stored(server: Server, tmp_path: Path) -> None:
    base = mirror(server, ip_list(JANUARY, "198.51.100.0/24"))
    server.routes["/lists/anthropic-bots.json"] = endless
    bomb = gzip.compress(b" " * (MAX_BYTES + 1) + ip_list(JANUARY, "192.0.2.0/24"))
    server.serve("/lists/bing-bingbot.json", body=bomb, headers={"Content-Encoding": "gzip"})
    server.serve("/lists/openai-searchbot.json", body=b"<html><body>Service unavailable</body></html>")
    del server.routes["/lists/perplexity-perplexity-user.json"]  # a 404
    store = tmp_path / "history.sqlite3"
    code, out, err = run("--update", "--update-from", base, "--store", str(store))
    assert code == 1, err
    lines = {line.split(":")[0]: line for line in out.splitlines()}
    assert "larger than 16,777,216 bytes" in lines["anthropic-bots.json"]
    assert "larger than 16,777,216 bytes" in lines["bing-bingbot.json"]  # once inflated
    assert "not JSON" in lines["openai-searchbot.json"] and "not stored" in lines["openai-searchbot.json"]
    assert "HTTP status 404" in lines["perplexity-perplexity-user.json"]
    assert "4 failed" in out and "the update is incomplete: 4 lists were not updated" in out
    failed = {"anthropic-bots.json", "bing-bingbot.json", "openai-searchbot.json", "perplexity-perplexity-user.json"}
    assert stored_names(store) == {source.name for source in list_sources()} - failed


def test_a_list_trickled_past_the_deadline_is_reported_and_the_others_stored(server: Server, tmp_path: Path) -> None:
    slow = SlowServer(lambda _: slow_list())
    try:
        base = mirror(server, ip_list(JANUARY, "198.51.100.0/24"))
        server.redirect("/lists/apple-applebot.json", slow.url("/applebot.json"))
        store = tmp_path / "history.sqlite3"
        code, out, err = run("--update", "--update-from", base, "--store", str(store), "--timeout", "2")
    finally:
        slow.close()
    assert code == 1, err
    (line,) = [line for line in out.splitlines() if line.startswith("apple-applebot.json")]
    assert "no complete answer within the 2 s deadline" in line
    assert stored_names(store) == {source.name for source in list_sources()} - {"apple-applebot.json"}


def test_an_unchanged_list_is_one_row_and_a_304_reuses_the_cached_copy(server: Server, tmp_path: Path) -> None:
    asked: list[str | None] = []
    body = ip_list(JANUARY, "198.51.100.0/24")

    def conditional(handler: BaseHTTPRequestHandler) -> None:
        asked.append(handler.headers.get("If-None-Match"))
        if handler.headers.get("If-None-Match") == '"v1"':
            respond(handler, 304, b"", {"ETag": '"v1"'})
        else:
            respond(handler, 200, body, {"ETag": '"v1"', "Content-Type": "application/json"})

    base = mirror(server, body)
    server.routes["/lists/openai-gptbot.json"] = conditional
    store = tmp_path / "history.sqlite3"
    assert outcomes(update(store, base)[1])["openai-gptbot.json"] == "new"
    code, said = update(store, base)
    assert code == 0 and outcomes(said)["openai-gptbot.json"] == "unchanged"
    assert asked == [None, '"v1"']  # asked again with the validator, answered 304 without a body
    db = sqlite3.connect(store)
    try:
        assert db.execute("SELECT count(*) FROM list_versions WHERE name = 'openai-gptbot.json'").fetchone() == (1,)
        first, last = db.execute("SELECT first_fetched, last_fetched FROM list_versions LIMIT 1").fetchone()
        assert last >= first
    finally:
        db.close()


def test_a_store_of_the_previous_schema_is_migrated_by_update_and_keeps_its_rows(
    server: Server, tmp_path: Path
) -> None:
    store = tmp_path / "history.sqlite3"
    db = sqlite3.connect(store, isolation_level=None)
    migrate(db, upto=2)
    db.execute(
        "INSERT INTO fetches (at, origin, agent, version_id, failure, status, truncated, size)"
        " VALUES (1.0, 'https://example.com', 'browser', NULL, '5xx', 503, 0, 0)"
    )
    db.close()
    # Read-only, a store of the previous schema is not read: named, it is an error.
    code, _, err = run(MOVED, "--agent", "GPTBot", "--no-dns", "--store", str(store))
    assert code == 2 and "schema version 2" in err
    code, _ = update(store, mirror(server, ip_list(JANUARY, "198.51.100.0/24")))
    assert code == 0
    with HistoryStore(store, read_only=True) as kept:
        assert len(kept.fetches("https://example.com")) == 1 and len(kept.list_versions()) == len(list_sources())
    assert claim("--store", str(store), "--at", "2030-01-02")["claims"][0]["status"] == "verified"


def test_bad_usage_is_one_line_and_exit_code_2(tmp_path: Path) -> None:
    store = str(tmp_path / "h.sqlite3")
    for args, said in (
        (("--update", "--update-from", "ftp://example.com/", "--store", store), "not an http:// or https:// URL"),
        (("--update-from", "http://127.0.0.1:9/"), "only used with --update"),
        (("--update", MOVED, "--store", store), "takes no IP"),
        ((MOVED, "--agent", "GPTBot", "--at", "last tuesday"), "ISO 8601"),
        ((MOVED,), "--agent UA"),
        ((MOVED, "--agent", "GPTBot", "--store", str(tmp_path / "none.sqlite3")), "none.sqlite3"),
    ):
        code, out, err = run(*args)
        assert (code, out) == (2, ""), args
        assert said in err and len(err.strip().splitlines()) == 1, (args, err)


def test_the_update_speaks_korean(server: Server, tmp_path: Path) -> None:
    base = mirror(server, b"not a list")
    code, out, _ = run("--update", "--update-from", base, "--store", str(tmp_path / "h.sqlite3"), "--lang", "ko")
    assert code == 1
    assert "openai-gptbot.json: JSON이" in out or "저장하지 않았습니다" in out
    assert "갱신이 완전하지 않습니다: 목록 1개를 갱신하지 못했고" in out
