"""Requests the tests sign with their own Ed25519 keys, as a Web Bot Auth agent would."""

from __future__ import annotations

import base64
import json

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from robotscope.access.signatures.base import signature_base
from robotscope.access.signatures.keys import b64url, thumbprint
from robotscope.access.signatures.model import SignedRequest
from robotscope.syntax.structured import InnerList, parse_dictionary

NOW = 1_780_000_000
AGENT = "https://signer.example"
COVERED = '("@authority" "@method" "@path" "signature-agent";key="sig1")'


def public_bytes(key: Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def keyid(key: Ed25519PrivateKey) -> str:
    return thumbprint(public_bytes(key))


def directory(*keys: Ed25519PrivateKey) -> bytes:
    jwks = [{"kty": "OKP", "crv": "Ed25519", "x": b64url(public_bytes(key)), "use": "sig"} for key in keys]
    return json.dumps({"keys": jwks}).encode()


def signed(
    key: Ed25519PrivateKey,
    *,
    target: str = "https://example.com/shop/cart?item=1",
    covered: str = COVERED,
    created: int = NOW - 10,
    expires: int = NOW + 300,
    kid: str | None = None,
    tag: str = "web-bot-auth",
    agent: str = f'sig1="{AGENT}"',
) -> SignedRequest:
    """A GET of `target`, signed under the label sig1 over `covered` (a Signature-Input inner list)."""
    params = f';created={created};expires={expires};keyid="{kid or keyid(key)}";tag="{tag}"'
    headers = [("Host", "example.com"), ("Signature-Agent", agent), ("Signature-Input", f"sig1={covered}{params}")]
    unsigned = SignedRequest("GET", target, headers)
    inputs = parse_dictionary(f"sig1={covered}{params}")
    assert inputs is not None
    member = inputs["sig1"]
    assert isinstance(member, InnerList)
    base = signature_base(unsigned, member)
    signature = base64.b64encode(key.sign(base)).decode()
    return SignedRequest("GET", target, [*headers, ("Signature", f"sig1=:{signature}:")])


def countersigned(
    request: SignedRequest, key: Ed25519PrivateKey, label: str, agent: str, *, expires: int = NOW + 300
) -> SignedRequest:
    """`request` with one more signature, by `key` under `label`, its Signature-Agent member naming `agent`.

    Each field gets a line of its own: the lines of a field are one Dictionary (RFC 9421, Section 2.1), so
    the signatures already there, which cover their own members only, stay valid.
    """
    covered = f'("@authority" "@method" "@path" "signature-agent";key="{label}")'
    params = f';created={NOW - 10};expires={expires};keyid="{keyid(key)}";tag="web-bot-auth"'
    headers = [
        *request.headers,
        ("Signature-Agent", f'{label}="{agent}"'),
        ("Signature-Input", f"{label}={covered}{params}"),
    ]
    member = (parse_dictionary(f"{label}={covered}{params}") or {})[label]
    assert isinstance(member, InnerList)
    base = signature_base(SignedRequest(request.method, request.target_uri, headers), member)
    signature = base64.b64encode(key.sign(base)).decode()
    return SignedRequest(request.method, request.target_uri, [*headers, ("Signature", f"{label}=:{signature}:")])
