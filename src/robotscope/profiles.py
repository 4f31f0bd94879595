"""Crawler profiles at the path users import them from (`robotscope.access.profiles`), and `answer`.

>>> import robotscope
>>> from robotscope.profiles import answer
>>> robots = robotscope.parse("User-agent: *\\nDisallow: /\\n")
>>> answer(robots, "AdsBot-Google", "/x").verdict.allowed, robots.verdict("AdsBot-Google", "/x").allowed
(True, False)
"""

from __future__ import annotations

from .access.engines.registry import PROFILED
from .access.profiles import Answer, named_tokens, profile_for
from .access.robots import Robots


def answer(robots: Robots, agent: str, url: str, reading: str = PROFILED) -> Answer:
    """The answer every front end gives: `robots.answer(agent, url, reading)` (by default RFC 9309 with the
    crawler's documented profile, and the note saying when the profile changed RFC 9309's answer)."""
    return robots.answer(agent, url, reading)


__all__ = ["Answer", "answer", "named_tokens", "profile_for"]
