"""Every sample log, written from its format's documentation, read field by field."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from robotscope.syntax.logformats import BadLine, FormatError, Request, reader
from tests.logs.cases import SAMPLES, codes, lines, read

GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
GPTBOT = "GPTBot/1.1 (+https://openai.com/gptbot)"
CHROME_78 = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/78.0.3904.108 Safari/537.36"
)
FIREFOX = "Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/128.0"


def at(moment: str) -> float:
    """POSIX seconds of a UTC time written `2026-08-19 18:06:38.5`."""
    return datetime.fromisoformat(moment).replace(tzinfo=UTC).timestamp()


def request(
    number: int,
    moment: str,
    ip: str,
    method: str,
    target: str,
    *,
    host: str | None = None,
    scheme: str | None = None,
    status: int | None = None,
    user_agent: str = "",
    referer: str | None = None,
    size: int | None = None,
) -> Request:
    return Request(number, at(moment), ip, method, target, host, scheme, status, user_agent, referer, size)


EXPECTED: dict[str, list[Request | str | None]] = {
    "combined.log": [
        # Apache's documentation's own example line: local time 13:55:36 at -0700.
        request(1, "2000-10-10 20:55:36", "127.0.0.1", "GET", "/apache_pb.gif", status=200, size=2326,
                referer="http://www.example.com/start.html", user_agent="Mozilla/4.08 [en] (Win98; I ;Nav)"),
        request(2, "2026-08-19 18:06:38", "66.249.66.1", "GET", "/robots.txt", status=200, size=112,
                user_agent=GOOGLEBOT),
        # An absolute URL in the request line: its host and scheme; `%b` of 0.
        request(3, "2026-08-19 18:06:39", "2001:db8::1", "GET", "/private/a?b=1", host="www.example.com",
                scheme="http", status=403, size=0, user_agent=GPTBOT),
        "logs.bad.no-request",  # "-": a client that sent nothing (408)
        "logs.bad.request-line",  # a TLS handshake on the plain port, as nginx escapes it
        # nginx's \x22 and Apache's \" undone, UTF-8 bytes put back together; trailing fields ignored.
        request(6, "2026-08-19 18:06:42", "198.51.100.7", "GET", '/search?q="quoted"', status=200, size=5120,
                referer='https://www.example.com/?a="b"', user_agent='Mozilla/5.0 "quoted" \u2019 bot'),
    ],
    "common.log": [
        request(1, "2000-10-10 20:55:36", "127.0.0.1", "GET", "/apache_pb.gif", status=200, size=2326),
        request(2, "2026-08-19 18:06:38", "192.0.2.44", "HEAD", "/", status=304, size=0),
    ],
    "vhost_combined.log": [
        request(1, "2026-08-19 18:06:38", "66.249.66.1", "GET", "/robots.txt", host="www.example.com",
                scheme="https", status=200, size=112, user_agent=GOOGLEBOT),
        request(2, "2026-08-19 18:06:39", "192.0.2.10", "GET", "/cart", host="shop.example.org", scheme="http",
                status=302, size=0, user_agent="curl/8.5.0"),
    ],
    "nginx_compression.log": [
        request(1, "2026-08-19 18:06:38", "192.0.2.1", "GET", "/index.html", status=200, size=1532,
                user_agent="Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"),
        request(2, "2026-08-19 18:06:39", "192.0.2.2", "POST", "/api/v1/items", status=201, size=87,
                referer="https://www.example.com/app", user_agent="ClaudeBot/1.0; +claudebot@anthropic.com"),
    ],
    "nginx_custom.log": [
        request(1, "2026-08-19 18:06:38", "66.249.66.1", "GET", "/private/report.pdf?id=7", host="www.example.com",
                scheme="https", status=403, size=0, user_agent=GOOGLEBOT),
        # 20:06:39 at +02:00; an empty User-Agent.
        request(2, "2026-08-19 18:06:39", "192.0.2.30", "HEAD", "/", host="api.example.com", scheme="http",
                status=200, size=0),
    ],
    "apache_custom.log": [
        request(1, "2026-08-19 18:06:38.123", "66.249.66.1", "GET", "/private/a?x=1", host="www.example.com",
                scheme="https", status=403, size=0, user_agent=GOOGLEBOT),
        request(2, "2026-08-19 18:06:39.004", "2001:db8::7", "GET", "/", host="www.example.com", status=200,
                size=5120, referer="https://www.example.com/start", user_agent=FIREFOX),
    ],
    "caddy.json": [
        # client_ip (the client behind a trusted proxy), not remote_ip; tls: https; headers as lists.
        request(1, "2026-08-19 18:06:38.193625", "66.249.66.1", "GET", "/private/a?b=1", host="www.example.com",
                scheme="https", status=403, size=99, referer="https://www.example.com/", user_agent=GOOGLEBOT),
        # ts as ISO text; no client_ip (Caddy before 2.7); no tls: http; no User-Agent header: empty.
        request(2, "2026-08-19 18:06:39.5", "192.0.2.77", "GET", "/robots.txt", host="example.org:8080",
                scheme="http", status=200, size=68),
    ],
    "cloudfront.log": [
        None,
        None,
        request(3, "2019-12-04 21:02:31", "192.0.2.100", "GET", "/index.html", host="d111111abcdef8.cloudfront.net",
                scheme="https", status=200, size=392, user_agent=CHROME_78),
        # x-host-header, not cs(Host); path and query decoded once; the User-Agent was encoded twice.
        request(4, "2019-12-13 22:36:27", "192.0.2.200", "GET", "/private/file%20name.pdf?a=1&b=%22x%22",
                host="www.example.com", scheme="http", status=502, size=900, referer="http://www.example.com/",
                user_agent=GOOGLEBOT),
        None,
        None,
        # Read by the second header: other columns, other order; status 000: no response.
        request(7, "2019-12-14 00:00:01", "2001:db8::5", "GET", "/robots.txt", host="www.example.com",
                scheme="https", user_agent=GPTBOT),
    ],
    "alb.log": [
        request(1, "2018-07-02 22:22:48.364", "192.168.131.39", "GET", "/", host="www.example.com", scheme="http",
                status=200, size=366, user_agent="curl/7.46.0"),
        # The port after the User-Agent grows the line: ignored; request_creation_time is the time.
        request(2, "2018-07-02 22:22:48.364", "192.168.131.39", "GET", "/private/?a=b", host="www.example.com",
                scheme="https", status=200, size=57, user_agent=GOOGLEBOT),
        # An IPv6 client without brackets; a port that is not the scheme's default is kept.
        request(3, "2018-07-02 22:22:48.364", "2001:db8:4538:1:bcf4:5264:e01c:f215", "GET", "/",
                host="10.0.2.105:773", scheme="https", status=200, size=257, user_agent="curl/7.46.0"),
        request(4, "2018-11-30 22:22:48.364", "192.168.131.39", "GET", "/", host="www.example.com", scheme="http",
                status=502, size=366, user_agent="curl/7.46.0"),
        "logs.bad.request-line",  # a malformed request, as ALB logs it
        # Classic Load Balancer: no type field, no request_creation_time.
        request(6, "2015-05-13 23:39:43.945958", "192.168.131.39", "GET", "/", host="www.example.com",
                scheme="http", status=200, size=29, user_agent="curl/7.38.0"),
    ],
    "cloudflare.json": [
        request(1, "2026-08-19 18:06:38.123456789", "66.249.66.1", "GET", "/private/a?b=1", host="www.example.com",
                scheme="https", status=403, size=1024, user_agent=GOOGLEBOT),
        # EdgeStartTimestamp as RFC 3339 text (the job's timestamp_format); an empty User-Agent.
        request(2, "2026-08-19 18:06:39", "2001:db8::9", "HEAD", "/robots.txt", host="example.com", scheme="http",
                status=200, size=310, referer="https://example.com/"),
    ],
    "iis.log": [
        None,
        None,
        None,
        None,
        # `+` for a space, `++` for a space and a plus; port 443: https; `-` query: none.
        request(5, "2026-08-19 18:06:38", "66.249.66.1", "GET", "/robots.txt", scheme="https", status=200,
                user_agent=GOOGLEBOT),
        request(6, "2026-08-19 18:06:39", "203.0.113.5", "GET", "/private/a.aspx?id=7&x=1", scheme="http",
                status=404, referer="https://www.example.com/",
                user_agent="Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
                "Chrome/124.0 Safari/537.36"),
        None,
        None,
        None,
        None,
        # After a configuration change: another header, with cs-host and sc-bytes.
        request(11, "2026-08-19 19:00:01", "2001:db8::2", "POST", "/login", host="www.example.com", status=302,
                size=512, user_agent="curl/8.5.0"),
    ],
    "fastly.json": [
        # The New Relic endpoint's default template: `request` is the method, time in GMT without an offset.
        request(1, "2026-08-19 18:06:38", "66.249.66.1", "GET", "/private/a?b=1", host="www.example.com",
                scheme="https", user_agent=GOOGLEBOT),
        # The "useful formats" JSON template.
        request(2, "2026-08-19 18:06:39", "192.0.2.8", "GET", "/", host="example.com", status=200, size=5120,
                referer="https://www.example.com/start", user_agent=FIREFOX),
    ],
    "fastly_common.log": ["logs.bad.fastly-clf"],
    "jsonl.json": [
        request(1, "2026-08-19 18:06:38.5", "66.249.66.1", "GET", "/private/a?b=1", host="www.example.com",
                scheme="https", status=403, size=1024, user_agent=GOOGLEBOT),
        "logs.bad.missing",  # no User-Agent where the mapping says it is
    ],
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_sample_reads_field_by_field(name: str) -> None:
    got = read(name)
    expected = EXPECTED[name]
    assert len(got) == len(expected)
    for found, wanted in zip(got, expected, strict=True):
        if isinstance(wanted, Request):
            assert isinstance(found, Request)
            assert found._replace(time=None) == wanted._replace(time=None)
            assert found.time == pytest.approx(wanted.time, abs=1e-6)
        elif wanted is None:
            assert found is None
        else:
            assert isinstance(found, BadLine) and found.reason.code == wanted


def test_every_bad_line_of_the_samples_says_why_on_one_line_in_both_languages() -> None:
    for name in SAMPLES:
        for found in read(name):
            if isinstance(found, BadLine):
                for lang in ("en", "ko"):
                    text = found.reason.render(lang)
                    assert text and "\n" not in text and "{" not in text


def test_a_bad_line_quotes_what_it_could_not_read() -> None:
    garbage = read("combined.log")[4]
    assert isinstance(garbage, BadLine) and garbage.number == 5
    assert garbage.reason.render() == (
        r"the request line `\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03` is not METHOD TARGET PROTOCOL"
    )
    missing = read("jsonl.json")[1]
    assert isinstance(missing, BadLine)
    assert missing.reason.render() == "the JSON object has no `req.headers.User-Agent`"
    assert missing.reason.render("ko") == "JSON 객체에 `req.headers.User-Agent` 항목이 없습니다"


def test_a_common_log_reads_when_no_user_agent_is_asked_for_and_the_audit_refuses_it() -> None:
    assert codes(read("common.log")) == ["request", "request"]
    with pytest.raises(FormatError) as refused:
        reader("common")
    assert refused.value.reason.render() == (
        "the common format does not log the User-Agent: the audit needs the time, the client address, "
        "the request and the User-Agent of every request"
    )


def test_lines_of_other_formats_mixed_in_are_bad_lines_and_the_rest_reads() -> None:
    mixed = [lines(name)[-1] for name in ("combined.log", "caddy.json", "alb.log", "cloudflare.json")]
    mixed += [lines("combined.log")[1], "", lines("iis.log")[-1]]
    for name, own in (("combined", [0, 4]), ("caddy", [1]), ("alb", [2]), ("cloudflare", [3])):
        got = reader(name)
        found = codes([got.read(number, line) for number, line in enumerate(mixed, 1)])
        assert [i for i, code in enumerate(found) if code == "request"] == own
        assert found[5] is None  # a blank line is nothing, in every format
        assert all(code.startswith("logs.bad.") for i, code in enumerate(found) if i not in (*own, 5) and code)


def test_a_fields_header_in_force_names_the_columns_and_one_lacking_some_is_said() -> None:
    w3c = reader("w3c")
    row = "2026-08-19 18:06:38 GET / 192.0.2.1 Bot/1.0"
    before = w3c.read(1, row)
    assert isinstance(before, BadLine) and before.reason.render() == (
        "a line before any #Fields: header, which names the columns"
    )
    lacking = w3c.read(2, "#Fields: date time cs-method cs-uri-stem")
    assert isinstance(lacking, BadLine) and lacking.reason.render() == (
        "this #Fields: header has no column for the client address or the User-Agent, which the audit needs"
    )
    under = w3c.read(3, row)
    assert isinstance(under, BadLine) and under.reason.render() == (
        "under the #Fields: header of line 2, which lacks columns the audit needs"
    )
    assert w3c.read(4, "#Fields: date time cs-method cs-uri-stem c-ip cs(User-Agent)") is None
    assert isinstance(w3c.read(5, row), Request)
    short = w3c.read(6, "2026-08-19 18:06:38 GET /")
    assert isinstance(short, BadLine) and short.reason.render() == "4 columns where the #Fields: header needs 6"
    # CloudFront's lines before any header are read by its documented columns.
    cloudfront = reader("cloudfront")
    assert isinstance(cloudfront.read(1, lines("cloudfront.log")[2]), Request)
