"""Key directories fetched from real servers on 127.0.0.1: bounds, the origin rule, the SSRF guard, the cache.

Each test publishes a directory on the conftest's `server` and signs its
requests with fresh Ed25519 keys naming that server as their agent; the
servers count every request they answer, so a cache hit is a count that
did not grow. The cache's clock is moved by hand (`tests.clock.Clock`).
"""

from __future__ import annotations

import ipaddress
import json
from typing import Any
from urllib.parse import urlsplit

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from robotscope.access.signatures.agent import WELL_KNOWN, signature_agent
from robotscope.access.signatures.model import MAX_DIRECTORY, Reason, Refusal, SignatureVerdict, SignedRequest
from robotscope.fetch.guard import is_forbidden
from robotscope.messages import LANGS
from robotscope.verifying.keydirectory import CEILING, DEFAULT_TTL, FLOOR, KeyDirectories, local, max_age
from robotscope.verifying.signatures import MAX_AGENTS, verify_signed
from tests.access.signatures.signing import NOW, countersigned, directory, keyid, signed
from tests.clock import Clock
from tests.conftest import Server
from tests.hostile import SlowServer, finishes, trickle

# What an sf-string may hold (RFC 9651, Section 3.3.3): printable ASCII, quotes and backslashes escaped.
HOSTS = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E, exclude_characters='"\\'), max_size=40)

pytestmark = pytest.mark.usefixtures("isolated")


@pytest.fixture
def key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def directories(clock: Clock) -> KeyDirectories:
    return KeyDirectories(local_addresses=True, clock=clock, timeout=5.0)


def by(server: Server | SlowServer, key: Ed25519PrivateKey, **options: Any) -> SignedRequest:
    """A request signed by `key`, naming `server` as its agent (the WG draft's Dictionary member)."""
    return signed(key, agent=f'sig1="{server.url("")}"', **options)


def publish(server: Server, *keys: Ed25519PrivateKey, cache_control: str | None = None) -> None:
    headers = {"Content-Type": "application/http-message-signatures-directory+json"}
    if cache_control is not None:
        headers["Cache-Control"] = cache_control
    server.serve(WELL_KNOWN, body=directory(*keys), headers=headers)


def problem(verdict: SignatureVerdict) -> str:
    assert verdict.reason is Reason.NO_DIRECTORY and verdict.problem is not None, verdict
    for lang in LANGS:
        assert "{" not in verdict.message().render(lang)
    return verdict.problem.code


def test_a_request_signed_by_a_key_of_its_agents_directory_verifies(
    server: Server, key: Ed25519PrivateKey, directories: KeyDirectories
) -> None:
    publish(server, key)
    verdict = verify_signed(by(server, key), NOW, directories)
    assert verdict.verified and verdict.keyid == keyid(key)
    assert verdict.agent == f"http://127.0.0.1:{server.port}"
    assert verdict.directory == server.url(WELL_KNOWN) and (verdict.created, verdict.expires) == (NOW - 10, NOW + 300)
    assert server.hits[WELL_KNOWN] == 1


def test_the_legacy_bare_string_agent_is_followed_too(
    server: Server, key: Ed25519PrivateKey, directories: KeyDirectories
) -> None:
    publish(server, key)
    covered = '("@authority" "@method" "@path" "signature-agent")'
    assert verify_signed(signed(key, covered=covered, agent=f'"{server.url("")}"'), NOW, directories).verified


def test_a_signature_that_fails_before_its_key_fetches_nothing(
    server: Server, key: Ed25519PrivateKey, directories: KeyDirectories
) -> None:
    publish(server, key)
    request = by(server, key)
    assert verify_signed(request, NOW, directories).verified
    # The same signature replayed: within its window it still verifies (bound to this authority and path,
    # only who saw it could replay it); an hour later it has expired, and nothing is fetched to say so.
    assert verify_signed(request, NOW + 200, directories).verified
    late = verify_signed(request, NOW + 3600, KeyDirectories(local_addresses=True))
    assert late.reason is Reason.EXPIRED and late.agent is None
    assert verify_signed(by(server, key, created=NOW + 600), NOW, directories).reason is Reason.NOT_YET_VALID
    assert server.hits[WELL_KNOWN] == 1


def test_another_key_and_an_altered_component_fail(
    server: Server, key: Ed25519PrivateKey, directories: KeyDirectories
) -> None:
    publish(server, key)
    intruder = Ed25519PrivateKey.generate()
    assert verify_signed(by(server, intruder), NOW, directories).reason is Reason.UNKNOWN_KEY
    # Signed by another key under the published key's id: the signature does not match that key.
    forged = signed(intruder, agent=f'sig1="{server.url("")}"', kid=keyid(key))
    assert verify_signed(forged, NOW, directories).reason is Reason.BAD_SIGNATURE
    request = by(server, key)
    altered = SignedRequest(request.method, request.target_uri.replace("/shop/", "/admin/"), request.headers)
    verdict = verify_signed(altered, NOW, directories)
    assert verdict.reason is Reason.BAD_SIGNATURE and verdict.agent == f"http://127.0.0.1:{server.port}"


@pytest.mark.parametrize(
    ("status", "body", "code"),
    [
        (404, b"not found", "signature.directory.status"),
        (500, b"", "signature.directory.status"),
        (200, b" " * (MAX_DIRECTORY + 1), "signature.directory.too-big"),
    ],
)
def test_a_directory_that_cannot_be_had_is_a_reason(
    server: Server, key: Ed25519PrivateKey, directories: KeyDirectories, status: int, body: bytes, code: str
) -> None:
    server.serve(WELL_KNOWN, status, body)
    assert problem(verify_signed(by(server, key), NOW, directories)) == code


def test_a_directory_of_exactly_the_limit_is_read(
    server: Server, key: Ed25519PrivateKey, directories: KeyDirectories
) -> None:
    body = directory(key)
    server.serve(WELL_KNOWN, body=body + b" " * (MAX_DIRECTORY - len(body)))
    assert verify_signed(by(server, key), NOW, directories).verified


@pytest.mark.parametrize("body", [b"<html>keys</html>", b'{"keys": "none"}', b"\xff\xfe", b"[" * 5000])
def test_a_directory_that_is_not_a_jwks_is_a_bad_directory(
    server: Server, key: Ed25519PrivateKey, directories: KeyDirectories, body: bytes
) -> None:
    server.serve(WELL_KNOWN, body=body)
    verdict = verify_signed(by(server, key), NOW, directories)
    assert verdict.reason is Reason.BAD_DIRECTORY and verdict.directory == server.url(WELL_KNOWN)


def test_a_slow_directory_times_out(key: Ed25519PrivateKey, clock: Clock) -> None:
    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2000\r\n\r\n"
    slow = SlowServer(lambda _: trickle(head + b'{"keys": [' + b" " * 1000), pause=0.05)
    try:
        directories = KeyDirectories(local_addresses=True, clock=clock, timeout=0.5)
        verdict = finishes(lambda: verify_signed(by(slow, key), NOW, directories))
        assert problem(verdict) == "signature.directory.timeout"
        assert "0.5 s" in verdict.message().render("en")
    finally:
        slow.close()


def test_a_redirect_off_the_origin_is_refused_before_it_is_followed(
    server: Server, other_server: Server, key: Ed25519PrivateKey, directories: KeyDirectories
) -> None:
    publish(other_server, key)
    server.redirect(WELL_KNOWN, other_server.url(WELL_KNOWN))
    verdict = verify_signed(by(server, key), NOW, directories)
    assert problem(verdict) == "signature.directory.off-origin"
    assert other_server.hits[WELL_KNOWN] == 0


def test_a_redirect_on_the_origin_is_followed(
    server: Server, key: Ed25519PrivateKey, directories: KeyDirectories
) -> None:
    server.serve("/keys.json", body=directory(key))
    server.redirect(WELL_KNOWN, "/keys.json")
    assert verify_signed(by(server, key), NOW, directories).verified


def test_loopback_and_private_addresses_are_refused_unless_allowed(server: Server, key: Ed25519PrivateKey) -> None:
    publish(server, key)
    verdict = verify_signed(by(server, key), NOW, KeyDirectories())
    assert problem(verdict) == "signature.directory.refused"
    assert server.hits[WELL_KNOWN] == 0
    assert [local(ipaddress.ip_address(a)) for a in ("127.0.0.1", "::1", "10.1.2.3", "192.168.0.9", "fd00::1")] == [
        True
    ] * 5
    # Link-local (cloud metadata lives there), reserved and shared addresses stay refused even then.
    assert not any(local(ipaddress.ip_address(a)) for a in ("169.254.169.254", "fe80::1", "100.64.0.1", "0.0.0.0"))


def test_a_name_resolving_to_a_private_address_is_refused(key: Ed25519PrivateKey) -> None:
    async def to_metadata(host: str, port: int) -> list[str]:
        return ["169.254.169.254"]

    directories = KeyDirectories(local_addresses=True, resolve=to_metadata)
    verdict = verify_signed(signed(key, agent='sig1="https://keys.example"'), NOW, directories)
    assert problem(verdict) == "signature.directory.refused" and "169.254.169.254" in verdict.message().render("en")


def test_the_directory_is_cached_for_its_max_age_within_the_floor_and_ceiling(
    server: Server, key: Ed25519PrivateKey, clock: Clock, directories: KeyDirectories
) -> None:
    request = by(server, key)
    for cache_control, kept in (
        ("max-age=600", 600.0),
        ("no-store", FLOOR),
        ("max-age=99999999", CEILING),
        (None, DEFAULT_TTL),
    ):
        publish(server, key, cache_control=cache_control)
        before = server.hits[WELL_KNOWN]
        clock.now += CEILING + 1  # whatever was cached is stale
        assert verify_signed(request, NOW, directories).verified
        clock.now += kept - 1
        assert verify_signed(request, NOW, directories).verified
        assert server.hits[WELL_KNOWN] == before + 1, cache_control  # a hit
        clock.now += 2
        assert verify_signed(request, NOW, directories).verified
        assert server.hits[WELL_KNOWN] == before + 2, cache_control  # fetched again
    assert directories.fetches == server.hits[WELL_KNOWN]


def test_a_failure_is_cached_for_the_floor(
    server: Server, key: Ed25519PrivateKey, clock: Clock, directories: KeyDirectories
) -> None:
    request = by(server, key)
    for _ in range(3):
        assert problem(verify_signed(request, NOW, directories)) == "signature.directory.status"
    assert server.hits[WELL_KNOWN] == 1
    publish(server, key)
    clock.now += FLOOR
    assert verify_signed(request, NOW, directories).verified
    assert server.hits[WELL_KNOWN] == 2


def test_an_unknown_key_fetches_again_once_the_copy_is_a_minute_old(
    server: Server, key: Ed25519PrivateKey, clock: Clock, directories: KeyDirectories
) -> None:
    old = Ed25519PrivateKey.generate()
    publish(server, old, cache_control="max-age=86400")
    assert verify_signed(by(server, old), NOW, directories).verified
    publish(server, old, key)  # a key rotated in
    # Within the floor, made-up or new key ids fetch nothing.
    assert verify_signed(by(server, key), NOW, directories).reason is Reason.UNKNOWN_KEY
    assert server.hits[WELL_KNOWN] == 1
    clock.now += FLOOR
    assert verify_signed(by(server, key), NOW, directories).verified
    assert server.hits[WELL_KNOWN] == 2


def test_the_cache_keeps_at_most_its_entries(
    server: Server, other_server: Server, key: Ed25519PrivateKey, clock: Clock
) -> None:
    directories = KeyDirectories(local_addresses=True, clock=clock, entries=1)
    publish(server, key)
    publish(other_server, key)
    for one in (server, other_server, server):
        assert verify_signed(by(one, key), NOW, directories).verified
    assert (server.hits[WELL_KNOWN], other_server.hits[WELL_KNOWN]) == (2, 1)


def test_one_request_fetches_at_most_max_agents_directories(
    server: Server, other_server: Server, key: Ed25519PrivateKey, directories: KeyDirectories
) -> None:
    third = Server()
    try:
        for one in (server, other_server, third):
            one.serve(WELL_KNOWN, body=b"{}")  # not a key set: every signature fails, and each agent is asked
        request = by(server, key)
        for label, one in (("b", other_server), ("c", third)):
            request = countersigned(request, key, label, one.url(""))
        verdict = verify_signed(request, NOW, directories)
        assert not verdict.verified
        assert [s.hits[WELL_KNOWN] for s in (server, other_server, third)] == [1, 1, 0]
        assert MAX_AGENTS == 2
    finally:
        third.close()


def test_a_countersignature_by_another_agent_verifies_with_its_own_directory(
    server: Server, other_server: Server, key: Ed25519PrivateKey, directories: KeyDirectories
) -> None:
    other = Ed25519PrivateKey.generate()
    publish(server, key)
    publish(other_server, other)
    # sig1's key is in its own agent's directory only; a second signature, by another agent, is judged
    # against that agent's directory: each verifies on its own.
    request = countersigned(by(server, Ed25519PrivateKey.generate()), other, "b", other_server.url(""))
    verdict = verify_signed(request, NOW, directories)
    assert verdict.verified and verdict.label == "b" and verdict.agent == f"http://127.0.0.1:{other_server.port}"


def test_a_bad_agent_is_the_verdict_and_fetches_nothing(key: Ed25519PrivateKey, directories: KeyDirectories) -> None:
    verdict = verify_signed(signed(key, agent='sig1="http://signer.example"'), NOW, directories)
    assert verdict.reason is Reason.BAD_AGENT and "not https" in verdict.message().render("en")
    assert directories.fetches == 0 and verdict.keyid == keyid(key)


def test_a_host_httpx_cannot_decode_is_a_verdict_not_an_error(key: Ed25519PrivateKey) -> None:
    # An A-label whose Punycode decodes to code points IDNA forbids: httpx raises idna's error (a
    # UnicodeError) when it reads the host back, not InvalidURL.
    directories = KeyDirectories(timeout=1.0)
    verdict = verify_signed(signed(key, agent='sig1="https://xn--localhost"'), NOW, directories)
    assert problem(verdict) == "signature.directory.bad-url" and directories.fetches == 1


def test_max_age_reads_cache_control() -> None:
    assert max_age(["max-age=60, public"]) == 60.0
    assert max_age(['max-age="120"']) == 120.0
    assert max_age(["public", "max-age=5"]) == 5.0
    assert max_age(["no-cache, max-age=600"]) == 0.0
    assert max_age(["s-maxage=60"]) is None and max_age([]) is None
    assert max_age(["max-age=" + "9" * 40]) is None  # not a number robotscope reads: the default applies


def test_verdicts_with_a_directory_read_in_json(
    server: Server, key: Ed25519PrivateKey, directories: KeyDirectories
) -> None:
    publish(server, key)
    verdict = verify_signed(by(server, key), NOW, directories)
    for lang in LANGS:
        data = json.loads(json.dumps(verdict.as_dict(lang)))
        assert data["verified"] and data["agent"] == verdict.agent and data["keyid"] == keyid(key)


@settings(max_examples=150, deadline=None)
@given(HOSTS, st.sampled_from(["https://", "http://", "https://[", "http://127.0.0.", "https://xn--"]))
def test_any_agent_host_is_a_verdict_and_reaches_no_network(host: str, scheme: str) -> None:
    async def nowhere(name: str, port: int) -> list[str]:
        raise OSError("no resolver in this test")

    key = Ed25519PrivateKey.generate()
    request = signed(key, agent=f'sig1="{scheme}{host}"')
    assume(not _public_literal(request))  # names reach the resolver above, which answers nothing; literals would not
    directories = KeyDirectories(resolve=nowhere, timeout=1.0)
    verdict = verify_signed(request, NOW, directories)
    assert not verdict.verified and verdict.reason in (Reason.BAD_AGENT, Reason.NO_DIRECTORY, Reason.MALFORMED)
    if verdict.reason is Reason.NO_DIRECTORY:
        assert verdict.problem is not None and verdict.problem.code in (
            "signature.directory.network",
            "signature.directory.refused",
            "signature.directory.bad-url",
        )


def _public_literal(request: SignedRequest) -> bool:
    try:
        host = urlsplit(signature_agent(request, "sig1").origin).hostname or ""
        return not is_forbidden(ipaddress.ip_address(host))
    except (Refusal, ValueError):
        return False
