"""`bulk` on hostile --urls: lines read within a cap, a bad one skipped with its number, documented exit codes."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

from click.testing import CliRunner

from robotscope.cli import cli
from tests.paths import EXAMPLES

EXAMPLE = str(EXAMPLES / "robots.txt")


def bulk(path: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["bulk", EXAMPLE, "--urls", str(path), "--no-progress", "--jobs", "1", *args])
    return result.exit_code, result.stdout, result.stderr


def test_an_overlong_line_is_skipped_with_its_number_in_bounded_memory(tmp_path: Path) -> None:
    # One 100 MB line once ran past 300 s at 7.28 GB; 32 MB here, and the lines around it are answered.
    path = tmp_path / "urls.txt"
    with path.open("wb") as stream:
        stream.write(b"/ok\n")
        stream.write(b"/" + b"a" * (32 << 20) + b"\n")
        stream.write(b"/search/help\n")
    tracemalloc.start()
    try:
        code, out, err = bulk(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 << 20
    assert [line.split(",")[0] for line in out.splitlines()[1:]] == ["/ok", "/search/help"]
    assert f"{path}: line 2: longer than 8,192 bytes; skipped" in err
    assert code == 1 and "the answer is incomplete: 1 record skipped (1 too long)" in err


def test_a_line_that_is_not_utf8_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "urls.txt"
    path.write_bytes(b"/ok\n/\xff\xfe\n/search/help\n")
    code, out, err = bulk(path)
    assert code == 1 and len(out.splitlines()) == 3 and "line 2: not valid UTF-8; skipped" in err


def test_exit_code_0_when_every_url_is_allowed_1_when_any_is_not(tmp_path: Path) -> None:
    # `robotscope --help`: 0 allowed, 1 disallowed; bulk once exited 0 either way.
    allowed, mixed = tmp_path / "allowed.txt", tmp_path / "mixed.txt"
    allowed.write_text("/ok\n/search/help\n")
    mixed.write_text("/ok\n/cart/1\n")
    assert bulk(allowed)[0] == 0 and bulk(allowed, "--format", "jsonl")[0] == 0
    code, out, err = bulk(mixed)
    assert code == 1 and err == "" and len(out.splitlines()) == 3
