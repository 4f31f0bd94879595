"""JSON logs: the --map syntax, how values are looked up, and what a line that is no request of it is."""

from __future__ import annotations

import json

import pytest

from robotscope.syntax.logformats import BadLine, FormatError, Request, parse_mapping, reader
from robotscope.syntax.logformats.jsonlines import JsonSpec

MAP = "time=t,ip=ip,method=m,target=u,user_agent=ua"


def read(line: object, mapping: str = MAP) -> Request | BadLine | None:
    return reader("jsonl", mapping=mapping).read(3, line if isinstance(line, str) else json.dumps(line))


def test_a_mapping_names_paths_alternatives_and_a_unit() -> None:
    spec = parse_mapping(r"time = ts:ms , ip=request.client_ip|request.remote_ip, ua=h.X\.Agent, url=req.url")
    assert spec == JsonSpec(
        "jsonl",
        {
            "time": [("ts",)],
            "ip": [("request", "client_ip"), ("request", "remote_ip")],
            "user_agent": [("h", "X.Agent")],
            "target": [("req", "url")],
        },
        "ms",
        any_case=True,  # a user may not know how a log capitalises its keys
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("ip", "`ip` is not FIELD=PATH"),
        ("ip=", "`ip=` is not FIELD=PATH"),
        ("ip=a..b", "`ip=a..b` is not FIELD=PATH"),
        ("ip=a|", "`ip=a|` is not FIELD=PATH"),
        ("address=a", "`address` is no field of a request: choose one of time, ip, method, target, query, host, "
                      "scheme, status, user_agent, referer, size"),
        ("ip=a,ip=b", "ip is mapped twice"),
        ("time=t:hours", "`hours` is no unit of time: choose one of s, ms, us, ns"),
        ("time=t:s:ms", "`s:ms` is no unit of time: choose one of s, ms, us, ns"),
    ],
)  # fmt: skip
def test_a_mapping_that_cannot_be_read_is_refused_saying_why(text: str, message: str) -> None:
    with pytest.raises(FormatError) as refused:
        parse_mapping(text)
    assert refused.value.reason.render() == message
    assert "\n" not in refused.value.reason.render("ko")


def test_a_mapping_without_the_audits_fields_is_refused_naming_them() -> None:
    with pytest.raises(FormatError) as refused:
        reader("jsonl", mapping="ip=a,method=b,target=c")
    assert refused.value.reason.render().startswith("the jsonl format does not log the time or the User-Agent:")
    with pytest.raises(FormatError) as refused:
        reader("jsonl")
    assert refused.value.reason.code == "logs.format.needs-mapping"


def test_values_are_looked_up_as_logs_write_them() -> None:
    found = read(
        {
            "t": "2026-08-19T18:06:38Z",
            "ip": "192.0.2.1",
            "m": "GET",
            "u": "https://www.example.com:8443/a?b",
            "UA": ["Bot/1.0", "second"],  # another case, and a list: its first item
            "s": "404",
            "sch": False,
        },
        MAP + ",status=s,scheme=sch",
    )
    host = "www.example.com:8443"
    assert found == Request(3, 1787162798.0, "192.0.2.1", "GET", "/a?b", host, "https", 404, "Bot/1.0")
    indexed = read({"t": 1787162798, "ip": "1", "m": "GET", "u": "/", "h": [{"ua": "A"}, {"ua": "B"}]},
                   "time=t,ip=ip,method=m,target=u,user_agent=h.1.ua")  # fmt: skip
    assert isinstance(indexed, Request) and indexed.user_agent == "B"
    line = read({"t": 1787162798, "ip": "1", "m": "GET /x?y HTTP/1.1", "ua": None, "q": "z=1"}, MAP + ",query=q")
    assert isinstance(line, Request)  # a method with a space is a whole request line; null is no value
    assert (line.method, line.target, line.user_agent) == ("GET", "/x?y", "")


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("not json", "logs.bad.json"),
        ("[1, 2]", "logs.bad.json"),
        ("[" * 5000 + "]" * 5000, "logs.bad.json"),  # nesting deeper than the parser goes
        ('{"t": 1, "ip": "1", "m": "GET", "u": "/"}', "logs.bad.missing"),  # no User-Agent key
        ('{"t": 1, "m": "GET", "u": "/", "ua": ""}', "logs.bad.missing"),
        ('{"t": 1, "ip": 7, "m": "GET", "u": "/", "ua": ""}', "logs.bad.missing"),  # an address is text
        ('{"t": "soon", "ip": "1", "m": "GET", "u": "/", "ua": ""}', "logs.bad.value"),
        ('{"t": 1, "ip": "1", "m": "G T x y", "u": "/", "ua": ""}', "logs.bad.request-line"),
        ('{"t": 1, "ip": "1", "m": "GET", "u": "/", "ua": "", "s": 999}', "logs.bad.value"),
        ('{"t": 1, "ip": "1", "m": "GET", "u": "/", "ua": "", "s": "ok"}', "logs.bad.value"),
    ],
)
def test_a_line_that_is_no_request_of_the_mapping_says_why(line: str, code: str) -> None:
    found = read(line, MAP + ",status=s")
    assert isinstance(found, BadLine) and found.number == 3 and found.reason.code == code


def test_no_status_is_none_and_blank_lines_are_nothing() -> None:
    for status in ('"-"', '""', "0", "null"):
        found = read(f'{{"t": 1, "ip": "1", "m": "GET", "u": "/", "ua": "", "s": {status}}}', MAP + ",status=s")
        assert isinstance(found, Request) and found.status is None
    assert read("   ") is None


def test_fastly_refuses_its_common_log_format_line_by_line() -> None:
    fastly = reader("fastly")
    syslog = "<134>2026-08-19T18:06:38Z cache-fra-1 service[1]: "
    for line in ('203.0.113.5 - - [19/Aug/2026:18:06:38 +0000] "GET / HTTP/1.1" 200 512', syslog + '1 - - [x] "'):
        found = fastly.read(1, line)
        assert isinstance(found, BadLine) and found.reason.code == "logs.bad.fastly-clf"
        assert "has no User-Agent" in found.reason.render() and "User-Agent가 없어" in found.reason.render("ko")


@pytest.mark.parametrize("kind", ["caddy", "cloudflare", "fastly", "jsonl"])
def test_a_lone_surrogate_escaped_in_json_is_a_replacement_character(kind: str) -> None:
    # `\ud800` is valid JSON and no character: rows written as UTF-8 (CSV, Parquet) could not hold it.
    agent, path = "GPTBot/1.1 \\udc00 (+https://openai.com/gptbot)", "/private/\\ud800x"
    lines = {
        "caddy": f'{{"ts": 1, "request": {{"client_ip": "1.2.3.4", "method": "GET", "host": "a\\ud800",'
        f' "uri": "{path}", "headers": {{"User-Agent": ["{agent}"], "Referer": ["\\udfff"]}}}}}}',
        "cloudflare": f'{{"EdgeStartTimestamp": 1, "ClientIP": "1.2.3.4", "ClientRequestMethod": "GET",'
        f' "ClientRequestURI": "{path}", "ClientRequestUserAgent": "{agent}", "ClientRequestHost": "a\\ud800"}}',
        "fastly": f'{{"timestamp": 1, "client_ip": "1.2.3.4", "request": "GET", "url": "{path}",'
        f' "request_user_agent": "{agent}", "host": "a\\ud800"}}',
        "jsonl": f'{{"t": 1, "ip": "1.2.3.4", "m": "GET", "u": "{path}", "ua": "{agent}", "h": "a\\ud800"}}',
    }
    found = reader(kind, mapping=MAP + ",host=h" if kind == "jsonl" else None).read(1, lines[kind])
    assert isinstance(found, Request), found
    assert found.user_agent == "GPTBot/1.1 \ufffd (+https://openai.com/gptbot)" and found.target == "/private/\ufffdx"
    for text in (found.ip, found.method, found.target, found.host or "", found.user_agent, found.referer or ""):
        text.encode("utf-8")  # raises for a lone surrogate
