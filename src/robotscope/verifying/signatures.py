"""A request's Web Bot Auth signatures checked end to end: each signature's agent, its key directory, its key.

`access.signatures` judges a signature given the keys; this fetches them.
For each signature of the request, in Signature-Input order:

1. the checks that need no key (`verify.precheck`: fields, tag, time window,
   what it covers); a signature that fails one costs no fetch;
2. its agent (`agent.signature_agent`: the Signature-Agent member of its
   label, or a legacy bare String), which must name an https origin;
3. that origin's key directory (`keydirectory.KeyDirectories`: bounded,
   guarded, cached), fetched once more when the key is not in a copy older
   than a minute;
4. the signature checked with the key its `keyid` names (`cryptography`'s Ed25519).

The first signature that verifies is the verdict; else the first Web Bot
Auth signature's failure. At most `MAX_AGENTS` directories are fetched for
one request: a request cannot make robotscope fetch eight.
"""

from __future__ import annotations

from dataclasses import replace

from ..access.signatures.agent import signature_agent
from ..access.signatures.model import SKEW, Reason, Refusal, SignatureVerdict, SignedRequest
from ..access.signatures.verify import best, labels, precheck, verify_with_keys
from ..messages import Message, message
from ..webbotauth import ed25519_valid
from .keydirectory import Directory, KeyDirectories

MAX_AGENTS = 2


def verify_signed(
    request: SignedRequest, now: int, directories: KeyDirectories, *, skew: int = SKEW
) -> SignatureVerdict:
    """Whether `request` carries a valid Web Bot Auth signature at `now` (seconds since the epoch), by a key
    of the directory its own Signature-Agent names. Never raises: every failure is a verdict."""
    names = labels(request)
    if not names:
        return verify_with_keys(request, None, now, ed25519_valid)  # why: no signature, or unreadable fields
    verdicts = []
    fetched: set[str] = set()
    for label in names:
        early = precheck(request, label, now, skew=skew)
        if early is not None:
            verdicts.append(early)
            continue
        try:
            agent = signature_agent(request, label)
        except Refusal as refusal:
            verdicts.append(replace(_keyless(request, label, now, skew), reason=refusal.reason, detail=refusal.detail))
            continue
        if agent.directory not in fetched and len(fetched) >= MAX_AGENTS:
            too_many = message("signature.directory.too-many", limit=MAX_AGENTS)
            verdicts.append(_unavailable(request, label, now, skew, agent.directory, too_many))
            continue
        fetched.add(agent.directory)
        verdict = _checked(request, label, now, skew, directories.get(agent.directory))
        if verdict.reason is Reason.UNKNOWN_KEY:
            fresh = directories.refresh(agent.directory)  # keys rotate
            if fresh is not None:
                verdict = _checked(request, label, now, skew, fresh)
        verdict = replace(verdict, agent=agent.origin, directory=agent.directory)
        if verdict.verified:
            return verdict
        verdicts.append(verdict)
    return best(verdicts)


def _checked(request: SignedRequest, label: str, now: int, skew: int, directory: Directory) -> SignatureVerdict:
    if directory.problem is not None:
        return _unavailable(request, label, now, skew, directory.url, directory.problem)
    return verify_with_keys(request, directory.keys, now, ed25519_valid, skew=skew, label=label)


def _keyless(request: SignedRequest, label: str, now: int, skew: int) -> SignatureVerdict:
    """The verdict on `label` described as far as it goes without keys (its key id, window, components)."""
    return verify_with_keys(request, None, now, ed25519_valid, skew=skew, label=label)


def _unavailable(
    request: SignedRequest, label: str, now: int, skew: int, url: str, problem: Message
) -> SignatureVerdict:
    keyless = _keyless(request, label, now, skew)
    return replace(keyless, reason=Reason.NO_DIRECTORY, detail="", directory=url, problem=problem)
