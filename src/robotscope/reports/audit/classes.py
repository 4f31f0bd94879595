"""The class of one audited request, and which class wins when several could apply.

A request is audited when its User-Agent names a crawler of the catalogue
(`syntax.crawlers.recognise`); any other request (a browser, a bot the
catalogue does not know) is counted, not judged. An audited request gets
one class, the first of these that applies:

1. `spoofed`: the claim failed its operator's method (the address is in
   none of the crawler's published lists, all at hand), whatever it
   fetched: it is not the crawler, so nothing it did is the crawler's.
2. `exempt`: robots.txt does not govern the request. Either it fetched
   /robots.txt itself (always allowed, RFC 9309, Section 2.2.2), or the
   crawler's operator documents that robots.txt does not apply to it: the
   catalogue's `obeys_robots` is `no` (FeedFetcher-Google, Google-Safety),
   or `partial` for a user-triggered fetcher (ChatGPT-User: "because these
   actions are initiated by a user, robots.txt rules may not apply"). The
   reason says which.
3. `unjudged`: no robots.txt is known to have been in force for the
   request's origin at its time (before the first version of a history, an
   origin no source covers): counted, and the audit is incomplete.
4. `allowed`: the crawler's operator's reading of the file in force allows
   the URL, whether or not the claim could be checked.
5. `grace`: the reading disallows the URL, but the request was made within
   the grace window after that file came into force, and a file in force
   in the window before it allowed the URL: the crawler may have used its
   cached copy (RFC 9309, Section 2.4: up to 24 hours). `classify` does not
   decide it: the judge, which knows the time line, turns what would be
   `unverified` or `violation` into `grace`.
6. `unverified`: the reading disallows the URL, but the claim could not be
   checked (the operator publishes no method, or its method could not be
   applied): it breaks the file if it is the crawler, and nobody can tell.
7. `violation`: the reading disallows the URL and the claim is verified.
"""

from __future__ import annotations

import enum

from ...syntax.crawlers import Crawler
from ..verification import Status


class AuditClass(enum.StrEnum):
    ALLOWED = "allowed"
    VIOLATION = "violation"
    EXEMPT = "exempt"
    SPOOFED = "spoofed"
    UNVERIFIED = "unverified"
    UNJUDGED = "unjudged"
    GRACE = "grace"


# Why a request is exempt: `audit.exempt.CODE` messages.
ROBOTS_TXT = "robots-txt"
IGNORES = "ignores"  # the operator documents that the crawler does not obey robots.txt
USER_TRIGGERED = "user-triggered"  # a user's fetch, to which the operator documents robots.txt may not apply


def exemption(crawler: Crawler) -> str | None:
    """Why robots.txt does not govern this crawler's requests, by its operator's word (None: it does)."""
    if crawler.obeys_robots == "no":
        return IGNORES
    if crawler.purpose == "user-triggered" and crawler.obeys_robots == "partial":
        return USER_TRIGGERED
    return None


# Each class as a plain string, as rows carry it (an enum member's `.value` costs more than the rest of
# `classify`, which runs for every request).
_SPOOFED, _EXEMPT, _UNJUDGED = AuditClass.SPOOFED.value, AuditClass.EXEMPT.value, AuditClass.UNJUDGED.value
_ALLOWED, _VIOLATION, _UNVERIFIED = AuditClass.ALLOWED.value, AuditClass.VIOLATION.value, AuditClass.UNVERIFIED.value


def classify(status: Status, exempt: str | None, allowed: bool | None) -> str:
    """The class of a request (an `AuditClass` value): its claim's `status`, why it is `exempt` (None: it is
    not), and whether the reading allows it (None: no robots.txt known in force)."""
    if status is Status.SPOOFED:
        return _SPOOFED
    if exempt is not None:
        return _EXEMPT
    if allowed is None:
        return _UNJUDGED
    if allowed:
        return _ALLOWED
    return _VIOLATION if status is Status.VERIFIED else _UNVERIFIED


__all__ = ["IGNORES", "ROBOTS_TXT", "USER_TRIGGERED", "AuditClass", "classify", "exemption"]
