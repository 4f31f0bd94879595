"""Is a request from the crawler it claims to be? A verdict from the methods its operator publishes.

A User-Agent string is a claim. `judge(address, agent, lists)` reads the
claim (the catalogue crawler it names), the operator's methods
(`syntax.verification`: IP lists, reverse-DNS suffixes, signing origins) and
the lists at hand (`syntax.ipindex`), and says:

- `verified`: the address is in a list the operator publishes for that
  crawler (which list, which version), or its reverse DNS is confirmed, or
  the request carries a valid Web Bot Auth signature by an origin the
  operator documents signing that crawler's requests from;
- `spoofed`: the operator publishes a complete method and the address
  fails it (in none of the crawler's lists for its address family, all
  of them at hand; a list that could not be read is not at hand);
- `unverifiable`: the operator publishes nothing to check (a claim that
  cannot be checked is never called spoofed), or the agent names no
  crawler of the catalogue;
- `inconclusive`: the method exists but could not be applied (a list not
  at hand for this crawler, reverse DNS not asked or without an answer, a
  signature needed or failed).

The signature's place in that lattice (`signature`, checked by the caller:
`robotscope.verifying.signatures`), in this order:

1. A valid signature whose `Signature-Agent` is one of the crawler's signing
   origins (`signers.csv`) verifies the claim, whatever the address: the IP
   is outside the signature, and a signed agent may send from any network.
   The signature is bound to the site's authority and to its window, so only
   someone who saw the request there could replay it, until it expires.
2. Otherwise the address decides, as above. A verdict the address reached
   (verified or spoofed) stands: a failed signature does not undo an IP list
   that verifies (proxies rewrite signed fields, clocks drift, keys rotate),
   and a valid signature by some other origin does not rescue an address
   outside complete lists.
3. Where the address leaves the claim open, the signature is its evidence:
   a signature by the operator's own origin that fails keeps the claim
   `inconclusive`, never `spoofed` (Web Bot Auth is a draft; operators sign
   some requests, not all, and intermediaries break signatures); a valid one
   by another origin proves that signer, not the crawler, and says so (for a
   crawler with no documented signing origin, every signer is "another").

Every verdict carries its evidence as a message, the signature's own
verdict when one was given, and the lists of any operator that cover the
address (a "Googlebot" from OpenAI's ranges). Pure: reverse DNS and the
signature's key directory, when there are any, are asked by the caller.

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
from datetime import UTC, datetime
from typing import Any, NamedTuple

from ..access.signatures.model import Reason, SignatureVerdict
from ..messages import DEFAULT_LANG, Message, message
from ..syntax.crawlers import recognise
from ..syntax.ipindex import AddressIndex, Covering, parse_address
from ..syntax.tokens import product_token
from ..syntax.verification import Method, list_source, method, signing_origins


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
    method: str | None  # `ip-list`, `reverse-dns` or `signature` when one decided
    reason: Message
    covering: tuple[Covering, ...] = ()  # every list at hand that covers the address, any operator's
    signature: SignatureVerdict | None = None  # the request's signature, when it was checked

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
            "signature": None if self.signature is None else self.signature.as_dict(lang),
        }


def judge(
    address: str,
    agent: str,
    index: AddressIndex,
    available: Collection[str],
    reverse: ReverseDns | None = None,
    signature: SignatureVerdict | None = None,
) -> Verification:
    """The verdict on `agent` sending from `address`, by the lists in `index` (`available`: their names),
    the reverse-DNS answer and the request's signature verdict when the caller has them.

    Raises ValueError when `address` is not an IP address.
    """
    parsed = parse_address(address)
    if parsed is None:
        raise ValueError(f"not an IP address: {address!r}")
    covering = index.find(*parsed)
    crawler = recognise(agent)
    if signature is not None and signature.reason is Reason.NO_SIGNATURE:
        signature = None  # an unsigned request: nothing to weigh
    if crawler is None:
        unknown = message("verify.unknown", agent=agent)
        return Verification(address, agent, None, None, Status.UNVERIFIABLE, None, unknown, covering, signature)

    def verdict(status: Status, how: str | None, reason: Message) -> Verification:
        return Verification(address, agent, crawler.token, crawler.operator, status, how, reason, covering, signature)

    origins = signing_origins(crawler.token)
    bound = signature is not None and signature.agent in origins
    if signature is not None and signature.verified and bound:
        return verdict(Status.VERIFIED, "signature", _signed(signature, crawler.token))
    found = _by_address(crawler.token, covering, f"ipv{parsed[0]}", available, reverse)
    if signature is None or found[0] in (Status.VERIFIED, Status.SPOOFED):
        return verdict(*found)
    status, how, reason = found
    if bound:
        failed = message(
            "verify.signature-failed", token=crawler.token, agent=signature.agent, failure=signature.message()
        )
        return verdict(Status.INCONCLUSIVE, None, failed)
    if signature.verified:
        code = "verify.signer-other" if origins else "verify.signer-only"
        said = message(code, reason=reason, agent=signature.agent, token=crawler.token, origins=list(origins))
        return verdict(status, how, said)
    return verdict(*found)


def _by_address(
    token: str, covering: tuple[Covering, ...], family: str, available: Collection[str], reverse: ReverseDns | None
) -> tuple[Status, str | None, Message]:
    """The verdict the address gives on a claim to be `token`: its lists, then its reverse DNS."""
    found = method(token)
    if found is None or found.unverifiable:
        return Status.UNVERIFIABLE, None, message("verify.nothing", token=token)
    own = [c for c in covering if c.name in found.lists]
    if own:
        return Status.VERIFIED, "ip-list", message("verify.listed", list=own[0].name, created=_when(own[0]))
    if reverse is not None and reverse.status is Status.VERIFIED and found.rdns:
        return Status.VERIFIED, "reverse-dns", reverse.reason
    # Only the lists that publish the address's family can rule on it (Bing's is IPv4 alone).
    ruling = [name for name in found.lists if family in _families(name)]
    missing = [name for name in ruling if name not in available]
    if ruling and not missing:
        # The operator's lists for this crawler are complete and at hand: outside them is not the crawler.
        return Status.SPOOFED, "ip-list", message("verify.unlisted", lists=list(found.lists))
    if reverse is not None and found.rdns:
        return reverse.status, "reverse-dns", reverse.reason
    if missing:
        return Status.INCONCLUSIVE, None, message("verify.missing", lists=missing)
    if found.rdns:
        return Status.INCONCLUSIVE, None, message("verify.dns-unasked", suffixes=list(found.rdns))
    return Status.INCONCLUSIVE, None, message("verify.signature", token=token)


def _signed(signature: SignatureVerdict, token: str) -> Message:
    return message(
        "verify.signed",
        token=token,
        agent=signature.agent,
        keyid=signature.keyid,
        directory=signature.directory,
        created=utc_text(signature.created),
        expires=utc_text(signature.expires),
    )


def utc_text(seconds: int | None) -> str:
    """Seconds since the epoch as ISO 8601 in UTC (`2026-05-28T20:26:40Z`), `-` for none or out of range."""
    try:
        return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if seconds is not None else "-"
    except (OverflowError, OSError, ValueError):
        return "-"


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
