"""`robotscope lint`: every silent mistake in a robots.txt, with its line and its fix."""

from __future__ import annotations

import sys

import click

from .._version import __version__
from ..access.robots import Robots, parse
from ..messages import message
from ..reports.linter import lint
from ..reports.linter.proof import apply
from ..reports.render import file_uri, render_findings, sarif_log
from ..syntax.model import Finding, Severity
from .options import FetchSettings, fetch_options, lang_option
from .output import echo_json, echo_text, fail
from .sources import STDIN, Source, load

_SEVERITY_RANK = {Severity.INFO: 0, Severity.WARNING: 1, Severity.ERROR: 2}


@click.command("lint")
@click.argument("robots_files", nargs=-1, required=True, metavar="ROBOTS...")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json", "sarif"]),
    default="text",
    show_default=True,
    help="text for people, json (a list of findings), sarif (SARIF 2.1.0 for code scanning).",
)
@click.option("--json", "as_json", is_flag=True, help="Same as --format json.")
@click.option(
    "--fail-on",
    type=click.Choice(["error", "warning", "info"]),
    default="error",
    show_default=True,
    help="The lowest severity that makes the exit code 1.",
)
@click.option(
    "--fix",
    is_flag=True,
    help="Print the file with every proven fix applied (LF line ends, UTF-8), and what was applied on stderr.",
)
@lang_option
@fetch_options
def lint_command(
    robots_files: tuple[str, ...],
    output_format: str,
    as_json: bool,
    fail_on: str,
    fix: bool,
    lang: str,
    fetching: FetchSettings,
) -> None:
    """Find the mistakes that silently change what a robots.txt means.

    Each ROBOTS is a file, `-` for standard input, or an http(s) URL whose
    origin's robots.txt is fetched first. Each finding has a stable code, a
    severity, the line, what happens, and a fix. Exit code 1 when a finding
    is at or above --fail-on, or when a fetched robots.txt is unreachable.
    With several files, text shows each in turn, json gives each finding its
    `file`, and sarif is one log locating each finding in its file.

    --fix applies only the fixes lint has proven to change no crawler's
    verdict under RFC 9309 and Google's reading (each finding's `edit`,
    applied together); the others stay advice. The exit code is then that of the fixed file's findings.

    \b
    Examples:
      robotscope lint robots.txt
      robotscope lint public/robots.txt staging/robots.txt --fail-on warning
      robotscope lint robots.txt --format sarif > robots.sarif
      robotscope lint https://example.com/ --fail-on warning
      robotscope lint robots.txt --fix > robots.fixed.txt
    """
    if fix and len(robots_files) > 1:
        fail(message("lint.fix-one-file"))
    threshold = _SEVERITY_RANK[Severity(fail_on)]
    text = output_format == "text" and not as_json
    failed = False
    linted: list[tuple[Source, list[Finding]]] = []
    texts: list[str] = []
    for robots_file in robots_files:
        source = load(robots_file, fetching)
        if source.fetched is not None and source.fetched.result.robots is None:
            decision = source.fetched.decision
            nothing = message("lint.nothing-to-lint").render(lang)
            # On stderr unless the output is text: JSON and SARIF stay one document.
            click.echo(f"{source.name}: {decision.action}: {nothing}\n  {decision.reason.render(lang)}", err=not text)
            failed |= decision.action == "disallow-all"
            continue
        # A fetched file's findings start with those of how it was served, as `fetch` and `check` say them.
        findings = [*source.served, *lint(source.robots)]
        if fix:
            fixed, findings = _fixed(source.robots, findings, source.served, lang)
            click.echo(fixed, nl=False)
        linted.append((source, findings))
        texts.append(render_findings(source.robots, findings, source.name, lang))
        failed |= any(_SEVERITY_RANK[f.severity] >= threshold for f in findings)
    if fix or (text and not linted):
        sys.exit(1 if failed else 0)
    if as_json or output_format == "json":
        echo_json([f.as_dict(lang) | {"file": source.name} for source, findings in linted for f in findings])
    elif output_format == "sarif":
        # A local file's name is a path; a fetched file's is its URL already, and standard input has none.
        located = [(_uri(source), found) for source, found in linted]
        echo_json(sarif_log(located, __version__, lang))
    else:
        echo_text("\n".join(texts))
    sys.exit(1 if failed else 0)


def _uri(source: Source) -> str:
    return source.name if source.fetched is not None or source.name == STDIN else file_uri(source.name)


def _fixed(
    robots: Robots, findings: list[Finding], served: tuple[Finding, ...], lang: str
) -> tuple[str, list[Finding]]:
    """The file with the proven edits applied (the part past the size limit kept as it was), and what is
    left: its findings, after those of how it was `served`, which no edit of the file changes."""
    edits = list(dict.fromkeys(f.edit for f in findings if f.edit is not None))
    text = apply(robots.text, edits) + robots.overflow_text
    left = [*served, *lint(parse(text), prove=False)]  # counted only
    summary = message("lint.fixed", applied=len(edits), left=len(left))
    click.echo(summary.render(lang), err=True)
    return text, left
