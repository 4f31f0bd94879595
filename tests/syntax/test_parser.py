"""The parser: lossless lines, line kinds, grouping, decoding and the size limit."""

from __future__ import annotations

import json

import pytest

from robotscope import LineKind, parse
from robotscope.syntax.parser import MAX_BYTES

FILE = """\
# top comment
Sitemap: https://example.com/a.xml
Disallow: /orphan
User-agent: Googlebot/2.1 # the version is not part of the token
user-agent: *bot
Crawl-delay: 10
Disallow: /private/  # trailing comment
Allow:
Disallow /no-colon

User-agent: *
Host: example.com
Allow: /
"""


def test_every_line_is_kept_with_number_kind_key_value_comment() -> None:
    robots = parse(FILE)
    lines = robots.lines
    assert [line.number for line in lines] == list(range(1, 14))
    assert "\n".join(line.raw for line in lines) + "\n" == FILE
    assert [line.kind for line in lines] == [
        LineKind.BLANK,
        LineKind.SITEMAP,
        LineKind.DISALLOW,
        LineKind.USER_AGENT,
        LineKind.USER_AGENT,
        LineKind.OTHER,
        LineKind.DISALLOW,
        LineKind.ALLOW,
        LineKind.INVALID,
        LineKind.BLANK,
        LineKind.USER_AGENT,
        LineKind.OTHER,
        LineKind.ALLOW,
    ]
    assert lines[0].comment == " top comment" and lines[0].key is None
    assert (lines[3].key, lines[3].value) == ("User-agent", "Googlebot/2.1")
    assert (lines[6].value, lines[6].comment) == ("/private/", " trailing comment")
    assert (lines[7].key, lines[7].value) == ("Allow", "")
    assert (lines[8].key, lines[8].value) == ("Disallow", "/no-colon")


def test_groups_sitemaps_and_records() -> None:
    robots = parse(FILE)
    first, second = robots.groups
    assert first.agents == ("googlebot",)  # `*bot` names no token
    assert first.agent_lines == (4, 5)
    assert [(r.allow, r.pattern, r.line) for r in first.rules] == [(False, "/private/", 7), (True, "", 8)]
    assert [(r.key, r.value, r.line, r.group) for r in first.records] == [("crawl-delay", "10", 6, 0)]
    assert second.agents == ("*",) and second.agent_lines == (11,)
    assert [(s.value, s.line) for s in robots.sitemaps] == [("https://example.com/a.xml", 2)]
    assert [(r.key, r.line) for r in robots.records] == [("crawl-delay", 6), ("host", 12)]
    # The orphan rule and the colon-less line belong to no group.
    assert robots.line(3).group is None and robots.line(9).group is None
    assert robots.line(7).group == 0 and robots.line(13).group == 1


def test_line_endings_cr_crlf_lf_mixed() -> None:
    robots = parse(b"User-agent: *\r\nDisallow: /a\rDisallow: /b\nDisallow: /c")
    assert [line.raw for line in robots.lines] == ["User-agent: *", "Disallow: /a", "Disallow: /b", "Disallow: /c"]
    assert [r.line for r in robots.groups[0].rules] == [2, 3, 4]


def test_text_and_overflow_text_are_the_decoded_lf_normalised_input() -> None:
    robots = parse(b"\xef\xbb\xbfUser-agent: *\r\nDisallow: /a\rDisallow: /b\n")
    assert robots.text == "User-agent: *\nDisallow: /a\nDisallow: /b\n"
    assert robots.overflow_text == ""
    big = parse(b"User-agent: *\r\n" + b"#" * MAX_BYTES + b"\r\nDisallow: /late\r\n")
    assert big.text == "User-agent: *\n" and big.overflow_text == "#" * MAX_BYTES + "\nDisallow: /late\n"


def test_a_mutable_buffer_changed_after_parsing_changes_nothing() -> None:
    # Robots keeps its input rather than a decoded copy, so it must own that input.
    buffer = bytearray(b"User-agent: *\nDisallow: /a\n")
    robots = parse(buffer)  # bytes-like input is accepted too (and copied)
    buffer[:] = b"User-agent: *\nAllow: /zzzz\n"
    assert robots.text == "User-agent: *\nDisallow: /a\n"
    assert [line.value for line in robots.lines] == ["*", "/a"]


def test_other_unicode_breaks_do_not_split_lines() -> None:
    robots = parse("User-agent: *\nDisallow: /a\u2028b\x0c\n")
    assert len(robots.lines) == 2
    assert robots.groups[0].rules[0].pattern == "/a\u2028b"


def test_bom_is_dropped_and_reported() -> None:
    robots = parse(b"\xef\xbb\xbfUser-agent: *\nDisallow: /x\n")
    assert robots.bom and robots.lines[0].kind is LineKind.USER_AGENT
    assert not robots.can_fetch("a", "/x")


def test_bytes_that_are_not_utf8_are_shown_replaced_and_matched_by_their_octets() -> None:
    # RFC 9309, Section 2.2.2 percent-encodes octets: 0xE9 is compared as %E9, not as U+FFFD.
    robots = parse(b"User-agent: *\nDisallow: /caf\xe9\nDisallow: /\xf0\x9f/x\nSitemap: https://a.example/\xff\n")
    assert robots.invalid_utf8
    first, second = robots.groups[0].rules
    assert (first.pattern, first.normalised) == ("/caf\ufffd", "/caf%E9")
    assert (second.pattern, second.normalised) == ("/\ufffd/x", "/%F0%9F/x")
    assert robots.lines[1].raw == "Disallow: /caf\ufffd" and robots.sitemaps[0].value == "https://a.example/\ufffd"
    assert not robots.can_fetch("bot", "/caf%E9") and not robots.can_fetch("bot", "/caf%e9/page")
    assert robots.can_fetch("bot", "/caf%EF%BF%BD") and robots.can_fetch("bot", "/caf\u00e9")
    assert not robots.can_fetch("bot", "/%F0%9F/x")
    json.dumps(robots.as_dict(), ensure_ascii=False).encode("utf-8")  # nothing unprintable leaks out


@pytest.mark.parametrize(
    ("data", "encoding"),
    [
        ("\ufeffUser-agent: *\nDisallow: /\n".encode("utf-16-le"), "utf-16-le"),
        ("\ufeffUser-agent: *\nDisallow: /\n".encode("utf-16-be"), "utf-16-be"),
        ("User-agent: *\nDisallow: /\n".encode("utf-16-le"), "utf-16-le"),
        ("User-agent: *\nDisallow: /\n".encode("utf-16-be"), "utf-16-be"),
        ("User-agent: *\nDisallow: /\n".encode("utf-32"), "utf-32-le"),
        ("User-agent: *\nDisallow: /\n".encode("utf-32-be"), "utf-32-be"),
        (b"User-agent: *\nDisallow: /\n", None),
        (b"User-agent: *\nDisallow: / # \x00\n", None),
    ],
)
def test_utf16_and_utf32_files_are_detected_and_read_as_crawlers_read_them(data: bytes, encoding: str | None) -> None:
    robots = parse(data)
    assert robots.encoding == encoding
    # Crawlers read UTF-8: a wide file has no readable records, so nothing is blocked.
    assert robots.can_fetch("bot", "/") is (encoding is not None)


def test_only_first_512000_bytes_are_applied_and_the_cut_line_is_dropped() -> None:
    filler = b"# " + b"x" * 97 + b"\n"  # 100 bytes a line
    head = b"User-agent: *\n" + filler * ((MAX_BYTES - 14) // 100)  # ends 86 bytes short of the limit
    data = head + b"Disallow: /cut-by-the-limit/" + b"y" * 100 + b"\nDisallow: /after\n"
    robots = parse(data)
    assert robots.truncated and robots.size == len(data)
    assert robots.groups[0].rules == ()
    assert robots.can_fetch("a", "/cut-by-the-limit/") and robots.can_fetch("a", "/after")
    assert [line.value for line in robots.overflow] == ["/cut-by-the-limit/" + "y" * 100, "/after"]
    assert robots.overflow[0].number == len(robots.lines) + 1
    assert robots.line(robots.overflow[1].number).value == "/after"


def test_a_line_ending_exactly_at_the_limit_is_kept() -> None:
    # The first line ends exactly at the limit, so no line is cut.
    data = b"#" * (MAX_BYTES - 2) + b"\r\n" + b"User-agent: *\nDisallow: /late"
    robots = parse(data)
    assert len(robots.lines) == 1 and robots.overflow[0].raw == "User-agent: *"


def test_crlf_straddling_the_limit_does_not_make_an_empty_line() -> None:
    data = b"#" * (MAX_BYTES - 1) + b"\r\nUser-agent: *\n"
    robots = parse(data)
    assert [line.raw for line in robots.overflow] == ["User-agent: *"]


def test_str_input_is_limited_by_its_utf8_size() -> None:
    text = "User-agent: *\n" + ("#" + "\u00e9" * 100 + "\n") * 3000 + "Disallow: /late\n"
    robots = parse(text)
    assert robots.size == len(text.encode("utf-8")) > MAX_BYTES
    assert robots.can_fetch("a", "/late")
    assert robots.overflow[-1].value == "/late"


def test_empty_and_whitespace_only_input() -> None:
    assert parse("").lines == () and parse(b"").groups == ()
    assert [line.kind for line in parse(" \n\t\n").lines] == [LineKind.BLANK, LineKind.BLANK]


def test_user_agent_value_star_followed_by_text_names_no_crawler() -> None:
    # RFC 9309's grammar has `*` only as a whole product token (Google's reading takes it as `*`).
    robots = parse("User-agent: * everyone\nDisallow: /x\n")
    assert robots.groups[0].agents == () and robots.can_fetch("anybot", "/x")


def test_as_dict_is_plain_data() -> None:
    data = parse(FILE).as_dict()
    assert data["groups"][0]["rules"][0] == {
        "kind": "disallow",
        "pattern": "/private/",
        "line": 7,
        "normalised": "/private/",
        "length": 9,
    }
    assert data["lines"][8]["kind"] == "invalid"


@pytest.mark.parametrize("line", ["Content-Usage: / train-ai=n", "content-signal: ai-train=no"])
def test_a_usage_preference_is_a_rule_so_the_next_user_agent_starts_a_group(line: str) -> None:
    # draft-ietf-aipref-attach-05, Section 3: `rule =/ content-usage`; RFC 9309, 2.1: a
    # user-agent line after a rule starts a new group. Content-Signal by analogy.
    robots = parse(f"User-agent: a\n{line}\nUser-agent: GPTBot\nDisallow: /p\n")
    assert [(g.agents, g.agent_lines) for g in robots.groups] == [(("a",), (1,)), (("gptbot",), (3,))]
    assert robots.groups[0].records[0].line == 2 and not robots.groups[1].records
    assert robots.can_fetch("a", "/p") and not robots.can_fetch("GPTBot", "/p")


def test_other_records_still_do_not_end_a_run_of_user_agents() -> None:
    robots = parse("User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /p\n")
    assert [g.agents for g in robots.groups] == [("a", "b")]
