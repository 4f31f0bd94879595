"""Key directories (a JWKS, RFC 7517 Section 5) and the JWK thumbprints (RFC 7638) that name their keys.

draft-ietf-webbotauth-httpsig-protocol ("Generating HTTP Message Signature")
makes `keyid` the base64url SHA-256 thumbprint of the signing key; for an
Ed25519 key (kty `OKP`, RFC 8037) the thumbprint covers `crv`, `kty` and `x`
(RFC 8037, Appendix A.3), in that (lexicographic) order, as RFC 7638,
Section 3 says: no whitespace, UTF-8. Other keys in a directory are passed over.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
from collections.abc import Mapping

from .model import MAX_DIRECTORY, MAX_KEYS

_BASE64URL = re.compile(r"[A-Za-z0-9_-]+")


def b64url_decode(text: str) -> bytes | None:
    """Unpadded base64url (RFC 7515, Section 2), or None when `text` is not that."""
    if not _BASE64URL.fullmatch(text) or len(text) % 4 == 1:
        return None
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def ed25519_public_key(jwk: Mapping[str, object]) -> bytes | None:
    """The 32 bytes of an Ed25519 public JWK (`kty` OKP, `crv` Ed25519, `x`), or None for any other key."""
    x = jwk.get("x")
    if jwk.get("kty") != "OKP" or jwk.get("crv") != "Ed25519" or not isinstance(x, str):
        return None
    raw = b64url_decode(x)
    return raw if raw is not None and len(raw) == 32 else None


def thumbprint(public_key: bytes) -> str:
    """The RFC 7638 thumbprint (SHA-256, base64url) of the Ed25519 public key `public_key`."""
    members = {"crv": "Ed25519", "kty": "OKP", "x": b64url(public_key)}
    canonical = json.dumps(members, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return b64url(hashlib.sha256(canonical.encode("utf-8")).digest())


def read_directory(data: bytes) -> dict[str, bytes] | None:
    """The Ed25519 keys of a key directory, by thumbprint; None when `data` is not a JWKS within bounds.

    A JWK's own `kid` is not trusted: the thumbprint is computed from the key.
    """
    if len(data) > MAX_DIRECTORY:
        return None
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    keys = document.get("keys") if isinstance(document, dict) else None
    if not isinstance(keys, list) or len(keys) > MAX_KEYS:
        return None
    found = {}
    for jwk in keys:
        public = ed25519_public_key(jwk) if isinstance(jwk, dict) else None
        if public is not None:
            found[thumbprint(public)] = public
    return found
