"""The Ed25519 key a signature fuzz target signs its seeds with, and the key directory that holds it."""

from __future__ import annotations

import hashlib
import json

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from robotscope.access.signatures.keys import b64url

NOW = 1_780_000_000  # signed seeds are valid from NOW - 10 to NOW + 300


def signing_key(name: str) -> tuple[Ed25519PrivateKey, bytes, bytes]:
    """The key derived from `name` (the same on every run, so seeds stay signed), its public bytes, its JWKS."""
    key = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(f"robotscope {name}".encode()).digest())
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    directory = json.dumps({"keys": [{"kty": "OKP", "crv": "Ed25519", "x": b64url(public)}]}).encode()
    return key, public, directory
