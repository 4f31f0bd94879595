"""Fuzz target: every log reader, detection, and the directives and mappings, never raise on any input.

With atheris installed (`pip install atheris`), from the repository root:

    python -m tests.fuzz.fuzz_logs tests/logs/samples -max_total_time=60

Without it, `check(data)` is a plain function: tests/logs/test_never_raises.py runs it on every
sample log (one per format, written from its documentation) and its seeds are those samples. Add
each input a fuzzer finds to tests/logs/samples/ only if it is a real log; otherwise to the test.
"""

from __future__ import annotations

from tests.fuzz.harness import fuzz, instrumented

with instrumented(__name__):
    from robotscope.syntax.logformats import DETECT_LINES, BadLine, FormatError, Request, detect
    from robotscope.syntax.logformats.problems import OF_THE_FORMAT
    from tests.logs.cases import SAMPLES, Sample

READERS = sorted(set(SAMPLES.values()) | {Sample(name) for name in ("caddy", "cloudflare", "alb", "w3c")})


def _checked(sample: Sample, lines: list[str]) -> list[Request | BadLine | None]:
    """Every line through a fresh reader of `sample`, each answer what a reader may answer."""
    got = sample.reader()
    found = []
    for number, line in enumerate(lines, 1):
        answer = got.read(number, line)
        if isinstance(answer, Request):
            assert answer.number == number and answer.method and isinstance(answer.target, str)
            assert answer.time is None or answer.time == answer.time  # never NaN
            assert answer.status is None or 100 <= answer.status <= 999
            assert answer.size is None or answer.size >= 0
        elif answer is not None:
            assert isinstance(answer, BadLine) and answer.number == number
            for lang in ("en", "ko"):
                assert "\n" not in answer.reason.render(lang)
        found.append(answer)
    return found


def check(data: bytes) -> None:
    """Read `data` as a log of every format, detect its format, and read it as directives; raise only on a bug."""
    text = data.decode("utf-8", "replace")
    lines = text.splitlines()
    for sample in READERS:
        _checked(sample, lines)
    found = detect(lines)
    if found is not None:
        # The format detected reads every line it looked at.
        looked = [line for line in lines if line.strip()][:DETECT_LINES]
        answers = _checked(Sample(found, needs=frozenset()), looked)
        assert all(not isinstance(a, BadLine) or a.reason.code in OF_THE_FORMAT for a in answers)
    for name in ("nginx", "apache", "jsonl"):
        try:
            custom = Sample(name, text[:2000]) if name != "jsonl" else Sample(name, mapping=text[:2000])
            _checked(custom, lines[:50])
        except FormatError as refused:
            assert "\n" not in refused.reason.render() and "\n" not in refused.reason.render("ko")


if __name__ == "__main__":
    fuzz(check)
