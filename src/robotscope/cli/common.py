"""What every command shares: reading a robots.txt from a file, `-` or a URL, options, output.

Exit codes: 0 = allowed / clean / no change, 1 = disallowed / findings at or
above --fail-on / a verdict flips, 2 = bad usage or unreadable input (one
line on stderr, never a traceback). A robots.txt that cannot be fetched is
not bad usage: it is reported as each policy's decision.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click
from rich.console import Console

from ..model import Verdict
from ..policy import POLICIES, Decision, verdict_for
from ..robots import Robots, parse
from ..urls import InvalidURL

if TYPE_CHECKING:
    from ..fetcher import FetchResult

EXIT_USAGE = 2


def fail(message: str) -> NoReturn:
    """Print one line on stderr and exit with the usage code."""
    click.echo(f"robotscope: {message}", err=True)
    sys.exit(EXIT_USAGE)


def console(stderr: bool = False) -> Console:
    """A Rich console: colour on a terminal, plain text (and a fixed width) in pipes and files."""
    stream = sys.stderr if stderr else sys.stdout
    return Console(file=stream, width=None if stream.isatty() else 160, highlight=False)


# Words that carry the answer, coloured on a terminal (plain text elsewhere).
_STYLES = (
    (r"^DISALLOWED\b", "bold red"),
    (r"^ALLOWED\b", "bold green"),
    (r": error \w+$", "red"),
    (r": warning \w+$", "yellow"),
    (r": info \w+$", "cyan"),
    (r"^  > .*$", "bold"),
)


def echo_text(text: str) -> None:
    """Print rendered text, with the answers coloured when stdout is a terminal."""
    if not sys.stdout.isatty():
        click.echo(text)
        return
    from rich.text import Text

    rich_text = Text(text)
    for pattern, style in _STYLES:
        rich_text.highlight_regex(re.compile(pattern, re.MULTILINE), style)
    console().print(rich_text)


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def read_robots(source: str) -> Robots:
    """Parse a robots.txt file, or standard input for `-`, as bytes."""
    try:
        if source == "-":
            return parse(sys.stdin.buffer.read())
        with open(source, "rb") as handle:
            return parse(handle.read())
    except OSError as error:
        fail(f"cannot read {source!r}: {error.strerror or error}")


def is_url(source: str) -> bool:
    return source.lower().startswith(("http://", "https://"))


def open_cache(no_cache: bool, cache_path: str | None) -> Any:
    """The cache to fetch through: False with --no-cache, else the --cache file or the default one.

    A cache that cannot be used (locked, read-only, uncreatable) is never an
    error: the fetch goes on without it, and the cache's one warning is
    printed with the fetch's. Opened once here, so a command that fetches
    many origins (bulk) warns once, not once per origin.
    """
    if no_cache:
        return False
    import sqlite3  # sqlite3 is needed only when fetching

    from ..cache import RobotsCache

    try:
        return RobotsCache(cache_path)
    except (OSError, sqlite3.Error, RuntimeError) as error:  # RuntimeError: Path.home() without a home
        # RobotsCache reports these itself; this only guards a failure outside its checks.
        where = repr(cache_path) if cache_path is not None else "the default cache"
        click.echo(
            f"robotscope: warning: cannot open {where} ({error}); carrying on without caching", err=True
        )
        return False


class Fetched:
    """A robots.txt fetched for a command: the decision, and the file it leaves (empty if none)."""

    def __init__(self, url: str, policy: str, cache: Any, timeout: float = 10.0) -> None:
        from ..fetcher import fetch_robots  # httpx is needed only when a URL is given

        try:
            self.result: FetchResult = fetch_robots(url, policy=policy, cache=cache, timeout=timeout)
        except InvalidURL as error:
            fail(str(error))
        for warning in self.result.warnings:
            click.echo(f"robotscope: warning: {warning}", err=True)
        self.decision: Decision = self.result.decisions[policy]
        self.robots = self.result.robots or parse("")


class Source:
    """A robots.txt to answer from: a parsed file, or what a fetch left (a decision and maybe a file)."""

    def __init__(self, name: str, robots: Robots, fetched: Fetched | None = None) -> None:
        self.name = name
        self.robots = robots
        self.fetched = fetched

    def verdict(self, agent: str, url: str) -> Verdict:
        if self.fetched is None:
            return self.robots.verdict(agent, url)
        return verdict_for(self.fetched.decision, self.fetched.result.robots, agent, url)

    @property
    def rules_apply(self) -> bool:
        """False when a fetch decided allow-all or disallow-all, so no rule of the file applies."""
        return self.fetched is None or self.fetched.decision.action in ("parse", "cached-copy")

    def banner(self) -> str | None:
        """One line on what the fetch concluded, or None for a local file."""
        if self.fetched is None:
            return None
        decision = self.fetched.decision
        return f"{self.fetched.result.robots_url}: {decision.action}\n  {decision.explanation}"


def fetch(url: str, policy: str, no_cache: bool, cache_path: str | None, timeout: float = 10.0) -> Fetched:
    """Fetch `url`'s robots.txt through the cache the options name (closed afterwards)."""
    cache = open_cache(no_cache, cache_path)
    try:
        return Fetched(url, policy, cache, timeout)
    finally:
        if hasattr(cache, "close"):
            cache.close()


def load(
    source: str, policy: str = "rfc9309", no_cache: bool = False, cache_path: str | None = None, timeout: float = 10.0
) -> Source:
    """A Source from a file, `-`, or an http(s) URL (its origin's robots.txt, fetched)."""
    if not is_url(source):
        return Source("<stdin>" if source == "-" else source, read_robots(source))
    fetched = fetch(source, policy, no_cache, cache_path, timeout)
    return Source(fetched.result.robots_url, fetched.robots, fetched)


_Command = TypeVar("_Command", bound=Callable[..., Any])


def fetch_options(command: _Command) -> _Command:
    """The options of every command that may fetch a robots.txt."""
    for option in reversed(
        [
            click.option(
                "--policy",
                type=click.Choice(list(POLICIES)),
                default="rfc9309",
                show_default=True,
                help="Whose reading of the HTTP outcome to apply when fetching.",
            ),
            click.option("--no-cache", is_flag=True, help="Fetch robots.txt even if a fresh copy is cached."),
            click.option("--cache", "cache_path", metavar="PATH", help="The cache file (default: the user's cache directory)."),
        ]
    ):
        command = option(command)
    return command


json_option = click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
