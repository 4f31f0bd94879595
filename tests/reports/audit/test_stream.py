"""The audit the web page runs: a log fed in slices of any size gives what the command line gives."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotscope.reports.audit.stream import HEAD, LogAudit
from robotscope.syntax.logformats import MAX_LINE
from tests.reports.audit.builders import BUSY_FILES, busy_log, log_text

SITE = "https://shop.example"
ROBOTS = BUSY_FILES[1][1]  # GPTBot and CCBot disallowed everywhere, /private/ and /cart/ to all


def answer(text: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(text)
    return found


def body(text: str) -> Any:
    found = answer(text)
    assert found["status"] == 200, found
    return found["body"]


def audited(data: bytes, sizes: list[int], **request: Any) -> dict[str, Any]:
    """`data` fed in slices of `sizes` (the last repeated), then finished."""
    session = LogAudit()
    body(session.start(json.dumps({"robots": ROBOTS, "site": SITE, "name": "access.log", **request})))
    at, step = 0, 0
    while at < len(data):
        size = sizes[min(step, len(sizes) - 1)]
        body(session.feed(data[at : at + size]))
        at, step = at + size, step + 1
    finished: dict[str, Any] = body(session.finish())
    return finished


LOG = log_text("combined", busy_log(days=1)).encode()


def test_slices_of_any_size_give_the_same_summary_as_one_piece() -> None:
    whole = audited(LOG, [len(LOG)])
    view = whole["view"]
    assert whole["format"] == "combined" and view["requests"] == len(LOG.splitlines())
    assert view["classes"]["violation"] > 0 and view["classes"]["spoofed"] > 0 and view["bad_lines"]["count"] == 0
    assert 'class="marker"' in whole["html"] and whole["html"].startswith('<div class="audit-report"')
    for sizes in ([7], [4096], [3, 100_000, 17]):
        assert audited(LOG, sizes)["view"] == view
    assert audited(LOG[:20_000], [1])["view"] == audited(LOG[:20_000], [20_000])["view"]  # a byte at a time


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 5_000), min_size=1, max_size=8))
def test_any_slicing_gives_the_lines_of_one_piece(sizes: list[int]) -> None:
    part = LOG[:30_000] + b"\r\n\xff\xfe not a request\n"  # a CRLF line and bytes that are not UTF-8
    assert audited(part, sizes)["view"] == audited(part, [len(part)])["view"]


def test_a_line_too_long_to_hold_is_one_bad_line_wherever_the_slices_fall() -> None:
    lines = LOG.splitlines(keepends=True)
    data = b"".join([*lines[:HEAD], b"x" * (3 * MAX_LINE) + b"\n", *lines[HEAD : HEAD + 10], b"y" * MAX_LINE])
    for sizes in ([len(data)], [1000], [MAX_LINE // 3]):
        view = audited(data, sizes)["view"]
        assert view["bad_lines"]["count"] == 2 and view["requests"] == HEAD + 10
        assert [line["line"] for line in view["bad_lines"]["first"]] == [HEAD + 1, HEAD + 12]


def test_the_format_given_a_short_log_and_no_host() -> None:
    few = b"\n".join(LOG.splitlines()[:5]) + b"\n"  # fewer lines than are held to tell the format
    told = audited(few, [10])
    assert told["format"] == "combined" and told["view"]["requests"] == 5
    given_format = audited(few, [10], format="combined", site=None)
    assert given_format["view"]["requests"] == 5 and given_format["view"]["classes"]["unjudged"] == 0


def test_what_it_refuses_is_said_in_the_pages_language() -> None:
    session = LogAudit()
    assert answer(session.feed(b"x"))["status"] == 409
    assert answer(session.start("[]"))["status"] == 400 and answer(session.start("{"))["status"] == 400
    refused = answer(session.start(json.dumps({"robots": "", "site": "not a url", "lang": "ko"})))
    assert refused["status"] == 422 and "URL이 아닙니다" in refused["body"]["error"]["message"]
    refused = answer(session.start(json.dumps({"robots": "", "format": "nope"})))
    assert refused["status"] == 422 and "nope" in refused["body"]["error"]["message"]
    refused = answer(session.start(json.dumps({"robots": "x" * (1024 * 1024 + 1)})))
    assert refused["status"] == 422
    body(session.start(json.dumps({"robots": ROBOTS})))
    compressed = answer(session.feed(gzip.compress(LOG[:1000])))
    assert compressed["status"] == 422 and "compressed" in compressed["body"]["error"]["message"]
    body(session.start(json.dumps({"robots": ROBOTS, "name": "odd.log"})))
    odd = b"neither\nformat\n" * HEAD
    refused = answer(session.feed(odd))
    assert refused["status"] == 422 and "odd.log" in refused["body"]["error"]["message"]


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_report_is_in_the_language_asked(lang: str) -> None:
    html = audited(LOG[:5000], [5000], lang=lang)["html"]
    assert f'lang="{lang}"' in html and ("Server-log audit" if lang == "en" else "서버 로그 감사") in html


def test_a_custom_nginx_format_given_as_its_directive() -> None:
    directive = "log_format mine '$time_iso8601|$remote_addr|$request|$status|$http_user_agent';"
    lines = [
        "2026-11-02T10:00:00+00:00|66.249.66.1|GET /private/x HTTP/1.1|200|Googlebot/2.1",
        "2026-11-02T10:00:05+00:00|203.0.113.9|GET / HTTP/1.1|200|Googlebot/2.1",
    ]
    view = audited("\n".join(lines).encode() + b"\n", [20], log_format=directive)["view"]
    assert view["classes"]["violation"] == 1 and view["classes"]["spoofed"] == 1
    refused = answer(LogAudit().start(json.dumps({"robots": ROBOTS, "log_format": "neither", "lang": "ko"})))
    assert refused["status"] == 422 and "nginx log_format" in refused["body"]["error"]["message"]
