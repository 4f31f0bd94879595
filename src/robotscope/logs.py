"""The log audit at the path users import it from: `robotscope.reports.audit`, the log readers, and their I/O.

Each request of a catalogue crawler is judged against the robots.txt in
force for its origin when it was made (`Judge`, `RobotsTimeline`), its
claim checked (`Verifier`, or any `(address, user_agent, when)` callable),
and counted (`Summary`, `summary_view`). The pure parts are imported with
this module; the ones that need I/O or an extra (`Verifier`: dnslib;
`log_lines`; `from_robots`, `from_history`, `from_dir`, `from_git`: httpx)
on first use. docs/logs.md says what each class means.

>>> from robotscope.logs import Judge, RobotsTimeline, Summary, audit, file_version, reader
>>> from robotscope.messages import message
>>> robots = file_version(None, None, message("audit.source.file", path="robots.txt"), "robots.txt",
...                       b"User-agent: GPTBot\\nDisallow: /\\n")
>>> def verify(address, agent, when):  # no verification: every claim unverifiable
...     from robotscope.reports.verification import Verification, Status
...     return Verification(address, agent, None, None, Status.UNVERIFIABLE, None, message("verify.undated"))
>>> judge = Judge(RobotsTimeline([robots]).in_force, verify, site="https://example.com")
>>> line = ('20.171.206.1 - - [02/Nov/2026:10:00:00 +0000] "GET /blog HTTP/1.1" 200 512 "-" '
...         '"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.3"')
>>> summary = Summary()
>>> [(row.url, row.audit_class, row.line, row.rule) for row in audit([(1, line)], reader("combined"), judge, summary)]
[('https://example.com/blog', 'unverified', 2, 'Disallow: /')]
>>> summary.requests, summary.audited
(1, 1)
"""

from __future__ import annotations

import importlib as _importlib
import typing as _typing

from .reports.audit.classes import AuditClass, classify, exemption
from .reports.audit.judge import COLUMNS, GRACE, Judge, Row
from .reports.audit.run import audit
from .reports.audit.summary import CrawlerSummary, Summary
from .reports.audit.timeline import RobotsTimeline, RobotsVersion, file_version, request_origin
from .reports.audit.views import CRAWLER_COLUMNS, crawler_rows, summary_view
from .syntax.logformats import FORMATS, BadLine, FormatError, Request, detect, reader

# Names imported on first use: name -> module that defines it.
_LAZY = {
    "Verifier": "verifying.verifier",
    "log_lines": "integrations.logfiles",
    "from_robots": "auditing.sources",
    "from_history": "auditing.sources",
    "from_dir": "auditing.sources",
    "from_git": "auditing.sources",
}

if _typing.TYPE_CHECKING:
    from .auditing.sources import from_dir, from_git, from_history, from_robots
    from .integrations.logfiles import log_lines
    from .verifying.verifier import Verifier


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'robotscope.logs' has no attribute {name!r}")
    value = getattr(_importlib.import_module(f"..{module}", __name__), name)
    globals()[name] = value  # found once: later lookups do not come back here
    return value


__all__ = [
    "COLUMNS",
    "CRAWLER_COLUMNS",
    "FORMATS",
    "GRACE",
    "AuditClass",
    "BadLine",
    "CrawlerSummary",
    "FormatError",
    "Judge",
    "Request",
    "RobotsTimeline",
    "RobotsVersion",
    "Row",
    "Summary",
    "Verifier",
    "audit",
    "classify",
    "crawler_rows",
    "detect",
    "exemption",
    "file_version",
    "from_dir",
    "from_git",
    "from_history",
    "from_robots",
    "log_lines",
    "reader",
    "request_origin",
    "summary_view",
]
