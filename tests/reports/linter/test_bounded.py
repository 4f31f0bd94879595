"""Lint is total and near-linear: it never raises, and hostile files cannot make it (or diff) crawl.

`Sitemap: https://[oops]/s.xml` once made lint raise (urlsplit's ValueError),
and with it every command and endpoint that lints. Some checks, and diff,
once compared every group or rule with every other: a 366 KB file took
minutes. The seed corpus of the fuzz target (tests/fuzz/) and the hostile
shapes of benchmarks/bench_growth.py guard both.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import textwrap
import tracemalloc
from pathlib import Path
from types import ModuleType

import pytest
from click.testing import CliRunner

from robotscope import lint, parse
from robotscope.access.engines import protego
from robotscope.cli import cli
from tests.paths import ROOT


def _module(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FUZZ = _module(ROOT / "tests" / "fuzz" / "fuzz_lint.py")
GROWTH = ROOT / "benchmarks" / "bench_growth.py"
BRACKETED = "User-agent: *\nDisallow: http://[::1/\nDisallow: https://[oops]/a?b=1\nSitemap: https://[oops]/s.xml\n"


def test_bracketed_hosts_are_findings_not_errors() -> None:
    findings = {(f.line, f.code): f for f in lint(parse(BRACKETED))}
    assert findings[(2, "patternNoSlash")].fix.render() == "write `Disallow: /`"
    assert findings[(3, "patternNoSlash")].fix.render() == "write `Disallow: /a?b=1`"
    sitemap = findings[(4, "sitemapInvalid")]
    assert "host that is neither a host name nor an IP address" in sitemap.message.render()
    assert sitemap.fix.render() == "write the full URL, e.g. `Sitemap: https://www.example.com/s.xml`"


@pytest.mark.parametrize(
    "value",
    ["https://ex\uff0fample.com/s.xml", "http://[::1", "https://a]/x", "http://[v1.x/"],
    ids=["nfkc", "unclosed", "stray", "ipvfuture"],
)
def test_every_host_urlsplit_rejects_is_an_invalid_sitemap(value: str) -> None:
    assert [f.code for f in lint(parse(f"Sitemap: {value}\n"))] == ["sitemapInvalid"]


def test_commands_that_lint_answer_a_bracketed_host(tmp_path: Path) -> None:
    robots = tmp_path / "robots.txt"
    robots.write_text(BRACKETED)
    runner = CliRunner()
    linted = runner.invoke(cli, ["lint", str(robots), "--format", "json"])
    assert linted.exit_code == 1 and "sitemapInvalid" in linted.output
    checked = runner.invoke(cli, ["check", "--json", str(robots), "Googlebot", "/x"])
    assert checked.exit_code == 0 and json.loads(checked.output)
    generated = runner.invoke(cli, ["generate", "--preset", "allow-all", "--sitemap", "https://[oops]/s.xml"])
    assert generated.exception is None or isinstance(generated.exception, SystemExit), generated.output
    assert "Sitemap: https://[oops]/s.xml" in generated.output


SEEDS = sorted(FUZZ.SEEDS.iterdir())


@pytest.mark.parametrize("seed", SEEDS, ids=[p.name for p in SEEDS])
def test_fuzz_target_passes_on_every_seed(seed: Path) -> None:
    FUZZ.check(seed.read_bytes())


def test_seed_corpus_holds_the_reported_inputs() -> None:
    seeds = [path.read_bytes() for path in SEEDS]
    assert len(seeds) >= 24
    for needle in (b"Sitemap: https://[oops]/s.xml", b"Disallow: http://[::1/", b"\x00", b"\xff\xfe"):
        assert any(needle in seed for seed in seeds), needle
    assert any(b"\r" in seed and b"\r\n" not in seed for seed in seeds)  # lone CRs
    assert any(max(map(len, seed.split(b"\n"))) > 50_000 for seed in seeds)  # a huge line


# Each shape, at 16,000 lines (under the 500 KiB parse limit), lints and diffs in
# about a second; a check or diff that compares every group or rule with every
# other takes minutes. The guard is generous for a loaded machine.
GUARD_SECONDS = 90
SHAPES = [s.name for s in _module(GROWTH).SHAPES]


@pytest.mark.parametrize("shape", SHAPES)
def test_hostile_shape_lints_and_diffs_in_near_linear_time(shape: str) -> None:
    # In a child process, so that a run past the guard can be stopped.
    code = textwrap.dedent(
        f"""
        import importlib.util
        spec = importlib.util.spec_from_file_location("bench_growth", {str(GROWTH)!r})
        growth = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(growth)
        from robotscope import lint, parse
        from robotscope.reports.compare.diff import agents_named, diff, probe_urls
        text = next(s for s in growth.SHAPES if s.name == {shape!r}).build(16_000)
        old, new = parse(text), parse(growth.turned_around(text))
        assert not old.truncated
        lint(old)
        diff(old, new, probe_urls(old, new), agents_named(old, new), limit=growth.FLIP_LIMIT)
        """
    )
    try:
        subprocess.run([sys.executable, "-c", code], check=True, timeout=GUARD_SECONDS, capture_output=True)
    except subprocess.TimeoutExpired:
        pytest.fail(f"lint or diff of the {shape} shape took over {GUARD_SECONDS} s: something grew quadratic again")


def test_a_run_of_thousands_of_agents_above_thousands_of_rules_is_linted_in_linear_memory() -> None:
    # Protego gives every name of a run its own copy of the run's rules; the protego reading keeps
    # them once, so linting (which reads the file as every engine does) does not grow with their product.
    names, rules = 2000, 2000
    text = "".join(f"User-agent: bot{i}\n" for i in range(names)) + "".join(f"Disallow: /s{i}/\n" for i in range(rules))
    robots = parse(text)
    tracemalloc.start()
    try:
        lint(robots)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 30 * 2**20  # the product, 4 million rule copies, took 75 MiB
    parsed = robots.reading("protego", protego.read)
    assert parsed.rules is not None and len(parsed.rules) == rules and all(group.rules == () for group in parsed.groups)
    verdict = robots.verdict("bot1999", "/s1999/x", engine="protego")
    assert (verdict.allowed, verdict.line, verdict.group_lines) == (False, names + rules, (names,))
