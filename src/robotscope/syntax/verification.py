"""The registry of verification methods: how each operator lets a site check a crawler's claim. Pure data.

Loaded from two files of package data beside the crawler catalogue, each row
with its source and the date it was checked:

- `iplists.csv`: the IP lists operators publish, named as robotscope names
  them (`google-common-crawlers.json`: operator, then the file's own name),
  with their URL, format, address families and whether a snapshot ships in
  `iplists/` (and where it was copied from).
- `verification.csv`: per operator and product token, the lists that cover
  it, the reverse-DNS suffixes its PTR names end in (matched on a label
  boundary), whether it signs its requests (Web Bot Auth), and how sure the
  source is. A token with no list, no suffix and no signature publishes
  nothing: a claim to be it is unverifiable, never spoofed.
- `signers.csv`: the origins an operator signs a token's requests from
  (Web Bot Auth's `Signature-Agent`), as the operator documents them. A
  valid signature binds a claim to its crawler only through a row here;
  elsewhere it proves who signed, not which crawler the request is.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from functools import cache
from importlib.resources import files
from typing import NamedTuple, TypeVar


class ListSource(NamedTuple):
    """One published IP list; `snapshot` is `complete` when a copy ships in `iplists/`, else `none`."""

    name: str
    operator: str
    url: str
    format: str  # `google-ipranges`: {"creationTime": ..., "prefixes": [{"ipv4Prefix"|"ipv6Prefix": ...}]}
    families: tuple[str, ...]  # ipv4, ipv6: the families it publishes (Bing: ipv4 only)
    snapshot: str
    snapshot_source: str
    source: str
    checked: str
    notes: str


class Method(NamedTuple):
    """How a claim to be `token` can be checked."""

    operator: str
    token: str
    lists: tuple[str, ...]  # ListSource names
    rdns: tuple[str, ...]  # suffixes, without the leading dot
    signs: str  # yes, no or experimental (Web Bot Auth)
    confidence: str  # primary, secondary or unverified
    source: str
    checked: str
    notes: str

    @property
    def unverifiable(self) -> bool:
        """Whether the operator publishes nothing to check this token against."""
        return not self.lists and not self.rdns and self.signs != "yes"


class Signer(NamedTuple):
    """An origin an operator signs `token`'s requests from (its `Signature-Agent`), and since when it is documented."""

    operator: str
    token: str
    origin: str  # `https://agent.bot.goog`: scheme and host, lower case, no default port, no path
    signs: str  # yes (every request) or experimental (some requests)
    source: str
    checked: str
    notes: str


_Row = TypeVar("_Row")


def _rows(name: str) -> list[dict[str, str]]:
    text = files(__package__).joinpath(name).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


def _records(kind: Callable[..., _Row], name: str, fields: tuple[str, ...], lists: frozenset[str]) -> tuple[_Row, ...]:
    """The rows of `name` as `kind`, each field as written, or split on spaces where it is a list."""
    return tuple(
        kind(**{field: tuple(row[field].split()) if field in lists else row[field] for field in fields})
        for row in _rows(name)
    )


@cache
def list_sources() -> tuple[ListSource, ...]:
    """Every published IP list the registry knows."""
    return _records(ListSource, "iplists.csv", ListSource._fields, frozenset({"families"}))


@cache
def methods() -> tuple[Method, ...]:
    """Every token's verification methods."""
    return _records(Method, "verification.csv", Method._fields, frozenset({"lists", "rdns"}))


@cache
def signers() -> tuple[Signer, ...]:
    """Every documented signing origin."""
    return _records(Signer, "signers.csv", Signer._fields, frozenset())


def signing_origins(token: str) -> tuple[str, ...]:
    """The origins the operator of `token` (case-insensitive) documents signing its requests from."""
    return tuple(s.origin for s in signers() if s.token.lower() == token.lower())


@cache
def _by_token() -> dict[str, Method]:
    return {m.token.lower(): m for m in methods()}


def method(token: str) -> Method | None:
    """The methods for a product token (case-insensitive), or None when the registry does not know it."""
    return _by_token().get(token.lower())


def list_source(name: str) -> ListSource | None:
    """The published list of that registry name."""
    return next((source for source in list_sources() if source.name == name), None)


def tokens_of(name: str) -> tuple[str, ...]:
    """The tokens a list covers."""
    return tuple(m.token for m in methods() if name in m.lists)


__all__ = [
    "ListSource",
    "Method",
    "Signer",
    "list_source",
    "list_sources",
    "method",
    "methods",
    "signers",
    "signing_origins",
    "tokens_of",
]
