"""Where pieces are audited: in the command's own process for a small log, in workers for a big one, the same."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from robotscope.auditing import pieces as pieces_module
from robotscope.auditing.pieces import Piece, Setup, pieces, results
from robotscope.auditing.sources import from_dir
from robotscope.integrations.records import Tally
from robotscope.reports.audit.summary import Summary
from robotscope.reports.audit.views import summary_view
from tests.cli.test_logs import HITS, NEW, OLD, SITE, snapshots
from tests.reports.audit.builders import log_text


@pytest.fixture
def setup(tmp_path: Path) -> Setup:
    robots = snapshots(tmp_path, ("2026-11-02T00:00Z.txt", OLD), ("2026-11-02T12:00Z.txt", NEW))
    return Setup(tuple(from_dir(str(robots)).versions), SITE, None, False)


def audited(setup: Setup, log: Path, jobs: int, monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, Any], int]:
    """The summary view of `log` audited with `jobs`, and how many pieces went to worker processes."""
    sent: list[Piece] = []
    parallel = pieces_module._parallel

    def counted(setup: Setup, given: Iterator[Piece], jobs: int) -> Iterator[tuple[Summary, Any]]:
        def kept(found: Iterable[Piece]) -> Iterator[Piece]:
            for piece in found:
                sent.append(piece)
                yield piece

        return parallel(setup, kept(given), jobs)

    monkeypatch.setattr(pieces_module, "_parallel", counted)
    total = Summary()
    for summary, _ in results(setup, pieces([str(log)], Tally(), "combined"), jobs):
        total.then(summary)
    return summary_view(total), len(sent)


def test_a_small_log_is_audited_here_a_big_one_in_workers(
    tmp_path: Path, setup: Setup, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "access.log"
    log.write_text(log_text("combined", sorted(HITS, key=lambda hit: hit.when)))
    size = log.stat().st_size
    monkeypatch.setattr(pieces_module, "BLOCK", size // (pieces_module.WORTH_WORKERS - 1))
    assert 1 < len(list(pieces([str(log)], Tally(), "combined"))) < pieces_module.WORTH_WORKERS
    small, sent = audited(setup, log, 2, monkeypatch)
    assert sent == 0  # all here: starting workers would cost more than the log
    monkeypatch.setattr(pieces_module, "BLOCK", 100)
    big, sent = audited(setup, log, 2, monkeypatch)
    assert sent == len(list(pieces([str(log)], Tally(), "combined"))) > pieces_module.WORTH_WORKERS
    one, sent = audited(setup, log, 1, monkeypatch)
    assert sent == 0 and small == big == one and big["requests"] == len(HITS)


def test_at_most_two_pieces_per_worker_are_in_flight(tmp_path: Path, setup: Setup) -> None:
    log = tmp_path / "access.log"
    log.write_text(log_text("combined", sorted(HITS, key=lambda hit: hit.when) * 4))
    read = 0
    in_flight = []

    def counted(found: Iterable[Piece]) -> Iterator[Piece]:
        nonlocal read
        for piece in found:
            read += 1
            yield piece

    given = list(pieces([str(log)], Tally(), "combined", size=200))
    assert len(given) > 4 * pieces_module.WORTH_WORKERS
    for done, _ in enumerate(results(setup, counted(given), 2), 1):
        in_flight.append(read - done)  # read ahead of what was given back
    # The first pieces are read to choose where to audit; past them, two a worker wait.
    assert len(in_flight) == len(given) and max(in_flight) < pieces_module.WORTH_WORKERS
    assert max(in_flight[pieces_module.WORTH_WORKERS :]) <= 2 * 2
