"""`robotscope selftest`: run the bundled RFC 9309 reference cases through this installed engine."""

from __future__ import annotations

import sys

import click
from rich.markup import escape

from ..messages import message
from ..reports.selftest import outcome, run_cases
from .options import json_option, lang_option
from .output import console, echo_json


@click.command()
@json_option
@lang_option
def selftest(as_json: bool, lang: str) -> None:
    """Check that this installed copy behaves as RFC 9309 says.

    Runs every reference case shipped in the package (written from the
    RFC's text: a robots.txt, a crawler, a URL, and the verdict and deciding
    line the RFC requires) and prints each with PASS or FAIL. Exit code 1
    when any case fails. The last line reads `N passed, N failed` (in
    English; --lang ko translates it).
    """
    results = run_cases()
    failed = [r for r in results if not r.passed]
    if as_json:
        echo_json([r.as_dict(lang) for r in results])
    else:
        out = console()
        passed_mark = escape(message("selftest.pass").render(lang))
        failed_mark = escape(message("selftest.fail").render(lang))
        for r in results:
            mark = f"[green]{passed_mark}[/]" if r.passed else f"[red]{failed_mark}[/]"
            about = message("selftest.case", section=r.section, description=r.description).render(lang)
            out.print(f"{mark}  {escape(r.case['id']):<32} {escape(about)}", highlight=False)
            if not r.passed:
                mismatch = message("selftest.mismatch", expected=outcome(r.expected), got=outcome(r.got))
                out.print(f"      {mismatch.render(lang)}", markup=False)
        summary = message("selftest.summary", passed=len(results) - len(failed), failed=len(failed))
        out.print(summary.render(lang), markup=False)
    sys.exit(1 if failed else 0)
