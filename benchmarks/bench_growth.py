"""How lint, diff, readings and the other input surfaces grow with their input: hostile shapes at doubling sizes.

Each shape is a robots.txt built to make some check (or diff) compare many
things with many others. For every size the script parses the file once,
times each registered check on its own (so the slowest is visible), the whole
of `lint`, `diff` against a variant of the same file (every 7th rule
turned around) over `probe_urls` x `agents_named`, at most 10,000 flips, and
`readings` (what `robotscope readings` computes: the lines engines read
otherwise and every crawler/URL pair whose verdicts split; target: a ratio
of at most 2.2). Each cell shows seconds and, after the first size, the
ratio to the size before: about 2 is linear, 4 quadratic.

    python benchmarks/bench_growth.py                    # n = 1,000 to 16,000 lines
    python benchmarks/bench_growth.py --sizes 1000,2000 --shapes first-match
    python benchmarks/bench_growth.py --limit 20         # skip what took longer than 20 s at a smaller size
    python benchmarks/bench_growth.py --shapes '' --surfaces page-unclosed   # one input surface alone

The input surfaces (page HTML, ...) are timed at ten times each size, as a
table of their own.

`tests/test_lint_total.py` runs these shapes at one moderate size under a
time guard.
"""

from __future__ import annotations

import argparse
import gc
import gzip
import inspect
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from robotscope import Robots, parse
from robotscope.reports.compare.diff import agents_named, diff, probe_urls
from robotscope.reports.compare.lines import differences
from robotscope.reports.compare.readings import default_agents, probes, splits
from robotscope.reports.indexing import page_facts
from robotscope.reports.linter import lint
from robotscope.reports.linter.registry import CHECKS
from robotscope.syntax.sitemap import read_sitemap

# Flips asked for at most, as `robotscope diff` does: one shape makes n/4 crawlers flip at
# n/28 URLs each, an output quadratic in the file. (Versions of diff without `limit` list all.)
FLIP_LIMIT = 10_000
DIFF_OPTIONS = {"limit": FLIP_LIMIT} if "limit" in inspect.signature(diff).parameters else {}

REALISTIC = (Path(__file__).parent.parent / "examples" / "robots.txt").read_text(encoding="utf-8")


class Shape(NamedTuple):
    name: str
    what: str
    build: Callable[[int], str]  # n -> a robots.txt of about n lines, under the 500 KiB parse limit up to n = 16,000


def token(i: int) -> str:
    """A distinct product token for each i, letters only: `ba`, `bb`, ..."""
    letters = ""
    while True:
        i, digit = divmod(i, 26)
        letters += chr(ord("a") + digit)
        if not i:
            return "b" + letters


def distinct_agents(n: int) -> str:
    named = "".join(f"User-agent: {token(i)}\nDisallow: /o{i}/\n" for i in range(n // 4))
    return named + "User-agent: *\n" + "".join(f"Disallow: /g{i}/\n" for i in range(n // 2))


def asset_rules(n: int) -> str:
    rules = "".join(f"Disallow: /s/{i}.js\nDisallow: /*.v{i}.css$\n" for i in range(5))
    return "".join(f"User-agent: *\n{rules}" for _ in range(n // 11))


def first_match(n: int) -> str:
    disallows = "".join(f"Disallow: /ab{i}\n" for i in range(n // 2))
    return "User-agent: *\n" + disallows + "".join(f"Allow: /ab{i}/p.html\n" for i in range(n // 2))


def glob_first_match(n: int) -> str:
    disallows = "".join(f"Disallow: /a*b{i}z\n" for i in range(n // 2))
    return "User-agent: *\n" + disallows + "".join(f"Allow: /a/c{i}/p.html\n" for i in range(n // 2))


def same_agent(n: int) -> str:
    return "".join(f"User-agent: yeti\nDisallow: /p{i}/\n" for i in range(n // 2))


def shared_group(n: int) -> str:
    # One group naming n/4 crawlers (with n/4 rules) that each have a group of their own too.
    quarter = n // 4
    shared = "".join(f"User-agent: {token(i)}\n" for i in range(quarter)) + "".join(
        f"Disallow: /s{i}/\n" for i in range(quarter)
    )
    return shared + "".join(f"User-agent: {token(i)}\nDisallow: /o{i}/\n" for i in range(quarter))


def realistic(n: int) -> str:
    # The example file (a few groups, wildcards, sitemaps) repeated to about n lines, each copy's paths under /vK/.
    copies = max(1, n // REALISTIC.count("\n"))
    return "\n".join(re.sub(r"(?im)^((?:dis)?allow: )/", rf"\g<1>/v{k}/", REALISTIC) for k in range(copies))


SHAPES = [
    Shape(
        "distinct-agents",
        "n/4 groups, each naming its own crawler, and a `*` group with n/2 disallows",
        distinct_agents,
    ),
    Shape("asset-rules", "n/11 `*` groups, each with 5 `/s/N.js` and 5 `/*.vN.css$` disallows", asset_rules),
    Shape("first-match", "n/2 disallows `/abN`, then n/2 allows `/abN/p.html`", first_match),
    Shape("glob-first-match", "n/2 disallows `/a*bNz`, then n/2 allows `/a/cN/p.html`", glob_first_match),
    Shape("same-agent", "n/2 groups, all naming Yeti", same_agent),
    Shape(
        "shared-group",
        "one group naming n/4 crawlers with n/4 rules; each crawler has a group of its own too",
        shared_group,
    ),
    Shape("realistic", "examples/robots.txt repeated to n lines, each copy's paths under `/vK/`", realistic),
]


def turned_around(text: str) -> str:
    """The same file with every 7th rule's allow/disallow swapped: a new version to diff against."""
    count = 0

    def swap(match: re.Match[str]) -> str:
        nonlocal count
        count += 1
        if count % 7:
            return match.group()
        return "Allow:" if match.group().lower() == "disallow:" else "Disallow:"

    return re.sub(r"(?im)^(?:dis)?allow:", swap, text)


def timed(function: Callable[[], object]) -> float:
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        function()
        return time.perf_counter() - start
    finally:
        gc.enable()


def measure(shape: Shape, n: int, skip: set[str]) -> dict[str, float | None]:
    """Seconds per check, for `lint` and for `diff`, on the shape at size n (None: skipped)."""
    text = shape.build(n)
    robots, other = parse(text), parse(turned_around(text))
    _ = robots.lines  # built on first use: not part of any one check
    seconds: dict[str, float | None] = {}
    for check in CHECKS:
        seconds[check.code] = None if check.code in skip else timed(lambda run=check.run: list(run(robots)))
    seconds["lint"] = None if "lint" in skip else timed(lambda: lint(robots))
    urls, agents = probe_urls(robots, other), agents_named(robots, other)
    seconds["diff"] = None if "diff" in skip else timed(lambda: diff(robots, other, urls, agents, **DIFF_OPTIONS))
    seconds["readings"] = None if "readings" in skip else timed(lambda: readings(parse(text)))
    return seconds


def readings(robots: Robots) -> None:
    """What `robotscope readings ROBOTS` computes, from a fresh parse (engines read the file on first use)."""
    differences(robots)
    splits(robots, default_agents(robots), probes(robots)[0])


def cell(now: float | None, before: float | None) -> str:
    if now is None:
        return "skipped"
    ratio = f" ×{now / before:.1f}" if before and before >= 0.005 else ""
    return f"{now:.3f}{ratio}"


def run(sizes: list[int], shapes: list[Shape], limit: float, shown: int) -> None:
    for shape in shapes:
        print(f"\n### {shape.name}: {shape.what}\n")
        results: list[dict[str, float | None]] = []
        skip: set[str] = set()
        for n in sizes:
            results.append(measure(shape, n, skip))
            skip |= {name for name, s in results[-1].items() if s is not None and s > limit}
            print(f"  n={n:,} done", file=sys.stderr)
        # The slowest checks at the largest size measured, then lint and diff.
        slowest = {c.code: max(r[c.code] or 0.0 for r in results) for c in CHECKS}
        checks = sorted(slowest, key=slowest.__getitem__, reverse=True)[:shown]
        print("| | " + " | ".join(f"n={n:,}" for n in sizes) + " |")
        print("|---|" + "---|" * len(sizes))
        for name in [*checks, "lint", "diff", "readings"]:
            cells = [cell(r[name], results[i - 1][name] if i else None) for i, r in enumerate(results)]
            label = f"`{name}`" if name in checks else f"**{name}**"
            print(f"| {label} | " + " | ".join(cells) + " |")


class Surface(NamedTuple):
    """An input surface other than lint: `prepare(n)` builds an input of size n and returns the work to time."""

    name: str
    what: str
    prepare: Callable[[int], Callable[[], object]]


def page_html(chunk: str) -> Callable[[int], Callable[[], object]]:
    def prepare(n: int) -> Callable[[], object]:
        body = (chunk * n).encode()
        return lambda: page_facts("https://www.example.com/", [], body, "googlebot")

    return prepare


def sitemap_xml(entry: str, gzipped: bool = False) -> Callable[[int], Callable[[], object]]:
    def prepare(n: int) -> Callable[[], object]:
        body = (
            '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
            + "".join(entry.format(i=i) for i in range(n))
            + "</urlset>"
        ).encode()
        data = gzip.compress(body) if gzipped else body
        return lambda: read_sitemap(data)

    return prepare


SURFACES = [
    Surface(
        "page-unclosed", "page: `<a b='x` repeated n times (html.parser took 61 s at n=10,000)", page_html("<a b='x")
    ),
    Surface("page-tags", "page: n well-formed meta and link tags", page_html('<meta name="robots" content="all"><p>')),
    Surface("page-comments", "page: n unclosed comment openers", page_html("<!--<meta name=robots content=none>")),
    Surface("sitemap-urls", "sitemap: n <url><loc> entries", sitemap_xml("<url><loc>https://e.com/p/{i}</loc></url>")),
    Surface("sitemap-junk", "sitemap.xml.gz: n empty elements, no <loc> (1.2 GB before)", sitemap_xml("<a/>", True)),
]


def run_surfaces(sizes: list[int], surfaces: list[Surface]) -> None:
    print("\n### input surfaces: seconds, ratio per doubling (about 2: linear)\n")
    print("| | " + " | ".join(f"n={n:,}" for n in sizes) + " |")
    print("|---|" + "---|" * len(sizes))
    for surface in surfaces:
        seconds = [timed(surface.prepare(n)) for n in sizes]
        cells = [cell(now, seconds[i - 1] if i else None) for i, now in enumerate(seconds)]
        print(f"| `{surface.name}` | " + " | ".join(cells) + " |")
        print(f"  {surface.name} done", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,2000,4000,8000,16000", help="comma-separated n (default: %(default)s)")
    parser.add_argument("--shapes", default=",".join(s.name for s in SHAPES), help="comma-separated shape names")
    parser.add_argument("--limit", type=float, default=30.0, help="skip at larger sizes what took longer than this (s)")
    parser.add_argument(
        "--checks", type=int, default=3, help="how many of the slowest checks to show (default: %(default)s)"
    )
    parser.add_argument(
        "--surfaces",
        default=",".join(s.name for s in SURFACES),
        help="comma-separated input surfaces, timed at 10 times each size (default: all; '' for none)",
    )
    args = parser.parse_args()
    wanted = args.shapes.split(",")
    sizes = [int(s) for s in args.sizes.split(",")]
    run(sizes, [s for s in SHAPES if s.name in wanted], args.limit, args.checks)
    surfaces = args.surfaces.split(",")
    run_surfaces([10 * n for n in sizes], [s for s in SURFACES if s.name in surfaces])


if __name__ == "__main__":
    main()
