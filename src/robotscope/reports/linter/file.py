"""Checks of the file as a whole: its encoding, an HTML page served as robots.txt, its size."""

from __future__ import annotations

from collections.abc import Iterator

from ...access.robots import Robots
from ...messages import message
from ...syntax.html import looks_like_html
from ...syntax.model import LineKind, Severity
from ...syntax.parser import MAX_BYTES
from .registry import Hit, check


def unreadable(robots: Robots) -> bool:
    """An HTML page or a UTF-16/UTF-32 file: one whole-file finding says it, not one per line."""
    return robots.encoding is not None or looks_like_html(robots)


@check("encodingNotUtf8", Severity.ERROR)
def encoding_not_utf8(robots: Robots) -> Iterator[Hit]:
    if robots.encoding is not None:
        name = robots.encoding.split("-")[0].upper() + "-" + robots.encoding.split("-")[1]
        yield Hit(None, message("lint.encodingNotUtf8", encoding=name), message("fix.encodingNotUtf8"))


@check("htmlContent", Severity.ERROR)
def html_content(robots: Robots) -> Iterator[Hit]:
    if robots.encoding is None and looks_like_html(robots):
        yield Hit(None, message("lint.htmlContent"), message("fix.htmlContent"))


_RECORD_KINDS = (LineKind.ALLOW, LineKind.DISALLOW, LineKind.USER_AGENT)


@check("oversize", Severity.ERROR)
def oversize(robots: Robots) -> Iterator[Hit]:
    if not robots.truncated:
        return
    first = len(robots.lines) + 1
    # The records the limit drops: from the whole file where it is small enough to read
    # again, else from the lines past the limit that are kept.
    whole = robots.without_limit()
    if whole is not None:
        lost = sorted(
            [n for g in whole.groups for n in g.agent_lines if n >= first]
            + [r.line for g in whole.groups for r in g.rules if r.line >= first]
        )
        shown = [message("lint.record-at", line=n, key=whole.line(n).key, value=whole.line(n).value) for n in lost[:5]]
    else:
        lines = [line for line in robots.overflow if line.kind in _RECORD_KINDS]
        lost = [line.number for line in lines]
        shown = [message("lint.record-at", line=line.number, key=line.key, value=line.value) for line in lines[:5]]
    about = {"size": robots.size, "limit": MAX_BYTES, "count": robots.overflow_line_count, "first": first}
    if robots.cut_short:
        # A fetcher kept only the start of the file: the records past it cannot be listed.
        found = message("lint.oversize.unread", **about)
    elif lost:
        more = message("lint.more", count=len(lost) - 5) if len(lost) > 5 else message("lint.nothing")
        found = message("lint.oversize.records", **about, records=shown, more=more)
    else:
        found = message("lint.oversize", **about)
    yield Hit(None, found, message("fix.oversize"), lines=tuple(lost[:1000]))


@check("invalidUtf8", Severity.ERROR)
def invalid_utf8(robots: Robots) -> Iterator[Hit]:
    if not robots.invalid_utf8 or robots.encoding is not None:
        return
    for line in robots.lines:
        if "\ufffd" in line.raw:
            yield Hit(line.number, message("lint.invalidUtf8"), message("fix.invalidUtf8"))
