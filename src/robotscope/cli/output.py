"""How every command speaks: one line on stderr and exit code 2 for bad usage, text or JSON on stdout.

Exit codes: 0 = allowed / clean / no change, 1 = disallowed / findings at or
above --fail-on / a verdict flips, 2 = bad usage or unreadable input (one
line on stderr, never a traceback). A robots.txt that cannot be fetched is
not bad usage: it is reported as each policy's decision. A command run
`interruptible` that SIGINT or SIGTERM stops exits 128 + the signal's number
(130, 143), as a shell reports a command the signal ended.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any, NoReturn

import click
from rich.console import Console

from ..messages import Message, language, message

EXIT_USAGE = 2
STOPPING = (signal.SIGINT, signal.SIGTERM)  # Ctrl-C (to the whole process group), `kill` or a supervisor


def fail(reason: str | Message, lang: str | None = None) -> NoReturn:
    """Print one line on stderr and exit with the usage code."""
    text = reason if isinstance(reason, str) else reason.render(lang or current_lang())
    click.echo(f"robotscope: {text}", err=True)
    sys.exit(EXIT_USAGE)


def current_lang() -> str:
    """The language of this command: --lang, else ROBOTSCOPE_LANG or the locale (LC_ALL, LC_MESSAGES, LANG)."""
    context = click.get_current_context(silent=True)
    chosen = None if context is None else context.meta.get("robotscope.lang")
    return chosen or default_lang()


def default_lang() -> str:
    for name in ("ROBOTSCOPE_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            return language(value)
    return language(None)


def console(stderr: bool = False) -> Console:
    """A Rich console: colour on a terminal, plain text (and a fixed width) in pipes and files."""
    stream = sys.stderr if stderr else sys.stdout
    return Console(file=stream, width=None if stream.isatty() else 160, highlight=False)


# Words that carry the answer, coloured on a terminal (plain text elsewhere).
_STYLES = (
    (r"^DISALLOWED\b", "bold red"),
    (r"^ALLOWED\b", "bold green"),
    (r": error \w+$", "red"),
    (r": warning \w+$", "yellow"),
    (r": info \w+$", "cyan"),
    (r"^  > .*$", "bold"),
)


def echo_text(text: str) -> None:
    """Print rendered text, with the answers coloured when stdout is a terminal."""
    if not sys.stdout.isatty():
        click.echo(text)
        return
    from rich.text import Text

    rich_text = Text(text)
    for pattern, style in _STYLES:
        rich_text.highlight_regex(re.compile(pattern, re.MULTILINE), style)
    console().print(rich_text)


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def warn(text: str) -> None:
    """One warning line on stderr: the command goes on."""
    click.echo(f"robotscope: warning: {text}", err=True)


def note(text: str) -> None:
    """One line on stderr that says something the output does not show: the command goes on."""
    click.echo(f"robotscope: note: {text}", err=True)


class Interrupted(BaseException):
    """A stopping signal arrived: raised where the command was, so that its `finally` clauses run. A
    BaseException, as KeyboardInterrupt is: no `except Exception` swallows it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _raise(signum: int, frame: FrameType | None) -> None:
    for stopping in STOPPING:  # the first signal decides; a second one must not cut the cleanup short
        signal.signal(stopping, signal.SIG_IGN)
    raise Interrupted(signum)


@contextmanager
def interruptible(code: str) -> Iterator[None]:
    """Within (a `with` block, or a command it decorates): SIGINT and SIGTERM raise `Interrupted` in the main
    thread. Once the command has cleaned up, message `code` (with the signal's name) on stderr, and exit
    128 + the signal's number: 130 for SIGINT, 143 for SIGTERM. The handlers before come back on the way out.
    Outside the main thread (a command run from another), which no handler can be set from, nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {stopping: signal.signal(stopping, _raise) for stopping in STOPPING}
    try:
        yield
    except Interrupted as stopped:
        name = signal.Signals(stopped.signum).name
        click.echo(f"robotscope: {message(code, signal=name).render(current_lang())}", err=True)
        sys.exit(128 + stopped.signum)
    finally:
        for stopping, handler in before.items():
            signal.signal(stopping, handler)
