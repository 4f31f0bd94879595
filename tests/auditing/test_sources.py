"""The sources of a log audit's robots.txt versions: a file, a URL, the history store, dated snapshots, git."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from robotscope.access.policy import Action
from robotscope.auditing.sources import (
    MAX_PROBLEMS,
    Loaded,
    from_dir,
    from_file,
    from_git,
    from_history,
    from_robots,
    from_url,
)
from robotscope.fetch.body import KEEP
from robotscope.history import HistoryStore
from robotscope.reports.audit.timeline import RobotsTimeline
from tests.clock import Clock
from tests.conftest import Server
from tests.history.results import failed, fetched
from tests.hostile import SlowServer, trickle

OLD = b"User-agent: *\nDisallow: /old/\n"
NEW = b"User-agent: *\nDisallow: /new/\n"
SITE = "https://example.com"


def texts(loaded: Loaded) -> list[str]:
    return [problem.render() for problem in loaded.problems]


def moment(text: str) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()


def blocked(loaded: Loaded, origin: str | None, when: float | None, url: str, policy: str = "rfc9309") -> bool:
    found = RobotsTimeline(loaded.versions).in_force(origin, when)
    assert found is not None
    return not found.verdict("GPTBot", url, policy=policy).allowed


# --- --robots FILE|URL ----------------------------------------------------------------------------------------


def test_a_file_is_in_force_always_for_every_origin_or_for_one(tmp_path: Path) -> None:
    path = tmp_path / "robots.txt"
    path.write_bytes(OLD)
    everywhere = from_robots(str(path))
    (found,) = everywhere.versions
    assert (found.origin, found.since, found.ref, everywhere.problems) == (None, None, str(path), ())
    assert found.label.render() == f"the file {path}"
    assert blocked(everywhere, "http://any.example", 0.0, "/old/x") and blocked(everywhere, None, None, "/old/")
    one = from_file(path, site="HTTPS://Example.com:443/")
    assert one.versions[0].origin == SITE
    assert RobotsTimeline(one.versions).in_force("https://other.example", 0.0) is None


def test_a_file_that_cannot_be_read_or_a_bad_site_is_one_problem(tmp_path: Path) -> None:
    missing = from_file(tmp_path / "nope.txt")
    assert missing.versions == () and texts(missing) == [
        f"cannot read {tmp_path / 'nope.txt'}: No such file or directory"
    ]
    assert from_file(tmp_path).versions == ()  # a directory
    (tmp_path / "r.txt").write_bytes(OLD)
    bad = from_file(tmp_path / "r.txt", site="ftp://example.com")
    assert bad.versions == () and texts(bad) == [
        "ftp://example.com is not a site to judge with: `ftp://example.com` is not an http or https URL"
    ]


def test_a_huge_file_is_read_as_far_as_the_fetcher_keeps(tmp_path: Path) -> None:
    path = tmp_path / "robots.txt"
    with path.open("wb") as handle:
        handle.write(b"User-agent: *\nDisallow: /first/\n")
        handle.write(b"# padding\n" * (2 * KEEP // 10))
        handle.write(b"Disallow: /beyond-the-limit/\n")
    (found,) = from_file(path).versions
    assert not found.verdict("GPTBot", "/first/").allowed
    assert found.verdict("GPTBot", "/beyond-the-limit/").allowed


def test_a_url_is_fetched_once_and_in_force_always_for_its_origin(server: Server) -> None:
    server.serve("/robots.txt", body=OLD)
    loaded = from_robots(server.url("/some/page"), timeout=5.0)
    (found,) = loaded.versions
    origin = server.url("").rstrip("/")
    assert (found.origin, found.since, found.ref, loaded.problems) == (origin, None, server.url("/robots.txt"), ())
    assert found.label.render().startswith(f"{server.url('/robots.txt')} as fetched at ")
    assert server.hits["/robots.txt"] == 1
    assert blocked(loaded, origin, 0.0, "/old/x") and not blocked(loaded, origin, 0.0, "/new/x")
    assert RobotsTimeline(loaded.versions).in_force("https://example.com", 0.0) is None


def test_a_url_answering_404_allows_all_and_one_answering_503_judges_nothing(server: Server) -> None:
    server.serve("/robots.txt", status=404, body=b"gone")
    (missing,) = from_url(server.url(), timeout=5.0).versions
    assert missing.decision().action is Action.ALLOW_ALL and missing.sha256 is None
    server.serve("/robots.txt", status=503, body=b"busy")
    down = from_url(server.url(), timeout=5.0)
    assert down.versions == ()
    assert texts(down) == [
        f"{server.url('/robots.txt')} could not be fetched (HTTP 503): a failure today says nothing"
        " of the file in force when the logged requests were made, so it judges none"
    ]


def test_a_url_that_trickles_past_its_deadline_is_a_problem() -> None:
    slow = SlowServer(lambda _: trickle(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + OLD), pause=0.2)
    try:
        loaded = from_url(slow.url(), timeout=0.5)
    finally:
        slow.close()
    (problem,) = texts(loaded)
    assert loaded.versions == () and problem.startswith(
        f"{slow.url('/robots.txt')} could not be fetched (the fetch failed: no complete answer within the time limit"
    )


def test_a_url_that_is_not_http_is_a_problem() -> None:
    loaded = from_url("javascript:alert(1)")
    assert loaded.versions == () and texts(loaded) == [
        "javascript:alert(1) is not a site to judge with: `javascript:alert(1)` is not an http or https URL"
    ]


# --- --history -------------------------------------------------------------------------------------------------


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(tmp_path: Path, clock: Clock) -> Iterator[HistoryStore]:
    with HistoryStore(tmp_path / "history.sqlite3", now=clock) as opened:
        yield opened


def test_the_history_store_gives_each_result_from_its_fetch_a_503_included(store: HistoryStore, clock: Clock) -> None:
    start = clock.now
    store.record(SITE, "browser", fetched(OLD))
    clock.now += 600
    store.record(SITE, "browser", fetched(OLD))  # the same version again: no new entry
    clock.now += 600
    store.record(SITE, "browser", fetched(b"busy", 503))
    clock.now += 600
    store.record(SITE, "browser", fetched(NEW))
    loaded = from_history(store)
    assert loaded.problems == ()
    assert [(v.since, v.ref) for v in loaded.versions] == [
        (start, "history:1"),
        (start + 1200, "history:5xx@1970-01-12T14:06:40Z"),
        (start + 1800, "history:2"),
    ]
    assert [v.label.render() for v in loaded.versions] == [
        "history store version 1 of https://example.com, fetched at 1970-01-12T13:46:40Z",
        "history store: the fetch of https://example.com at 1970-01-12T14:06:40Z failed (5xx)",
        "history store version 2 of https://example.com, fetched at 1970-01-12T14:16:40Z",
    ]
    timeline = RobotsTimeline(loaded.versions)
    assert timeline.in_force(SITE, start - 1) is None
    assert blocked(loaded, SITE, start + 1199, "/old/x") and not blocked(loaded, SITE, start + 1199, "/new/x")
    assert blocked(loaded, SITE, start + 1200, "/anything")  # RFC 9309: a 503 disallows all
    assert not blocked(loaded, SITE, start + 1200, "/anything", policy="yandex")
    assert blocked(loaded, SITE, start + 1800, "/new/x") and not blocked(loaded, SITE, start + 1800, "/old/x")
    assert loaded.versions[0].sha256 == store.versions(SITE)[0].sha256


def test_an_outage_starts_a_new_version_only_when_a_policy_decides_otherwise(store: HistoryStore, clock: Clock) -> None:
    store.record(SITE, "browser", fetched(OLD))
    hour = 3600.0
    for _ in range(4):  # a 503 every 4 hours: Google blocks for 12, then uses the last good copy
        clock.now += 4 * hour
        store.record(SITE, "browser", fetched(b"", 503))
    clock.now += hour
    store.record(SITE, "browser", failed("timeout"))  # another kind of failure: a new version
    loaded = from_history(store)
    kinds = [(v.ref.split("@")[0], v.decision("google").action) for v in loaded.versions]
    assert kinds == [
        ("history:1", Action.PARSE),
        ("history:5xx", Action.DISALLOW_ALL),  # 0, 4 and 8 hours in: one version
        ("history:5xx", Action.CACHED_COPY),  # 12 hours in
        ("history:timeout", Action.CACHED_COPY),
    ]
    copy = loaded.versions[2]
    assert copy.verdict("Googlebot", "/old/x", policy="google").allowed is False
    assert copy.verdict("Googlebot", "/elsewhere", policy="google").allowed is True
    assert not copy.verdict("Googlebot", "/elsewhere").allowed  # RFC 9309 still disallows all


def test_after_a_404_the_copy_an_outage_keeps_is_no_file(store: HistoryStore, clock: Clock) -> None:
    store.record(SITE, "browser", fetched(OLD))
    clock.now += 3600
    store.record(SITE, "browser", fetched(b"", 404))
    for _ in range(2):  # the outage begins, then lasts 13 hours
        clock.now += 13 * 3600
        store.record(SITE, "browser", fetched(b"", 503))
    gone, blocking, kept = from_history(store).versions[1:]
    assert gone.decision("google").action is Action.ALLOW_ALL
    assert blocking.decision("google").action is Action.DISALLOW_ALL
    assert kept.decision("google").action is Action.CACHED_COPY
    assert kept.verdict("Googlebot", "/old/x", policy="google").allowed  # the copy kept is the 404's: no rules


def test_history_of_one_agent_and_of_named_origins(store: HistoryStore, clock: Clock) -> None:
    store.record(SITE, "browser", fetched(OLD))
    store.record(SITE, "GPTBot", fetched(NEW))
    store.record("http://other.example", "browser", fetched(OLD, origin="http://other.example"))
    assert [v.ref for v in from_history(store, agent="GPTBot").versions] == ["history:2"]
    named = from_history(store, origins=["HTTPS://example.com/x", "ftp://nope", "https://never.example"])
    assert {v.origin for v in named.versions} == {SITE}
    assert texts(named) == [
        "ftp://nope is not a site to judge with: `ftp://nope` is not an http or https URL",
        "the history store holds no fetch of https://never.example",
    ]


def test_a_version_that_comes_back_is_in_force_again(store: HistoryStore, clock: Clock) -> None:
    for body in (OLD, NEW, OLD):
        store.record(SITE, "browser", fetched(body))
        clock.now += 60
    loaded = from_history(store)
    assert [v.ref for v in loaded.versions] == ["history:1", "history:2", "history:1"]
    assert loaded.versions[0].reading is loaded.versions[2].reading  # parsed once


# --- --robots-dir ---------------------------------------------------------------------------------------------


def test_dated_snapshots_by_host_with_bad_names_reported_and_skipped(tmp_path: Path) -> None:
    host, port = tmp_path / "Example.com", tmp_path / "example.com_8080"
    host.mkdir()
    port.mkdir()
    (host / "2026-11-03.txt").write_bytes(OLD)
    (host / "2026-11-03T12:00Z.txt").write_bytes(NEW)
    (host / "2026-11-03T00-00Z.txt").write_bytes(NEW)  # the same moment as 2026-11-03.txt
    (host / "2026-11-03T13:00.txt").write_bytes(NEW)  # no zone
    (host / "2026-02-30.txt").write_bytes(NEW)
    (host / "notes.md").write_bytes(b"")
    (host / ".DS_Store").write_bytes(b"")  # hidden: skipped without a word
    (host / "nested").mkdir()
    (port / "2026-11-04T000030Z.txt").write_bytes(OLD)
    (tmp_path / "2026-01-01.txt").write_bytes(NEW)  # for every origin without a folder
    (tmp_path / "bad host!").mkdir()
    loaded = from_dir(tmp_path)
    assert texts(loaded) == [  # in the order of the names, each once
        f"{host / '2026-02-30.txt'} skipped: there is no such date or time",
        f"{host / '2026-11-03T00-00Z.txt'} skipped: {host / '2026-11-03.txt'} is in force from the same moment",
        f"{host / '2026-11-03T13:00.txt'} skipped: the time must end with Z (UTC): 2026-11-03T12:00Z.txt",
        f"{host / 'nested'} skipped: folders are read one level deep: DIR/host/TIME.txt",
        f"{host / 'notes.md'} skipped: a snapshot's name ends in .txt",
        f"{tmp_path / 'bad host!'} skipped: the folder is not a host (example.com, or example.com_8080 with a"
        " port): `http://bad host!` has an invalid host name `bad host!`",
    ]
    timeline = RobotsTimeline(loaded.versions)
    assert timeline.origins() == (
        "http://example.com",
        "http://example.com:8080",
        "https://example.com",
        "https://example.com:8080",
    )
    day = moment("2026-11-03T00:00:00")
    for origin in ("http://example.com", "https://example.com"):
        assert timeline.in_force(origin, day - 1) is None
        first = timeline.in_force(origin, day)
        assert first is not None and first.ref == str(host / "2026-11-03.txt")
        second = timeline.in_force(origin, day + 12 * 3600)
        assert second is not None and second.ref == str(host / "2026-11-03T12:00Z.txt")
    late = timeline.in_force("https://example.com:8080", moment("2026-11-04T00:00:30"))
    assert late is not None and late.since == moment("2026-11-04T00:00:30")
    assert timeline.in_force("https://example.com:8080", moment("2026-11-04T00:00:29")) is None
    anywhere = timeline.in_force("https://elsewhere.example", moment("2026-06-01T00:00:00"))
    assert (
        anywhere is not None
        and anywhere.origin is None
        and anywhere.label.render() == (f"the snapshot {tmp_path / '2026-01-01.txt'}")
    )


def test_a_snapshot_folder_that_is_missing_or_unreadable_is_a_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert texts(from_dir(tmp_path / "nope")) == [f"{tmp_path / 'nope'} is not a directory"]
    locked, readable = tmp_path / "example.com", tmp_path / "example.org"
    for folder in (locked, readable):
        folder.mkdir()
        (folder / "2026-01-01.txt").write_bytes(OLD)
    scandir = os.scandir

    def refusing(path: Path) -> Iterator[os.DirEntry[str]]:
        if Path(path) == locked:  # as for a folder without read permission (root reads anything)
            raise PermissionError(13, "Permission denied")
        return scandir(path)

    monkeypatch.setattr(os, "scandir", refusing)
    loaded = from_dir(tmp_path)
    assert texts(loaded) == [f"cannot read {locked}: Permission denied"]
    assert {v.origin for v in loaded.versions} == {"http://example.org", "https://example.org"}


def test_a_snapshot_that_is_no_regular_file_is_skipped_not_waited_on(tmp_path: Path) -> None:
    # Opening a named pipe for reading waits for a writer that never comes.
    host = tmp_path / "example.com"
    host.mkdir()
    os.mkfifo(host / "2026-11-03.txt")
    (host / "2026-11-04.txt").write_bytes(OLD)
    loaded = from_dir(tmp_path)
    assert texts(loaded) == [f"{host / '2026-11-03.txt'} skipped: a snapshot is a regular file, not a pipe or a device"]
    assert [v.ref for v in loaded.versions] == [str(host / "2026-11-04.txt")] * 2


def test_problems_past_the_limit_are_counted(tmp_path: Path) -> None:
    for n in range(MAX_PROBLEMS + 5):
        (tmp_path / f"junk-{n}.txt").write_bytes(b"")
    problems = texts(from_dir(tmp_path))
    assert len(problems) == MAX_PROBLEMS + 1 and problems[-1] == "5 more problems not listed"


# --- --robots-git ---------------------------------------------------------------------------------------------


def git(repo: Path, *args: str, when: str = "2026-01-01T00:00:00Z") -> None:
    # The author date is a day earlier than the committer date: the committer's is the one in force.
    env = {**os.environ, "GIT_COMMITTER_DATE": when, "GIT_AUTHOR_DATE": "2020-01-01T00:00:00Z"}
    identity = ["-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "-C", str(repo), *identity, *args], check=True, env=env, capture_output=True, timeout=30)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository whose robots.txt changed on 1 February 2026, and was removed on 1 April."""
    root = tmp_path / "site"
    (root / "public").mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    (root / "public" / "robots.txt").write_bytes(OLD)
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "First robots.txt", when="2026-01-01T10:00:00Z")
    (root / "public" / "robots.txt").write_bytes(NEW)
    git(root, "commit", "-q", "-am", "Block /new/ instead of /old/", when="2026-02-01T10:00:00Z")
    (root / "README").write_bytes(b"not the file\n")
    git(root, "add", "README")
    git(root, "commit", "-q", "-m", "Another file", when="2026-03-01T10:00:00Z")
    git(root, "rm", "-q", "public/robots.txt")
    git(root, "commit", "-q", "-m", "No robots.txt", when="2026-04-01T10:00:00Z")
    return root


def test_each_commit_of_the_file_is_in_force_from_its_committer_time(repo: Path) -> None:
    loaded = from_git(f"{repo}:public/robots.txt", site="https://example.com")
    assert loaded.problems == ()
    subjects = [v.label.render().split("\u201c")[1].rstrip("\u201d") for v in loaded.versions]
    assert subjects == ["First robots.txt", "Block /new/ instead of /old/", "No robots.txt"]
    assert [v.since for v in loaded.versions] == [
        moment("2026-01-01T10:00:00"),
        moment("2026-02-01T10:00:00"),
        moment("2026-04-01T10:00:00"),
    ]
    assert loaded.versions[2].label.render().startswith("public/robots.txt removed by commit ")
    timeline = RobotsTimeline(loaded.versions)
    assert timeline.in_force(SITE, moment("2026-01-01T09:59:59")) is None
    assert blocked(loaded, SITE, moment("2026-02-01T09:59:59"), "/old/x")
    assert blocked(loaded, SITE, moment("2026-02-01T10:00:00"), "/new/x")
    assert not blocked(loaded, SITE, moment("2026-02-01T10:00:00"), "/old/x")
    assert not blocked(loaded, SITE, moment("2026-05-01T00:00:00"), "/new/x")  # removed: allow all
    assert timeline.in_force("https://other.example", moment("2026-03-01T00:00:00")) is None
    everywhere = from_git(f"{repo}:public/robots.txt")
    assert {v.origin for v in everywhere.versions} == {None}


def test_a_reverted_file_and_a_file_past_the_limit_read_correctly(repo: Path) -> None:
    robots = repo / "public" / "robots.txt"
    robots.parent.mkdir(exist_ok=True)  # removed with the file
    robots.write_bytes(b"User-agent: *\nDisallow: /big/\n" + b"# padding\n" * (KEEP // 5))
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "Huge", when="2026-05-01T10:00:00Z")
    robots.write_bytes(OLD)
    git(repo, "commit", "-q", "-am", "Back to the first", when="2026-06-01T10:00:00Z")
    loaded = from_git(f"{repo}:public/robots.txt")
    assert loaded.problems == () and len(loaded.versions) == 5
    huge, back = loaded.versions[3], loaded.versions[4]
    assert not huge.verdict("GPTBot", "/big/").allowed
    assert not back.verdict("GPTBot", "/old/").allowed and back.reading is loaded.versions[0].reading


def test_a_commit_dated_past_year_9999_is_reported_and_skipped(repo: Path) -> None:
    # git takes any committer time; no report can write one past 9999.
    (repo / "public").mkdir(exist_ok=True)
    (repo / "public" / "robots.txt").write_bytes(NEW)
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "Far future", when="@300000000000 +0000")
    loaded = from_git(f"{repo}:public/robots.txt")
    (problem,) = texts(loaded)
    assert problem.startswith("commit ") and problem.endswith(f" of {repo} is dated past the year 9999; skipped")
    assert [v.since for v in loaded.versions] == [
        moment("2026-01-01T10:00:00"),
        moment("2026-02-01T10:00:00"),
        moment("2026-04-01T10:00:00"),
    ]


def test_git_problems_are_one_line_each(tmp_path: Path, repo: Path) -> None:
    assert texts(from_git("no-colon")) == [
        "--robots-git takes PATH:FILE (a repository and the robots.txt file in it), not 'no-colon'"
    ]
    (no_repo,) = texts(from_git(f"{tmp_path / 'none'}:robots.txt"))
    assert no_repo.startswith(f"git cannot read {tmp_path / 'none'}: fatal: ") and "\n" not in no_repo
    assert texts(from_git(f"{repo}:robots.txt")) == [f"robots.txt has no commit in {repo}"]
    (no_git,) = texts(from_git(f"{repo}:public/robots.txt", git=str(tmp_path / "no-such-git")))
    assert no_git == f"git cannot read {repo}: No such file or directory"
    assert texts(from_git(f"{repo}:public/robots.txt", site="mailto:x")) == [
        "mailto:x is not a site to judge with: `mailto:x` is not an http or https URL"
    ]


def test_a_git_that_hangs_is_stopped_at_the_deadline(tmp_path: Path, repo: Path) -> None:
    hanging = tmp_path / "git"
    hanging.write_text("#!/bin/sh\nexec sleep 60\n")
    hanging.chmod(0o755)
    loaded = from_git(f"{repo}:public/robots.txt", git=str(hanging), timeout=0.3)
    assert loaded.versions == ()
    assert texts(loaded) == [f"git took longer than 0.3 seconds to read {repo}; the versions read so far are used"]


def test_names_with_a_newline_or_an_escape_are_shown_on_one_line(tmp_path: Path, repo: Path) -> None:
    (tmp_path / "snapshots" / "c\nc").mkdir(parents=True)  # urlsplit would drop the newline: host "cc"
    (tmp_path / "snapshots" / "c\nc" / "2026-01-01.txt").write_bytes(OLD)
    (tmp_path / "snapshots" / "\x1b[31mred.txt").write_bytes(OLD)
    loaded = from_dir(tmp_path / "snapshots")
    assert loaded.versions == () and all("\n" not in p and "\x1b" not in p for p in texts(loaded))
    assert len(texts(loaded)) == 2 and "c\\x0ac skipped: the folder is not a host" in texts(loaded)[0]
    (repo / "public").mkdir(exist_ok=True)
    (repo / "public" / "robots.txt").write_bytes(NEW)
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "\x1b]0;title\x07" + "long " * 2000, when="2026-05-01T10:00:00Z")
    newest = from_git(f"{repo}:public/robots.txt").versions[-1].label.render()
    assert "\x1b" not in newest and "\x07" not in newest and len(newest) < 300  # git cut the subject at 200 columns
