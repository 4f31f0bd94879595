"""Reading an operator's IP list in its own JSON format, and the snapshots shipped in `iplists/`. Pure.

The format Google introduced and Bing, OpenAI, Perplexity, Apple and
Anthropic reuse: `{"creationTime": "...", "prefixes": [{"ipv4Prefix":
"66.249.64.0/27"}, {"ipv6Prefix": "2001:4860:4801:10::/64"}, ...]}`; other
top-level keys are ignored. `read_list` never raises: every problem is a
one-line message naming the list, and a bad prefix is reported with its
number (from 1) while the others are kept. A prefix with host bits set is
read as its network, and said so; a bare address is a one-address prefix.
"""

from __future__ import annotations

import ipaddress
import json
from datetime import UTC, datetime
from functools import cache
from importlib.resources import files
from typing import Any, NamedTuple

from ..messages import Message, message
from .verification import list_sources

MAX_BYTES = 16 * 1024 * 1024  # Google's largest list is a few hundred KB
MAX_PROBLEMS = 100  # problems past this are only counted
_SHOWN = 80  # characters of a bad value shown in a message
_KEYS = {"ipv4Prefix": 4, "ipv6Prefix": 6}

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class IpList(NamedTuple):
    """One list as read: its registry `name`, `creation_time` as written (None when absent or bad), its networks."""

    name: str
    creation_time: str | None
    networks: tuple[Network, ...]
    problems: tuple[Message, ...]
    more: int = 0  # problems past MAX_PROBLEMS, counted and dropped


def _shown(value: Any) -> str:
    """A bad value as one short line of JSON."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


class _Reader:
    def __init__(self, name: str) -> None:
        self.name = name
        self.problems: list[Message] = []
        self.more = 0

    def problem(self, code: str, **params: Any) -> None:
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(message(code, name=self.name, **params))
        else:
            self.more += 1

    def done(self, creation_time: str | None = None, networks: tuple[Network, ...] = ()) -> IpList:
        return IpList(self.name, creation_time, networks, tuple(self.problems), self.more)

    def creation_time(self, document: dict[str, Any]) -> str | None:
        value = document.get("creationTime")
        if value is None:
            self.problem("iplist.no-creation-time")
            return None
        if not isinstance(value, str) or not _iso(value):
            self.problem("iplist.bad-creation-time", value=_shown(value))
            return None
        return value

    def network(self, number: int, entry: Any) -> Network | None:
        keys = [key for key in _KEYS if isinstance(entry, dict) and key in entry]
        if len(keys) != 1:
            self.problem("iplist.bad-entry", number=number, value=_shown(entry))
            return None
        key = keys[0]
        value = entry[key]
        network = _network(value) if isinstance(value, str) else None  # ip_network also takes ints and tuples
        if network is None or network.version != _KEYS[key]:
            self.problem("iplist.bad-prefix", number=number, key=key, value=_shown(value))
            return None
        if _network(value, strict=True) is None:
            self.problem("iplist.host-bits", number=number, value=_shown(value), network=str(network))
        return network


def _network(text: str, strict: bool = False) -> Network | None:
    try:
        return ipaddress.ip_network(text, strict=strict)
    except ValueError:
        return None


def _iso(text: str) -> bool:
    """Whether `text` is an ISO 8601 date or date and time (with or without `Z`, with fractional seconds or not)."""
    return creation_timestamp(text) is not None


def creation_timestamp(text: str) -> float | None:
    """A list's `creationTime` as a POSIX timestamp (no zone written: UTC, as the operators mean it); None if bad."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def read_list(data: bytes | str, name: str) -> IpList:
    """Read one list in the operators' format; never raises."""
    reader = _Reader(name)
    if len(data) > MAX_BYTES:
        reader.problem("iplist.too-large", limit=MAX_BYTES)
        return reader.done()
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            reader.problem("iplist.not-utf8")
            return reader.done()
    try:
        document = json.loads(data)
    except json.JSONDecodeError as error:
        reader.problem("iplist.not-json", detail=error.msg, line=error.lineno, column=error.colno)
        return reader.done()
    except (ValueError, RecursionError) as error:  # a number past Python's digit limit; nesting past the stack
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        reader.problem("iplist.unreadable", detail=_shown(reason))
        return reader.done()
    if not isinstance(document, dict):
        reader.problem("iplist.not-object")
        return reader.done()
    creation_time = reader.creation_time(document)
    prefixes = document.get("prefixes")
    if not isinstance(prefixes, list):
        reader.problem("iplist.no-prefixes")
        return reader.done(creation_time)
    read = (reader.network(number, entry) for number, entry in enumerate(prefixes, 1))
    return reader.done(creation_time, tuple(network for network in read if network is not None))


def shipped() -> tuple[str, ...]:
    """The registry names of the lists with a snapshot in the package."""
    return tuple(source.name for source in list_sources() if source.snapshot == "complete")


@cache
def snapshot(name: str) -> IpList:
    """The shipped snapshot of a list, by registry name (`shipped()` names them)."""
    if name not in shipped():
        raise KeyError(name)
    return read_list(files(__package__).joinpath("iplists", name).read_bytes(), name)


__all__ = ["MAX_BYTES", "MAX_PROBLEMS", "IpList", "creation_timestamp", "read_list", "shipped", "snapshot"]
