"""Which key directory a signature names (`agent`), and the checks made before its key is needed (`verify`)."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from robotscope.access.signatures.agent import WELL_KNOWN, signature_agent
from robotscope.access.signatures.keys import read_directory
from robotscope.access.signatures.model import Reason, Refusal, SignedRequest
from robotscope.access.signatures.verify import best, labels, precheck, verify_with_keys
from robotscope.webbotauth import ed25519_valid
from tests.access.signatures.signing import NOW, directory, signed

AGENTS = {
    'sig1="https://Signer.Example"': "https://signer.example",
    'sig1="https://signer.example/"': "https://signer.example",
    'sig1="https://signer.example:443"': "https://signer.example",
    'sig1="https://signer.example:8443"': "https://signer.example:8443",
    f'sig1="https://signer.example{WELL_KNOWN}"': "https://signer.example",
    'sig1="http://127.0.0.1:8080"': "http://127.0.0.1:8080",
    'sig1="http://[::1]:8080"': "http://[::1]:8080",
    'sig1="https://signer.example";type=directory, other="https://x.example"': "https://signer.example",
    '"https://chatgpt.com"': "https://chatgpt.com",  # legacy bare string
}
BAD_AGENTS = [
    "",  # an empty Dictionary: no member for sig1
    'other="https://signer.example"',  # no member for sig1
    "sig1=https",  # a token, not a String
    "https://signer.example",  # unquoted: neither a Dictionary nor a String
    'sig1="http://signer.example"',  # clear text off the machine
    'sig1="http://localhost:8080"',  # a name: what it resolves to may change
    'sig1="https://user@signer.example"',
    'sig1="https://signer.example/keys.json"',
    'sig1="https://signer.example/?a=1"',
    'sig1="https://signer.example:99999"',
    'sig1="ftp://signer.example"',
    "sig1=:aGVsbG8=:",
    'sig1="https://"',
]


@pytest.mark.parametrize(("field", "origin"), AGENTS.items())
def test_signature_agent_forms_give_the_origin(field: str, origin: str) -> None:
    agent = signature_agent(SignedRequest("GET", "https://example.com/", [("Signature-Agent", field)]), "sig1")
    assert agent.origin == origin and agent.directory == origin + WELL_KNOWN
    assert agent.legacy is field.startswith('"')


@pytest.mark.parametrize("field", BAD_AGENTS)
def test_signature_agents_that_name_no_fetchable_origin_are_refused(field: str) -> None:
    with pytest.raises(Refusal) as refused:
        signature_agent(SignedRequest("GET", "https://example.com/", [("Signature-Agent", field)]), "sig1")
    assert refused.value.reason is Reason.BAD_AGENT


@pytest.fixture
def key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


def test_labels_and_the_precheck_need_no_directory(key: Ed25519PrivateKey) -> None:
    request = signed(key)
    assert labels(request) == ("sig1",)
    assert labels(SignedRequest("GET", "https://example.com/", [])) == ()
    assert labels(SignedRequest("GET", "https://example.com/", [("Signature-Input", "(")])) == ()
    assert precheck(request, "sig1", NOW) is None  # only the key can tell now
    expired = precheck(request, "sig1", NOW + 3600)
    assert expired is not None and expired.reason is Reason.EXPIRED and expired.keyid is not None
    assert precheck(signed(key, tag="other"), "sig1", NOW).reason is Reason.NOT_WEB_BOT_AUTH  # type: ignore[union-attr]
    missing = precheck(request, "sig2", NOW)
    assert missing is not None and missing.reason is Reason.MALFORMED
    unsigned = precheck(SignedRequest("GET", "https://example.com/", []), "sig1", NOW)
    assert unsigned is not None and unsigned.reason is Reason.NO_SIGNATURE


def test_one_label_is_judged_alone_when_asked(key: Ed25519PrivateKey) -> None:
    request = signed(key)
    headers = [(n, f'{v}, old=("@authority");tag="other"' if n == "Signature-Input" else v) for n, v in request.headers]
    both = SignedRequest("GET", request.target_uri, headers)
    keys = read_directory(directory(key))
    assert verify_with_keys(both, keys, NOW, ed25519_valid, label="sig1").verified
    old = verify_with_keys(both, keys, NOW, ed25519_valid, label="old")
    assert old.reason is Reason.MALFORMED and old.label == "old"  # it has no Signature member
    assert verify_with_keys(both, keys, NOW, ed25519_valid, label="nope").reason is Reason.MALFORMED
    described = verify_with_keys(both, None, NOW, ed25519_valid, label="sig1")
    assert described.reason is Reason.BAD_DIRECTORY and described.created == NOW - 10


def test_best_prefers_a_verified_then_a_web_bot_auth_failure(key: Ed25519PrivateKey) -> None:
    keys = read_directory(directory(key))
    good = verify_with_keys(signed(key), keys, NOW, ed25519_valid)
    other = verify_with_keys(signed(key, tag="other"), keys, NOW, ed25519_valid)
    expired = verify_with_keys(signed(key), keys, NOW + 3600, ed25519_valid)
    assert best([other, expired, good]) is good
    assert best([other, expired]) is expired and best([other]) is other
