"""The `robotscope` command line: the only place that knows argv, streams and exit codes.

One Click group (`app.cli`) with one module per command; `output` (how a
command speaks, exit codes), `options` (the options they share) and
`sources` (a file, standard input or a fetched site) hold what they share,
and no command imports another's. Needs the `cli` extra (Click, Rich, httpx).
"""

from __future__ import annotations

import os
import sys

try:
    from .app import cli
except ImportError as missing:  # pragma: no cover - exercised only without the [cli] extra
    cli = None  # type: ignore[assignment]
    _MISSING = str(missing)

EXIT_USAGE = 2


def main() -> None:
    """Entry point of the `robotscope` console script."""
    if cli is None:
        sys.stderr.write(f"robotscope: the command needs the cli extra ({_MISSING}): pip install 'robotscope[cli]'\n")
        sys.exit(EXIT_USAGE)
    try:
        cli(prog_name="robotscope")
    except Exception as error:
        if os.environ.get("ROBOTSCOPE_DEBUG"):
            raise
        sys.stderr.write(
            f"robotscope: internal error: {type(error).__name__}: {error} (set ROBOTSCOPE_DEBUG=1 for details)\n"
        )
        sys.exit(EXIT_USAGE)


__all__ = ["cli", "main"]
