"""`robotscope ci`: a repository's robots.txt files checked in CI, and what a pull request changes in them.

Every decision of the GitHub Action (action.yml) is made here, so its steps
stay lines of shell: which files, which flips, what fails (`--fail-on`), the
annotations, the SARIF log and the pull-request comment. The options read
the environment variables the action sets from its inputs (ROBOTSCOPE_*).
"""

from __future__ import annotations

import codecs
import contextlib
import glob
import json
import os
import secrets
import sys
from collections.abc import Iterator
from pathlib import PurePath

import click

from .._version import __version__
from ..access.engines.registry import PROFILED, choices
from ..access.robots import Robots, parse
from ..auditing.sources import at_revision, removed, tracked
from ..messages import Message, message
from ..reports.ci import FAIL_ON, Change, comment, fails, summary, text_lines, workflow_commands
from ..reports.compare.diff import agents_named, diff, probe_urls
from ..reports.expect.check import check
from ..reports.expect.load import Expectations
from ..reports.linter import lint
from ..reports.render import file_uri, finding_lines, printable, sarif_log
from ..reports.render import summary as lint_summary
from ..syntax import crawlers
from ..syntax.sitemap import MAX_BYTES, read_sitemap, xml_encoding
from ..syntax.urls import InvalidURL, checked_url
from .diff import MAX_FLIPS
from .expect import read_expectations
from .options import lang_option
from .output import echo_text, fail, warn
from .sources import read_robots

ROBOTS_TXT = "robots.txt"
_GLOB = frozenset("*?[")
_SKIPS_SHOWN = 10  # skipped URLs named one by one; past them counted


@click.command("ci")
@click.argument("files", nargs=-1, metavar="[ROBOTS]...", envvar="ROBOTSCOPE_FILES")
@click.option(
    "--base",
    metavar="REV",
    envvar="ROBOTSCOPE_BASE",
    help="The git revision to compare with (a pull request's base): list the crawler/URL verdicts that flip.",
)
@click.option(
    "--urls",
    "urls_file",
    metavar="FILE",
    envvar="ROBOTSCOPE_URLS",
    help="URLs to compare, one a line, or a sitemap (XML, gzip). Default: derived from both files' rules.",
)
@click.option(
    "--expect",
    "expect_file",
    metavar="FILE",
    envvar="ROBOTSCOPE_EXPECT",
    help="An expectation file (TOML, docs/expectations.md) every file must keep.",
)
@click.option(
    "--agents",
    default="named",
    show_default=True,
    envvar="ROBOTSCOPE_AGENTS",
    metavar="named|search|ai|all|LIST",
    help="The crawlers compared: every crawler either version names (and * for the others), or a selection.",
)
@click.option(
    "--engine",
    type=click.Choice(choices(side_by_side=False)),
    default=PROFILED,
    show_default=True,
    envvar="ROBOTSCOPE_ENGINE",
    help="How the files are read (as `check` reads them by default).",
)
@click.option(
    "--fail-on",
    type=click.Choice(FAIL_ON),
    default="error",
    show_default=True,
    envvar="ROBOTSCOPE_FAIL_ON",
    help="What makes the exit code 1: error (lint errors, failed expectations), flip (and verdict flips), "
    "warning, info (and lint findings down to that level), never.",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "github"]),
    default="text",
    show_default=True,
    help="text, or github: the same, then GitHub workflow commands that annotate the files' lines.",
)
@click.option("--sarif", "sarif_path", metavar="PATH", help="Write the lint findings as a SARIF 2.1.0 log to PATH.")
@click.option(
    "--code-scanning/--no-code-scanning",
    default=False,
    envvar="ROBOTSCOPE_CODE_SCANNING",
    help="The --sarif log goes to GitHub code scanning, which shows the lint findings: no annotations for them.",
)
@click.option(
    "--comment-body", "comment_path", metavar="PATH", help="Write the pull-request comment (Markdown) to PATH."
)
@lang_option
def ci_command(
    files: tuple[str, ...],
    base: str | None,
    urls_file: str | None,
    expect_file: str | None,
    agents: str,
    engine: str,
    fail_on: str,
    output_format: str,
    sarif_path: str | None,
    code_scanning: bool,
    comment_path: str | None,
    lang: str,
) -> None:
    """Lint ROBOTS files, list the verdicts a change flips and check expectations: the CI check.

    ROBOTS are files or glob patterns (`public/**/robots.txt`); by default
    every robots.txt the git repository tracks here and below. With --base,
    each file is compared with its version at that revision (a file it did
    not have, or one the change removes, is compared with none: everything
    allowed; the removed robots.txt files are checked by default too), and every
    crawler/URL pair whose verdict flips is listed with the deciding line in
    both versions. Exit code 1 when anything at or above --fail-on is found
    (or a URL of --urls was skipped), 2 for bad usage or input (one line).

    \b
    Examples:
      robotscope ci --base origin/main
      robotscope ci public/robots.txt --base HEAD~1 --expect robots-expect.toml --fail-on flip
      robotscope ci --base "$BASE" --format github --sarif robotscope.sarif --comment-body comment.md
    """
    if code_scanning and sarif_path is None:
        fail(message("ci.code-scanning-needs-sarif"))
    with _commands_stopped(output_format == "github"):
        paths = _files(files, base)
        expectations = read_expectations(expect_file) if expect_file else None
        urls, complete = _urls(urls_file, lang) if urls_file else (None, True)
        before = _at_base(base, paths) if base else None
        olds: list[Robots | None] = [None] * len(paths) if before is None else before
        # A file the base has and the working tree not is removed by the change: None now.
        files_now = [
            None if old is not None and not os.path.lexists(p) else read_robots(p)
            for p, old in zip(paths, olds, strict=True)
        ]
        changes = [
            _change(path, robots, before is not None, old, urls, agents, engine, expectations)
            for path, robots, old in zip(paths, files_now, olds, strict=True)
        ]
        shown = _short(base)
        if sarif_path is not None:
            log = sarif_log([(file_uri(c.path), c.findings) for c in changes], __version__, lang)
            _write(sarif_path, json.dumps(log, indent=2, ensure_ascii=False) + "\n")
        if comment_path is not None:
            _write(comment_path, comment(changes, fail_on, shown, lang))
        report = []
        for change in changes:
            report.extend(finding_lines(change.robots, list(change.findings), change.path, lang))
            report.append(lint_summary(list(change.findings), change.path, lang))
            report.extend(text_lines(change, shown, lang))
        report.append(summary(changes, fail_on, lang).render(lang))
        echo_text("\n".join(report))
    if output_format == "github":
        click.echo("\n".join(workflow_commands(changes, fail_on, lint=not code_scanning, lang=lang)))
    if not complete:
        warn(message("ci.incomplete").render(lang))
    sys.exit(1 if fails(changes, fail_on) or not complete else 0)


@contextlib.contextmanager
def _commands_stopped(github: bool) -> Iterator[None]:
    """With `github`, GitHub's runner acts on no workflow command in what is printed meanwhile.

    The text quotes the files' lines, URLs and paths, and the runner reads `::name::` at the start of any
    line and the legacy `##[name]` anywhere in one: a rule could forge an annotation, or stop the runner
    from reading robotscope's own. `::stop-commands::TOKEN` (an unguessable token) stops it until `::TOKEN::`.
    """
    if not github:
        yield
        return
    token = secrets.token_hex(16)
    click.echo(f"::stop-commands::{token}")
    try:
        yield
    finally:
        click.echo(f"::{token}::")


def _files(given: tuple[str, ...], base: str | None) -> list[str]:
    """The files to check: those given, glob patterns expanded (each must match), else every tracked robots.txt
    and every one the `base` revision has that the change removes."""
    if not given:
        found, problems = tracked(".", ROBOTS_TXT)
        if found is not None and base:
            gone, problems = removed(".", base, ROBOTS_TXT)
            found = None if gone is None else sorted({*found, *gone})
        if found is None:
            fail(problems[0] if problems else message("ci.no-files"))
        if not found:
            fail(message("ci.no-files"))
        return found
    paths: list[str] = []
    for item in given:
        if _GLOB.isdisjoint(item):
            paths.append(item)
            continue
        matched = sorted(p for p in glob.glob(item, recursive=True) if os.path.isfile(p))
        if not matched:
            fail(message("ci.no-match", pattern=printable(item)))
        paths.extend(matched)
    # Relative, with `/` (SARIF's URIs, annotations and git's paths), each file once.
    return list(dict.fromkeys(PurePath(os.path.relpath(p)).as_posix() for p in paths))


def _at_base(base: str, paths: list[str]) -> list[Robots | None]:
    """Each file at the base revision; None where the revision has no such file."""
    bodies, problems = at_revision(".", base, paths)
    if bodies is None:
        fail(problems[0] if problems else message("ci.base-missing", rev=printable(base), repo="."))
    return [None if body is None else parse(body) for body in bodies]


def _change(
    path: str,
    now: Robots | None,
    compare: bool,
    old: Robots | None,
    urls: list[str] | None,
    agents: str,
    engine: str,
    expectations: Expectations | None,
) -> Change:
    robots = parse(b"") if now is None else now  # a removed file: as if there were none
    findings = tuple(lint(robots))
    failed = (
        ()
        if expectations is None
        else tuple(a for a in check(expectations, robots, engine) if a.code != "expectUnchecked")
    )
    if not compare:
        return Change(path, robots, findings, expectations=failed)
    base = old if old is not None else parse(b"")
    asked = urls if urls is not None else probe_urls(base, robots)
    tokens = agents_named(base, robots) if agents == "named" else [c.token for c in crawlers.select(agents)]
    flips = diff(base, robots, asked, tokens, limit=MAX_FLIPS + 1, engine=engine)
    return Change(
        path,
        robots,
        findings,
        base,
        old is None,
        tuple(flips[:MAX_FLIPS]),
        len(flips) > MAX_FLIPS,
        (len(tokens), len(asked)),
        failed,
        now is None,
    )


def _urls(path: str, lang: str) -> tuple[list[str], bool]:
    """The URLs of `--urls`: a sitemap's `<loc>`s (XML, gzip), else one URL or path a line (`#` starts a
    comment); each that is neither a path nor an http(s) URL reported with its number and skipped. Whether
    every URL was read comes second: False after a skip, a cut, or a sitemap past its limits."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as error:
        fail(message("ci.urls.unreadable", path=printable(path), problem=error.strerror or str(error)))
    complete = len(data) <= MAX_BYTES
    if not complete:
        warn(message("ci.urls.cut", path=printable(path), limit=MAX_BYTES).render(lang))
    head = data[:1024]
    numbered: list[tuple[int, str]]
    if head.startswith(b"\x1f\x8b") or codecs.decode(head, xml_encoding(head), "replace").lstrip()[:1] == "<":
        found = read_sitemap(data)
        if found.kind in ("invalid", "sitemapindex"):
            problem: Message = found.problem or message("ci.urls.index")
            fail(message("ci.urls.not-urlset", path=printable(path), problem=problem))
        if found.problem is not None:
            complete = False
            warn(message("ci.urls.sitemap-cut", path=printable(path), problem=found.problem).render(lang))
        if found.more or found.long:
            complete = False
            warn(message("ci.urls.sitemap-more", path=printable(path), count=found.more + found.long).render(lang))
        numbered = list(enumerate(found.locs, 1))
    else:
        lines = data[:MAX_BYTES].decode("utf-8", "replace").splitlines()
        numbered = [(n, s.strip()) for n, s in enumerate(lines, 1) if s.strip() and not s.lstrip().startswith("#")]
    urls, skipped = [], 0
    for number, url in numbered:
        try:
            checked_url(url)
        except InvalidURL as error:
            skipped += 1
            if skipped <= _SKIPS_SHOWN:
                warn(message("ci.urls.skipped", path=printable(path), number=number, reason=error.reason).render(lang))
            continue
        urls.append(url)
    if skipped > _SKIPS_SHOWN:
        warn(message("ci.urls.skipped.more", path=printable(path), count=skipped - _SKIPS_SHOWN).render(lang))
    return urls, complete and not skipped


def _short(base: str | None) -> str | None:
    """A revision as the comment names it: a full commit hash cut to 12 characters, anything else as given."""
    if base is not None and len(base) == 40 and all(c in "0123456789abcdef" for c in base):
        return base[:12]
    return None if base is None else printable(base)


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as error:
        fail(message("ci.cannot-write", path=printable(path), problem=error.strerror or str(error)))
