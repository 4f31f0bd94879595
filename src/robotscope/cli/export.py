"""`robotscope export`: the server rules a robots.txt implies, for nginx, Apache, Caddy, HAProxy or lighttpd."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

import click

from ..access.robots import Robots
from ..messages import message
from ..reports.enforce import AI, ALL_NAMED, TARGETS, NotAToken, complete, export, export_view
from ..reports.enforce.check import Report, check, check_view
from ..reports.enforce.configs import MAX_CHARS
from ..reports.enforce.entries import safe
from .options import FetchSettings, fetch_options, json_option, lang_option
from .output import echo_json, echo_text, fail, note, warn
from .sources import load


def _where(output: str, main: str) -> tuple[str, str]:
    """The main file's path and the directory of the others, for `-o FILE` or `-o DIR`."""
    if os.path.isdir(output) or output.endswith(("/", os.sep)):
        return os.path.join(output, main), output
    return output, os.path.dirname(output) or "."


def _write(files: tuple[tuple[str, str], ...], output: str, lang: str) -> list[str]:
    """Write the files (the main one at `output`, the rest beside it); their paths."""
    main, folder = _where(output, files[0][0])
    paths = [main, *(os.path.join(folder, name) for name, _ in files[1:])]
    for path, (_, text) in zip(paths, files, strict=True):
        try:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
        except OSError as error:
            fail(message("enforce.cli.bad-path", path=path, reason=error.strerror or str(error)), lang)
    return paths


def _text(path: str) -> str | None:
    """A file's text (bytes that are not UTF-8 replaced), or None when it is larger than `MAX_CHARS` bytes;
    raises `OSError`."""
    with open(path, "rb") as handle:
        data = handle.read(MAX_CHARS + 1)
    return None if len(data) > MAX_CHARS else data.decode("utf-8", "replace")


def _read(path: str) -> str | None:
    """A file's text, or None when it is no regular file, cannot be read or is too large.

    The configuration names these files: a pipe it names would wait for a writer forever."""
    try:
        return _text(path) if os.path.isfile(path) else None
    except OSError:
        return None


def _config(path: str, lang: str) -> str:
    """The configuration to check, or a one-line failure."""
    try:
        text = _text(path)
    except OSError as error:
        fail(message("enforce.check.cli.unreadable", path=safe(path), reason=error.strerror or str(error)), lang)
    if text is None:
        fail(message("enforce.check.cli.too-large", path=safe(path), limit=MAX_CHARS), lang)
    return text


def _pattern_file(config: str) -> Callable[[str], str | None]:
    """How a file the configuration names is read: as named, else beside the configuration."""

    def load(name: str) -> str | None:
        found = _read(name)
        if found is None and not os.path.isabs(name):
            found = _read(os.path.join(os.path.dirname(config), name))
        return found

    return load


def _checked(robots: Robots, target: str, agents: str, config: str, source: str, as_json: bool, lang: str) -> None:
    """`--check`: the configuration against the robots.txt; exit 0 when consistent, else 1."""
    text = _config(config, lang)
    try:
        report = check(robots, target, text, agents, config, source, _pattern_file(config))
    except NotAToken as error:
        fail(error.reason, lang)
    for item in report.notes:
        note(item.render(lang))
    if as_json:
        echo_json(check_view(report, lang))
    else:
        echo_text(_report_text(report, lang))
    sys.exit(0 if report.consistent else 1)


def _report_text(report: Report, lang: str) -> str:
    agents = len({probe.user_agent for probe in report.probes})
    header = message(
        "enforce.check.header",
        server=report.server,
        config=report.config,
        source=report.source,
        agents=agents,
        paths=len(report.paths),
    )
    lines = [header.render(lang)]
    lines += [f"  {finding.message.render(lang)}" for finding in report.findings]
    lines += [f"  {item.as_message(report.config).render(lang)}" for item in report.unreadable]
    if report.cut is not None:
        lines.append(f"  {report.cut.render(lang)}")
    if report.consistent:
        lines.append(message("enforce.check.consistent").render(lang))
    else:
        summary = message("enforce.check.summary", findings=len(report.findings), unreadable=len(report.unreadable))
        lines.append(summary.render(lang))
    return "\n".join(lines)


@click.command("export")
@click.argument("robots_file", metavar="ROBOTS")
@click.option("--target", type=click.Choice(TARGETS), required=True, help="The server to write rules for.")
@click.option(
    "--agents",
    default=AI,
    show_default=True,
    metavar=f"{AI}|LIST|{ALL_NAMED}",
    help="Which crawlers: the catalogue's AI crawlers, product tokens separated by commas, "
    "or every token a group of the file names.",
)
@click.option(
    "--unverified-only",
    is_flag=True,
    help="Refuse only requests from outside the crawler's operator's published IP lists.",
)
@click.option(
    "--check",
    "config",
    metavar="CONFIG",
    help="Instead of writing rules, read this existing configuration of --target and list where it and the "
    "robots.txt disagree.",
)
@click.option(
    "-o",
    "--output",
    metavar="FILE|DIR",
    help="Write the rules here (HAProxy's ACL files beside them) instead of standard output.",
)
@json_option
@lang_option
@fetch_options
def export_command(
    robots_file: str,
    target: str,
    agents: str,
    unverified_only: bool,
    config: str | None,
    output: str | None,
    as_json: bool,
    lang: str,
    fetching: FetchSettings,
) -> None:
    """Write the server rules a robots.txt implies: each crawler refused where its group disallows, and only there.

    ROBOTS is a file, `-` for standard input, or an http(s) URL whose
    origin's robots.txt is fetched. Each chosen crawler is refused (403)
    where the file disallows it to that crawler, with the file's longest
    match and Allow exceptions kept, matched on its whole product token,
    case-insensitively, the same in every server; /robots.txt stays
    reachable, and every rule names the line it comes from. What a server
    cannot express exactly is made to refuse less, never more, and said on
    standard error. Exit code 1 when a rule or a crawler is left to
    robots.txt alone.

    With --check CONFIG, nothing is written: CONFIG (nginx, Apache or
    .htaccess, Caddyfile, HAProxy, lighttpd; robotscope's own layout or a
    list such as ai.robots.txt's) is read as its server reads it and asked
    about real User-Agents on the file's paths. It lists the chosen
    crawlers robots.txt disallows that the server lets through, the
    crawlers the server refuses where robots.txt allows them, innocent
    agents it refuses, and a refused /robots.txt. Exit code 0: consistent;
    1: findings, or parts of CONFIG not evaluated (listed with their lines).

    \b
    Examples:
      robotscope export robots.txt --target nginx -o /etc/nginx/robotscope.conf
      robotscope export https://example.com/ --target caddy --agents GPTBot,ClaudeBot
      robotscope export robots.txt --target haproxy --agents all-named -o /etc/haproxy/robotscope/
      robotscope export robots.txt --target apache --unverified-only
      robotscope export robots.txt --target nginx --check /etc/nginx/conf.d/ai-bots.conf
    """
    if config is not None:
        for given, option in ((output, "-o"), (unverified_only or None, "--unverified-only")):
            if given is not None:
                fail(message("enforce.check.cli.conflict", option=option), lang)
    elif target == "haproxy" and output is None:
        fail(message("enforce.cli.needs-output"), lang)
    if output is not None and not output.isprintable():
        fail(message("enforce.cli.unsafe-path", path=safe(output)), lang)
    source = load(robots_file, fetching)
    if source.fetched is not None and not source.rules_apply:
        decision = source.fetched.decision
        click.echo(
            message(
                "enforce.cli.no-rules", url=source.name, action=str(decision.action), reason=decision.reason
            ).render(lang),
            err=True,
        )
        sys.exit(1)
    if config is not None:
        _checked(source.robots, target, agents, config, source.name, as_json, lang)
    acl_dir = os.path.abspath(_where(output, "")[1]) if output is not None else "."
    try:
        made, result = export(source.robots, target, agents, unverified_only, source.name, lang, acl_dir)
    except NotAToken as error:
        fail(error.reason, lang)
    written = _write(result.files, output, lang) if output is not None else []
    for item in made.skipped:
        note(item.render(lang))
    for item in (*made.warnings, *result.left):
        warn(item.render(lang))
    for item in (*made.notes, *result.notes):
        note(item.render(lang))
    if as_json:
        echo_json({**export_view(made, result, lang), "written": written})
    elif output is None:
        click.echo(result.files[0][1], nl=False)
    else:
        for path in written:
            note(message("enforce.cli.wrote", path=path).render(lang))
    sys.exit(0 if complete(made, result) else 1)
