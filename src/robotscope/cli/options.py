"""The options commands share, and the checks of what they were given.

`--engine` takes a reading (`rfc9309+profiles`, the default: RFC 9309 with
the crawlers' documented profiles; an engine; `operator`; `all` where
readings are shown side by side); `--lang` the language; `--json` the
output; the fetch options come as one `FetchSettings`.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple, TypeVar

import click

from ..access.engines.registry import PROFILED, choices, fetch_policy
from ..access.policy import POLICIES
from ..messages import LANGS, message
from ..syntax.urls import InvalidURL, checked_url
from .output import default_lang, fail

_F = TypeVar("_F", bound=Callable[..., Any])
_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*([smhd]?)")
_SECONDS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def seconds_of(value: str) -> float | None:
    """`30s`, `15m`, `1h`, `1d` (or a number of seconds) in seconds; None when it is no such duration (a number
    too long for a float included: it would read as infinity)."""
    found = _DURATION.fullmatch(value.strip().lower())
    if found is None:
        return None
    seconds = float(found[1]) * _SECONDS[found[2]]
    return seconds if math.isfinite(seconds) else None


def remember_lang(context: click.Context, _: click.Parameter, value: str | None) -> str:
    lang = value or default_lang()
    context.meta["robotscope.lang"] = lang
    return lang


engine_option = click.option(
    "--engine",
    type=click.Choice(choices()),
    default=PROFILED,
    show_default=True,
    help="How the file is read: rfc9309+profiles (RFC 9309 with the crawlers' documented profiles), "
    "one engine's reading, `all` side by side, or `operator` (each crawler by its operator's reading).",
)
# For commands whose answer is one verdict per crawler and URL (`page`, `sitemap`): no `all`.
one_engine_option = click.option(
    "--engine",
    type=click.Choice(choices(side_by_side=False)),
    default=PROFILED,
    show_default=True,
    help="How the file is read: rfc9309+profiles (RFC 9309 with the crawlers' documented profiles), "
    "one engine's reading, or `operator` (each crawler by its operator's reading).",
)


lang_option = click.option(
    "--lang",
    type=click.Choice(LANGS),
    callback=remember_lang,
    is_eager=True,
    help="Language of the output (default: ROBOTSCOPE_LANG, else the locale; en if neither is Korean).",
)


json_option = click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")


def agents_option(default: str) -> Callable[[_F], _F]:
    return click.option(
        "--agents",
        default=default,
        show_default=True,
        metavar="search|ai|all|LIST",
        help="Which crawlers: search engines, AI crawlers, the whole catalogue, or tokens separated by commas.",
    )


timeout_option = click.option(
    "--timeout", type=click.FloatRange(min=0.1), default=10.0, show_default=True, help="Seconds for each whole fetch."
)
# The history store a command writes or reads (`robotscope watch`, `history`).
store_option = click.option(
    "--store", "store_path", metavar="PATH", help="The history store (default: beside the cache file)."
)


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


_Command = TypeVar("_Command", bound=Callable[..., Any])


def fetch_options(command: _Command) -> _Command:
    """The options of every command that may fetch a robots.txt, passed on as one `fetching: FetchSettings`."""

    @functools.wraps(command)
    def with_settings(
        *args: Any,
        policy: str | None,
        no_cache: bool,
        forget: bool,
        cache_path: str | None,
        timeout: float,
        **kwargs: Any,
    ) -> Any:
        if policy is None:  # the reading's own: Google's statuses for --engine google
            # check and bulk ask for one crawler (`agent`); matrix and diff for many.
            policy = fetch_policy(kwargs.get("engine", PROFILED), kwargs.get("agent"))
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
            help="Fetch robots.txt even if a fresh copy is cached "
            "(the answer is still stored, and the last good copy kept).",
        ),
        click.option(
            "--forget",
            is_flag=True,
            help="Drop what the cache holds for the origin first, the last good copy included.",
        ),
        click.option(
            "--cache", "cache_path", metavar="PATH", help="The cache file (default: the user's cache directory)."
        ),
        timeout_option,
    ]
    wrapped: Any = with_settings
    for option in reversed(options):
        wrapped = option(wrapped)
    return wrapped  # type: ignore[no-any-return]


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
