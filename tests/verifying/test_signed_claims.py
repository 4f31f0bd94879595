"""A claim judged with its request's signature: the lattice of `reports.verification.judge`, end to end too.

Google-Agent is the one crawler whose operator documents a signing origin
(`https://agent.bot.goog`, `syntax/signers.csv`); no test can serve that
origin, so the lattice is shown on verdicts built by hand, and end to end
with a signer on 127.0.0.1, whose signature proves its signer and no crawler.
"""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from robotscope.access.signatures.agent import WELL_KNOWN
from robotscope.access.signatures.model import Reason, SignatureVerdict
from robotscope.messages import LANGS
from robotscope.reports.verification import Status, Verification, judge
from robotscope.syntax import crawlers, verification
from robotscope.syntax.ipindex import AddressIndex
from robotscope.syntax.iplists import shipped, snapshot
from robotscope.verifying.claims import verify_claim
from robotscope.verifying.keydirectory import KeyDirectories
from robotscope.verifying.signatures import verify_signed
from tests.access.signatures.signing import NOW, directory, signed
from tests.conftest import Server

GOOGLE = "https://agent.bot.goog"
GOOGLE_ADDRESS = "66.249.66.1"  # in google-common-crawlers.json
OPENAI_ADDRESS = "20.171.206.1"  # in openai-gptbot.json
NOWHERE = "192.0.2.1"  # TEST-NET-1: in no list
INDEX = AddressIndex([snapshot(name) for name in shipped()])
AVAILABLE = set(shipped())


def valid(agent: str) -> SignatureVerdict:
    return SignatureVerdict(
        True, label="g", keyid="kid", components=('"@authority"',), created=NOW - 10, expires=NOW + 300, agent=agent
    )


def failed(agent: str, reason: Reason = Reason.BAD_SIGNATURE) -> SignatureVerdict:
    return SignatureVerdict(False, reason, label="g", keyid="kid", agent=agent, directory=agent + WELL_KNOWN)


def claim(address: str, agent: str, signature: SignatureVerdict | None) -> Verification:
    found = judge(address, agent, INDEX, AVAILABLE, signature=signature)
    for lang in LANGS:
        text = found.reason.render(lang)
        assert text and "{" not in text, text
        assert found.as_dict(lang)["signature"] == (None if found.signature is None else signature.as_dict(lang))  # type: ignore[union-attr]
    return found


def test_the_registry_names_google_agents_signing_origin_from_googles_page() -> None:
    (signer,) = verification.signers()
    assert (signer.token, signer.origin, signer.signs) == ("Google-Agent", GOOGLE, "experimental")
    assert signer.source.startswith("https://developers.google.com/") and signer.checked == "2026-12-02"
    assert verification.signing_origins("google-agent") == (GOOGLE,) and verification.signing_origins("GPTBot") == ()
    for one in verification.signers():
        crawler = crawlers.get(one.token)
        method = verification.method(one.token)
        assert crawler is not None and crawler.operator == one.operator and method is not None
        assert method.signs == one.signs  # the two files agree on who signs
        assert one.origin.startswith("https://") and one.origin == one.origin.lower().rstrip("/")


def test_a_valid_signature_by_the_operators_origin_verifies_whatever_the_address() -> None:
    found = claim(NOWHERE, "Google-Agent", valid(GOOGLE))
    assert (found.status, found.method) == (Status.VERIFIED, "signature")
    text = found.reason.render("en")
    assert "kid" in text and GOOGLE in text and "2026-05-28T20:26:30Z" in text  # keyid, agent, created


def test_a_failed_signature_by_the_operators_origin_is_inconclusive_never_spoofed() -> None:
    for reason in (Reason.BAD_SIGNATURE, Reason.EXPIRED, Reason.UNKNOWN_KEY, Reason.NO_DIRECTORY):
        found = claim(NOWHERE, "Google-Agent", failed(GOOGLE, reason))
        assert found.status is Status.INCONCLUSIVE and found.method is None
        assert "no proof of spoofing" in found.reason.render("en")


def test_an_address_that_decides_outweighs_the_signature() -> None:
    # Verified by its list, with a broken signature (a proxy rewrote a field): still verified, by the list.
    found = claim(GOOGLE_ADDRESS, "Googlebot", failed("https://signer.example"))
    assert (found.status, found.method) == (Status.VERIFIED, "ip-list") and found.signature is not None
    # Outside complete lists, signed by someone else: the signature proves that signer, not Googlebot.
    found = claim(OPENAI_ADDRESS, "Googlebot", valid("https://signer.example"))
    assert (found.status, found.method) == (Status.SPOOFED, "ip-list")


def test_a_valid_signature_by_another_origin_proves_its_signer_not_the_crawler() -> None:
    found = claim(NOWHERE, "YandexBot", valid("https://signer.example"))  # reverse DNS not asked: open
    assert found.status is Status.INCONCLUSIVE
    assert "proves its signer https://signer.example, not YandexBot" in found.reason.render("en")
    assert "no origin" in found.reason.render("en")
    google = claim(NOWHERE, "Google-Agent", valid("https://signer.example"))
    assert google.status is Status.INCONCLUSIVE and GOOGLE in google.reason.render("en")
    unverifiable = claim(NOWHERE, "CCBot", valid("https://signer.example"))
    assert unverifiable.status is Status.UNVERIFIABLE and "proves its signer" in unverifiable.reason.render("en")


def test_a_failed_signature_by_another_origin_changes_nothing_but_is_kept() -> None:
    plain = claim(NOWHERE, "YandexBot", None)
    found = claim(NOWHERE, "YandexBot", failed("https://signer.example"))
    assert (found.status, found.reason) == (plain.status, plain.reason) and found.signature is not None


def test_an_unsigned_request_or_an_unknown_agent() -> None:
    unsigned = SignatureVerdict(False, Reason.NO_SIGNATURE)
    assert claim(GOOGLE_ADDRESS, "Googlebot", unsigned) == claim(GOOGLE_ADDRESS, "Googlebot", None)
    found = claim(NOWHERE, "NoSuchBot/1.0", valid(GOOGLE))
    assert found.status is Status.UNVERIFIABLE and found.signature is not None


@pytest.mark.usefixtures("isolated")
def test_end_to_end_a_signed_request_from_a_listed_address(server: Server) -> None:
    key = Ed25519PrivateKey.generate()
    server.serve(WELL_KNOWN, body=directory(key))
    request = signed(key, agent=f'sig1="{server.url("")}"')
    signature = verify_signed(request, NOW, KeyDirectories(local_addresses=True))
    assert signature.verified
    listed = verify_claim(GOOGLE_ADDRESS, "Googlebot", INDEX, AVAILABLE, None, signature=signature)
    assert (listed.status, listed.method) == (Status.VERIFIED, "ip-list")
    assert listed.as_dict()["signature"]["agent"] == f"http://127.0.0.1:{server.port}"
    # The same signature claiming a crawler the address cannot vouch for: its signer is proven, the claim is not.
    open_claim = verify_claim(NOWHERE, "Yeti", INDEX, AVAILABLE, None, signature=signature)
    assert open_claim.status is Status.INCONCLUSIVE
    assert f"proves its signer http://127.0.0.1:{server.port}, not Yeti" in open_claim.reason.render("en")
