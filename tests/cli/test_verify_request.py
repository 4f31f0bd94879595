"""`robotscope verify --request FILE`: a captured request's signature, against a key directory on 127.0.0.1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from robotscope.access.signatures.agent import WELL_KNOWN
from robotscope.access.signatures.head import MAX_HEAD
from robotscope.access.signatures.model import SignedRequest
from robotscope.cli import cli
from robotscope.reports.verification import utc_text
from robotscope.syntax.iplists import snapshot
from tests.access.signatures.signing import NOW, directory, signed
from tests.clock import moment
from tests.conftest import Server

pytestmark = pytest.mark.usefixtures("isolated")

CLAIM = "give one or more IP addresses and --agent UA"
GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
# A day after the shipped Google list's creationTime: signed then, a claim is judged by that list.
LISTED = int(moment(snapshot("google-common-crawlers.json").creation_time or "")) + 86_400


def capture(request: SignedRequest, path: Path, user_agent: str = GOOGLEBOT) -> str:
    """`request` written as the HTTP/1.1 head a server received (origin-form target, its Host)."""
    target = request.target_uri.removeprefix("https://example.com")
    fields = [*request.headers, ("User-Agent", user_agent)]
    path.write_bytes((f"GET {target} HTTP/1.1\r\n" + "".join(f"{n}: {v}\r\n" for n, v in fields) + "\r\n").encode())
    return str(path)


def verify(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["verify", *args])
    return result.exit_code, result.stdout, result.stderr


def as_json(*args: str) -> tuple[int, dict[str, Any]]:
    code, out, err = verify(*args, "--json")
    assert code in (0, 1), err
    found: dict[str, Any] = json.loads(out)
    return code, found


@pytest.fixture
def key(server: Server) -> Ed25519PrivateKey:
    made = Ed25519PrivateKey.generate()
    server.serve(WELL_KNOWN, body=directory(made))
    return made


def test_a_signed_request_verifies_and_says_who_signed(server: Server, key: Ed25519PrivateKey, tmp_path: Path) -> None:
    path = capture(signed(key, agent=f'sig1="{server.url("")}"'), tmp_path / "request.http")
    code, out, _ = verify("--request", path, "--at", str(NOW), "--allow-local-directory")
    assert code == 0 and out.startswith("Web Bot Auth: verified: signed by key")
    assert f"signed by http://127.0.0.1:{server.port} (key directory {server.url(WELL_KNOWN)})" in out
    assert "created 2026-05-28T20:26:30Z, expires 2026-05-28T20:31:40Z" in out
    assert "not judged without --ip" in out
    code, out, _ = verify("--request", path, "--at", "2026-05-28T20:27:00Z", "--allow-local-directory", "--lang", "ko")
    assert code == 0 and out.startswith("Web Bot Auth: 검증됨")


def test_expired_and_refused_directories_exit_1(server: Server, key: Ed25519PrivateKey, tmp_path: Path) -> None:
    path = capture(signed(key, agent=f'sig1="{server.url("")}"'), tmp_path / "request.http")
    code, found = as_json("--request", path, "--at", str(NOW + 3600), "--allow-local-directory")
    assert code == 1 and found["signature"]["reason"] == "expired" and found["claim"] is None
    code, found = as_json("--request", path, "--at", str(NOW))  # loopback not allowed by default
    assert code == 1 and found["signature"]["reason"] == "no-directory"
    assert found["signature"]["problem"]["code"] == "signature.directory.refused"
    code, out, _ = verify("--request", path, "--at", str(NOW))
    assert code == 1 and f"names http://127.0.0.1:{server.port} as its signer" in out and "signed by" not in out
    assert server.hits[WELL_KNOWN] == 0


def test_with_an_address_the_claim_is_judged_with_the_signature(
    server: Server, key: Ed25519PrivateKey, tmp_path: Path
) -> None:
    request = signed(key, agent=f'sig1="{server.url("")}"', created=LISTED - 10, expires=LISTED + 300)
    path = capture(request, tmp_path / "request.http")
    common = ("--request", path, "--at", str(LISTED), "--allow-local-directory", "--no-dns")
    code, found = as_json(*common, "--ip", "66.249.66.1")
    claim = found["claim"]
    assert code == 0 and (claim["status"], claim["method"], claim["token"]) == ("verified", "ip-list", "Googlebot")
    assert claim["signature"]["verified"] and found["agent"] == GOOGLEBOT
    code, found = as_json(*common, "--ip", "20.171.206.1")  # OpenAI's range: not Googlebot, signed or not
    assert code == 1 and found["claim"]["status"] == "spoofed"
    code, out, _ = verify(*common, "--ip", "192.0.2.1", "--agent", "YandexBot")
    assert code == 1 and "192.0.2.1: inconclusive as YandexBot" in out
    assert f"the valid signature proves its signer http://127.0.0.1:{server.port}, not YandexBot" in out


def test_at_with_an_address_names_the_lists_in_force(server: Server, key: Ed25519PrivateKey, tmp_path: Path) -> None:
    request = signed(key, agent=f'sig1="{server.url("")}"', created=LISTED - 10, expires=LISTED + 300)
    path = capture(request, tmp_path / "request.http")
    common = ("--request", path, "--allow-local-directory", "--no-dns", "--ip", "66.249.66.1")
    code, out, _ = verify(*common, "--at", str(LISTED))
    assert code == 0 and out.splitlines()[2].startswith(f"lists in force at {utc_text(LISTED)}: google-common")
    code, found = as_json(*common, "--at", str(LISTED))
    assert found["at"] == utc_text(LISTED) and found["lists"][0]["list"] == "google-common-crawlers.json"
    # Signed before the shipped list's creationTime, no version of it was out: the claim is open.
    early = capture(signed(key, agent=f'sig1="{server.url("")}"'), tmp_path / "early.http")
    code, found = as_json(
        "--request", early, "--allow-local-directory", "--no-dns", "--ip", "66.249.66.1", "--at", str(NOW)
    )
    assert code == 1 and found["signature"]["verified"] and found["claim"]["status"] == "inconclusive"
    # In 2024 the signature was not made yet, and no version of Google's list was out: the claim is open.
    code, found = as_json(*common, "--at", "2024-01-01")
    assert code == 1 and found["signature"]["reason"] == "not-yet-valid"
    assert found["claim"]["status"] == "inconclusive" and found["lists"][0]["creation_time"] is None


def test_bad_lines_are_reported_and_the_rest_read(server: Server, key: Ed25519PrivateKey, tmp_path: Path) -> None:
    path = Path(capture(signed(key, agent=f'sig1="{server.url("")}"'), tmp_path / "request.http"))
    path.write_bytes(path.read_bytes().replace(b"Host:", b"X Bad: 1\r\n  folded\r\nHost:", 1))
    code, out, err = verify("--request", str(path), "--at", str(NOW), "--allow-local-directory")
    assert code == 0 and "verified" in out
    assert f"{path}: line 2 is not a header field" in err and "line 3 continues the previous field" in err


def test_stdin_is_read_too(server: Server, key: Ed25519PrivateKey, tmp_path: Path) -> None:
    path = capture(signed(key, agent=f'sig1="{server.url("")}"'), tmp_path / "request.http")
    args = ["verify", "--request", "-", "--at", str(NOW), "--allow-local-directory"]
    result = CliRunner().invoke(cli, args, input=Path(path).read_bytes())
    assert result.exit_code == 0 and "verified" in result.stdout


@pytest.mark.parametrize(
    ("content", "args", "said"),
    [
        (b"x" * (MAX_HEAD + 1), (), "larger than 65,536 bytes"),
        (b"", (), "no request line"),
        (b"GET /a HTTP/1.1\r\nAccept: */*\r\n\r\n", (), "0 Host fields"),
        (b"HELLO\r\n", (), "line 1 is not a request line"),
        (b"GET / HTTP/1.1\r\nHost: a\r\n\r\n", ("--at", "yesterday"), "--at takes UNIX seconds"),
        # Digits as str.isdigit counts them but int() does not, and dashes before digits.
        (b"GET / HTTP/1.1\r\nHost: a\r\n\r\n", ("--at", "\u00b2"), "--at takes UNIX seconds"),
        (b"GET / HTTP/1.1\r\nHost: a\r\n\r\n", ("--at=--5",), "--at takes UNIX seconds"),
        # Seconds or a date past what a date and time can hold, once in UTC.
        (b"GET / HTTP/1.1\r\nHost: a\r\n\r\n", ("--at", "999999999999", "--json"), "--at takes UNIX seconds"),
        (b"GET / HTTP/1.1\r\nHost: a\r\n\r\n", ("--at", "9999-12-31T23:59:59-23:59"), "--at takes UNIX seconds"),
        (b"GET / HTTP/1.1\r\nHost: a\r\n\r\n", ("--ip", "not-an-ip"), "is not an IP address"),
        (b"GET / HTTP/1.1\r\nHost: a\r\n\r\n", ("192.0.2.1",), "give its address with --ip"),
        (b"GET / HTTP/1.1\r\nHost: a\r\n\r\n", ("--update",), "no --file or --update"),
    ],
)
def test_bad_usage_is_one_line_and_exit_2(content: bytes, args: tuple[str, ...], said: str, tmp_path: Path) -> None:
    path = tmp_path / "request.http"
    path.write_bytes(content)
    code, _, err = verify("--request", str(path), *args)
    assert code == 2 and said in err and len(err.strip().splitlines()) == 1, err


def test_usage_without_a_request(tmp_path: Path) -> None:
    for args, said in (
        (("192.0.2.1",), CLAIM),
        ((), CLAIM),
        (("192.0.2.1", "--agent", "Googlebot", "--ip", "192.0.2.1"), "go with --request"),
        (("--request", str(tmp_path / "missing.http")), "--request"),
    ):
        code, _, err = verify(*args)
        assert code == 2 and said in err and len(err.strip().splitlines()) == 1, (args, err)


def test_an_unsigned_request_is_not_verified(tmp_path: Path) -> None:
    path = tmp_path / "request.http"
    path.write_bytes(b"GET / HTTP/1.1\r\nHost: example.com\r\nUser-Agent: Googlebot\r\n\r\n")
    code, out, _ = verify("--request", str(path))
    assert code == 1 and "no Signature-Input or Signature field" in out
    code, found = as_json("--request", str(path), "--ip", "66.249.66.1", "--no-dns")
    assert code == 0 and found["claim"]["status"] == "verified" and found["claim"]["signature"] is None
