"""`robotscope generate`: write a robots.txt from flags, a preset or a spec file, and prove it."""

from __future__ import annotations

import difflib
import json
import re
import sys
import tomllib
from typing import Any

import click

from ..messages import message
from ..reports.generator import PRESETS, Generated, InvalidSpec, Spec, build, preset
from ..reports.render import printable, render_findings
from ..syntax.model import Severity
from .options import json_option, lang_option
from .output import echo_json, fail

_DIFF_BYTES = 1024 * 1024  # of a file longer than the generated one read for the diff at most


def _spec_from_flags(allow: tuple[str, ...], disallow: tuple[str, ...], sitemaps: tuple[str, ...]) -> dict[str, Any]:
    blocks: dict[str, dict[str, list[str]]] = {}
    for kind, values in (("allow", allow), ("disallow", disallow)):
        for value in values:
            agent, sep, path = value.partition("=")
            if not sep:
                raise click.BadParameter(f"{value!r}: write AGENT=PATH, e.g. '*=/private/'", param_hint=f"--{kind}")
            blocks.setdefault(agent.strip(), {"allow": [], "disallow": []})[kind].append(path)
    return {"blocks": [{"agent": agent, **rules} for agent, rules in blocks.items()], "sitemaps": list(sitemaps)}


def _read_spec(path: str) -> Spec:
    """The spec in a TOML or JSON file; every mistake is one line naming the file, and the line where known."""
    try:
        with click.open_file(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        fail(f"cannot read {path!r}: {error.strerror or error}")
    try:
        parsed = json.loads(data) if path.endswith(".json") else tomllib.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as error:
        fail(f"{path}: not valid {'JSON' if path.endswith('.json') else 'TOML'}: {error}")
    if not isinstance(parsed, dict):
        fail(f"{path}: a spec is a table with `block`/`blocks` and `sitemaps`")
    try:
        return Spec.from_data(parsed)
    except InvalidSpec as error:
        line = _line_of(data.decode("utf-8", "replace"), error)
        if line is None:
            fail(message("spec.in-file", path=path, reason=error.reason))
        fail(message("spec.at-line", path=path, line=line, reason=error.reason))


def _line_of(text: str, error: InvalidSpec) -> int | None:
    """The line of the spec's text where the key at fault stands: in its block when the block is known."""
    if error.key is None:
        return None
    lines = text.splitlines()
    start = 0
    if error.block is not None:
        # The n-th `[[block]]` header (TOML), or the n-th `{` opening a block (JSON).
        headers = [i for i, line in enumerate(lines) if re.match(r"\s*\[\[\s*blocks?\s*\]\]", line)]
        if len(headers) >= error.block:
            start = headers[error.block - 1]
    name = re.escape(error.key)
    # `key = ...` (TOML), `"key": ...` (JSON), or a table header `[[key]]`.
    key = re.compile(rf"^\s*\"?{name}\"?\s*[=:]|[{{,]\s*\"?{name}\"?\s*[=:]|^\s*\[\[?\s*{name}\s*\]")
    for number in range(start, len(lines)):
        if key.search(lines[number]):
            return number + 1
    return None


def _report(result: Generated, lang: str) -> None:
    """What the output means, on stderr: warnings, the round trip, the lint findings."""
    for warning in result.warnings:
        click.echo(message("generate.warning", warning=warning).render(lang), err=True)
    failed = [c for c in result.checks if not c.ok]
    for check in failed:
        if not check.effective:
            click.echo(
                message("generate.round-trip.ineffective", agent=check.agent, url=check.url).render(lang), err=True
            )
        else:
            want = message("answer.allowed" if check.intended else "answer.disallowed")
            click.echo(
                message("generate.round-trip.failed", agent=check.agent, url=check.url, want=want).render(lang),
                err=True,
            )
    if not failed:
        click.echo(message("generate.round-trip.ok", count=len(result.checks)).render(lang), err=True)
    name = message("generate.file").render(lang)
    click.echo(render_findings(result.robots, result.findings, name, lang), err=True)


def _same(text: str, path: str, lang: str) -> bool:
    """Whether the file at `path` is `text` (byte for byte, as UTF-8); if not, a unified diff on stdout."""
    try:
        with open(path, "rb") as handle:
            held = handle.read(len(text.encode()) + 1)  # enough to tell: a longer file differs
            held += handle.read(_DIFF_BYTES) if len(held) > len(text.encode()) else b""
    except FileNotFoundError:
        held = b""
    except OSError as error:
        fail(message("generate.check.unreadable", path=path, problem=error.strerror or str(error)))
    if held == text.encode():
        click.echo(message("generate.check.same", path=path).render(lang), err=True)
        return True
    click.echo(message("generate.check.differs", path=path).render(lang))
    lines = difflib.unified_diff(
        held.decode("utf-8", "replace").splitlines(keepends=True),
        text.splitlines(keepends=True),
        fromfile=path,
        tofile=message("generate.file").render(lang),
    )
    click.echo(printable("".join(lines)), nl=False)
    return False


@click.command()
@click.option("--preset", "preset_name", type=click.Choice(PRESETS), help="Start from a preset.")
@click.option("--only", "only_agent", metavar="AGENT", help="The crawler the allow-only preset allows.")
@click.option(
    "--spec", "spec_file", metavar="FILE", help="A spec as TOML or JSON (.json); `-` reads TOML from standard input."
)
@click.option("--allow", multiple=True, metavar="AGENT=PATH", help="Add an Allow rule (repeatable).")
@click.option("--disallow", multiple=True, metavar="AGENT=PATH", help="Add a Disallow rule (repeatable).")
@click.option("--sitemap", "sitemaps", multiple=True, metavar="URL", help="Add a Sitemap line (repeatable).")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    help="Write the file here instead of standard output.",
)
@click.option(
    "--check",
    is_flag=True,
    help="Write nothing: exit 1, with a diff, when the -o file is not what the spec generates (for CI and pre-commit).",
)
@json_option
@lang_option
def generate(
    preset_name: str | None,
    only_agent: str | None,
    spec_file: str | None,
    allow: tuple[str, ...],
    disallow: tuple[str, ...],
    sitemaps: tuple[str, ...],
    output: str | None,
    check: bool,
    as_json: bool,
    lang: str,
) -> None:
    """Write a robots.txt, then parse it back and lint it to prove it says what was meant.

    Give a --preset, a --spec file (keep your robots.txt as reviewed code),
    or rules as flags; with nothing, you get the staging default
    (`User-agent: *` + `Disallow: /`, which blocks the whole site). The file
    goes to standard output (or -o); warnings, the round trip and the lint
    findings go to standard error. Exit code 1 when a rule does not do what
    the spec meant or a finding is an error.

    \b
    Examples:
      robotscope generate --preset block-ai-training --sitemap https://example.com/sitemap.xml
      robotscope generate --disallow '*=/cart/' --disallow Googlebot=/drafts/ --allow '*=/cart/help'
      robotscope generate --preset allow-only --only Yeti
      robotscope generate --spec robots.toml -o public/robots.txt
      robotscope generate --spec robots.toml -o public/robots.txt --check
    """
    if check and output is None:
        fail(message("generate.check.needs-output"))
    if check and as_json:
        fail(message("generate.check.json"))
    try:
        if spec_file is not None:
            spec = _read_spec(spec_file)
        elif preset_name is not None:
            spec = preset(preset_name, only_agent)
        elif allow or disallow:
            spec = Spec.from_data(_spec_from_flags(allow, disallow, ()))
        else:
            spec = preset("staging")
    except InvalidSpec as error:
        fail(error.reason)
    if sitemaps:
        spec = spec._replace(sitemaps=spec.sitemaps + sitemaps)
    result = build(spec)
    if as_json:
        echo_json(
            {
                "text": result.text,
                "warnings": [w.as_dict(lang) for w in result.warnings],
                "verified": result.verified,
                "checks": [c._asdict() | {"ok": c.ok} for c in result.checks],
                "findings": [f.as_dict(lang) for f in result.findings],
            }
        )
    elif check:
        assert output is not None
        same = _same(result.text, output, lang)
        _report(result, lang)
        errors = any(f.severity is Severity.ERROR for f in result.findings)
        sys.exit(0 if same and result.verified and not errors else 1)
    else:
        if output is None:
            click.echo(result.text, nl=False)
        else:
            try:
                with open(output, "w", encoding="utf-8") as handle:
                    handle.write(result.text)
            except OSError as error:
                fail(f"cannot write {output!r}: {error.strerror or error}")
        _report(result, lang)
    errors = any(f.severity is Severity.ERROR for f in result.findings)
    sys.exit(0 if result.verified and not errors else 1)
