"""Web Bot Auth with real cryptography: the `cryptography` library's Ed25519 for `access.signatures`.

The core stays free of third-party packages (it runs under Pyodide), so the
Ed25519 check is passed into `access.signatures.verify.verify_request`; this
edge module is that check, and `verify_request` with it. Needs the `verify`
extra (`pip install 'robotscope[verify]'`).
"""

from __future__ import annotations

from functools import partial

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from .access.signatures import verify

__all__ = ["ed25519_valid", "verify_request"]


def ed25519_valid(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """Whether `signature` is `public_key`'s Ed25519 signature (RFC 8032) of `message`; False for any bad input."""
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


verify_request = partial(verify.verify_request, check=ed25519_valid)
