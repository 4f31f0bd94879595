"""The `robotscope` command group: every command, registered in one place."""

from __future__ import annotations

import click

from .._version import __version__
from ..access.build import build_name
from ..messages import message
from .build_site import build_site
from .bulk import bulk
from .check import check
from .ci import ci_command
from .diff import diff_command
from .expect import expect_command
from .explain import explain
from .export import export_command
from .fetch import fetch_command
from .generate import generate
from .history import history_command
from .lint import lint_command
from .logs import logs_command
from .matrix import matrix
from .mcp import mcp_command
from .output import current_lang
from .page import page_command
from .readings import readings_command
from .selftest import selftest
from .serve import serve
from .sitemap import sitemap_command
from .survey import survey_command
from .verify import verify_command
from .watch import watch_command


def _version(context: click.Context, _option: click.Parameter, asked: bool) -> None:
    """`--version`: the version and which build this is (compiled or pure Python)."""
    if asked and not context.resilient_parsing:
        click.echo(message("cli.version", version=__version__, build=build_name()).render(current_lang()))
        context.exit()


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option(
    "--version", is_flag=True, expose_value=False, is_eager=True, callback=_version, help="Show the version and exit."
)
def cli() -> None:
    """May this crawler fetch this URL, and which line of robots.txt decides?

    ROBOTS arguments take a file, `-` for standard input, or a site's URL
    (its robots.txt is fetched, through a cache). Every command has --json.
    Exit codes: 0 allowed / clean / no change, 1 disallowed / findings /
    flips, 2 bad usage or unreadable input.

    \b
    Shell completion (bash; zsh and fish alike):
      eval "$(robotscope completion bash)"
    """


@click.command()
@click.argument("shell", type=click.Choice(["bash", "zsh", "fish"]))
def completion(shell: str) -> None:
    """Print the shell completion script for SHELL (add it to your shell's start-up file)."""
    from click.shell_completion import get_completion_class

    completer = get_completion_class(shell)
    assert completer is not None  # the three shells are all built into Click
    click.echo(completer(cli, {}, "robotscope", "_ROBOTSCOPE_COMPLETE").source())


for command in (
    check,
    lint_command,
    fetch_command,
    matrix,
    diff_command,
    expect_command,
    ci_command,
    history_command,
    watch_command,
    verify_command,
    logs_command,
    readings_command,
    bulk,
    survey_command,
    sitemap_command,
    page_command,
    generate,
    export_command,
    serve,
    mcp_command,
    build_site,
    selftest,
    explain,
    completion,
):
    cli.add_command(command)
