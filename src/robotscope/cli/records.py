"""How a command that reads records in bulk reports the ones it skipped, and says whether its answer is complete."""

from __future__ import annotations

from ..integrations.records import Tally
from ..messages import Message
from .output import current_lang, warn


def tally() -> Tally:
    """A tally that reports each skipped record as one warning line on stderr, in the command's language."""
    return Tally(lambda said: warn(said.render(current_lang())))


def incomplete(tally: Tally) -> bool:
    """Say on stderr what the answer lacks, grouped by reason; True when it lacks anything (exit code 1)."""
    said: list[Message] = tally.summary()
    for line in said:
        warn(line.render(current_lang()))
    return bool(said)
