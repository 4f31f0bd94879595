"""`robotscope logs --jobs 2` stopped by a signal: as Ctrl-C sends it (SIGINT to the whole process group) and as
`kill` or a supervisor does (SIGTERM to the main process alone), while its workers start and while they audit.

Each run reads a log long enough to start workers, then standard input, which the test holds open: the audit
cannot finish, so the moment the signal is sent is chosen by what the test sees (worker processes, rows
written), never by a clock.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import suppress
from pathlib import Path

import pytest

from robotscope.auditing.pieces import WORTH_WORKERS
from robotscope.cli.output import interruptible
from robotscope.integrations.logfiles import BLOCK

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the process tree from /proc")

LINE = (
    '20.171.206.{n} - - [02/Nov/2026:10:00:{s:02d} +0000] "GET /page/{n} HTTP/1.1" 200 512 "-" '
    '"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.3"\n'
)
POLLS = 3000  # of 0.01 s at most: a worker that starts in 30 s has failed anyway
Process = tuple[int, str]  # a pid and its start time: the same process, not one that reuses the pid


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rpartition(")")[2].split()  # after the name, which may hold spaces: state first


def _children(pid: int) -> list[int]:
    found = []
    for listed in Path(f"/proc/{pid}/task").glob("*/children"):
        with suppress(OSError):  # the thread ended while read
            found += [int(child) for child in listed.read_text().split()]
    return found


def descendants(pid: int) -> set[Process]:
    found, todo = set(), [pid]
    while todo:
        for child in _children(todo.pop()):
            fields = _stat(child)
            if fields is not None:
                found.add((child, fields[19]))  # field 22 of stat: the start time
                todo.append(child)
    return found


def alive(process: Process) -> bool:
    fields = _stat(process[0])
    return fields is not None and fields[19] == process[1] and fields[0] != "Z"


def workers(pid: int) -> list[int]:
    """The worker processes among `pid`'s children (the pool's; not multiprocessing's resource tracker)."""
    found = []
    for child in _children(pid):
        with suppress(OSError):  # it ended while read
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.append(child)
    return found


def waited(condition: Callable[[], bool]) -> bool:
    for _ in range(POLLS):
        if condition():
            return True
        time.sleep(0.01)
    return False


@pytest.fixture(scope="module")
def big_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Enough pieces of log for `--jobs 2` to start workers."""
    path = tmp_path_factory.mktemp("logs") / "access.log"
    chunk = "".join(LINE.format(n=n % 250, s=n % 60) for n in range(1000)).encode()
    with path.open("wb") as out:
        for _ in range((WORTH_WORKERS + 2) * BLOCK // len(chunk) + 1):
            out.write(chunk)
    return path


@pytest.fixture
def started(tmp_path: Path, big_log: Path) -> Iterator[tuple[subprocess.Popen[bytes], Path]]:
    """`robotscope logs` in a session of its own (a terminal's job), reading `big_log` then standard input,
    writing rows into a folder of their own; stopped, with what it started, however the test ends."""
    robots = tmp_path / "robots.txt"
    robots.write_text("User-agent: GPTBot\nDisallow: /page/1\n")
    out = tmp_path / "out"
    out.mkdir()
    command = [sys.executable, "-m", "robotscope", "logs", str(big_log), "-", "--robots", str(robots)]
    command += ["--site", "https://example.com", "--format", "combined", "--no-dns", "--jobs", "2"]
    command += ["--csv", str(out / "audit.csv"), "--lang", "en"]
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    try:
        yield process, out
    finally:
        with suppress(ProcessLookupError):  # its whole group: the test's only, none left when all went well
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=60)
        for stream in (process.stdin, process.stdout, process.stderr):
            assert stream is not None
            stream.close()


def _starting(pid: int, out: Path) -> bool:
    return bool(workers(pid))  # the first worker exists; it has not begun to audit


def _auditing(pid: int, out: Path) -> bool:
    # Rows past the header: the workers audit, the files are open.
    return len(workers(pid)) == 2 and any(f.stat().st_size > 1000 for f in out.glob("*.partial"))


def _sent(process: subprocess.Popen[bytes], signum: int) -> None:
    if signum == signal.SIGINT:
        os.killpg(process.pid, signum)  # as a terminal's Ctrl-C: every process of the job
    else:
        os.kill(process.pid, signum)  # as `kill PID`: the main process alone


@pytest.mark.slow
@pytest.mark.parametrize("moment", [_starting, _auditing], ids=["starting", "auditing"])
@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["INT", "TERM"])
def test_a_signal_stops_the_audit_and_everything_it_started(
    started: tuple[subprocess.Popen[bytes], Path], moment: Callable[[int, Path], bool], signum: int, code: int
) -> None:
    process, out = started
    assert waited(lambda: moment(process.pid, out)), "the audit never reached the moment"
    seen = descendants(process.pid)
    _sent(process, signum)
    stdout, stderr = process.communicate(timeout=60)
    said = stderr.decode()
    assert process.returncode == code, said
    assert "Traceback" not in said
    assert said.splitlines() == [
        f"robotscope: stopped by {signal.Signals(signum).name}: the audit did not finish, and no --csv, --parquet "
        "or --html file was written (one there before is left as it was)"
    ]
    assert stdout == b""
    assert waited(lambda: not any(alive(found) for found in seen)), [found for found in seen if alive(found)]
    assert list(out.iterdir()) == []  # no rows file, no crawlers' file, nothing partial


@pytest.mark.slow
def test_workers_end_with_a_main_process_killed_outright(started: tuple[subprocess.Popen[bytes], Path]) -> None:
    process, out = started
    assert waited(lambda: _auditing(process.pid, out)), "the audit never reached the moment"
    seen = descendants(process.pid)
    assert len(seen) >= 2
    os.kill(process.pid, signal.SIGKILL)  # nothing runs in it: the workers must see it gone themselves
    process.communicate(timeout=60)
    assert waited(lambda: not any(alive(found) for found in seen)), [found for found in seen if alive(found)]


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_interruptible_says_one_line_exits_128_plus_the_signal_and_restores_the_handlers(
    capsys: pytest.CaptureFixture[str], signum: int, code: int
) -> None:
    before = [signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)]
    cleaned = []
    with pytest.raises(SystemExit) as stopped, interruptible("logs.cli.interrupted"):
        try:
            signal.raise_signal(signum)
        finally:
            signal.raise_signal(signum)  # a second one, while the command cleans up, is ignored
            cleaned.append(signum)
    assert stopped.value.code == code
    assert cleaned == [signum]
    assert capsys.readouterr().err.startswith(f"robotscope: stopped by {signal.Signals(signum).name}: ")
    assert [signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)] == before
