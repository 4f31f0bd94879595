"""Any log cut into pieces of any size gives the one-pass summary: the seams lose, add and reorder nothing."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from robotscope.auditing import pieces as pieces_module
from robotscope.cli import cli
from robotscope.syntax.logformats import MAX_LINE
from tests.cli.test_logs import HITS, NEW, OLD, SITE, snapshots
from tests.reports.audit.builders import combined_line, w3c_line

GOOD = [combined_line(hit).encode() for hit in HITS]
# Lines whose bytes are awkward at a seam: bad lines, a line over the bound, bytes that are no UTF-8, a character
# of four bytes, a byte order mark, blank lines.
AWKWARD = [
    b"garbage",
    b"x" * (MAX_LINE + 5),
    b"\xff\xfe not a request",
    GOOD[1].replace(b"GPTBot", b"GPTBot \xe2\x82"),
    GOOD[3].replace(b"/private/a", "/privé/😀".encode()),
    b"\xef\xbb\xbf" + GOOD[2],
    b"",
]
W3C_FIELDS = [
    b"#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) "
    b"cs(Referer) sc-status sc-substatus sc-win32-status time-taken",
    # The columns change mid-file: the status moves before the User-Agent.
    b"#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip sc-status cs(User-Agent)",
]


def _w3c_second(hit_line: bytes) -> bytes:
    """A W3C line of the first header's columns written in the second header's."""
    values = hit_line.split(b" ")
    return b" ".join([*values[:9], values[11], values[9]])


def _logs_json(root: Path, log: Path, kind: str, block: int | None, jobs: int = 1) -> tuple[int, str, str]:
    """What `robotscope logs --json` says of `log` cut into blocks of `block` bytes (None: the default)."""
    args = ["logs", str(log), "--robots-dir", str(root), "--site", SITE, "--no-dns", "--json", "--jobs", str(jobs)]
    args += ["--format", kind] if kind != "auto" else []
    with mock.patch.object(pieces_module, "BLOCK", block) if block else contextlib.nullcontext():
        result = CliRunner().invoke(cli, args)
    return result.exit_code, result.stdout, result.stderr


def _robots(tmp_path_factory: Any) -> Path:
    return snapshots(tmp_path_factory.mktemp("r"), ("2026-11-02T00:00Z.txt", OLD), ("2026-11-02T12:00Z.txt", NEW))


COMBINED = st.lists(st.sampled_from(GOOD + AWKWARD), min_size=1, max_size=24)
ENDS = st.sampled_from([b"\n", b"\r\n"])


# Found by the search: lines out of time order, a piece's first GPTBot requests read against where the piece
# before left its session.
UNORDERED = [
    (GOOD + AWKWARD)[n] for n in (12, 14, 25, 19, 14, 18, 3, 1, 5, 16, 0, 1, 13, 25, 8, 13, 4, 7, 22, 24, 21, 11)
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(COMBINED, st.lists(ENDS, min_size=24, max_size=24), st.booleans(), st.integers(1, 400), st.booleans())
@example(
    UNORDERED, [b"\r\n" if n in (0, 1, 3, 5, 7, 11, 14, 17, 19, 21) else b"\n" for n in range(24)], True, 279, False
)
def test_any_combined_log_in_pieces_of_any_size_gives_the_one_pass_summary(
    tmp_path_factory: Any, lines: list[bytes], ends: list[bytes], final: bool, block: int, detect: bool
) -> None:
    data = b"".join(line + end for line, end in zip(lines, ends, strict=False))
    if not final:
        data = data.removesuffix(ends[len(lines) - 1])  # the last line without its end
    folder = tmp_path_factory.mktemp("log")
    (folder / "access.log").write_bytes(GOOD[0] + b"\n" + data)  # a request first: `auto` can tell the format
    kind = "auto" if detect else "combined"
    robots = _robots(tmp_path_factory)
    whole = _logs_json(robots, folder / "access.log", kind, None)
    assert whole[0] in (0, 1) or detect, whole[2]
    assert _logs_json(robots, folder / "access.log", kind, block) == whole


W3C = st.lists(st.sampled_from(["hit", "hit", "hit", "fields", "remark", "garbage"]), min_size=1, max_size=40)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(W3C, st.integers(1, 300))
def test_a_w3c_log_whose_columns_change_mid_file_gives_the_one_pass_summary(
    tmp_path_factory: Any, kinds: list[str], block: int
) -> None:
    lines = [b"#Software: IIS", b"#Version: 1.0", W3C_FIELDS[0]]
    second = False
    for n, kind in enumerate(kinds):
        hit = w3c_line(HITS[n % len(HITS)]).encode()
        if kind == "hit":
            lines.append(_w3c_second(hit) if second else hit)
        elif kind == "fields":
            second = not second
            lines.append(W3C_FIELDS[second])
        elif kind == "remark":
            lines.extend([b"#Remark: restarted"] * 20)  # more `#` lines than a piece was once given
        else:
            lines.append(b"garbage")
    log = tmp_path_factory.mktemp("log") / "u_ex.log"
    log.write_bytes(b"\n".join(lines) + b"\n")
    robots = _robots(tmp_path_factory)
    whole = _logs_json(robots, log, "w3c", None)
    assert json.loads(whole[1])["requests"] == kinds.count("hit")
    assert _logs_json(robots, log, "w3c", block) == whole


def test_two_workers_give_the_one_pass_summary_of_an_awkward_log(tmp_path: Path) -> None:
    ordered = [combined_line(hit).encode() for hit in sorted(HITS, key=lambda hit: hit.when)]
    lines = [line for good in ordered for line in (good, *AWKWARD)]
    log = tmp_path / "access.log"
    log.write_bytes(b"\r\n".join(lines))  # CRLF line ends, the last line without one
    robots = snapshots(tmp_path, ("2026-11-02T00:00Z.txt", OLD), ("2026-11-02T12:00Z.txt", NEW))
    whole = _logs_json(robots, log, "combined", None)
    # Each time: garbage, the long line, the bytes that are no UTF-8.
    assert json.loads(whole[1])["bad_lines"]["count"] == 3 * len(HITS)
    assert _logs_json(robots, log, "combined", 300, jobs=2) == whole


class _Fatal:
    """What kills the process that unpickles it: a worker dying as one killed by the kernel would."""

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return os._exit, (3,)


def test_a_worker_that_dies_is_one_line_exit_2_and_leaves_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from robotscope.cli import logs as logs_command

    log = tmp_path / "access.log"
    log.write_text("\n".join(combined_line(hit) for hit in HITS * 4) + "\n")
    robots = snapshots(tmp_path, ("2026-11-02T00:00Z.txt", OLD), ("2026-11-02T12:00Z.txt", NEW))
    monkeypatch.setattr(logs_command, "history_from", lambda *given: _Fatal())  # sent to each worker with the setup
    monkeypatch.setattr(pieces_module, "BLOCK", 300)  # more pieces than are worth workers
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    args = ["logs", str(log), "--robots-dir", str(robots), "--site", SITE, "--no-dns", "--format", "combined"]
    for out in ("--csv", "--parquet", "--html"):
        result = CliRunner().invoke(cli, [*args, "--jobs", "2", out, str(out_dir / f"audit.{out[2:]}")])
        assert result.exit_code == 2, result.output
        assert result.stderr.strip().splitlines() == ["robotscope: a worker process stopped unexpectedly; try --jobs 1"]
    assert list(out_dir.iterdir()) == []
