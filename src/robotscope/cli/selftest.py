"""`robotscope selftest`: run the bundled RFC 9309 reference cases through this installed engine."""

from __future__ import annotations

import sys

import click

from ..selftest import run_cases
from .common import console, echo_json, json_option


@click.command()
@json_option
def selftest(as_json: bool) -> None:
    """Check that this installed copy behaves as RFC 9309 says.

    Runs every reference case shipped in the package (written from the
    RFC's text: a robots.txt, a crawler, a URL, and the verdict and deciding
    line the RFC requires) and prints each with PASS or FAIL. Exit code 1
    when any case fails.
    """
    results = run_cases()
    failed = [r for r in results if not r.passed]
    if as_json:
        echo_json([r.as_dict() for r in results])
    else:
        out = console()
        for r in results:
            mark = "[green]PASS[/]" if r.passed else "[red]FAIL[/]"
            out.print(f"{mark}  {r.case['id']:<32} {r.case['section']}: {r.case['description']}", highlight=False)
            if not r.passed:
                out.print(f"      expected {r.expected}, got {r.got}", markup=False)
        out.print(f"{len(results) - len(failed)} passed, {len(failed)} failed", markup=False)
    sys.exit(1 if failed else 0)
