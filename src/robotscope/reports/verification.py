"""Is a request from the crawler it claims to be? A verdict from the methods its operator publishes.

A User-Agent string is a claim. `judge(address, agent, lists)` reads the
claim (the catalogue crawler it names), the operator's methods
(`syntax.verification`: IP lists, reverse-DNS suffixes, signatures) and
the lists at hand (`syntax.ipindex`), and says:

- `verified`: the address is in a list the operator publishes for that
  crawler (which list, which version), or its reverse DNS is confirmed;
- `spoofed`: the operator publishes a complete method and the address
  fails it (in none of the crawler's lists for its address family, all
  of them at hand; a list that could not be read is not at hand);
- `unverifiable`: the operator publishes nothing to check (a claim that
  cannot be checked is never called spoofed), or the agent names no
  crawler of the catalogue;
- `inconclusive`: the method exists but could not be applied (a list not
  at hand for this crawler, reverse DNS not asked or without an answer, a
  signature needed).

Every verdict carries its evidence as a message, and the lists of any
operator that cover the address (a "Googlebot" from OpenAI's ranges).
Pure: the reverse-DNS answer, when there is one, is asked by the caller.

`own_fetches` turns the question on robotscope itself: `page` and `watch`
fetch with User-Agent strings that may claim a crawler, from the user's
machine, not the operator's addresses. A site that verifies crawlers sees
a claim it can check fail (and may answer it otherwise than the real
crawler), and cannot tell a claim of an operator that publishes nothing.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..messages import DEFAULT_LANG, Message, message
from ..syntax.crawlers import recognise
from ..syntax.ipindex import AddressIndex, Covering, parse_address
from ..syntax.tokens import product_token
from ..syntax.verification import Method, list_source, method


class Status(enum.StrEnum):
    VERIFIED = "verified"
    SPOOFED = "spoofed"
    UNVERIFIABLE = "unverifiable"
    INCONCLUSIVE = "inconclusive"


class ReverseDns(NamedTuple):
    """What forward-confirmed reverse DNS concluded for the address (asked by the caller)."""

    status: Status  # verified, spoofed or inconclusive
    reason: Message  # the PTR name and forward addresses, or why not


@dataclass(frozen=True)
class Verification:
    """The verdict on one (address, User-Agent) claim, with the method and its evidence."""

    address: str
    agent: str
    token: str | None  # the catalogue crawler the agent names
    operator: str | None
    status: Status
    method: str | None  # `ip-list` or `reverse-dns` when one decided
    reason: Message
    covering: tuple[Covering, ...] = ()  # every list at hand that covers the address, any operator's

    def as_dict(self, lang: str = DEFAULT_LANG) -> dict[str, Any]:
        return {
            "address": self.address,
            "agent": self.agent,
            "token": self.token,
            "operator": self.operator,
            "status": self.status.value,
            "method": self.method,
            "reason": self.reason.render(lang),
            "message": self.reason.as_dict(lang),
            "covering": [{"list": c.name, "creation_time": c.creation_time} for c in self.covering],
        }


def judge(
    address: str,
    agent: str,
    index: AddressIndex,
    available: Collection[str],
    reverse: ReverseDns | None = None,
) -> Verification:
    """The verdict on `agent` sending from `address`, by the lists in `index` (`available`: their names).

    Raises ValueError when `address` is not an IP address.
    """
    parsed = parse_address(address)
    if parsed is None:
        raise ValueError(f"not an IP address: {address!r}")
    covering = index.find(*parsed)
    family = f"ipv{parsed[0]}"
    crawler = recognise(agent)
    if crawler is None:
        return Verification(
            address, agent, None, None, Status.UNVERIFIABLE, None, message("verify.unknown", agent=agent), covering
        )
    found = method(crawler.token)

    def verdict(status: Status, how: str | None, reason: Message) -> Verification:
        return Verification(address, agent, crawler.token, crawler.operator, status, how, reason, covering)

    if found is None or found.unverifiable:
        return verdict(Status.UNVERIFIABLE, None, message("verify.nothing", token=crawler.token))
    own = [c for c in covering if c.name in found.lists]
    if own:
        return verdict(Status.VERIFIED, "ip-list", message("verify.listed", list=own[0].name, created=_when(own[0])))
    if reverse is not None and reverse.status is Status.VERIFIED and found.rdns:
        return verdict(Status.VERIFIED, "reverse-dns", reverse.reason)
    # Only the lists that publish the address's family can rule on it (Bing's is IPv4 alone).
    ruling = [name for name in found.lists if family in _families(name)]
    missing = [name for name in ruling if name not in available]
    if ruling and not missing:
        # The operator's lists for this crawler are complete and at hand: outside them is not the crawler.
        return verdict(Status.SPOOFED, "ip-list", message("verify.unlisted", lists=list(found.lists)))
    if reverse is not None and found.rdns:
        return verdict(reverse.status, "reverse-dns", reverse.reason)
    if missing:
        return verdict(Status.INCONCLUSIVE, None, message("verify.missing", lists=missing))
    if found.rdns:
        return verdict(Status.INCONCLUSIVE, None, message("verify.dns-unasked", suffixes=list(found.rdns)))
    return verdict(Status.INCONCLUSIVE, None, message("verify.signature", token=crawler.token))


def _families(name: str) -> tuple[str, ...]:
    source = list_source(name)
    return ("ipv4", "ipv6") if source is None else source.families


def _when(covering: Covering) -> Message | str:
    return covering.creation_time or message("verify.undated")


class WouldVerify(enum.StrEnum):
    """What a site that verifies crawlers makes of a fetch robotscope sent from this machine."""

    NO = "no"  # the operator publishes a method, and a fetch from here fails it
    INDISTINGUISHABLE = "indistinguishable"  # the operator publishes nothing: no site can tell
    NO_CLAIM = "no-claim"  # robotscope's own User-Agent claims no crawler
    UNKNOWN = "unknown"  # no crawler of the catalogue, or one the registry has no row for


# The product token of the User-Agent robotscope sends when no crawler's is asked for (`robotscope/VERSION`).
OWN_TOKEN = "robotscope"


@dataclass(frozen=True)
class OwnFetch:
    """One User-Agent a command fetched as, and whether a site's crawler verification would pass it."""

    agent: str  # the label the command fetched as (`browser`, `Googlebot`, the string itself)
    user_agent: str
    would_verify: WouldVerify
    token: str | None  # the catalogue crawler the string claims
    operator: str | None
    methods: tuple[str, ...]  # what the operator publishes to check it: ip-list, reverse-dns, signature
    reason: Message

    def as_dict(self, lang: str = DEFAULT_LANG) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "user_agent": self.user_agent,
            "would_verify": self.would_verify.value,
            "token": self.token,
            "operator": self.operator,
            "methods": list(self.methods),
            "text": self.reason.render(lang),
            "message": self.reason.as_dict(lang),
        }


def own_fetch(agent: str, user_agent: str) -> OwnFetch:
    """What a site that verifies crawlers makes of `user_agent` sent from this machine (fetched as `agent`).

    The machine's address is not asked: robotscope runs on the user's
    machine, which is not in a crawler operator's network.
    """
    if product_token(user_agent).lower() == OWN_TOKEN:
        return OwnFetch(agent, user_agent, WouldVerify.NO_CLAIM, None, None, (), message("verify.own.robotscope"))
    crawler = recognise(user_agent)
    if crawler is None:
        return OwnFetch(agent, user_agent, WouldVerify.UNKNOWN, None, None, (), message("verify.own.unknown"))
    token, operator = crawler.token, crawler.operator or crawler.token
    found = method(token)

    def said(would: WouldVerify, reason: Message, methods: tuple[str, ...] = ()) -> OwnFetch:
        return OwnFetch(agent, user_agent, would, token, operator, methods, reason)

    if found is None:
        return said(WouldVerify.UNKNOWN, message("verify.own.unrecorded", token=token))
    if found.unverifiable:
        return said(WouldVerify.INDISTINGUISHABLE, message("verify.own.nothing", token=token, operator=operator))
    methods = _published(found)
    named = [message(f"verify.method.{m}") for m in methods]
    return said(WouldVerify.NO, message("verify.own.fails", token=token, operator=operator, methods=named), methods)


def own_fetches(sent: Iterable[tuple[str, str]]) -> tuple[OwnFetch, ...]:
    """`own_fetch` of each (agent, User-Agent) a command fetched as, each User-Agent string once, in order."""
    first: dict[str, str] = {}
    for agent, user_agent in sent:
        first.setdefault(user_agent, agent)
    return tuple(own_fetch(agent, user_agent) for user_agent, agent in first.items())


def _published(found: Method) -> tuple[str, ...]:
    """The methods a site can check the token by (a signature only where the operator signs for certain)."""
    published = {"ip-list": bool(found.lists), "reverse-dns": bool(found.rdns), "signature": found.signs == "yes"}
    return tuple(name for name, given in published.items() if given)
