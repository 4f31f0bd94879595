"""What a signature check takes and gives: the request, the limits, the reasons and the verdict, as data."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ...messages import DEFAULT_LANG, Message, message

# (public key: 32 bytes, message, signature) -> whether the Ed25519 signature (RFC 8032) is valid.
Ed25519Check = Callable[[bytes, bytes, bytes], bool]

TAG = "web-bot-auth"  # draft-ietf-webbotauth-httpsig-protocol, "Generating HTTP Message Signature"

# Bounds on hostile input: a field longer than this, or more signatures or components, is malformed.
MAX_FIELD = 8192  # characters of one field's combined value
MAX_SIGNATURES = 8
MAX_COMPONENTS = 32
MAX_DIRECTORY = 65536  # bytes of a key directory
MAX_KEYS = 64
SKEW = 60  # seconds either side of `created` and `expires`: clocks differ


@dataclass(frozen=True)
class SignedRequest:
    """A request as received: `target_uri` absolute (`https://example.com/a?b`), `headers` in order."""

    method: str
    target_uri: str
    headers: Sequence[tuple[str, str]]


class Reason(StrEnum):
    """Why a request's signature was not accepted (each a message `signature.<value>`)."""

    NO_SIGNATURE = "no-signature"
    MALFORMED = "malformed"
    NOT_WEB_BOT_AUTH = "not-web-bot-auth"
    NOT_YET_VALID = "not-yet-valid"
    EXPIRED = "expired"
    NOT_COVERED = "not-covered"
    UNSUPPORTED = "unsupported"
    BAD_AGENT = "bad-agent"  # no Signature-Agent for the signature, or not one robotscope fetches a directory from
    NO_DIRECTORY = "no-directory"  # the key directory could not be had (`SignatureVerdict.problem` says why)
    BAD_DIRECTORY = "bad-directory"
    UNKNOWN_KEY = "unknown-key"
    COMPONENT_MISSING = "component-missing"
    BAD_SIGNATURE = "bad-signature"


@dataclass(frozen=True)
class SignatureVerdict:
    """One answer: `verified`, or `reason` with `detail` (what was missing, malformed or unsupported).

    `label` names the signature judged (None when none could be read), `components` what it covers, as
    its Signature-Input writes them. `agent` is the origin its Signature-Agent names and `directory` the
    key directory fetched from it, when the caller fetched one; `problem` why that directory could not be
    had (reason `no-directory`).
    """

    verified: bool
    reason: Reason | None = None
    detail: str = ""
    label: str | None = None
    keyid: str | None = None
    components: tuple[str, ...] = ()
    created: int | None = None
    expires: int | None = None
    agent: str | None = None
    directory: str | None = None
    problem: Message | None = None

    def message(self) -> Message:
        if self.verified:
            return message("signature.verified", keyid=self.keyid, components=list(self.components))
        assert self.reason is not None
        return message(
            f"signature.{self.reason.value}",
            detail=self.detail,
            label=self.label or "",
            keyid=self.keyid or "",
            directory=self.directory or "",
            problem=self.problem or "",
        )

    def as_dict(self, lang: str = DEFAULT_LANG) -> dict[str, Any]:
        return {
            "verified": self.verified,
            "reason": None if self.reason is None else self.reason.value,
            "label": self.label,
            "keyid": self.keyid,
            "agent": self.agent,
            "directory": self.directory,
            "created": self.created,
            "expires": self.expires,
            "components": list(self.components),
            "problem": None if self.problem is None else self.problem.as_dict(lang),
            "message": self.message().as_dict(lang),
        }


class Refusal(Exception):
    """A check failed: its reason and detail (caught inside this package, never raised out of it)."""

    def __init__(self, reason: Reason, detail: str = "") -> None:
        super().__init__(reason, detail)
        self.reason, self.detail = reason, detail
