"""Web Bot Auth verification: RFC 9421's own Ed25519 vector, and requests the tests sign themselves."""

from __future__ import annotations

import base64
import hashlib
import json

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given, settings
from hypothesis import strategies as st

from robotscope.access.signatures.base import signature_base
from robotscope.access.signatures.keys import b64url, read_directory, thumbprint
from robotscope.access.signatures.model import MAX_FIELD, Reason, SignatureVerdict, SignedRequest
from robotscope.messages import LANGS
from robotscope.syntax.structured import InnerList, parse_dictionary
from robotscope.webbotauth import ed25519_valid, verify_request
from tests.access.signatures.signing import AGENT, NOW, directory, keyid, signed

# RFC 9421, Appendix B.1.4 (test-key-ed25519, its public key as a JWK `x`) and B.2.6 (the signature of the
# Appendix B.2 test request under the label sig-b26, and the signature base it is computed over).
RFC_KEY_X = "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"
RFC_INPUT = (
    'sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");'
    'created=1618884473;keyid="test-key-ed25519"'
)
RFC_SIGNATURE = "sig-b26=:wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==:"
RFC_BASE = (
    b'"date": Tue, 20 Apr 2021 02:07:55 GMT\n'
    b'"@method": POST\n'
    b'"@path": /foo\n'
    b'"@authority": example.com\n'
    b'"content-type": application/json\n'
    b'"content-length": 18\n'
    b'"@signature-params": ("date" "@method" "@path" "@authority" "content-type" "content-length")'
    b';created=1618884473;keyid="test-key-ed25519"'
)
RFC_REQUEST = SignedRequest(
    "POST",
    "https://example.com/foo?param=Value&Pet=dog",
    [
        ("Host", "example.com"),
        ("Date", "Tue, 20 Apr 2021 02:07:55 GMT"),
        ("Content-Type", "application/json"),
        ("Content-Length", "18"),
        ("Signature-Input", RFC_INPUT),
        ("Signature", RFC_SIGNATURE),
    ],
)


def rfc_public_key() -> bytes:
    return base64.urlsafe_b64decode(RFC_KEY_X + "=")


def test_rfc9421_b26_base_is_built_as_the_rfc_prints_it_and_its_signature_verifies() -> None:
    inputs = parse_dictionary(RFC_INPUT)
    assert inputs is not None and isinstance(inputs["sig-b26"], InnerList)
    base = signature_base(RFC_REQUEST, inputs["sig-b26"])
    assert base == RFC_BASE
    signature = base64.b64decode(RFC_SIGNATURE.split(":")[1])
    assert ed25519_valid(rfc_public_key(), base, signature)
    assert not ed25519_valid(rfc_public_key(), base.replace(b"/foo", b"/fop"), signature)


def test_rfc9421_b26_is_not_a_web_bot_auth_signature() -> None:
    rfc_directory = json.dumps({"keys": [{"kty": "OKP", "crv": "Ed25519", "x": RFC_KEY_X}]}).encode()
    verdict = verify_request(RFC_REQUEST, rfc_directory, 1618884473)
    assert verdict.reason is Reason.NOT_WEB_BOT_AUTH and verdict.label == "sig-b26"


def test_the_thumbprint_is_rfc7638_over_crv_kty_x_in_that_order() -> None:
    canonical = b'{"crv":"Ed25519","kty":"OKP","x":"' + RFC_KEY_X.encode() + b'"}'
    expected = base64.urlsafe_b64encode(hashlib.sha256(canonical).digest()).rstrip(b"=").decode()
    assert thumbprint(rfc_public_key()) == expected == "poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U"
    # Member order, other members and a JWK's own `kid` change nothing: the key is hashed.
    jwk = {"x": RFC_KEY_X, "use": "sig", "kid": "mine", "kty": "OKP", "crv": "Ed25519"}
    assert read_directory(json.dumps({"keys": [jwk]}).encode()) == {expected: rfc_public_key()}


@pytest.fixture
def key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


def test_a_signed_request_verifies(key: Ed25519PrivateKey) -> None:
    verdict = verify_request(signed(key), directory(Ed25519PrivateKey.generate(), key), NOW)
    assert verdict.verified and verdict.reason is None
    assert verdict.keyid == keyid(key) and verdict.label == "sig1"
    assert verdict.components == ('"@authority"', '"@method"', '"@path"', '"signature-agent";key="sig1"')


@pytest.mark.parametrize(
    ("created", "expires", "now", "reason"),
    [
        (NOW - 600, NOW - 300, NOW, Reason.EXPIRED),
        (NOW + 600, NOW + 900, NOW, Reason.NOT_YET_VALID),
        (NOW + 30, NOW + 900, NOW, None),  # within the clock skew allowed
        (NOW - 600, NOW - 30, NOW, None),
    ],
)
def test_the_validity_window_is_checked_with_a_small_skew(
    key: Ed25519PrivateKey, created: int, expires: int, now: int, reason: Reason | None
) -> None:
    verdict = verify_request(signed(key, created=created, expires=expires), directory(key), now)
    assert verdict.reason is reason and verdict.verified is (reason is None)


def test_a_request_replayed_after_expiry_fails(key: Ed25519PrivateKey) -> None:
    request = signed(key, expires=NOW + 300)
    assert verify_request(request, directory(key), NOW).verified
    replayed = verify_request(request, directory(key), NOW + 300 + 61)
    assert replayed.reason is Reason.EXPIRED and replayed.expires == NOW + 300


def test_a_signature_by_another_key_fails(key: Ed25519PrivateKey) -> None:
    impostor = Ed25519PrivateKey.generate()
    verdict = verify_request(signed(impostor, kid=keyid(key)), directory(key), NOW)
    assert verdict.reason is Reason.BAD_SIGNATURE


def test_a_keyid_not_in_the_directory_fails(key: Ed25519PrivateKey) -> None:
    verdict = verify_request(signed(key), directory(Ed25519PrivateKey.generate()), NOW)
    assert verdict.reason is Reason.UNKNOWN_KEY and verdict.keyid == keyid(key)


def test_an_altered_path_fails(key: Ed25519PrivateKey) -> None:
    request = signed(key)
    altered = SignedRequest(request.method, "https://example.com/admin?item=1", request.headers)
    assert verify_request(altered, directory(key), NOW).reason is Reason.BAD_SIGNATURE


def test_an_altered_signature_agent_fails(key: Ed25519PrivateKey) -> None:
    request = signed(key)
    headers = [(n, 'sig1="https://evil.example"' if n == "Signature-Agent" else v) for n, v in request.headers]
    altered = SignedRequest(request.method, request.target_uri, headers)
    assert verify_request(altered, directory(key), NOW).reason is Reason.BAD_SIGNATURE


def test_the_signature_agent_member_must_be_covered(key: Ed25519PrivateKey) -> None:
    request = signed(key, covered='("@authority" "@path")')
    verdict = verify_request(request, directory(key), NOW)
    assert verdict.reason is Reason.NOT_COVERED and verdict.detail == "signature-agent"
    assert verify_request(request, directory(key), NOW, require_agent=False).verified


def test_a_covered_signature_agent_must_be_sent(key: Ed25519PrivateKey) -> None:
    request = signed(key)
    headers = [(n, v) for n, v in request.headers if n != "Signature-Agent"]
    verdict = verify_request(SignedRequest(request.method, request.target_uri, headers), directory(key), NOW)
    assert verdict.reason is Reason.COMPONENT_MISSING and verdict.detail == "signature-agent"


def test_a_legacy_bare_string_signature_agent_verifies(key: Ed25519PrivateKey) -> None:
    request = signed(key, covered='("@authority" "signature-agent")', agent=f'"{AGENT}"')
    assert verify_request(request, directory(key), NOW).verified


def test_authority_or_target_uri_must_be_covered(key: Ed25519PrivateKey) -> None:
    verdict = verify_request(signed(key, covered='("@path" "signature-agent";key="sig1")'), directory(key), NOW)
    assert verdict.reason is Reason.NOT_COVERED and verdict.detail == "@authority"


def test_another_tag_is_not_web_bot_auth(key: Ed25519PrivateKey) -> None:
    verdict = verify_request(signed(key, tag="other"), directory(key), NOW)
    assert verdict.reason is Reason.NOT_WEB_BOT_AUTH and verdict.detail == "other"


def test_an_unsupported_component_is_refused(key: Ed25519PrivateKey) -> None:
    request = signed(key)
    covered = '("@authority" "@query-param";name="item" "signature-agent";key="sig1")'
    headers = [
        (n, v.replace('("@authority" "@method" "@path"', covered[:-1]) if n == "Signature-Input" else v)
        for n, v in request.headers
    ]
    verdict = verify_request(SignedRequest("GET", request.target_uri, headers), directory(key), NOW)
    assert verdict.reason is Reason.UNSUPPORTED and verdict.detail == "@query-param"


@pytest.mark.parametrize(
    ("signature_input", "detail"),
    [
        ('sig1=("@authority" "signature-agent";key="sig1";created=1', "signature-input"),  # no closing parenthesis
        ("sig1=?1", "signature-input"),
        ("SIG1=()", "signature-input"),
        (
            f'sig1=("@authority" "signature-agent";key="sig1");created={NOW};expires={NOW + 9};tag="web-bot-auth"',
            "keyid",
        ),
        (
            'sig1=("@authority" "signature-agent";key="sig1");created="x";expires=2;keyid="k";tag="web-bot-auth"',
            "created",
        ),
    ],
)
def test_a_malformed_signature_input_fails(key: Ed25519PrivateKey, signature_input: str, detail: str) -> None:
    request = signed(key)
    headers = [(n, signature_input if n == "Signature-Input" else v) for n, v in request.headers]
    verdict = verify_request(SignedRequest("GET", request.target_uri, headers), directory(key), NOW)
    assert verdict.reason is Reason.MALFORMED and verdict.detail == detail


def test_no_signature_and_bad_directories(key: Ed25519PrivateKey) -> None:
    unsigned = SignedRequest("GET", "https://example.com/", [("Host", "example.com")])
    assert verify_request(unsigned, directory(key), NOW).reason is Reason.NO_SIGNATURE
    for bad in (b"", b"{", b"[]", b'{"keys": 1}', b"[" * 60_000, b'{"keys": []}' + b" " * 70_000):
        assert verify_request(signed(key), bad, NOW).reason is Reason.BAD_DIRECTORY, bad[:20]


def test_oversized_fields_and_too_many_signatures_are_malformed(key: Ed25519PrivateKey) -> None:
    request = signed(key)
    many = ", ".join(f"s{i}=()" for i in range(9))
    for name, value in (("Signature-Input", many), ("Signature", "a" * (MAX_FIELD + 1))):
        headers = [(n, value if n == name else v) for n, v in request.headers]
        verdict = verify_request(SignedRequest("GET", request.target_uri, headers), directory(key), NOW)
        assert verdict.reason is Reason.MALFORMED, name


def test_one_good_signature_among_others_verifies(key: Ed25519PrivateKey) -> None:
    request = signed(key)
    headers = [(n, f'{v}, old=("@authority");tag="other"' if n == "Signature-Input" else v) for n, v in request.headers]
    assert verify_request(SignedRequest("GET", request.target_uri, headers), directory(key), NOW).verified


@pytest.mark.parametrize("reason", [None, *Reason])
def test_every_verdict_reads_in_both_languages(reason: Reason | None) -> None:
    verdict = SignatureVerdict(reason is None, reason, "x", "sig1", "kid", ('"@authority"',))
    for lang in LANGS:
        text = verdict.message().render(lang)
        assert text and "{" not in text


FIELD_NAMES = st.sampled_from(["Signature-Input", "Signature", "Signature-Agent", "Host", "Date", "X"])


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(FIELD_NAMES, st.text(max_size=200)), max_size=8),
    st.text(max_size=60),
    st.integers(min_value=-(2**40), max_value=2**40),
)
def test_arbitrary_header_values_never_raise_and_never_verify(
    headers: list[tuple[str, str]], target: str, now: int
) -> None:
    verdict = verify_request(SignedRequest("GET", target, headers), directory(KEY), now)
    assert not verdict.verified and verdict.reason is not None
    json.dumps(verdict.message().as_dict())


KEY = Ed25519PrivateKey.generate()


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=80), st.text(max_size=80))
def test_a_signed_request_with_arbitrary_extra_fields_still_verifies(name: str, value: str) -> None:
    request = signed(KEY)
    extra = SignedRequest("GET", request.target_uri, [*request.headers, (name or "x", value)])
    lower = (name or "x").lower()
    verdict = verify_request(extra, directory(KEY), NOW)
    if lower in ("signature-input", "signature", "signature-agent", "host"):
        assert verdict.reason is not None or lower == "host"
    else:
        assert verdict.verified, verdict


def test_b64url_round_trip() -> None:
    assert b64url(bytes(range(32))) == base64.urlsafe_b64encode(bytes(range(32))).rstrip(b"=").decode()
