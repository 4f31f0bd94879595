"""Captured request heads read as signed requests: the target URI, bad lines reported, bounds; and the fuzz target."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotscope.access.signatures.head import MAX_FIELDS, MAX_HEAD, read_head
from robotscope.webbotauth import verify_request
from tests.fuzz.fuzz_request_head import DIRECTORY, SEEDS, check
from tests.fuzz.harness import run_briefly
from tests.fuzz.signing import NOW


@pytest.mark.parametrize("seed", sorted(SEEDS.iterdir()), ids=lambda p: p.name)
def test_every_seed_runs_without_error(seed: Path) -> None:
    check(seed.read_bytes())


def test_the_signed_seed_verifies_in_every_layout_and_not_once_altered() -> None:
    verified = {
        seed.name
        for seed in SEEDS.iterdir()
        if (head := read_head(seed.read_bytes())).request is not None
        and verify_request(head.request, DIRECTORY, NOW).verified
    }
    # A folded or malformed line is skipped and reported; the signature covers none of them.
    assert verified == {
        "valid-crlf.http",
        "valid-lf.http",
        "leading-blank-lines.http",
        "body-after-head.http",
        "absolute-form.http",
        "folded-line.http",
        "bad-line.http",
        "pseudo-header.http",
        "latin1-value.http",
        "stray-cr.http",
    }


def test_the_target_uri_is_built_from_host_or_taken_from_an_absolute_target() -> None:
    head = read_head(b"GET /a?b=1 HTTP/1.1\r\nHost: Example.COM:8443\r\nUser-Agent: Bot/1\r\n\r\nbody")
    assert head.request is not None and head.request.target_uri == "https://Example.COM:8443/a?b=1"
    assert head.request.method == "GET" and head.user_agent == "Bot/1" and head.problems == ()
    plain = read_head(b"POST /x HTTP/1.0\nHost: a.example\n", scheme="http")
    assert plain.request is not None and plain.request.target_uri == "http://a.example/x" and plain.user_agent is None
    absolute = read_head(b"GET http://b.example/y HTTP/1.1\r\nHost: other.example\r\n\r\n")
    assert absolute.request is not None and absolute.request.target_uri == "http://b.example/y"


def test_field_values_are_trimmed_and_kept_in_order_with_repeats() -> None:
    head = read_head(b"GET / HTTP/1.1\r\nHost: a.example\r\nX-A:  1 \t\r\nx-a: 2\r\nEmpty:\r\n\r\n")
    assert head.request is not None
    assert list(head.request.headers) == [("Host", "a.example"), ("X-A", "1"), ("x-a", "2"), ("Empty", "")]


@pytest.mark.parametrize(
    ("line", "code"),
    [
        (b"Accept */*", "request.bad-line"),
        (b"Bad Name: 1", "request.bad-line"),
        (b"Name : 1", "request.bad-line"),
        (b": 1", "request.bad-line"),
        (b":authority: a.example", "request.bad-line"),
        (b"X-A: a\rb", "request.bad-line"),
        (b"  folded", "request.folded"),
        (b"\tfolded", "request.folded"),
    ],
)
def test_a_bad_field_line_is_skipped_and_reported_with_its_number(line: bytes, code: str) -> None:
    head = read_head(b"\r\nGET / HTTP/1.1\r\nHost: a.example\r\n" + line + b"\r\nX-B: 2\r\n\r\n")
    assert head.request is not None and [name for name, _ in head.request.headers] == ["Host", "X-B"]
    (problem,) = head.problems
    assert problem.code == code and problem.params["line"] == 4  # the blank line before the request line counts
    assert "line 4" in problem.render("en") and "4번째 줄" in problem.render("ko")


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"", "request.empty"),
        (b"\r\n\r\n", "request.empty"),
        (b"GET /\r\nHost: a\r\n", "request.request-line"),
        (b"GET  / HTTP/1.1\r\n", "request.request-line"),
        (b"G(T / HTTP/1.1\r\n", "request.request-line"),
        (b"GET / HTTP/2\r\n", "request.request-line"),
        (b"OPTIONS * HTTP/1.1\r\nHost: a.example\r\n", "request.target"),
        (b"CONNECT a.example:443 HTTP/1.1\r\nHost: a.example\r\n", "request.target"),
        (b"GET ftp://a.example/ HTTP/1.1\r\n", "request.target"),
        (b"GET / HTTP/1.1\r\nX: 1\r\n", "request.host"),
        (b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n", "request.host"),
        (b"GET / HTTP/1.1\r\nHost:\r\n", "request.bad-host"),
        (b"GET / HTTP/1.1\r\nHost: a.example@b.example\r\n", "request.bad-host"),
        (b"GET / HTTP/1.1\r\nHost: a.example/x\r\n", "request.bad-host"),
        (b"GET / HTTP/1.1\r\nHost: a\r\n" + b"x" * MAX_HEAD, "request.too-big"),
    ],
)
def test_a_head_that_gives_no_target_uri_is_refused_with_one_reason(data: bytes, code: str) -> None:
    head = read_head(data)
    assert head.request is None and head.fatal is not None and head.fatal.code == code
    for lang in ("en", "ko"):
        assert "{" not in head.fatal.render(lang)


def test_the_fields_read_are_bounded() -> None:
    many = b"GET / HTTP/1.1\r\nHost: a.example\r\n" + b"X-A: 1\r\n" * (MAX_FIELDS + 50) + b"\r\n"
    head = read_head(many)
    assert head.request is not None and len(head.request.headers) == MAX_FIELDS
    assert [p.code for p in head.problems] == ["request.too-many"]
    assert head.problems[0].params["line"] == MAX_FIELDS + 2


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600))
def test_any_bytes_are_read_without_raising(data: bytes) -> None:
    check(data)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(st.characters(codec="latin-1"), max_size=40), max_size=12))
def test_any_lines_after_a_request_line_are_read_without_raising(lines: list[str]) -> None:
    check(("GET / HTTP/1.1\r\nHost: a.example\r\n" + "\r\n".join(lines)).encode("latin-1"))


def test_the_target_runs_under_atheris(tmp_path: Path) -> None:
    run_briefly("tests.fuzz.fuzz_request_head", SEEDS, tmp_path, 3000)
