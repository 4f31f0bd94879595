"""Telling a log's format from its first lines: each sample's own, and never one a line does not read in."""

from __future__ import annotations

import pytest

from robotscope.syntax.logformats import DETECT_LINES, FORMATS, Request, detect, directive_kind, reader
from robotscope.syntax.logformats.registry import DETECTED
from tests.logs.cases import lines

DETECTS = {
    "combined.log": "combined",
    "vhost_combined.log": "combined",
    "common.log": "common",
    "nginx_compression.log": "combined",  # the default with a field appended
    "caddy.json": "caddy",
    "cloudfront.log": "cloudfront",
    "alb.log": "alb",
    "cloudflare.json": "cloudflare",
    "iis.log": "w3c",
    "fastly.json": "fastly",
    "fastly_common.log": "common",  # then refused by `reader("common")`: no User-Agent
    # Formats that only their directive or mapping can read are not detected.
    "nginx_custom.log": None,
    "apache_custom.log": None,
    "jsonl.json": None,
}


@pytest.mark.parametrize(("name", "expected"), sorted(DETECTS.items()))
def test_each_sample_is_detected_as_its_format(name: str, expected: str | None) -> None:
    assert detect(lines(name)) == expected


def test_every_format_a_log_can_be_detected_as_has_a_sample() -> None:
    assert set(DETECTED) == {found for found in DETECTS.values() if found is not None}
    assert set(DETECTED) <= set(FORMATS)


COMBINED = '192.0.2.1 - - [19/Aug/2026:18:06:38 +0000] "GET / HTTP/1.1" 200 12 "-" "Bot/1.0"'


@pytest.mark.parametrize(
    ("first_lines", "expected"),
    [
        ([], None),
        (["", "   "], None),
        # Lines of no request only (a client that sent nothing, a TLS handshake): the format is not shown.
        ([COMBINED.replace('"GET / HTTP/1.1"', '"-"')], None),
        # ... but among requests they count as lines of the format.
        ([COMBINED, COMBINED.replace('"GET / HTTP/1.1"', '"-"'), COMBINED.replace("GET /", r"\x16\x03")], "combined"),
        # One line of another format among them: no format reads them all.
        ([COMBINED, '{"ClientIP":"192.0.2.1"}'], None),
        ([COMBINED, COMBINED[:-12]], None),  # a combined line cut short
        # Near misses: a common line with a User-Agent field missing its quote, a time with no offset.
        ([COMBINED.replace('"Bot/1.0"', '"Bot/1.0')], None),
        ([COMBINED.replace(" +0000", "")], None),
        (["#Version: 1.0", "#Fields: date time c-ip"], None),  # a header and no request
        (['{"ts":1787162798,"request":{"method":"GET","uri":"/"}}'], None),  # Caddy without the client
        (["not a log line at all"], None),
        (['{"level":"info","msg":"server running"}'], None),
    ],
)
def test_near_misses_are_not_detected(first_lines: list[str], expected: str | None) -> None:
    assert detect(first_lines) == expected


def test_detection_looks_at_the_first_lines_only_and_skips_blank_ones() -> None:
    head = ["", *([COMBINED] * DETECT_LINES)]
    assert detect([*head, "garbage after the lines looked at"]) == "combined"
    assert detect([*head[:-1], "garbage within them"]) is None


@pytest.mark.parametrize("name", sorted(name for name, found in DETECTS.items() if found is not None))
def test_a_detected_format_reads_every_line_looked_at(name: str) -> None:
    found = detect(lines(name))
    assert found is not None
    got = reader(found, needs=frozenset())
    read = [got.read(number, line) for number, line in enumerate(lines(name)[:DETECT_LINES], 1)]
    assert any(isinstance(x, Request) for x in read)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("log_format main '$remote_addr';", "nginx"),
        ('$remote_addr "$request"', "nginx"),
        (r'LogFormat "%h %l" common', "apache"),
        ('CustomLog logs/x "%h"', "apache"),
        ('%h %l %u %t "%r"', "apache"),
        ("combined", None),
    ],
)
def test_a_directive_says_which_server_it_is_for(text: str, kind: str | None) -> None:
    assert directive_kind(text) == kind
