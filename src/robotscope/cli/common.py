"""What every command shares: reading a robots.txt from a file, `-` or a URL, options, output.

Exit codes: 0 = allowed / clean / no change, 1 = disallowed / findings at or
above --fail-on / a verdict flips, 2 = bad usage or unreadable input (one
line on stderr, never a traceback). A robots.txt that cannot be fetched is
not bad usage: it is reported as each policy's decision.
"""

from __future__ import annotations

import functools
import json
import os
import re
import sys
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, NoReturn, TypeVar

import click
from rich.console import Console

from ..access.engines.registry import PROFILED as DEFAULT_ENGINE
from ..access.engines.registry import choices, fetch_policy
from ..access.policy import POLICIES, Decision
from ..access.profiles import Answer
from ..access.robots import Robots, answer_after, parse
from ..messages import LANGS, Message, language, message
from ..reports.views import origin_note, overflow_note, split_note
from ..syntax.model import Verdict
from ..syntax.urls import InvalidURL, checked_url, robots_url

if TYPE_CHECKING:
    from ..fetch import FetchResult

EXIT_USAGE = 2


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


def _remember_lang(context: click.Context, _: click.Parameter, value: str | None) -> str:
    lang = value or default_lang()
    context.meta["robotscope.lang"] = lang
    return lang


engine_option = click.option(
    "--engine",
    type=click.Choice(choices()),
    default=DEFAULT_ENGINE,
    show_default=True,
    help="How the file is read: one engine's reading, `all` side by side, or `operator` (each crawler by its operator's engine).",
)
# For commands whose answer is one verdict per crawler and URL (`page`, `sitemap`): no `all`.
one_engine_option = click.option(
    "--engine",
    type=click.Choice(choices(side_by_side=False)),
    default=DEFAULT_ENGINE,
    show_default=True,
    help="How the file is read: one engine's reading, or `operator` (each crawler by its operator's engine).",
)


lang_option = click.option(
    "--lang",
    type=click.Choice(LANGS),
    callback=_remember_lang,
    is_eager=True,
    help="Language of the output (default: ROBOTSCOPE_LANG, else the locale; en if neither is Korean).",
)


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


class FetchSettings(NamedTuple):
    """How a command fetches robots.txt: the options every fetching command takes.

    `--no-cache` (`reuse=False`) fetches even when a fresh copy is cached;
    the answer is still stored and the last good copy stays available to a
    policy that falls back to it (Google, Naver). `--forget` drops what the
    cache holds for the origin first, the last good copy included.
    """

    policy: str = "rfc9309"
    reuse: bool = True
    forget: bool = False
    cache_path: str | None = None
    timeout: float = 10.0


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
        click.echo(
            f"robotscope: warning: cannot open {where} ({error}); carrying on without caching", err=True
        )
        return False


class Fetched:
    """A robots.txt fetched for a command: the decision, and the file it leaves (empty if none)."""

    def __init__(self, url: str, settings: FetchSettings, cache: Any) -> None:
        from ..fetch import fetch_robots  # httpx is needed only when a URL is given

        try:
            if settings.forget and hasattr(cache, "forget"):
                cache.forget(robots_url(url))
            self.result: FetchResult = fetch_robots(
                url, policy=settings.policy, cache=cache, timeout=settings.timeout, reuse=settings.reuse
            )
        except InvalidURL as error:
            fail(str(error))
        for warning in self.result.warnings:
            click.echo(f"robotscope: warning: {warning}", err=True)
        self.decision: Decision = self.result.decisions[settings.policy]
        self.robots = self.result.robots or parse("")


class Source:
    """A robots.txt to answer from: a parsed file, or what a fetch left (a decision and maybe a file)."""

    def __init__(self, name: str, robots: Robots, fetched: Fetched | None = None) -> None:
        self.name = name
        self.robots = robots
        self.fetched = fetched

    def verdict(self, agent: str, url: str) -> Verdict:
        return self.answer(agent, url).verdict

    def answer(self, agent: str, url: str, engine: str = DEFAULT_ENGINE) -> Answer:
        """The answer every front end gives: the reading's answer from the file, or the fetch decision's.

        The default reading (`rfc9309+profiles`) gives the profile with the
        answer; another reading's answer is its own.
        """
        if self.fetched is None:
            return self.robots.answer(agent, url, engine)
        return answer_after(self.fetched.decision, self.fetched.result.robots, agent, url, engine)

    def notes(self, agent: str, url: str, shown: Answer, engine: str = DEFAULT_ENGINE, home: str | None = None) -> tuple[Message, ...]:
        """What a verdict needs said besides itself: another origin, a rule past the limit, the operator reading otherwise."""
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
            fetched = Fetched(origin, self.settings, self.cache)
            made = self.make(Source(origin, fetched.robots, fetched))
            if len(self.kept) >= MAX_ORIGINS:
                self.kept.popitem(last=False)
            self.kept[origin] = made
        self.kept.move_to_end(origin)
        return made


def require_agents(agents: Iterable[str]) -> None:
    """Stop with a one-line error (exit 2) when a crawler given is empty: no group can name it."""
    if any(not agent.strip() for agent in agents):
        fail(message("cli.empty-agent"))


def require_checkable(urls: Iterable[str]) -> None:
    """Stop with the one-line reason (exit 2) at the first URL that is neither a path nor an http(s) URL."""
    try:
        for url in urls:
            checked_url(url)
    except InvalidURL as error:
        fail(error.reason)


def fetch(url: str, settings: FetchSettings) -> Fetched:
    """Fetch `url`'s robots.txt through the cache the options name (closed afterwards)."""
    cache = open_cache(settings)
    try:
        return Fetched(url, settings, cache)
    finally:
        if hasattr(cache, "close"):
            cache.close()


def load(source: str, settings: FetchSettings | None = None) -> Source:
    """A Source from a file, `-`, or an http(s) URL (its origin's robots.txt, fetched)."""
    if not is_url(source):
        return Source("<stdin>" if source == "-" else source, read_robots(source))
    fetched = fetch(source, settings or FetchSettings())
    return Source(fetched.result.robots_url, fetched.robots, fetched)


_Command = TypeVar("_Command", bound=Callable[..., Any])


def fetch_options(command: _Command) -> _Command:
    """The options of every command that may fetch a robots.txt, passed on as one `fetching: FetchSettings`."""

    @functools.wraps(command)
    def with_settings(
        *args: Any, policy: str | None, no_cache: bool, forget: bool, cache_path: str | None, timeout: float, **kwargs: Any
    ) -> Any:
        if policy is None:  # the reading's own: Google's statuses for --engine google
            # check and bulk ask for one crawler (`agent`); matrix and diff for many.
            policy = fetch_policy(kwargs.get("engine", DEFAULT_ENGINE), kwargs.get("agent"))
        settings = FetchSettings(policy, not no_cache, forget, cache_path, timeout)
        return command(*args, fetching=settings, **kwargs)

    options = [
        click.option(
            "--policy",
            type=click.Choice(list(POLICIES)),
            default=None,
            help="Whose reading of the HTTP outcome to apply when fetching (default: the --engine's own, "
            "so google for --engine google and for Googlebot with --engine operator; else rfc9309).",
        ),
        click.option(
            "--no-cache",
            is_flag=True,
            help="Fetch robots.txt even if a fresh copy is cached (the answer is still stored, and the last good copy kept).",
        ),
        click.option("--forget", is_flag=True, help="Drop what the cache holds for the origin first, the last good copy included."),
        click.option("--cache", "cache_path", metavar="PATH", help="The cache file (default: the user's cache directory)."),
        click.option(
            "--timeout", type=click.FloatRange(min=0.1), default=10.0, show_default=True, help="Seconds for each whole fetch."
        ),
    ]
    wrapped: Any = with_settings
    for option in reversed(options):
        wrapped = option(wrapped)
    return wrapped  # type: ignore[no-any-return]


json_option = click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
