"""A clock the tests move by hand, for what takes one (`now=`): the cache, the history store."""

from __future__ import annotations


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
