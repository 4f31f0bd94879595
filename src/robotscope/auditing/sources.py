"""Where a log audit's robots.txt versions come from: a file or URL, the watch history store, a folder of
dated snapshots, or a git repository's history of the file.

Each source gives `Loaded`: the versions (`reports.audit.timeline.RobotsVersion`, to build a
`RobotsTimeline` from) and the problems met on the way (messages; at most `MAX_PROBLEMS`). A problem
never stops a source: a bad snapshot name is reported with its path and skipped, an unreadable file
too, a git that fails or runs out of time leaves the versions read so far. No versions at all means
nothing to judge with, which the caller reports. What each source reads, and when its versions are in
force, is in docs/logs.md ("Which robots.txt judged each request"):

- `from_file(path, site)`: one file, in force always, for every origin (or for `site` alone).
- `from_url(url)`: the origin's robots.txt fetched once now (the fetcher's deadline and byte budget),
  in force always for that origin. A transient failure is a problem, not a version: today's outage says
  nothing of the file in force when the logged requests were made.
- `from_history(store)`: every fetch the watch recorded; each result in force from the fetch that got
  it, a failed fetch read by the fetch policies like any other.
- `from_dir(path)`: `DIR/HOST[_PORT]/TIME.txt` snapshots (`snapshot_moment`, `host_origins`).
- `from_git("PATH:FILE", site)`: each first-parent commit that changed FILE, in force from its
  committer time; git runs with a deadline and bounded output.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import stat
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, NamedTuple

import httpx

from ..access.robots import Robots
from ..fetch import DEFAULT_UA, fetch_robots
from ..fetch.body import KEEP
from ..fetch.observation import observation
from ..history import Fetch, HistoryStore
from ..history.changes import observed
from ..history.views import iso
from ..messages import Message, message
from ..reports.audit.timeline import RobotsVersion, file_version, version
from ..reports.render import printable
from ..reports.watch.observation import Observation
from ..syntax.urls import InvalidURL, origin_of, robots_url

MAX_VERSIONS = 10_000  # versions a source gives at most (a daily snapshot for 27 years)
MAX_PROBLEMS = 100  # problems listed; past them only counted
_MAX_ENTRIES = 4 * MAX_VERSIONS  # directory entries looked at (a snapshot folder full of other files)
GIT = "git"
GIT_TIMEOUT = 60.0  # seconds for all of one repository's git commands
_SUBJECT_COLUMNS = 200  # of a commit's subject kept (git truncates it)
_HEADER_BYTES = 1024  # of one `git cat-file --batch` header line read at most
_ERROR_BYTES = 4096  # of git's standard error read at most
_PAST_9999 = datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC).timestamp() + 1  # the first moment no report writes
_LIST_BYTES = 16 * 1024 * 1024  # of `git ls-files` read at most (a path a line; past it git is stopped, a problem)


class Loaded(NamedTuple):
    """What a source gave: its versions, and the problems it met (each a one-line message)."""

    versions: tuple[RobotsVersion, ...]
    problems: tuple[Message, ...]


class _Problems:
    """The problems met, the first `MAX_PROBLEMS` kept and the rest counted (a folder of a million bad names)."""

    def __init__(self) -> None:
        self.kept: list[Message] = []
        self.more = 0

    def add(self, problem: Message) -> None:
        if len(self.kept) < MAX_PROBLEMS:
            self.kept.append(problem)
        else:
            self.more += 1

    def loaded(self, versions: Iterable[RobotsVersion]) -> Loaded:
        more = [message("audit.problem.more", count=self.more)] if self.more else []
        return Loaded(tuple(versions), (*self.kept, *more))


def _origin(site: str | None, problems: _Problems) -> tuple[bool, str | None]:
    """`site`'s origin (None: every origin); False first when `site` is not one (the problem added)."""
    if site is None:
        return True, None
    try:
        return True, origin_of(site)
    except InvalidURL as error:
        problems.add(message("audit.problem.site", site=site, problem=error.reason))
        return False, None


def _read(path: Path) -> bytes:
    """The first `fetch.body.KEEP` bytes of a file, what the fetcher would keep of it; raises OSError."""
    with path.open("rb") as handle:
        return handle.read(KEEP)


def _shown(text: str | Path) -> str:
    """A path or name as one printable line (a file name may hold a newline or a terminal escape)."""
    return printable(str(text)).replace("\n", "\\x0a")


def _unreadable(path: Path, error: OSError) -> Message:
    return message("audit.problem.read", path=_shown(path), error=error.strerror or str(error))


def from_file(path: str | Path, site: str | None = None) -> Loaded:
    """One robots.txt file, in force at every moment, for every origin or for `site`'s alone."""
    problems, path = _Problems(), Path(path)
    valid, origin = _origin(site, problems)
    if not valid:
        return problems.loaded(())
    try:
        body = _read(path)
    except OSError as error:
        problems.add(_unreadable(path, error))
        return problems.loaded(())
    return problems.loaded(
        (file_version(origin, None, message("audit.source.file", path=_shown(path)), _shown(path), body),)
    )


def from_url(
    url: str,
    *,
    timeout: float = 10.0,
    user_agent: str = DEFAULT_UA,
    transport: httpx.BaseTransport | httpx.AsyncBaseTransport | None = None,
    clock: Callable[[], float] = time.time,
) -> Loaded:
    """The robots.txt of `url`'s origin, fetched once now (`timeout` the whole fetch's deadline; the
    fetcher's byte budget), in force at every moment for that origin. `transport`: an httpx transport."""
    problems = _Problems()
    try:
        origin, address = origin_of(url), robots_url(url)
    except InvalidURL as error:
        problems.add(message("audit.problem.site", site=url, problem=error.reason))
        return problems.loaded(())
    at = clock()
    result = fetch_robots(address, timeout=timeout, user_agent=user_agent, cache=False, transport=transport)
    found = version(origin, None, message("audit.source.url", url=address, at=iso(at)), address, observation(result))
    if not found.reading.reachable:
        problems.add(message("audit.problem.fetch", url=address, cause=_cause(found)))
        return problems.loaded(())
    return problems.loaded((found,))


def _cause(found: RobotsVersion) -> Message:
    cause = found.decision().reason.params["cause"]
    assert isinstance(cause, Message)  # every decision's reason names its cause
    return cause


def from_robots(
    source: str,
    site: str | None = None,
    *,
    timeout: float = 10.0,
    user_agent: str = DEFAULT_UA,
    transport: httpx.BaseTransport | httpx.AsyncBaseTransport | None = None,
) -> Loaded:
    """`--robots FILE|URL`: `from_url` for an http(s) URL (its own origin; `site` is not asked), else `from_file`."""
    if source.lower().startswith(("http://", "https://")):
        return from_url(source, timeout=timeout, user_agent=user_agent, transport=transport)
    return from_file(source, site)


# --- the watch history store -------------------------------------------------------------------------------


def from_history(store: HistoryStore, origins: Iterable[str] | None = None, agent: str | None = None) -> Loaded:
    """The store's fetches of each origin (every origin it holds, or `origins`), of every agent or of `agent`
    (a label: browser, Googlebot, ...), in the order they happened.

    A fetch that got a version puts it in force from that fetch, unless it was already in force. A failed
    fetch is in force from then too, read by the fetch policies with the outage the store knows of (when
    the last good copy was fetched, since when fetches fail), so a 503 disallows all where a policy says
    so and leaves the last good copy (`RobotsVersion.copy`) where one keeps it; a later failure starts a
    new version only where a policy's decision changed (Google's after 12 hours, 30 days).
    """
    problems, versions = _Problems(), list[RobotsVersion]()
    if origins is None:
        names = store.origins()
    else:
        names = []
        for origin in origins:
            valid, normal = _origin(origin, problems)
            if valid and normal is not None:
                names.append(normal)
    for origin in names:
        fetches = [f for f in store.fetches(origin) if agent is None or f.agent == agent]
        if not fetches:
            problems.add(message("audit.problem.history-empty", origin=origin))
        versions.extend(_history_of(store, origin, fetches))
        if len(versions) > MAX_VERSIONS:
            problems.add(message("audit.problem.too-many", count=MAX_VERSIONS))
            return problems.loaded(versions[:MAX_VERSIONS])
    return problems.loaded(versions)


def _history_of(store: HistoryStore, origin: str, fetches: Iterable[Fetch]) -> Iterator[RobotsVersion]:
    made: dict[int, RobotsVersion] = {}  # each stored version read once, whenever it comes back
    last_key: tuple[object, ...] = ()
    good: Robots | None = None  # the last good copy, whose rules apply where a policy keeps it in an outage
    good_at: float | None = None  # when it was last fetched
    failing_since: float | None = None
    for fetch in fetches:
        moment = iso(fetch.at)
        if fetch.version_id is not None:
            label = message("audit.source.history", id=fetch.version_id, origin=origin, at=moment)
            stored = made.get(fetch.version_id)
            if stored is not None:
                found = replace(stored, since=fetch.at, label=label)
            else:
                kept = store.version(fetch.version_id)
                if kept is None:
                    continue  # written by another process after this read began: its fetch comes later
                ref = f"history:{fetch.version_id}"
                found = made[fetch.version_id] = version(origin, fetch.at, label, ref, observed(kept))
            good, good_at, failing_since = found.robots, fetch.at, None
            key: tuple[object, ...] = ("version", fetch.version_id)
        else:
            failing_since = fetch.at if failing_since is None else failing_since
            http = fetch.status is not None  # an HTTP answer (404, 503), which the policies read by its status
            seen = Observation(
                agent=fetch.agent,
                status=fetch.status,
                failure=None if http else fetch.failure,
                at=fetch.at,
                good_at=good_at,
                failing_since=failing_since,
            )
            label = message("audit.source.history.failed", origin=origin, at=moment, failure=fetch.failure)
            found = version(origin, fetch.at, label, f"history:{fetch.failure}@{moment}", seen, good)
            if found.reading.reachable:  # a 4xx: no file, and no outage; what a crawler then keeps is no rules
                good, good_at, failing_since = None, fetch.at, None
            key = ("failure", fetch.failure, fetch.status, *(d.action for d in found.reading.decisions.values()))
        if key != last_key:
            yield found
            last_key = key


# --- a folder of dated snapshots ------------------------------------------------------------------------------

# DATE, or DATE T TIME Z, TIME being HH, HH:MM or HH:MM:SS with ":", "-" or nothing between (Windows
# has no ":" in file names); then .txt. Case does not matter.
_NAME = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})(?:T(\d{2})(?:(?P<sep>[:-]?)(\d{2})(?:(?P=sep)(\d{2}))?)?(Z?))?",
    re.ASCII | re.IGNORECASE,
)
_PORT = re.compile(r"(.+)[_:](\d{1,5})", re.ASCII)


class BadName(ValueError):
    """A snapshot name that is not a time: `reason` says why, as a message."""

    def __init__(self, reason: Message) -> None:
        super().__init__(reason.render())
        self.reason = reason


def snapshot_moment(name: str) -> float:
    """The POSIX time (UTC) a snapshot named `name` is in force from; raises `BadName`.

    >>> snapshot_moment("2026-11-03T12:00Z.txt") - snapshot_moment("2026-11-03.txt")
    43200.0
    >>> snapshot_moment("2026-11-03T12-00-30Z.TXT") == snapshot_moment("2026-11-03t120030z.txt")
    True
    """
    stem, dot, ending = name.rpartition(".")
    if not dot or ending.lower() != "txt":
        raise BadName(message("audit.problem.name.not-txt"))
    found = _NAME.fullmatch(stem)
    if found is None:
        raise BadName(message("audit.problem.name.syntax"))
    year, month, day, hour, _, minute, second, zone = found.groups()
    if hour is not None and not zone:
        raise BadName(message("audit.problem.name.no-zone"))
    try:
        moment = datetime(
            int(year), int(month), int(day), int(hour or 0), int(minute or 0), int(second or 0), tzinfo=UTC
        )
    except ValueError:
        raise BadName(message("audit.problem.name.no-such-time")) from None
    return moment.timestamp()


def host_origins(folder: str) -> tuple[str, str]:
    """The origins a host folder's snapshots apply to, http and https: `example.com`, or with a port
    `example.com_8080` (`example.com:8080` too, where a file system allows it); raises `InvalidURL`.

    >>> host_origins("Example.com_8080")
    ('http://example.com:8080', 'https://example.com:8080')
    """
    # urlsplit drops tabs and newlines, and reads `/`, `@`, `?` and `#` as other parts of a URL.
    if not folder.isprintable() or any(c in folder for c in "/@?#"):
        raise InvalidURL(message("url.bad-host", host=_shown(folder), url=_shown(folder)))
    with_port = _PORT.fullmatch(folder)
    authority = folder if with_port is None else f"{with_port[1]}:{with_port[2]}"
    return origin_of(f"http://{authority}"), origin_of(f"https://{authority}")


def from_dir(path: str | Path) -> Loaded:
    """Every snapshot `DIR/HOST[_PORT]/TIME.txt` (for that host, http and https) and `DIR/TIME.txt` (for
    every origin without a folder of its own), each in force from its time. Names starting with `.` are
    skipped silently; any other name that is not a time is reported with its path and skipped."""
    problems, root, versions = _Problems(), Path(path), list[RobotsVersion]()
    if not root.is_dir():
        problems.add(message("audit.problem.not-dir", path=_shown(root)))
        return problems.loaded(())
    entries = _listed(root, problems)
    for entry in entries:
        if entry.is_dir():
            try:
                origins: tuple[str | None, ...] = host_origins(entry.name)
            except InvalidURL as error:
                reason = message("audit.problem.name.host", problem=error.reason)
                problems.add(message("audit.problem.name", path=_shown(entry), reason=reason))
                continue
            versions.extend(_snapshots(_listed(entry, problems), origins, problems))
        if len(versions) >= MAX_VERSIONS:
            break
    versions.extend(_snapshots((e for e in entries if not e.is_dir()), (None,), problems))
    if len(versions) > MAX_VERSIONS:
        problems.add(message("audit.problem.too-many", count=MAX_VERSIONS))
    return problems.loaded(versions[:MAX_VERSIONS])


def _listed(folder: Path, problems: _Problems) -> list[Path]:
    """A folder's entries but hidden ones, sorted by name; at most `_MAX_ENTRIES` (+1, to tell there were more)."""
    try:
        with os.scandir(folder) as scan:
            names = [entry.name for entry in itertools.islice(scan, _MAX_ENTRIES + 1)]
    except OSError as error:
        problems.add(_unreadable(folder, error))
        return []
    if len(names) > _MAX_ENTRIES:
        problems.add(message("audit.problem.too-many-entries", path=_shown(folder), count=_MAX_ENTRIES))
        del names[_MAX_ENTRIES:]
    return [folder / name for name in sorted(names) if not name.startswith(".")]


def _snapshots(files: Iterable[Path], origins: tuple[str | None, ...], problems: _Problems) -> Iterator[RobotsVersion]:
    seen: dict[float, Path] = {}
    for file in files:
        if file.is_dir():
            reason = message("audit.problem.name.folder")
            problems.add(message("audit.problem.name", path=_shown(file), reason=reason))
            continue
        try:
            moment = snapshot_moment(file.name)
        except BadName as error:
            problems.add(message("audit.problem.name", path=_shown(file), reason=error.reason))
            continue
        if moment in seen:
            problems.add(message("audit.problem.duplicate", path=_shown(file), kept=_shown(seen[moment])))
            continue
        try:
            if not stat.S_ISREG(file.stat().st_mode):  # opening a named pipe waits for a writer
                reason = message("audit.problem.name.not-file")
                problems.add(message("audit.problem.name", path=_shown(file), reason=reason))
                continue
            body = _read(file)
        except OSError as error:
            problems.add(_unreadable(file, error))
            continue
        seen[moment] = file
        first = file_version(
            origins[0], moment, message("audit.source.snapshot", path=_shown(file)), _shown(file), body
        )
        yield first
        for origin in origins[1:]:
            yield replace(first, origin=origin)  # one reading shared by the host's http and https origins


# --- a git repository's history of the file ----------------------------------------------------------------


def from_git(spec: str, site: str | None = None, *, timeout: float = GIT_TIMEOUT, git: str = GIT) -> Loaded:
    """`PATH:FILE`: each first-parent commit of the repository at PATH (its HEAD) that changed FILE (relative
    to PATH), in force from its committer time, for every origin or for `site`'s alone (a repository
    names no site). A commit that removed the file leaves none (every policy: allow all). At most
    `MAX_VERSIONS` commits, the newest; every git command within one deadline of `timeout` seconds."""
    problems = _Problems()
    repo, colon, file = spec.rpartition(":")
    if not colon or not repo or not file or "\n" in file or "\0" in spec:
        problems.add(message("audit.problem.git-spec", spec=_shown(spec)))
        return problems.loaded(())
    valid, origin = _origin(site, problems)
    if not valid:
        return problems.loaded(())
    runner = _Git(git, repo, time.monotonic() + timeout, timeout, problems)
    commits = runner.log(file)
    if commits is None:
        return problems.loaded(())
    if not commits:
        problems.add(message("audit.problem.git-no-file", file=_shown(file), repo=_shown(repo)))
        return problems.loaded(())
    if len(commits) > MAX_VERSIONS:
        problems.add(message("audit.problem.too-many", count=MAX_VERSIONS))
        commits = commits[:MAX_VERSIONS]
    commits.reverse()  # oldest first: of two commits in one second, the later one given (the newer) stays in force
    return problems.loaded(runner.versions(origin, file, commits))


def at_revision(
    repo: str, rev: str, files: Sequence[str], *, timeout: float = GIT_TIMEOUT, git: str = GIT
) -> tuple[list[bytes | None] | None, tuple[Message, ...]]:
    """Each of `files` (paths relative to `repo`) as the revision `rev` of the repository at `repo` has it:
    its first `fetch.body.KEEP` bytes, or None where the revision has no such file. None in place of the
    list when the revision is not in the repository, a path cannot be named to git, or git fails or runs
    out of time (the problems say which); every git command within one deadline of `timeout` seconds."""
    problems = _Problems()
    runner = _Git(git, repo, time.monotonic() + timeout, timeout, problems)
    sha = runner.commit(rev)
    if sha is None:
        return None, problems.loaded(()).problems
    bad = [f for f in files if any(c in f for c in "\n\r\0")]
    if bad:
        problems.add(message("ci.bad-path", path=_shown(bad[0])))
        return None, problems.loaded(()).problems
    paths = [f if f.startswith(("./", "../")) else "./" + f for f in files]
    bodies = list(runner.blobs(f"{sha}:{path}" for path in paths))
    if len(bodies) < len(paths):
        return None, problems.loaded(()).problems
    return bodies, problems.loaded(()).problems


def tracked(
    repo: str, name: str, *, timeout: float = GIT_TIMEOUT, git: str = GIT
) -> tuple[list[str] | None, tuple[Message, ...]]:
    """The files named `name` (`robots.txt`) that the repository at `repo` tracks, in and below `repo`, as
    paths relative to it, sorted; None (and the problem) when git fails or runs out of time."""
    problems = _Problems()
    runner = _Git(git, repo, time.monotonic() + timeout, timeout, problems)
    listed = runner.output(["ls-files", "-z", "--", f":(glob){name}", f":(glob)**/{name}"], _LIST_BYTES)
    if listed is None:
        return None, problems.loaded(()).problems
    return _names(listed), problems.loaded(()).problems


def removed(
    repo: str, rev: str, name: str, *, timeout: float = GIT_TIMEOUT, git: str = GIT
) -> tuple[list[str] | None, tuple[Message, ...]]:
    """The files named `name` (`robots.txt`) that the revision `rev` has in and below `repo` and the working
    tree no longer has (a rename counts as removed), as paths relative to `repo`, sorted; None (and the
    problem) when the revision is not in the repository, or git fails or runs out of time."""
    problems = _Problems()
    runner = _Git(git, repo, time.monotonic() + timeout, timeout, problems)
    sha = runner.commit(rev)
    if sha is None:
        return None, problems.loaded(()).problems
    args = ["diff", "--name-only", "--diff-filter=D", "--no-renames", "--relative", "-z", sha, "--"]
    listed = runner.output([*args, f":(glob){name}", f":(glob)**/{name}"], _LIST_BYTES)
    if listed is None:
        return None, problems.loaded(()).problems
    return _names(listed), problems.loaded(()).problems


def _names(listed: bytes) -> list[str]:
    """The paths of a NUL-separated list git printed, each once, sorted."""
    return sorted({p for p in listed.decode("utf-8", "surrogateescape").split("\0") if p})


class _Commit(NamedTuple):
    sha: str
    at: float
    subject: str


class _Git:
    """git commands on one repository, all within one deadline, their output read within bounds."""

    def __init__(self, git: str, repo: str, deadline: float, timeout: float, problems: _Problems) -> None:
        self.git, self.repo, self.deadline, self.timeout, self.problems = git, repo, deadline, timeout, problems
        self.shown = _shown(repo)
        self.killed = False
        # No prompt for credentials, no lock taken (`-c log.showSignature=false`: no gpg run per commit).
        self.env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0"}

    def _start(self, args: list[str], stdin: int) -> tuple[subprocess.Popen[bytes], threading.Timer] | None:
        command = [self.git, "-C", self.repo, "-c", "log.showSignature=false", *args]
        try:
            process = subprocess.Popen(
                command, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env
            )
        except OSError as error:  # no git at all
            self.problems.add(message("audit.problem.git", repo=self.shown, error=error.strerror or str(error)))
            return None

        def kill() -> None:
            self.killed = True
            process.kill()

        timer = threading.Timer(max(0.0, self.deadline - time.monotonic()), kill)
        timer.daemon = True  # never holds the interpreter open
        timer.start()
        return process, timer

    def _finish(self, process: subprocess.Popen[bytes], timer: threading.Timer, ok: tuple[int, ...] = (0,)) -> bool:
        """Wait for `process`; False (the problem added) when it failed (a status not in `ok`) or ran out of time."""
        assert process.stderr is not None
        error = process.stderr.read(_ERROR_BYTES)
        process.stderr.close()
        process.wait()
        timer.cancel()
        if self.killed:
            self.problems.add(message("audit.problem.git-timeout", repo=self.shown, seconds=f"{self.timeout:g}"))
            return False
        if process.returncode not in ok:
            line = next((s for s in error.decode("utf-8", "replace").splitlines() if s.strip()), "")
            if line.strip():
                self.problems.add(message("audit.problem.git", repo=self.shown, error=_shown(line.strip()[:300])))
            else:
                self.problems.add(message("audit.problem.git-status", repo=self.shown, status=process.returncode))
            return False
        return True

    def commit(self, rev: str) -> str | None:
        """The hash of the commit `rev` names; None (the problem added) when the repository has no such commit."""
        # `rev-parse --verify --quiet` says nothing and exits 1 for a revision it does not know.
        found = self.output(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"], 1024, (0, 1))
        if found is None:
            return None
        sha = found.decode("ascii", "replace").strip()
        if not sha:
            self.problems.add(message("ci.base-missing", rev=_shown(rev), repo=self.shown))
            return None
        return sha

    def output(self, args: list[str], limit: int, ok: tuple[int, ...] = (0,)) -> bytes | None:
        """What one git command prints, `limit` bytes at most; None (the problem added) when it fails with a
        status not in `ok` or runs out of time."""
        started = self._start(args, subprocess.DEVNULL)
        if started is None:
            return None
        process, timer = started
        assert process.stdout is not None
        output = process.stdout.read(limit)
        process.stdout.close()
        return output if self._finish(process, timer, ok) else None

    def log(self, file: str) -> list[_Commit] | None:
        """The first-parent commits that changed `file`, newest first (one more than `MAX_VERSIONS` at most)."""
        form = f"--format=%H%x1f%ct%x1f%<({_SUBJECT_COLUMNS},trunc)%s"
        args = ["log", "--first-parent", "-z", f"--max-count={MAX_VERSIONS + 1}", form, "--", file]
        # A subject is at most 200 columns (4 bytes each in UTF-8) after the hash and time.
        output = self.output(args, (MAX_VERSIONS + 1) * (64 + 4 * _SUBJECT_COLUMNS))
        if output is None:
            return None
        commits = []
        for record in output.decode("utf-8", "replace").split("\0"):
            sha, _, rest = record.strip("\n").partition("\x1f")
            stamp, _, subject = rest.partition("\x1f")
            if sha and stamp.isdigit():
                if float(stamp) >= _PAST_9999:  # git takes any time; no report can write this one
                    self.problems.add(message("audit.problem.git-time", sha=sha[:12], repo=self.shown))
                    continue
                commits.append(_Commit(sha, float(stamp), subject.rstrip()))
        return commits

    def blobs(self, names: Iterable[str]) -> Iterator[bytes | None]:
        """Each file named (`REV:./PATH`) through one `git cat-file --batch`: its first `KEEP` bytes (each
        blob cut at the fetcher's limit), None where the revision has no such file; stops (the problem
        added) when git fails or the deadline passes."""
        # Through symbolic links within the tree, as the working tree's file is read through its link.
        started = self._start(["cat-file", "--batch", "--follow-symlinks"], subprocess.PIPE)
        if started is None:
            return
        process, timer = started
        assert process.stdin is not None and process.stdout is not None
        try:
            for name in names:
                process.stdin.write(f"{name}\n".encode())
                process.stdin.flush()
                yield _blob(process.stdout)
        except (_Ended, OSError):
            pass  # git ended (killed at the deadline, or failed): `_finish` says which
        finally:
            for stream in (process.stdin, process.stdout):
                with contextlib.suppress(OSError):
                    stream.close()
            self._finish(process, timer)

    def versions(self, origin: str | None, file: str, commits: list[_Commit]) -> list[RobotsVersion]:
        """The file at each commit; the commits read before a failure or the deadline when one comes."""
        path = file if file.startswith(("./", "../")) else "./" + file  # relative to PATH, as `git log` read it
        by_digest: dict[str | None, RobotsVersion] = {}
        # The blobs first: zip asks them for one more when the commits run out, which ends git.
        found = self.blobs(f"{commit.sha}:{path}" for commit in commits)
        return [
            self._version(origin, file, commit, body, by_digest) for body, commit in zip(found, commits, strict=False)
        ]

    @staticmethod
    def _version(
        origin: str | None, file: str, commit: _Commit, body: bytes | None, by_digest: dict[str | None, RobotsVersion]
    ) -> RobotsVersion:
        short = commit.sha[:12]
        code = "audit.source.git" if body is not None else "audit.source.git.removed"
        label = message(code, file=_shown(file), sha=short, subject=_shown(commit.subject))
        seen = Observation(agent="", status=200, body=body) if body is not None else Observation(agent="", status=404)
        made = version(origin, commit.at, label, f"git:{short}", seen)
        earlier = by_digest.setdefault(made.sha256, made)
        # A file reverted to an earlier text shares that text's reading (parsed once).
        return made if earlier is made else replace(made, reading=earlier.reading)


class _Ended(Exception):
    """git's output ended before the object did (git failed, or was stopped at the deadline)."""


def _blob(stream: IO[bytes]) -> bytes | None:
    """One object of `git cat-file --batch`: its first `KEEP` bytes (the rest read and dropped), None when
    the commit has no such file (or a link to none); raises `_Ended` when the output ends first."""
    header = stream.readline(_HEADER_BYTES)
    if not header.endswith(b"\n"):
        raise _Ended
    fields = header.split()
    if len(fields) == 2 and fields[1].isdigit():
        # "symlink|dangling|loop|notdir <size>", then that many bytes: a link to no file in the tree.
        fields = [b"", fields[0], fields[1]]
    if len(fields) != 3 or not fields[2].isdigit():
        return None  # "<object> missing": the commit removed the file (or never had it at that path)
    size = int(fields[2])
    body = stream.read(min(size, KEEP))
    left = size - len(body)
    while left > 0:
        chunk = stream.read(min(left, 65536))
        if not chunk:
            raise _Ended
        left -= len(chunk)
    if len(body) < min(size, KEEP) or stream.read(1) != b"\n":
        raise _Ended
    return body if fields[1] == b"blob" else None  # a link to a folder is no file either


__all__ = [
    "BadName",
    "Loaded",
    "at_revision",
    "from_dir",
    "from_file",
    "from_git",
    "from_history",
    "from_robots",
    "from_url",
    "host_origins",
    "snapshot_moment",
    "tracked",
]
