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
from ..render import render_verdict
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
            click.echo(json.dumps([v.as_dict() for v in verdicts], indent=2, ensure_ascii=False))
        else:
            click.echo("\n\n".join(render_verdict(robots, v, agent) for v in verdicts))
        sys.exit(0 if all(v.allowed for v in verdicts) else 1)


def main() -> None:
    """Entry point of the `robotscope` console script."""
    if click is None:
        sys.stderr.write("robotscope: the command needs the cli extra: pip install 'robotscope[cli]'\n")
        sys.exit(EXIT_USAGE)
    cli(prog_name="robotscope")
