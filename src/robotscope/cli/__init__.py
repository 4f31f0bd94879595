"""The `robotscope` command: the only place that knows argv, streams and exit codes.

Exit codes: 0 = allowed / clean, 1 = something is disallowed, 2 = bad usage
or unreadable input (always one line on stderr, never a traceback). A
robots.txt that cannot be fetched is not bad usage: it is reported as each
policy's decision.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

try:
    import click
except ImportError:  # pragma: no cover - exercised only without the [cli] extra
    click = None  # type: ignore[assignment]

from .. import __version__
from ..linter import lint
from ..model import Finding, Severity, Verdict
from ..policy import POLICIES, Decision, verdict_for
from ..render import render_findings, render_verdict, sarif
from ..robots import Robots, parse
from ..urls import InvalidURL

if TYPE_CHECKING:
    from ..fetcher import FetchResult

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


def is_url(source: str) -> bool:
    return source.lower().startswith(("http://", "https://"))


class Fetched:
    """A robots.txt fetched for `check` or `lint`: the decision, and the file it leaves (empty if none)."""

    def __init__(self, url: str, policy: str, no_cache: bool, cache_path: str | None) -> None:
        # Imported here: httpx and sqlite3 are needed only when a URL is given.
        from ..cache import RobotsCache
        from ..fetcher import fetch_robots

        cache: RobotsCache | bool | None = False if no_cache else None
        try:
            if cache_path is not None and not no_cache:
                cache = RobotsCache(cache_path)
            self.result = fetch_robots(url, policy=policy, cache=cache)
        except InvalidURL as error:
            _fail(str(error))
        except OSError as error:
            _fail(f"cannot open cache {cache_path!r}: {error.strerror or error}")
        finally:
            if isinstance(cache, RobotsCache):
                cache.close()
        for warning in self.result.warnings:
            click.echo(f"robotscope: warning: {warning}", err=True)
        self.decision: Decision = self.result.decisions[policy]
        self.robots = self.result.robots or parse("")


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
                help="Whose reading of the HTTP outcome to apply.",
            ),
            click.option("--no-cache", is_flag=True, help="Fetch robots.txt even if a fresh copy is cached."),
            click.option("--cache", "cache_path", metavar="PATH", help="The cache file (default: the user's cache directory)."),
        ]
    ):
        command = option(command)
    return command


if click is not None:

    @click.group(context_settings={"help_option_names": ["-h", "--help"]})
    @click.version_option(__version__, prog_name="robotscope")
    def cli() -> None:
        """May this crawler fetch this URL, and which line of robots.txt decides?"""

    @cli.command()
    @click.argument("robots_file", metavar="ROBOTS_FILE")
    @click.argument("agent")
    @click.argument("urls", nargs=-1, metavar="URL...")
    @click.option("--json", "as_json", is_flag=True, help="Print the verdicts as JSON.")
    @fetch_options
    def check(
        robots_file: str, agent: str, urls: tuple[str, ...], as_json: bool, policy: str, no_cache: bool, cache_path: str | None
    ) -> None:
        """Check URLs against a robots.txt file (`-` reads standard input) or a site's.

        ROBOTS_FILE may be an http(s) URL: its origin's robots.txt is fetched
        (through the cache unless --no-cache), and with no URL given, that
        URL itself is checked. AGENT is a product token (Googlebot) or a full
        User-Agent string. Each URL may be a full URL or a path. Exit code 0
        when every URL is allowed, 1 when any is disallowed.

        \b
        Examples:
          robotscope check robots.txt Googlebot https://example.com/private/x /shop?id=1
          robotscope check https://example.com/private/x Googlebot --policy google
        """
        fetched = Fetched(robots_file, policy, no_cache, cache_path) if is_url(robots_file) else None
        if not urls:
            if fetched is None:
                raise click.UsageError("Missing argument 'URL...'.")
            urls = (robots_file,)
        if fetched is None:
            robots = read_robots(robots_file)
            verdicts = [robots.verdict(agent, url) for url in urls]
        else:
            robots = fetched.robots
            verdicts = [verdict_for(fetched.decision, fetched.result.robots, agent, url) for url in urls]
        if as_json:
            findings = lint(robots)
            data = [{**v.as_dict(), "findings": [f.as_dict() for f in findings_for(v, findings)]} for v in verdicts]
            if fetched is not None:
                data = [{**item, "robots_txt": fetched.decision.as_dict()} for item in data]
            click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        else:
            if fetched is not None:
                click.echo(f"{fetched.result.robots_url}: {fetched.decision.action}\n  {fetched.decision.explanation}\n")
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
    @fetch_options
    def lint_command(
        robots_file: str, output_format: str, as_json: bool, fail_on: str, policy: str, no_cache: bool, cache_path: str | None
    ) -> None:
        """Find the mistakes that silently change what a robots.txt means.

        ROBOTS_FILE may be an http(s) URL: its origin's robots.txt is fetched
        first. Each finding has a stable code, a severity, the line, what
        happens, and a fix. Exit code 1 when a finding is at or above
        --fail-on, or when a fetched robots.txt is unreachable (disallow all).

        \b
        Examples:
          robotscope lint robots.txt
          robotscope lint robots.txt --format sarif > robots.sarif
          robotscope lint https://example.com/ --fail-on warning
        """
        if is_url(robots_file):
            fetched = Fetched(robots_file, policy, no_cache, cache_path)
            if fetched.result.robots is None:
                click.echo(f"{fetched.result.robots_url}: {fetched.decision.action}: nothing to lint\n  {fetched.decision.explanation}")
                sys.exit(1 if fetched.decision.action == "disallow-all" else 0)
            robots, name = fetched.robots, fetched.result.robots_url
        else:
            robots = read_robots(robots_file)
            name = "<stdin>" if robots_file == "-" else robots_file
        findings = lint(robots)
        if as_json or output_format == "json":
            click.echo(json.dumps([f.as_dict() for f in findings], indent=2, ensure_ascii=False))
        elif output_format == "sarif":
            click.echo(json.dumps(sarif(findings, name, __version__), indent=2, ensure_ascii=False))
        else:
            click.echo(render_findings(robots, findings, name))
        threshold = _SEVERITY_RANK[Severity(fail_on)]
        sys.exit(1 if any(_SEVERITY_RANK[f.severity] >= threshold for f in findings) else 0)


def render_fetch(result: FetchResult, findings: list[Finding]) -> str:
    """A fetch as text: the chain, the response, every policy's decision side by side, the findings."""
    out = [f"robots.txt: {result.robots_url}{'  (from cache)' if result.from_cache else ''}"]
    out.extend(f"  {i}. {status} {url}" for i, (url, status) in enumerate(result.hops, 1))
    if result.error is not None:
        out.append(f"error: {result.error.kind}: {result.error.message}")
    size = f"{result.bytes_received} bytes" + (" (cut at the 500 KiB limit)" if result.truncated else "")
    out.append(f"status: {result.status if result.status is not None else '-'}   content type: {result.content_type or '-'}   size: {size}")
    out.append("decisions:")
    width = max(len(name) for name in result.decisions)
    for name, decision in result.decisions.items():
        mark = "*" if name == result.policy else " "
        out.append(f"  {mark} {name:<{width}}  {decision.action:<12}  {decision.explanation}")
    if result.robots is not None:
        out.append(render_findings(result.robots, findings, result.robots_url))
    return "\n".join(out)


if click is not None:

    @cli.command("fetch")
    @click.argument("url")
    @click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
    @click.option("--timeout", type=float, default=10.0, show_default=True, help="Seconds for the whole fetch.")
    @fetch_options
    def fetch_command(url: str, as_json: bool, timeout: float, policy: str, no_cache: bool, cache_path: str | None) -> None:
        """Fetch a site's robots.txt the way crawlers do, and say what each search engine concludes.

        Shows the redirect chain, the status, content type and size, the
        decision of every policy side by side (* marks --policy), and the
        lint findings of the body. Exit code 1 when the --policy decision is
        disallow all, else 0.

        \b
        Example:
          robotscope fetch https://example.com/ --policy google
        """
        fetched = Fetched(url, policy, no_cache, cache_path)
        result = fetched.result
        findings = lint(result.robots) if result.robots is not None else []
        if as_json:
            data = {**result.as_dict(), "findings": [f.as_dict() for f in findings]}
            click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        else:
            click.echo(render_fetch(result, findings))
        sys.exit(1 if result.decision == "disallow-all" else 0)


def main() -> None:
    """Entry point of the `robotscope` console script."""
    if click is None:
        sys.stderr.write("robotscope: the command needs the cli extra: pip install 'robotscope[cli]'\n")
        sys.exit(EXIT_USAGE)
    cli(prog_name="robotscope")
