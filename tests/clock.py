"""A clock the tests move by hand, for what takes one (`now=`): the cache, the history store."""

from __future__ import annotations

from robotscope.syntax.iplists import creation_timestamp


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def moment(text: str) -> float:
    """An ISO 8601 date or time as POSIX seconds, read as the IP lists' `creationTime` is (no zone: UTC)."""
    found = creation_timestamp(text)
    assert found is not None, text
    return found
