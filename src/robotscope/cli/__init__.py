"""The `robotscope` command: the only place that knows argv, streams and exit codes.

Exit codes: 0 = allowed / clean, 1 = something is disallowed, 2 = bad usage
or unreadable input (always one line on stderr, never a traceback).
"""

from __future__ import annotations

import json
import sys
from typing import NoReturn

try:
    import click
except ImportError:  # pragma: no cover - exercised only without the [cli] extra
    click = None  # type: ignore[assignment]

from .. import __version__
from ..linter import lint
from ..model import Finding, Severity, Verdict
from ..render import render_findings, render_verdict, sarif
from ..robots import Robots, parse

EXIT_USAGE = 2


def _fail(message: str) -> NoReturn:
    click.echo(f"robotscope: {message}", err=True)
    sys.exit(EXIT_USAGE)


def read_robots(source: str) -> Robots:
    """Parse a robots.txt file, or standard input for `-`, as bytes."""
    try:
        if source == "-":
            return parse(sys.stdin.buffer.read())
        with open(source, "rb") as handle:
            return parse(handle.read())
    except OSError as error:
        _fail(f"cannot read {source!r}: {error.strerror or error}")


if click is not None:

    @click.group(context_settings={"help_option_names": ["-h", "--help"]})
    @click.version_option(__version__, prog_name="robotscope")
    def cli() -> None:
        """May this crawler fetch this URL, and which line of robots.txt decides?"""

    @cli.command()
    @click.argument("robots_file", metavar="ROBOTS_FILE")
    @click.argument("agent")
    @click.argument("urls", nargs=-1, required=True, metavar="URL...")
    @click.option("--json", "as_json", is_flag=True, help="Print the verdicts as JSON.")
    def check(robots_file: str, agent: str, urls: tuple[str, ...], as_json: bool) -> None:
        """Check URLs against a robots.txt file (`-` reads standard input).

        AGENT is a product token (Googlebot) or a full User-Agent string.
        Each URL may be a full URL or a path. Exit code 0 when every URL is
        allowed, 1 when any is disallowed.

        \b
        Example:
          robotscope check robots.txt Googlebot https://example.com/private/x /shop?id=1
        """
        robots = read_robots(robots_file)
        verdicts = [robots.verdict(agent, url) for url in urls]
        if as_json:
            findings = lint(robots)
            data = [{**v.as_dict(), "findings": [f.as_dict() for f in findings_for(v, findings)]} for v in verdicts]
            click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        else:
            click.echo("\n\n".join(render_verdict(robots, v, agent) for v in verdicts))
        sys.exit(0 if all(v.allowed for v in verdicts) else 1)


def findings_for(verdict: Verdict, findings: list[Finding]) -> list[Finding]:
    """The findings about the lines a verdict involves: its rule, its group, its candidates."""
    involved = {verdict.line, *verdict.group_lines, *(c.line for c in verdict.candidates)}
    return [f for f in findings if involved.intersection(f.lines)]


_SEVERITY_RANK = {Severity.INFO: 0, Severity.WARNING: 1, Severity.ERROR: 2}


if click is not None:

    @cli.command("lint")
    @click.argument("robots_file", metavar="ROBOTS_FILE")
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
    def lint_command(robots_file: str, output_format: str, as_json: bool, fail_on: str) -> None:
        """Find the mistakes that silently change what a robots.txt means.

        Each finding has a stable code, a severity, the line, what happens,
        and a fix. Exit code 1 when a finding is at or above --fail-on.

        \b
        Examples:
          robotscope lint robots.txt
          robotscope lint robots.txt --format sarif > robots.sarif
          robotscope lint robots.txt --fail-on warning
        """
        robots = read_robots(robots_file)
        findings = lint(robots)
        name = "<stdin>" if robots_file == "-" else robots_file
        if as_json or output_format == "json":
            click.echo(json.dumps([f.as_dict() for f in findings], indent=2, ensure_ascii=False))
        elif output_format == "sarif":
            click.echo(json.dumps(sarif(findings, name, __version__), indent=2, ensure_ascii=False))
        else:
            click.echo(render_findings(robots, findings, name))
        threshold = _SEVERITY_RANK[Severity(fail_on)]
        sys.exit(1 if any(_SEVERITY_RANK[f.severity] >= threshold for f in findings) else 0)


def main() -> None:
    """Entry point of the `robotscope` console script."""
    if click is None:
        sys.stderr.write("robotscope: the command needs the cli extra: pip install 'robotscope[cli]'\n")
        sys.exit(EXIT_USAGE)
    cli(prog_name="robotscope")
