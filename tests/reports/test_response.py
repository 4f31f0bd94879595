"""The pasted response that carried a robots.txt: read as status and headers, judged by each policy."""

from __future__ import annotations

import json
import random
import tracemalloc
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from robotscope.access.policy import POLICIES
from robotscope.access.robots import parse
from robotscope.access.served import served_findings
from robotscope.reports.api import call
from robotscope.reports.response import (
    MAX_CHARS,
    MAX_FIELDS,
    MAX_PROBLEMS,
    MAX_RESPONSES,
    judge,
    read_response,
)

ROBOTS = parse("User-agent: *\nDisallow: /private/\n")
HTML = parse("<!doctype html>\n<html><body>Just a moment...</body></html>\n")


def actions(answer: dict[str, Any] | None) -> dict[str, str]:
    assert answer is not None
    return {name: d["action"] for name, d in answer["decisions"].items()}


def codes(answer: dict[str, Any] | None, key: str = "notes") -> list[str]:
    assert answer is not None
    return [n["code"] if key == "notes" else n["message"]["code"] for n in answer[key]]


def every(action: str) -> dict[str, str]:
    return dict.fromkeys(POLICIES, action)


def open_for_yandex(action: str) -> dict[str, str]:
    """`action` for every policy but Yandex's, for which any HTTP answer but 200 means the site is open."""
    return {**every(action), "yandex": "allow-all"}


def test_blank_text_is_no_response() -> None:
    assert judge("", ROBOTS) is None and judge(" \n\t\n", ROBOTS) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("HTTP/1.1 503 Service Unavailable\nRetry-After: 3600\n", open_for_yandex("disallow-all")),
        ("HTTP/2 429\n", open_for_yandex("disallow-all")),
        ("HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\n", every("allow-all")),
        ("HTTP/1.1 200 OK\nContent-Type: text/plain\n", every("parse")),
        ("503 Service Unavailable", open_for_yandex("disallow-all")),  # a bare status on the first line
        ("HTTP/1.1 301 Moved Permanently\nLocation: https://www.example.com/robots.txt\n", every("follow")),
        ("HTTP/1.1 301 Moved Permanently\n", every("allow-all")),  # no Location: nothing to follow
        ("HTTP/1.1 302 Found\nLocation: javascript:alert(1)\n", every("allow-all")),
        ("HTTP/1.1 100 Continue\n\nHTTP/1.1 500 Internal Server Error\n", open_for_yandex("disallow-all")),
        ("HTTP/1.1 600 Strange\n", every("disallow-all")),
    ],
)
def test_each_policy_reads_the_status_as_access_policy_does(text: str, expected: dict[str, str]) -> None:
    assert actions(judge(text, ROBOTS)) == expected


def test_a_follow_names_the_target_resolved_against_the_files_origin() -> None:
    answer = judge("HTTP/1.1 301 Moved\nLocation: /new/robots.txt\n", ROBOTS, origin="https://example.com/robots.txt")
    assert answer is not None
    assert "https://example.com/new/robots.txt" in answer["decisions"]["google"]["explanation"]
    assert answer["decisions"]["google"]["reason"]["code"] == "decision"


def test_a_redirect_chain_past_five_hops_is_exhausted_and_a_loop_is_a_loop() -> None:
    hop = "HTTP/1.1 301 Moved\nLocation: https://example.com/{n}\n\n"
    chain = "".join(hop.format(n=n) for n in range(6))
    answer = judge(chain, ROBOTS)
    assert actions(answer) == every("allow-all")
    assert answer is not None and len(answer["chain"]) == 6
    assert answer["decisions"]["rfc9309"]["reason"]["params"]["cause"].startswith("HTTP 301 after 5 redirects")
    looped = hop.format(n=1) + hop.format(n=2) + hop.format(n=1)
    assert "a loop" in judge(looped, ROBOTS)["decisions"]["rfc9309"]["explanation"]  # type: ignore[index]
    # The chain's last response decides: a 200 after redirects is parsed.
    assert actions(judge(hop.format(n=1) + "HTTP/2 200\n", ROBOTS)) == every("parse")


def test_an_html_file_with_a_200_is_read_as_each_policy_reads_html() -> None:
    answer = judge("HTTP/1.1 200 OK\nContent-Type: text/html; charset=UTF-8\n", HTML)
    assert answer is not None
    for decision in answer["decisions"].values():
        assert decision["reason"]["params"]["cause"] == "HTTP 200 with an HTML page"
    assert "may be taken as no robots.txt" in answer["decisions"]["naver"]["explanation"]
    assert codes(answer) == ["response.type"]


@pytest.mark.parametrize(
    ("content_type", "note"),
    [
        ("text/plain", None),
        ("Text/Plain; charset=utf-8", None),
        ('text/plain; charset="UTF-8"', None),
        ("text/plain; charset=iso-8859-1", "response.charset"),
        ("application/json", "response.type"),
        (None, "response.noType"),
    ],
)
def test_the_media_type_rfc_9309_requires_is_checked_on_a_2xx(content_type: str | None, note: str | None) -> None:
    header = f"Content-Type: {content_type}\n" if content_type else ""
    assert codes(judge("HTTP/1.1 200 OK\n" + header, ROBOTS)) == ([note] if note else [])
    # A 404's error page is no file: its type is not the file's.
    assert codes(judge("HTTP/1.1 404 Not Found\n" + header, ROBOTS)) == []


# The response box's note and a fetch's finding are one judgment (`access.served`), said in two voices.
_SAID_ALIKE = {
    "lint.contentType.missing": "response.noType",
    "lint.contentType.html": "response.type",
    "lint.contentType": "response.type",
    "lint.contentType.charset": "response.charset",
}


@pytest.mark.parametrize(
    "content_type",
    [
        None,
        "text/plain",
        "TEXT/PLAIN;charset=US-ASCII",
        "text/plain; charset=iso-8859-1",
        "text/plain; charset='windows-1252'",
        "text/plain; format=flowed",
        "text/html",
        "application/xhtml+xml; charset=utf-8",
        "application/json",
        "text/plain-ish",
        ";charset=utf-16",
    ],
)
@pytest.mark.parametrize("status", [200, 204, 404])
def test_the_response_box_and_a_fetch_judge_a_content_type_alike(content_type: str | None, status: int) -> None:
    header = f"Content-Type: {content_type}\n" if content_type is not None else ""
    notes = codes(judge(f"HTTP/1.1 {status} X\n" + header, ROBOTS))
    found = [f.message.code for f in served_findings(status, content_type)]
    assert notes == [_SAID_ALIKE[code] for code in found]


def test_x_robots_tag_directives_for_each_crawler() -> None:
    text = (
        "HTTP/1.1 200 OK\nContent-Type: text/plain\nX-Robots-Tag: noindex\n"
        "x-robots-tag: GoogleBot: nofollow, noarchive\nX-Robots-Tag: unavailable_after: 2030-01-01\n"
    )
    answer = judge(text, ROBOTS, agent="Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)")
    assert answer is not None
    common = ["noindex", "unavailable_after: 2030-01-01"]
    assert answer["robots_tags"] == [
        {"crawler": "bingbot", "directives": common},
        {"crawler": "googlebot", "directives": [*common, "nofollow", "noarchive"]},
        {"crawler": None, "directives": common},
    ]
    assert "response.robotsTagMeaning" in codes(answer)
    assert judge("HTTP/1.1 200 OK\nContent-Type: text/plain\n", ROBOTS)["robots_tags"] == []  # type: ignore[index]


def test_headers_without_a_status_line_are_read_and_the_status_asked_for() -> None:
    answer = judge("X-Robots-Tag: noindex\nContent-Type: text/plain\n", ROBOTS)
    assert answer is not None and answer["status"] is None and answer["decisions"] == {}
    assert codes(answer)[0] == "response.noStatus"
    assert answer["robots_tags"] == [{"crawler": None, "directives": ["noindex"]}]


def test_curl_verbose_output_and_folded_headers() -> None:
    text = (
        "*   Trying 127.0.0.1:80...\n> GET /robots.txt HTTP/1.1\n> Host: example.com\n>\n"
        "< HTTP/1.1 503 Service Unavailable\n< X-Robots-Tag: noindex,\n<   nofollow\n<\n"
    )
    answer = judge(text, ROBOTS)
    assert actions(answer) == open_for_yandex("disallow-all")
    assert answer is not None and answer["problem_count"] == 0
    assert answer["robots_tags"] == [{"crawler": None, "directives": ["noindex", "nofollow"]}]


def test_bad_lines_are_reported_with_their_number_and_the_rest_is_read() -> None:
    text = "HTTP/1.1 404 Not Found\nthis is no header\nBad Name: x\nX-Robots-Tag: noindex\n\x00\x01\x02\n"
    answer = judge(text, ROBOTS)
    assert answer is not None and actions(answer) == every("allow-all")
    assert [p["line"] for p in answer["problems"]] == [2, 3, 5]
    assert answer["problems"][2]["message"]["params"]["raw"] == "\ufffd" * 3  # never a raw control character
    assert answer["robots_tags"][-1]["directives"] == ["noindex"]


def test_a_pasted_body_is_not_read_as_headers() -> None:
    answer = judge("HTTP/1.1 200 OK\nContent-Type: text/plain\n\nUser-agent: *\nDisallow: /\n", ROBOTS)
    assert answer is not None and answer["problem_count"] == 0
    assert answer["notes"][0]["code"] == "response.body" and answer["notes"][0]["params"]["line"] == 4


def test_limits_on_size_lines_fields_and_responses() -> None:
    huge = "HTTP/1.1 200 OK\n" + "X-A: " + "a" * (MAX_CHARS * 4)
    answer = judge(huge, ROBOTS)
    assert answer is not None and codes(answer)[0] == "response.cut"
    assert codes(answer, "problems") == ["response.longLine"]
    many = "HTTP/1.1 200 OK\n" + "X-A: b\n" * (MAX_FIELDS + 5)
    pasted = read_response(many)
    assert len(pasted.responses[0].fields) == MAX_FIELDS and len(pasted.problems) == 5
    assert judge(many, ROBOTS)["problem_count"] == 5  # type: ignore[index]
    chain = "HTTP/1.1 302 Found\nLocation: /a\n\n" * (MAX_RESPONSES + 3)
    pasted = read_response(chain)
    assert len(pasted.responses) == MAX_RESPONSES and pasted.notes[0].code == "response.tooMany"


def test_a_huge_paste_is_read_in_bounded_memory() -> None:
    text = " " + "X" * (32 * 1024 * 1024) + " "  # blank at both ends: stripping it whole would copy it
    tracemalloc.start()
    try:
        answer = judge(text, ROBOTS)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert answer is not None and set(codes(answer)) == {"response.cut", "response.noStatus"}
    assert peak < 4 * MAX_CHARS * 4  # a few copies of the part read (4 bytes a character at most), not of the paste


def test_many_short_bad_lines_report_a_bounded_list() -> None:
    answer = judge("?\n" * (MAX_CHARS // 2), ROBOTS)
    assert answer is not None and len(answer["problems"]) == MAX_PROBLEMS
    assert answer["problem_count"] == MAX_CHARS // 2


@given(st.text(max_size=2000))
def test_any_text_is_read_without_raising_into_json(text: str) -> None:
    answer = judge(text, ROBOTS, agent="Googlebot")
    json.dumps(answer)
    if answer is not None:
        assert set(answer["decisions"]) in (set(), set(POLICIES))


def test_random_bytes_as_pasted_text() -> None:
    rng = random.Random(22)
    for _ in range(200):
        text = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 600))).decode("latin-1")
        json.dumps(judge("HTTP/1.1 200 OK\n" + text, ROBOTS))


def test_the_api_takes_the_response_in_analyse() -> None:
    body = {"text": "User-agent: *\nDisallow: /\n", "response": "HTTP/1.1 503 Service Unavailable\n", "lang": "ko"}
    answer = json.loads(call("analyse", json.dumps(body)))
    assert answer["status"] == 200
    decision = answer["body"]["response"]["decisions"]["google"]
    assert decision["action"] == "disallow-all" and "12" in decision["explanation"]
    assert json.loads(call("analyse", json.dumps({"text": ""})))["body"]["response"] is None
    refused = json.loads(call("analyse", json.dumps({"text": "", "response": ["HTTP/1.1 200"]})))
    assert refused["status"] == 422 and refused["body"]["error"]["code"] == "bad-field"
