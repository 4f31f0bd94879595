"""Where a command's robots.txt comes from: a file, standard input, or a site (fetched through the cache).

`load` gives a `Source`, which answers as every front end does: the
reading's answer from the file, or the fetch decision's where no rule of
the file applies. `Origins` fetches each origin of many URLs once.
"""

from __future__ import annotations

import os
import sys
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeVar

from ..access.engines.registry import PROFILED
from ..access.policy import Decision
from ..access.profiles import Answer
from ..access.robots import Robots, parse
from ..messages import Message
from ..reports.file_findings import file_findings
from ..reports.render import printable
from ..reports.views import origin_note, overflow_note, split_note
from ..syntax.model import Finding, Verdict
from ..syntax.urls import InvalidURL, robots_url
from .options import FetchSettings
from .output import current_lang, fail, warn

if TYPE_CHECKING:
    from ..fetch import FetchResult


def read_robots(source: str) -> Robots:
    """Parse a robots.txt file, or standard input for `-`, as bytes."""
    try:
        if source == "-":
            return parse(sys.stdin.buffer.read())
        with open(source, "rb") as handle:
            return parse(handle.read())
    except OSError as error:
        fail(f"cannot read {source!r}: {error.strerror or error}")


def is_url(source: str) -> bool:
    return source.lower().startswith(("http://", "https://"))


# Endings of file names that are no top-level domain, so `sitemap.xml` or `robots.txt` is a file, not a host.
FILE_ENDINGS = (".txt", ".xml", ".gz", ".json", ".csv", ".tsv", ".html", ".htm", ".log", ".warc", ".parquet")


def looks_like_file(source: str) -> bool:
    """Whether `source`, which a command reads as a site when it has no scheme, names a file instead:
    an existing one, a name with a file's ending, or a path (a separator in it)."""
    if "://" in source:
        return False
    return source.lower().endswith(FILE_ENDINGS) or "/" in source or os.sep in source or os.path.exists(source)


def open_cache(settings: FetchSettings) -> Any:
    """The cache to fetch through: the --cache file or the default one.

    A cache that cannot be used (locked, read-only, uncreatable) is never an
    error: the fetch goes on without it, and the cache's one warning is
    printed with the fetch's. Opened once here, so a command that fetches
    many origins (bulk) warns once, not once per origin.
    """
    import sqlite3  # sqlite3 is needed only when fetching

    from ..cache import RobotsCache

    try:
        return RobotsCache(settings.cache_path)
    except (OSError, sqlite3.Error, RuntimeError) as error:  # RuntimeError: Path.home() without a home
        # RobotsCache reports these itself; this only guards a failure outside its checks.
        where = repr(settings.cache_path) if settings.cache_path is not None else "the default cache"
        warn(f"cannot open {where} ({error}); carrying on without caching")
        return False


class Fetched(NamedTuple):
    """A robots.txt fetched for a command.

    The fetch's result, its policy's decision, and the file it leaves (empty if none).
    """

    result: FetchResult
    decision: Decision
    robots: Robots


def fetched(url: str, settings: FetchSettings, cache: Any) -> Fetched:
    """Fetch `url`'s robots.txt through `cache`: its warnings printed, a URL that has none refused (exit 2)."""
    from ..fetch import fetch_robots  # httpx is needed only when a URL is given

    try:
        if settings.forget and hasattr(cache, "forget"):
            cache.forget(robots_url(url))
        result = fetch_robots(url, policy=settings.policy, cache=cache, timeout=settings.timeout, reuse=settings.reuse)
    except InvalidURL as error:
        fail(str(error))
    for warning in result.warnings:
        warn(warning)
    return Fetched(result, result.decisions[settings.policy], result.robots or parse(""))


class Source:
    """A robots.txt to answer from: a parsed file, or what a fetch left (a decision and maybe a file)."""

    def __init__(self, name: str, robots: Robots, fetched: Fetched | None = None) -> None:
        self.name = name
        self.robots = robots
        self.fetched = fetched

    def verdict(self, agent: str, url: str) -> Verdict:
        return self.answer(agent, url).verdict

    def answer(self, agent: str, url: str, engine: str = PROFILED) -> Answer:
        """The answer every front end gives: the reading's answer from the file, or the fetch decision's.

        The default reading (`rfc9309+profiles`) gives the profile with the
        answer; another reading's answer is its own.
        """
        if self.fetched is None:
            return self.robots.answer(agent, url, engine)
        return self.fetched.result.answer(agent, url, engine)

    def notes(
        self, agent: str, url: str, shown: Answer, engine: str = PROFILED, home: str | None = None
    ) -> tuple[Message, ...]:
        """What a verdict needs said besides itself.

        Another origin, a rule past the limit, the operator reading otherwise.
        """
        found = [origin_note(url, home or self.robots_url)]
        if self.rules_apply:
            found.append(overflow_note(self.robots, shown, agent, url))
            found.append(split_note(self.robots, agent, url, shown.verdict, engine))
        return tuple(note for note in found if note is not None)

    @property
    def robots_url(self) -> str | None:
        """The robots.txt URL the file was fetched from, if it was."""
        return None if self.fetched is None else self.fetched.result.robots_url

    @property
    def rules_apply(self) -> bool:
        """False when a fetch decided allow-all or disallow-all, so no rule of the file applies."""
        return self.fetched is None or self.fetched.decision.action.rules_apply

    @property
    def served(self) -> tuple[Finding, ...]:
        """What a fetch's response says about how the file was served (`access.served`); none for a file."""
        return self.fetched.result.served if self.fetched is not None else ()

    def findings(self) -> list[Finding]:
        """What every command says about the file as a whole before its verdicts (`reports.file_findings`):
        how a fetched file was served, whether crawlers can read it, where the 500 KiB limit cut it."""
        return file_findings(self.robots, self.served)

    def warn_findings(self) -> None:
        """The file's `findings`, one warning line each on stderr, for a command whose output is data (bulk)."""
        lang = current_lang()
        for finding in self.findings():
            warn(printable(f"{self.name}: {finding.severity.value} {finding.code}: {finding.message.render(lang)}"))

    def banner(self, lang: str = "en") -> str | None:
        """One line on what the fetch concluded, or None for a local file."""
        if self.fetched is None:
            return None
        decision = self.fetched.decision
        return f"{self.fetched.result.robots_url}: {decision.action}\n  {decision.reason.render(lang)}"


_Made = TypeVar("_Made")
MAX_ORIGINS = 1024  # robots.txt files kept in memory at once by a command that fetches many; the cache keeps the rest


class Origins(Generic[_Made]):
    """Each origin's robots.txt, fetched once through the cache and made into what a command needs.

    `make` turns an origin's `Source` into it (a crawler's rules looked up,
    say); the most recently used MAX_ORIGINS are kept.
    """

    def __init__(self, settings: FetchSettings, cache: Any, make: Callable[[Source], _Made]) -> None:
        self.settings, self.cache, self.make = settings, cache, make
        self.kept: OrderedDict[str, _Made] = OrderedDict()

    def of(self, url: str) -> _Made | None:
        """What `make` made of `url`'s origin's robots.txt; None for a URL with no origin."""
        try:
            origin = robots_url(url)
        except InvalidURL:
            return None
        made = self.kept.get(origin)
        if made is None:
            found = fetched(origin, self.settings, self.cache)
            made = self.make(Source(origin, found.robots, found))
            if len(self.kept) >= MAX_ORIGINS:
                self.kept.popitem(last=False)
            self.kept[origin] = made
        self.kept.move_to_end(origin)
        return made


def fetch(url: str, settings: FetchSettings) -> Fetched:
    """Fetch `url`'s robots.txt through the cache the options name (closed afterwards)."""
    cache = open_cache(settings)
    try:
        return fetched(url, settings, cache)
    finally:
        if hasattr(cache, "close"):
            cache.close()


STDIN = "<stdin>"  # the name of a robots.txt read from standard input


def load(source: str, settings: FetchSettings | None = None) -> Source:
    """A Source from a file, `-`, or an http(s) URL (its origin's robots.txt, fetched)."""
    if not is_url(source):
        return Source(STDIN if source == "-" else source, read_robots(source))
    found = fetch(source, settings or FetchSettings())
    return Source(found.result.robots_url, found.robots, found)
