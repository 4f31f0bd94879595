"""No reader raises, whatever the line, and none spends more than linear time on a hostile one."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotscope.syntax.logformats import MAX_LINE, BadLine, Request, detect
from tests.fuzz.fuzz_logs import READERS, check
from tests.fuzz.harness import run_briefly
from tests.logs.cases import SAMPLES, SAMPLES_DIR, Sample, lines

SAMPLE_LINES = sorted({line for name in SAMPLES for line in lines(name)})


@st.composite
def mangled(draw: st.DrawFn) -> str:
    """A sample line with text put in, cut out or replaced somewhere: lines near the formats."""
    line = draw(st.sampled_from(SAMPLE_LINES))
    start = draw(st.integers(0, len(line)))
    end = draw(st.integers(start, min(len(line), start + 20)))
    return line[:start] + draw(st.text(max_size=20)) + line[end:]


LINES = st.one_of(st.text(max_size=300), mangled(), st.sampled_from(SAMPLE_LINES))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(READERS), st.lists(LINES, max_size=12))
def test_no_reader_raises_on_any_text(sample: Sample, some_lines: list[str]) -> None:
    got = sample.reader()
    for number, line in enumerate(some_lines, 1):
        found = got.read(number, line)
        assert found is None or isinstance(found, Request | BadLine)
        if found is not None:
            assert found.number == number


@settings(max_examples=200, deadline=None)
@given(st.lists(LINES, max_size=25))
def test_detection_never_raises_and_names_a_format_every_line_reads_in(some_lines: list[str]) -> None:
    check("\n".join(some_lines).encode("utf-8", "surrogatepass"))


def hostile(line: str) -> list[str]:
    """Lines built to make a backtracking matcher try every split: long runs of the characters formats
    use as delimiters, and sample lines grown to the limit in the middle of a field."""
    filler = MAX_LINE - len(line) - 1
    middle = len(line) // 2
    return [
        '"' * MAX_LINE,
        "\\" * MAX_LINE,
        " " * MAX_LINE,
        "a " * (MAX_LINE // 2),
        '\\" ' * (MAX_LINE // 3),
        "[" * MAX_LINE,
        "{" * MAX_LINE,
        '{"a":' * (MAX_LINE // 5),
        "\t-" * (MAX_LINE // 2),
        "1" * MAX_LINE,
        line[:middle] + "x" * filler + line[middle:],
        line[:middle] + " -" * (filler // 2) + line[middle:],
        line[:middle] + '\\"' * (filler // 2) + line[middle:],
        line + "x" * (MAX_LINE + 1),  # over the limit: refused before any match
    ]


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_a_hostile_line_costs_linear_time_in_every_format(name: str) -> None:
    # A backtracking regular expression takes minutes of CPU on one of these lines (32 KiB squared
    # steps); read linearly, all of them take milliseconds. The bound is CPU time, not wall time.
    sample = SAMPLES[name]
    got = sample.reader()
    line = max(lines(name), key=len)
    started = time.process_time()
    for number, text in enumerate(hostile(line), 1):
        found = got.read(number, text)
        assert found is None or isinstance(found, Request | BadLine)
    detect(hostile(line))
    assert time.process_time() - started < 2.0


def test_a_line_over_the_limit_is_a_bad_line_saying_so() -> None:
    for sample in READERS:
        found = sample.reader().read(9, "x" * (MAX_LINE + 1))
        assert isinstance(found, BadLine) and found.number == 9
        assert found.reason.render() == f"longer than {MAX_LINE:,} characters"


@pytest.mark.parametrize("seed", sorted(SAMPLES_DIR.iterdir()), ids=lambda path: path.name)
def test_the_fuzz_target_passes_on_every_seed(seed: Path) -> None:
    check(seed.read_bytes())


def test_the_fuzz_target_runs_under_atheris(tmp_path: Path) -> None:
    run_briefly("tests.fuzz.fuzz_logs", SAMPLES_DIR, tmp_path, 3000)
