"""Checks of each line's key: a missing colon, an unknown or misspelt key, a non-standard record, a sitemap URL."""

from __future__ import annotations

from collections.abc import Iterator

from ...access.robots import Robots
from ...messages import message
from ...syntax.directives import KNOWN_KEYS, NON_STANDARD_KEYS, STANDARD_KEYS, did_you_mean, google_key
from ...syntax.model import Line, LineKind, Severity
from ...syntax.urls import path_and_query, split_url
from .differences import rule_readers
from .file import unreadable
from .registry import Hit, check, replace_line

# Non-standard records that are likely a mistake where they stand; the others are worth knowing.
_WARNING_KEYS = frozenset({"host", "noindex", "nofollow"})


def _non_standard_severity(key: str) -> Severity:
    return Severity.WARNING if key in _WARNING_KEYS else Severity.INFO


@check("missingColon", Severity.ERROR)
def missing_colon(robots: Robots) -> Iterator[Hit]:
    if unreadable(robots):
        return  # htmlContent or encodingNotUtf8 says it once for the whole file
    for line in robots.lines:
        if line.kind is not LineKind.INVALID or line.key is None:
            continue
        key = line.key.lower()
        meaning = google_key(key)
        if meaning is None and key not in KNOWN_KEYS:
            continue
        shown = STANDARD_KEYS.get(meaning or "", KNOWN_KEYS.get(key, line.key))
        corrected = f"{shown}: {line.value}".rstrip()
        readers = rule_readers(robots).get(line.number)
        if meaning == "disallow" and line.value:
            found = message(
                "lint.missingColon.disallow.read" if readers else "lint.missingColon.disallow",
                value=line.value,
                engines=readers,
                n=len(readers or ()),
            )
        else:
            found = message(
                "lint.missingColon.read" if readers else "lint.missingColon", engines=readers, n=len(readers or ())
            )
        # The repair makes every reading read the line as Google does: the proof holds it to that.
        edit = replace_line(line, corrected + _comment(line), toward="google")
        yield Hit(line.number, found, message("fix.write", line=corrected), edit=edit)


def _comment(line: Line) -> str:
    """The line's comment as written (` # ...`), to keep it in a rewritten line."""
    return "" if line.comment is None else " #" + line.comment


@check("invalidLine", Severity.WARNING)
def invalid_line(robots: Robots) -> Iterator[Hit]:
    if unreadable(robots):
        return  # htmlContent or encodingNotUtf8 says it once for the whole file
    for line in robots.lines:
        if line.kind is LineKind.INVALID and line.key is not None:
            key = line.key.lower()
            if google_key(key) is None and key not in KNOWN_KEYS:
                yield Hit(
                    line.number,
                    message("lint.invalidLine"),
                    message("fix.invalidLine"),
                    edit=replace_line(line, "# " + line.raw),
                )


@check("unknownDirective", Severity.WARNING)
def unknown_directive(robots: Robots) -> Iterator[Hit]:
    if unreadable(robots):
        return  # htmlContent or encodingNotUtf8 says it once for the whole file
    for line in robots.lines:
        if line.kind is not LineKind.OTHER or line.key is None or line.key.lower() in NON_STANDARD_KEYS:
            continue
        suggestion = did_you_mean(line.key)
        if suggestion is None:
            yield Hit(line.number, message("lint.unknownDirective", key=line.key), message("fix.unknownDirective"))
            continue
        readers = rule_readers(robots).get(line.number)
        code = "lint.unknownDirective.read" if readers else "lint.unknownDirective.typo"
        severity = Severity.ERROR if suggestion.lower() in STANDARD_KEYS else None
        yield Hit(
            line.number,
            message(code, key=line.key, engines=readers, n=len(readers or ())),
            message("fix.unknownDirective.typo", suggestion=suggestion, line=f"{suggestion}: {line.value}"),
            severity=severity,
            edit=replace_line(line, f"{suggestion}: {line.value}{_comment(line)}", toward="google"),
        )


@check("nonStandardDirective", Severity.INFO)
def non_standard_directive(robots: Robots) -> Iterator[Hit]:
    for line in robots.lines:
        if line.kind is LineKind.OTHER and line.key is not None and line.key.lower() in NON_STANDARD_KEYS:
            key = line.key.lower()
            yield Hit(
                line.number,
                message(f"lint.nonStandardDirective.{key}", value=line.value or ""),
                message(f"fix.nonStandardDirective.{key}"),
                severity=_non_standard_severity(key),
            )


@check("sitemapInvalid", Severity.ERROR)
def sitemap_invalid(robots: Robots) -> Iterator[Hit]:
    for sitemap in robots.sitemaps:
        parts = split_url(sitemap.value)
        if parts is None:
            # `https://[oops]/s.xml`: a URL, but its host is no host; its path is kept in the example.
            path = path_and_query(sitemap.value)
            code = "lint.sitemapInvalid.host"
            example = "https://www.example.com" + (path if path != "/" else "/sitemap.xml")
        elif parts.scheme in ("http", "https") and parts.netloc:
            continue
        else:
            code = "lint.sitemapInvalid"
            example = "https://www.example.com" + (sitemap.value if sitemap.value.startswith("/") else "/sitemap.xml")
        yield Hit(sitemap.line, message(code, value=sitemap.value), message("fix.sitemapInvalid", example=example))
