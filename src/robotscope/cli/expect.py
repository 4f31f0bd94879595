"""`robotscope expect`: does a robots.txt still do what its expectation file says? The CI check."""

from __future__ import annotations

import sys

import click

from ..messages import message
from ..reports.expect.check import check
from ..reports.expect.load import ExpectationError, Expectations, load_expectations
from ..reports.watch.alerts import Alert, Severity
from .options import FetchSettings, engine_option, fetch_options, json_option, lang_option
from .output import echo_json, echo_text, fail
from .sources import load


def read_expectations(path: str) -> Expectations:
    """The expectation file at `path` (`-` for standard input), or a one-line error and exit code 2."""
    try:
        with click.open_file(path, encoding="utf-8") as stream:
            text = stream.read(1024 * 1024 + 1)
    except (OSError, UnicodeDecodeError) as error:
        problem = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        fail(message("expect.cannotRead", path=path, problem=problem))
    try:
        return load_expectations(text)
    except ExpectationError as error:
        fail(message("expect.error.where", path=path, reason=error.reason))


@click.command("expect")
@click.argument("expect_file", metavar="EXPECT_FILE")
@click.argument("robots_file", metavar="ROBOTS")
@engine_option
@json_option
@lang_option
@fetch_options
def expect_command(
    expect_file: str, robots_file: str, engine: str, as_json: bool, lang: str, fetching: FetchSettings
) -> None:
    """Check ROBOTS (a file, `-`, or a site's URL) against the statements of EXPECT_FILE (TOML).

    EXPECT_FILE says which crawlers may and may not fetch which URLs
    ([[allow]], [[block]]), how the file is served ([served]: status,
    content_type, max_size; checked when ROBOTS is a URL), the usage
    preferences that must apply ([[usage]], [[signal]]) and the sitemaps
    it lists ([[sitemap]]); docs/expectations.md has the format. Each
    failed statement is reported with the line that decides it. Exit code
    0 when every statement holds, 1 when one fails, 2 for a bad expectation
    file or ROBOTS.

    \b
    Examples:
      robotscope expect robots-expect.toml public/robots.txt
      robotscope expect robots-expect.toml https://example.com/ --json
    """
    expectations = read_expectations(expect_file)
    source = load(robots_file, fetching)
    if source.fetched is not None:
        from ..fetch.observation import observation  # httpx is needed only when a URL is given

        alerts = check(expectations, observation(source.fetched.result), engine)
    else:
        alerts = check(expectations, source.robots, engine)
    failed = [a for a in alerts if a.code != "expectUnchecked"]
    count = len(expectations.statements)
    if failed:
        statements = len({a.message.params["at"] for a in failed})  # every statement's message names its line
        checks = len(failed)
        summary = message("expect.summary.failed", failed=statements, count=count, checks=checks, robots=source.name)
    else:
        summary = message("expect.summary.ok", count=count, robots=source.name)
    if as_json:
        echo_json(
            {
                "robots": source.name,
                "statements": count,
                "holds": not failed,
                "failed": [a.as_dict(lang) for a in failed],
                "unchecked": [a.as_dict(lang) for a in alerts if a.code == "expectUnchecked"],
                "summary": summary.render(lang),
            }
        )
    else:
        echo_text("\n".join([*(_line(a, lang) for a in alerts), summary.render(lang)]))
    sys.exit(1 if failed else 0)


def _line(alert: Alert, lang: str) -> str:
    mark = "" if alert.severity is Severity.INFO else f"{alert.severity.value} "
    return f"{mark}{alert.code}: {alert.text(lang)}"
