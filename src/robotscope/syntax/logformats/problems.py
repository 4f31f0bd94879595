"""What goes wrong reading a log: a line that is no request of its format, a format the audit cannot use. Pure.

A line is never an exception: each reader returns a `BadLine` with the line's
number and a `logs.bad.*` message, and the reading goes on. A format is
refused once, before any line is read, with a `FormatError` (`logs.format.*`
or `logs.map.*`): a directive that cannot be read, or one that logs no time,
client address, request or User-Agent, which the audit needs of every request.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...messages import Message, message
from .model import BadLine

# Characters of one line, at most: longer lines are bad lines, never matched. A log line holds a request
# line (Apache and nginx refuse one over 8 KiB by default), a User-Agent and a Referer (8 KiB each at most,
# as header lines) and a few short fields; 32 KiB is room for all of them.
MAX_LINE = 32_768

# What the audit needs of every request; `reader(needs=...)` may ask less (detection asks nothing).
FIELDS = ("time", "ip", "request", "user_agent")
AUDIT = frozenset(FIELDS)

# Lines that are lines of the format, whose request cannot be judged: a client that sent no request line
# (`"-"`, logged with a 400 or 408) or bytes that are none (a TLS handshake on a plain HTTP port). They
# count as lines of the format when detecting it.
OF_THE_FORMAT = frozenset({"logs.bad.no-request", "logs.bad.request-line"})

_PREVIEW = 60  # characters of a value quoted in a message


class FormatError(ValueError):
    """A format that cannot be read, or that lacks what the audit needs: refused before any line."""

    def __init__(self, reason: Message) -> None:
        super().__init__(reason.render())
        self.reason = reason


def bad(number: int, code: str, **params: object) -> BadLine:
    """Line `number` is not a request of its format: `logs.bad.CODE`."""
    return BadLine(number, message(f"logs.bad.{code}", **params))


def unreadable(number: int, field: str, value: str) -> BadLine:
    """Line `number` has a `field` (time, status) that cannot be read: `value`."""
    return bad(number, "value", field=message(f"logs.field.{field}"), value=preview(value))


def preview(text: str) -> str:
    """A value as a message quotes it: on one line, `_PREVIEW` characters at most."""
    flat = " ".join(text.split())
    return flat if len(flat) <= _PREVIEW else flat[: _PREVIEW - 1] + "…"


def require(name: str, provided: Iterable[str], needs: frozenset[str]) -> None:
    """Refuse format `name` when it lacks a field the audit needs, naming each one missing."""
    given = set(provided)
    missing = [field for field in FIELDS if field in needs and field not in given]
    if missing:
        raise FormatError(
            message("logs.format.missing", format=name, missing=[message(f"logs.field.{f}") for f in missing])
        )


__all__ = [
    "AUDIT",
    "FIELDS",
    "MAX_LINE",
    "OF_THE_FORMAT",
    "FormatError",
    "bad",
    "preview",
    "require",
    "unreadable",
]
