"""Existing server configurations read the way each server reads them, to decide requests as it would. Pure.

`read_config(target, text)` gives a `Config`: its scopes decide a `Request`
(refused or not, by which line, after which User-Agent tests matched), and
it lists what it could not evaluate, by line. One reader per server:
`nginx`, `apache` (with `apexpr` for Apache's expressions), `caddy`,
`haproxy`, `lighttpd`; `regex` reads each server's regexes (PCRE or RE2)
into Python's `re`, refusing what `re` would read otherwise or could take
unbounded time on. Readers never raise: what they do not read is
`Unreadable`, with its line. HAProxy's pattern files come through `load`,
so the readers do no I/O.
"""

from __future__ import annotations

from collections.abc import Callable

from .apache import read_apache
from .caddy import read_caddy
from .haproxy import read_haproxy
from .lighttpd import read_lighttpd
from .model import ADDRESS, MAX_CHARS, Config, Decision, Hit, OutOfWork, Reading, Request, Scope, Unreadable, Work
from .nginx import read_nginx


def read_config(target: str, text: str, name: str = "", load: Callable[[str], str | None] | None = None) -> Config:
    """`text`, a configuration of `target` (nginx, apache, caddy, haproxy, lighttpd), read as that server reads it.

    `name` is the file's name (an Apache file named `.htaccess` is read as
    one); `load(name)` gives the text of a file it names (HAProxy's `-f`),
    None when it cannot be read. Past `MAX_CHARS` characters nothing is read,
    and said so.
    """
    reading = Reading(text[:MAX_CHARS])
    if len(text) > MAX_CHARS:
        reading.skip(len(reading.lines), "enforce.check.cut", limit=MAX_CHARS)
    text = text[:MAX_CHARS]
    if target == "nginx":
        found = read_nginx(text, reading)
    elif target == "apache":
        found = read_apache(text, reading, per_dir=name.endswith(".htaccess"))
    elif target == "caddy":
        found = read_caddy(text, reading)
    elif target == "haproxy":
        found = read_haproxy(text, reading, load or (lambda _: None))
    elif target == "lighttpd":
        found = read_lighttpd(text, reading)
    else:
        raise ValueError(f"unknown target {target!r}")
    unique: dict[tuple[str, int, str, str], Unreadable] = {}
    for item in found.unreadable:  # a part outside every virtual host is read once for each
        unique.setdefault((item.file or "", item.line, item.reason.code, item.text), item)
    return found._replace(unreadable=tuple(unique[key] for key in sorted(unique)))


__all__ = [
    "ADDRESS",
    "MAX_CHARS",
    "Config",
    "Decision",
    "Hit",
    "OutOfWork",
    "Request",
    "Scope",
    "Unreadable",
    "Work",
    "read_config",
]
