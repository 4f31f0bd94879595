"""An audit fed a log's bytes a piece at a time, as the web page reads a dropped file: the core alone. Pure.

The static page (`robotscope build-site`) reads the file the user dropped in
slices (`File.slice`) and hands each to `LogAudit.feed` in its Pyodide
worker; nothing leaves the machine. The bytes are cut into lines (a line's
end may come in the next slice; one of more than `MAX_LINE` bytes is
counted as a bad line and never held), decoded as `integrations.logfiles`
decodes them (UTF-8, a bad byte as U+FFFD, the line end and a first BOM
dropped), read in the format given or told from the first lines, judged
against one robots.txt applied to every origin, each claim checked by the
IP lists shipped in the package (`listclaims.ListVerifier`: no DNS), and
counted. `finish` gives `views.summary_view` and the HTML report's body
(`html.report`).

Each method answers as the page's API does (`reports.api.call`): JSON text
`{"status": 200, "body": ...}`, or `{"status": 4xx, "body": {"error":
{"code", "message"}}}` for a request it refuses.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ...messages import message
from ...syntax.logformats import (
    DETECT_LINES,
    FORMATS,
    MAX_LINE,
    BadLine,
    FormatError,
    LineReader,
    detect,
    directive_kind,
    reader,
)
from ...syntax.urls import InvalidURL, origin_of
from ..analysis import LIMITS
from ..api import RequestError, lang_of, string_field
from ..listclaims import ListVerifier
from .html import report
from .judge import Judge
from .run import audit
from .summary import Summary
from .timeline import RobotsTimeline, RobotsVersion, file_version
from .views import summary_view

HEAD = DETECT_LINES * 4  # lines held to tell the format, as the command line looks at them
_COMPRESSED = (b"\x1f\x8b", b"BZh")  # gzip's and bzip2's first bytes


class LogAudit:
    """One audit under way in the page's worker: `start`, `feed` each slice in order, `finish` (then `report`
    in another language)."""

    def __init__(self) -> None:
        self._verifier: ListVerifier | None = None  # the lists' index, built once per worker
        self._reset()

    def _reset(self) -> None:
        self.summary = Summary()
        self.lines = 0  # lines read, bad ones included
        self._carry = b""  # the start of a line whose end has not come yet
        self._skipping = False  # within a line too long to hold, until its end
        self._head: list[tuple[int, str]] = []  # the first lines, held until the format is known
        self._reader: LineReader | None = None
        self._judge: Judge | None = None
        self._versions: tuple[RobotsVersion, ...] = ()
        self._format, self._source, self._lang = "auto", "log", "en"
        self._directive: str | None = None
        self._finished = False

    def start(self, request: str) -> str:
        """A new audit: `{"robots": text, "robots_name", "site", "format", "log_format", "name", "lang"}` (JSON;
        `log_format` is nginx's log_format or Apache's LogFormat, as `--log-format` takes it)."""
        return _answered(lambda: self._start(_object(request)))

    def feed(self, data: bytes | bytearray | memoryview) -> str:
        """The next slice of the log: `{"lines", "requests"}` read so far."""
        return _answered(lambda: self._feed(bytes(data)))

    def finish(self) -> str:
        """The end of the log: `{"view", "html", "format", "lines"}`, the summary and the report's body."""
        return _answered(self._finish)

    def report(self, request: str) -> str:
        """The finished audit's `{"view", "html"}` again, in the language `{"lang"}` asks for."""
        return _answered(lambda: self._report(lang_of(_object(request).get("lang"))))

    def _start(self, data: dict[str, Any]) -> dict[str, Any]:
        self._reset()
        self._lang = lang_of(data.get("lang"))
        robots = string_field(data, "robots", limit=LIMITS["max_body"])
        robots_name = string_field(data, "robots_name", "robots.txt") or "robots.txt"
        self._source = string_field(data, "name", "log") or "log"
        self._format = string_field(data, "format", "auto") or "auto"
        if self._format != "auto" and self._format not in FORMATS:
            raise _refused("bad-format", "logs.format.unknown", self._lang, format=self._format, known=list(FORMATS))
        self._directive = string_field(data, "log_format").strip() or None
        if self._format == "auto" and self._directive is not None:
            kind = directive_kind(self._directive)
            if kind is None:
                raise _refused("bad-directive", "page.logs.badDirective", self._lang)
            self._format = kind
        if self._format != "auto":
            self._choose(self._format)
        site = string_field(data, "site") or None
        try:
            site = None if site is None else origin_of(site)
        except InvalidURL as error:
            raise _refused("bad-site", "page.logs.badSite", self._lang, site=site, problem=error.reason) from error
        label = message("audit.source.file", path=robots_name)
        self._versions = (file_version(None, None, label, robots_name, robots.encode("utf-8")),)
        if self._verifier is None:
            self._verifier = ListVerifier()
        self._judge = Judge(
            RobotsTimeline(self._versions).in_force, self._verifier.verify, site, spans=self._verifier.span
        )
        return {"format": None if self._format == "auto" else self._format}

    def _choose(self, name: str) -> None:
        try:
            self._reader = reader(name, self._directive)
        except FormatError as error:  # jsonl without a mapping: the page offers none
            raise RequestError(422, "bad-format", error.reason.render(self._lang)) from error
        self._format = name

    def _feed(self, data: bytes) -> dict[str, int]:
        if self._judge is None:
            raise RequestError(409, "not-started", "start an audit before feeding it")
        if self.lines == 0 and not self._carry and data.startswith(_COMPRESSED):
            raise _refused("compressed", "page.logs.compressed", self._lang)
        parts = (self._carry + data).split(b"\n")
        self._carry = parts.pop()
        for part in parts:
            self._line(part)
        if self._skipping or len(self._carry) >= MAX_LINE:  # no end yet, and already too long to hold
            self._carry, self._skipping = b"", True
        return {"lines": self.lines, "requests": self.summary.requests}

    def _line(self, raw: bytes) -> None:
        self.lines += 1
        number = self.lines
        if self._skipping or len(raw) >= MAX_LINE:  # with its end, more than the command line holds
            self._skipping = False
            self.summary.bad(self._source, BadLine(number, message("records.skip.too-long", limit=MAX_LINE)))
            return
        text = raw.decode("utf-8", "replace").removesuffix("\r")
        if number == 1:
            text = text.removeprefix("\ufeff")
        if self._reader is None:
            self._head.append((number, text))
            if len(self._head) >= HEAD:
                self._told()
            return
        self._audit([(number, text)])

    def _told(self) -> None:
        """The format from the lines held, then those lines audited."""
        found = detect([text for _, text in self._head])
        if found is None:
            raise _refused(
                "undetected", "logs.error.undetected", self._lang, source=self._source, formats=list(FORMATS)
            )
        self._choose(found)
        head, self._head = self._head, []
        self._audit(head)

    def _audit(self, lines: list[tuple[int, str]]) -> None:
        assert self._reader is not None and self._judge is not None
        for _ in audit(lines, self._reader, self._judge, self.summary, self._source):
            pass

    def _finish(self) -> dict[str, Any]:
        if self._judge is None:
            raise RequestError(409, "not-started", "start an audit before finishing it")
        if self._carry or self._skipping:
            self._line(self._carry)
            self._carry = b""
        if self._reader is None and self._head:
            self._told()
        self._finished = True
        return {**self._report(self._lang), "format": self._format, "lines": self.lines}

    def _report(self, lang: str) -> dict[str, Any]:
        if not self._finished:
            raise RequestError(409, "not-finished", "finish the audit before asking for its report")
        assert self._judge is not None  # set by start
        # One file in force at every moment: no earlier one, so no grace (`Judge.grace` says 0).
        view = summary_view(self.summary, lang, self._versions, self._judge.grace)
        return {"view": view, "html": report(view, lang)}


def _object(request: str) -> dict[str, Any]:
    try:
        data = json.loads(request)
    except (ValueError, RecursionError) as error:
        raise RequestError(400, "bad-json", "the request body is not valid JSON") from error
    if not isinstance(data, dict):
        raise RequestError(400, "bad-json", "the request body must be a JSON object")
    return data


def _refused(code: str, said: str, lang: str, **params: Any) -> RequestError:
    """A request refused with error `code`, the message `said` in `lang`."""
    return RequestError(422, code, message(said, **params).render(lang))


def _answered(work: Callable[[], Any]) -> str:
    try:
        body = work()
    except RequestError as error:
        return json.dumps({"status": error.status, "body": error.as_dict()})
    return json.dumps({"status": 200, "body": body}, ensure_ascii=False)


__all__ = ["HEAD", "LogAudit"]
