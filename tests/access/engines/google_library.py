"""Google's upstream parser as gpyrobotstxt ports it, asked many questions about one file cheaply.

`Library(body)` runs gpyrobotstxt's `RobotsTxtParser` over the file once,
keeping every call it makes to its handler; `ask(agent, url)` replays those
calls into a fresh `RobotsMatcher`, which is exactly what
`RobotsMatcher.allowed_by_robots` does (parse, then `disallow()`), minus
parsing the file again for every question. The deciding line is upstream's
`RobotsMatcher::matching_line` (which the port leaves out), read from the
matcher's own state, and only where a rule of priority above 0 decided.
`test_google_reading.py` checks the replay against `allowed_by_robots`.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlparse

from gpyrobotstxt.robots_cc import RobotsMatcher, get_path_params_query
from gpyrobotstxt.robotstxtparser import RobotsTxtParser

Event = tuple[str, tuple[Any, ...]]

_LINE = re.compile(rb"([^\r\n]*)(\r\n|\r|\n|$)")
_BOM = b"\xef\xbb\xbf"
PORT_LINE_BYTES = 2083 * 8 - 1  # what the port keeps of a line, as upstream does


def _crashes(content: bytes) -> bool:
    """Whether the port's `get_key_and_value_from` raises on this line.

    With no colon and no space or tab it takes `None` for the separator's
    position and fails on `None + 1` (TypeError); upstream ignores the line.
    """
    line = content[:PORT_LINE_BYTES].decode("utf-8", "replace").split("#", 1)[0].strip()
    return bool(line) and ":" not in line and " " not in line and "\t" not in line


def crash_free(body: bytes) -> bytes:
    """`body` with the lines that crash the port blanked, line ends and numbers kept.

    Upstream reads no record from such a line (`GetKeyAndValueFrom` finds no
    separator), so blanking it changes nothing Google's parser reads.
    """
    start = 0
    while start < len(_BOM) and body[start : start + 1] == _BOM[start : start + 1]:
        start += 1
    out = [body[:start]]
    changed = False
    for found in _LINE.finditer(body, start):
        content, end = found.group(1), found.group(2)
        if _crashes(content):
            content, changed = b"", True
        out.append(content + end)
        if not end:
            break
    return b"".join(out) if changed else body


class _Recorder:
    """A parse handler that keeps each call Google's parser makes to it."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def handle_robots_start(self) -> None:
        pass

    def handle_robots_end(self) -> None:
        pass

    def handle_user_agent(self, line: int, value: str) -> None:
        self.events.append(("handle_user_agent", (line, value)))

    def handle_allow(self, line: int, value: str) -> None:
        self.events.append(("handle_allow", (line, value)))

    def handle_disallow(self, line: int, value: str) -> None:
        self.events.append(("handle_disallow", (line, value)))

    def handle_sitemap(self, line: int, value: str) -> None:
        self.events.append(("handle_sitemap", (line, value)))

    def handle_unknown_action(self, line: int, key: str, value: str) -> None:
        self.events.append(("handle_unknown_action", (line, key, value)))


def deciding_line(matcher: Any) -> int | None:
    """Upstream's `matching_line()`.

    None where no rule of priority > 0 decided (an empty `Disallow:` decides nothing).
    """
    hierarchy = "_specific" if matcher._ever_seen_specific_agent else "_global"
    disallow, allow = getattr(matcher._disallow, hierarchy), getattr(matcher._allow, hierarchy)
    best = disallow if disallow.priority > allow.priority else allow
    return best.line if best.priority > 0 else None


class Library:
    """One robots.txt as gpyrobotstxt reads it."""

    def __init__(self, body: bytes) -> None:
        recorder = _Recorder()
        RobotsTxtParser(crash_free(body), recorder).parse()
        self.events = recorder.events
        self._agents = [(i, args[1]) for i, (name, args) in enumerate(self.events) if name == "handle_user_agent"]
        self._answers: dict[tuple[tuple[int, ...], str], tuple[bool, int | None]] = {}
        self._signatures: dict[str, tuple[int, ...]] = {}

    def signature(self, agent: str) -> tuple[int, ...]:
        """The user-agent lines that name `agent` for the library (its own `handle_user_agent` decides).

        Two crawlers with the same signature get the same answers: the
        matcher looks at the crawler's name nowhere else.
        """
        known = self._signatures.get(agent)
        if known is not None:
            return known
        matcher = RobotsMatcher()
        matcher.init_user_agents_and_path([agent], "/")
        named = []
        for index, value in self._agents:
            matcher.handle_robots_start()
            matcher.handle_user_agent(0, value)
            if matcher._seen_specific_agent:
                named.append(index)
        found = self._signatures[agent] = tuple(named)
        return found

    def ask(self, agent: str, url: str) -> tuple[bool, int | None]:
        """(allowed, deciding line) for `agent` on `url`, as `allowed_by_robots` and `matching_line` give them."""
        key = (self.signature(agent), url)
        answer = self._answers.get(key)
        if answer is None:
            answer = self._answers[key] = self._replay(agent, url)
        return answer

    def _replay(self, agent: str, url: str) -> tuple[bool, int | None]:
        try:
            urlparse(url)  # allowed_by_robots answers False for a URL urlparse rejects
        except ValueError:
            return False, None
        matcher = RobotsMatcher()
        matcher.init_user_agents_and_path([agent], get_path_params_query(url))
        matcher.handle_robots_start()
        for name, args in self.events:
            getattr(matcher, name)(*args)
        matcher.handle_robots_end()
        return not matcher.disallow(), deciding_line(matcher)


def allowed_by_robots(body: bytes, agent: str, url: str) -> bool:
    """gpyrobotstxt's own answer, parsing the file anew (what `Library.ask` must equal)."""
    return bool(RobotsMatcher().one_agent_allowed_by_robots(body, agent, url))
