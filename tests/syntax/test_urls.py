"""Targets and percent-encoding normalisation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotscope.syntax.urls import _PLAIN_ORIGIN, InvalidURL, normalise, path_and_query, robots_url, target


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("/plain/path?q=1", "/plain/path?q=1"),
        ("/caf\u00e9", "/caf%C3%A9"),
        ("/caf%c3%a9", "/caf%C3%A9"),
        ("/%7Euser/%41%2d%5F%2E", "/~user/A-_."),
        ("/a%2fb", "/a%2Fb"),
        ("/a b\tc", "/a%20b%09c"),
        ("/\x7f\x00", "/%7F%00"),
        ("/100%", "/100%25"),
        ("/%zz", "/%25zz"),
        ("/%4%31", "/%2541"),
        ("/\U0001f600", "/%F0%9F%98%80"),
        ("/\ud800", "/%ED%A0%80"),  # a lone surrogate from str input still encodes
    ],
)
def test_normalise(text: str, expected: str) -> None:
    assert normalise(text) == expected
    assert normalise(expected) == expected  # idempotent


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://example.com", "/"),
        ("https://example.com/", "/"),
        ("https://example.com?q", "/?q"),
        ("https://example.com#frag", "/"),
        ("https://user:pw@example.com:8080/p/a?q=1#f", "/p/a?q=1"),
        ("//example.com/x", "/x"),
        ("/x/y?z", "/x/y?z"),
        ("/x#y", "/x"),
        ("example.com/p", "/p"),
        ("", "/"),
        ("https://example.com/a://b", "/a://b"),
        ("https://example.com;params", "/;params"),
    ],
)
def test_path_and_query(url: str, expected: str) -> None:
    assert path_and_query(url) == expected


def test_target_escapes_star_and_dollar_and_normalises() -> None:
    assert target("https://example.com/a*b$?q=%7e#frag") == "/a%2Ab%24?q=~"
    assert target("/caf\u00e9 x") == "/caf%C3%A9%20x"
    assert target("/plain") == "/plain"


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://example.com/a/b?q=1#f", "https://example.com/robots.txt"),
        ("HTTP://User:Pass@WWW.Example.COM:80/x", "http://www.example.com/robots.txt"),
        ("https://example.com:443", "https://example.com/robots.txt"),
        ("https://example.com:8443/", "https://example.com:8443/robots.txt"),
        ("http://example.com:443/", "http://example.com:443/robots.txt"),
        ("https://bücher.example/", "https://xn--bcher-kva.example/robots.txt"),
        ("http://[2001:db8::1]:8080/p", "http://[2001:db8::1]:8080/robots.txt"),
        ("http://127.0.0.1/p", "http://127.0.0.1/robots.txt"),
    ],
)
def test_robots_url(url: str, expected: str) -> None:
    assert robots_url(url) == expected


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.com/",
        "mailto:a@example.com",
        "example.com/path",
        "http:///path",
        "https://exa mple.com/",
        "http://x:99999/",
        "",
    ],
)
def test_robots_url_rejects(url: str) -> None:
    with pytest.raises(InvalidURL):
        robots_url(url)


@given(st.text(alphabet="abcXYZ019-._:/?#@[]%é", max_size=30))
@settings(max_examples=500)
def test_the_plain_origin_shortcut_accepts_only_what_robots_url_accepts(rest: str) -> None:
    # checked_url skips parsing for plain host names: it must never accept what robots_url rejects.
    for url in ("http://" + rest, "https://" + rest):
        if _PLAIN_ORIGIN.match(url):
            robots_url(url)  # raises InvalidURL if the shortcut was wrong
