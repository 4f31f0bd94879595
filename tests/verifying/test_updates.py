"""`update_lists` and `list_history`: which fetched bodies become versions, and how they join the snapshots."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from robotscope.history import HistoryStore
from robotscope.syntax.iplists import read_list, snapshot
from robotscope.syntax.listhistory import ListHistory
from robotscope.syntax.verification import list_source
from robotscope.verifying.updates import Outcome, list_history, list_url, update_lists
from tests.clock import Clock
from tests.conftest import Server, respond
from tests.fuzz.fuzz_listupdate import SEEDS, check

pytestmark = pytest.mark.usefixtures("isolated")

NAME = "openai-gptbot.json"
SOURCE = list_source(NAME)
assert SOURCE is not None


def test_the_mirror_holds_each_list_under_its_registry_name() -> None:
    assert SOURCE is not None
    assert list_url(SOURCE, None) == "https://openai.com/gptbot.json"
    assert list_url(SOURCE, "http://127.0.0.1:8000/lists") == "http://127.0.0.1:8000/lists/openai-gptbot.json"
    assert list_url(SOURCE, "http://127.0.0.1:8000/lists/") == "http://127.0.0.1:8000/lists/openai-gptbot.json"


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (b'{"prefixes": [{"ipv4Prefix": "198.51.100.0/24"}]}', "no `creationTime`"),
        (b'{"creationTime": "yesterday", "prefixes": [{"ipv4Prefix": "198.51.100.0/24"}]}', "not an ISO 8601"),
        (b'{"creationTime": "2030-01-01T00:00:00Z", "prefixes": []}', "no usable prefix"),
        (b'{"creationTime": "2030-01-01T00:00:00Z", "prefixes": [{"ipv4Prefix": "nope"}]}', "no usable prefix"),
        (b'{"creationTime": "2030-01-01T00:00:00Z"}', "no usable prefix"),
        (b"\xff\xfe not text", "not UTF-8"),
        (b"[1, 2]", "not a JSON object"),
    ],
)
def test_a_body_that_is_no_dated_list_with_a_prefix_is_not_a_version(
    server: Server, tmp_path: Path, body: bytes, said: str
) -> None:
    assert SOURCE is not None
    server.serve("/openai-gptbot.json", body=body)
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        (found,) = update_lists(store, base=server.url("/"), sources=[SOURCE])
        assert found.outcome is Outcome.FAILED and said in found.reason.render()
        assert found.reason.render().startswith(NAME) and store.list_versions() == []
        assert "openai-gptbot.json" in found.reason.render("ko")


def test_a_download_that_breaks_is_reported_with_why(server: Server, tmp_path: Path) -> None:
    assert SOURCE is not None
    whole = gzip.compress(b'{"creationTime": "2030-01-01", "prefixes": [{"ipv4Prefix": "198.51.100.0/24"}]}')
    cases = {
        "/loop.json": "more than 5 redirects",
        "/nowhere.json": "a redirect that cannot be followed",
        "/garbled.json": "content coding cannot be decoded",
        "/cut.json": "ended before its end marker",
    }
    server.redirect("/loop.json", "/loop.json")
    server.routes["/nowhere.json"] = lambda h: respond(h, 302, b"", {"Location": "javascript:alert(1)"})
    server.serve("/garbled.json", body=b"not gzip at all", headers={"Content-Encoding": "gzip"})
    server.serve("/cut.json", body=whole[: len(whole) // 2], headers={"Content-Encoding": "gzip"})
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        for path, said in cases.items():
            mirrored = SOURCE._replace(url=server.url(path))
            (found,) = update_lists(store, sources=[mirrored])
            assert found.outcome is Outcome.FAILED and said in found.reason.render(), (path, found.reason.render())
        assert store.list_versions() == []


def test_a_kept_version_keeps_what_reading_it_found(server: Server, tmp_path: Path) -> None:
    assert SOURCE is not None
    prefixes = [{"ipv4Prefix": "198.51.100.1/24"}, {"ipv6Prefix": "10.0.0.0/8"}]
    server.serve("/openai-gptbot.json", body=json.dumps({"creationTime": "2030-01-01", "prefixes": prefixes}).encode())
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        (found,) = update_lists(store, base=server.url("/"), sources=[SOURCE])
    assert (found.outcome, found.networks, found.creation_time) == (Outcome.NEW, 1, "2030-01-01")
    assert [p.code for p in found.problems] == ["iplist.host-bits", "iplist.bad-prefix"]
    assert found.as_dict()["message"]["text"] == f"{NAME}: new version, creationTime 2030-01-01 (1 prefix)"


def test_a_store_that_cannot_write_fails_every_list_it_could_not_keep(server: Server, tmp_path: Path) -> None:
    assert SOURCE is not None
    path = tmp_path / "h.sqlite3"
    HistoryStore(path).close()
    server.serve(
        "/openai-gptbot.json", body=b'{"creationTime": "2030-01-01", "prefixes": [{"ipv4Prefix": "1.2.3.0/24"}]}'
    )
    with HistoryStore(path, read_only=True) as store:
        (found,) = update_lists(store, base=server.url("/"), sources=[SOURCE])
    assert found.outcome is Outcome.FAILED and "could not keep it" in found.reason.render()


def test_stored_and_shipped_versions_of_one_creation_time_are_one_version(tmp_path: Path) -> None:
    shipped = snapshot(NAME)
    assert shipped.creation_time is not None
    later = b'{"creationTime": "2030-01-01T00:00:00Z", "prefixes": [{"ipv4Prefix": "198.51.100.0/24"}]}'
    # The operator's own file of the shipped creationTime, with one more range than the copy shipped.
    same = json.dumps(
        {
            "creationTime": shipped.creation_time,
            "prefixes": [{"ipv4Prefix": "203.0.113.0/24"}, *({"ipv4Prefix": str(n)} for n in shipped.networks)],
        }
    ).encode()
    with HistoryStore(tmp_path / "h.sqlite3", now=Clock()) as store:
        assert list_history(store).versions(NAME) == (shipped,)
        store.record_list(NAME, shipped.creation_time, same, "https://openai.com/gptbot.json")
        store.record_list(NAME, "2030-01-01T00:00:00Z", later, "https://openai.com/gptbot.json")
        history = list_history(store)
    assert history.versions(NAME) == (read_list(same, NAME), read_list(later, NAME))
    assert isinstance(history, ListHistory) and list_history(None).versions(NAME) == (shipped,)


def test_every_seed_goes_through_an_update_as_the_reader_says() -> None:
    seeds = sorted(SEEDS.iterdir())
    assert len(seeds) >= 10
    for seed in seeds:
        check(seed.read_bytes())


def test_the_fuzzer_runs_briefly(tmp_path: Path) -> None:
    from tests.fuzz.harness import run_briefly

    run_briefly("tests.fuzz.fuzz_listupdate", SEEDS, tmp_path, 300)
