"""nginx `log_format` and Apache `LogFormat`, read from the directive: quoting, fields, refusals."""

from __future__ import annotations

import pytest

from robotscope.syntax.logformats import BadLine, FormatError, Request, reader
from robotscope.syntax.logformats.apache import format_string as apache_string
from robotscope.syntax.logformats.nginx import format_string as nginx_string
from tests.logs.cases import NGINX_COMPRESSION

LINE = '192.0.2.1 - - [19/Aug/2026:18:06:38 +0000] "GET /a?b HTTP/1.1" 200 12 "-" "Bot/1.0"'


def one(name: str, directive: str, line: str) -> Request:
    found = reader(name, directive).read(1, line)
    assert isinstance(found, Request), found
    return found


def refusal(name: str, directive: str) -> str:
    with pytest.raises(FormatError) as refused:
        reader(name, directive)
    return refused.value.reason.render()


@pytest.mark.parametrize(
    ("directive", "expected"),
    [
        # nginx joins the directive's strings with nothing between them.
        (NGINX_COMPRESSION, '$remote_addr - $remote_user [$time_local] "$request" $status $bytes_sent '
                            '"$http_referer" "$http_user_agent" "$gzip_ratio"'),
        ("log_format main escape=json '$a' \"$b\" ;", "$a$b"),
        (r"log_format x '\'$a\' \"$b\" \t'", "'$a' \"$b\" \t"),
        ("log_format x $a$b;", "$a$b"),
        ("log_format x '$a' # comment\n '$b';", "$a$b"),
        ("'$a - $b'", "$a - $b"),
        ('$remote_addr "$request"', '$remote_addr "$request"'),  # the format string alone, as written
        ("combined", '$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent '
                     '"$http_referer" "$http_user_agent"'),
    ],
)  # fmt: skip
def test_nginx_reads_the_directive_as_nginx_does(directive: str, expected: str) -> None:
    assert nginx_string(directive) == expected


@pytest.mark.parametrize(
    ("directive", "expected"),
    [
        (r'LogFormat "%h %l %u %t \"%r\" %>s %b" common', '%h %l %u %t "%r" %>s %b'),
        (r'logformat "%h \"%{User-Agent}i\""', '%h "%{User-Agent}i"'),
        ('CustomLog logs/access_log "%h %t"', "%h %t"),
        ("CustomLog logs/access_log combined", '%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i"'),
        (r'"%h \"%r\""', '%h "%r"'),
        ('%h %l %u %t "%r"', '%h %l %u %t "%r"'),  # the format string alone, as written
        ("vhost_combined", '%v:%p %h %l %u %t "%r" %>s %O "%{Referer}i" "%{User-Agent}i"'),
    ],
)
def test_apache_reads_the_directive_as_apache_does(directive: str, expected: str) -> None:
    assert apache_string(directive) == expected


def test_the_stock_formats_read_as_the_combined_reader_does() -> None:
    lines = [LINE, LINE.replace('"GET /a?b HTTP/1.1"', '"GET http://h.example/x HTTP/1.0"'), LINE.replace("GET", "-")]
    fast = reader("combined")
    stock = [("nginx", "combined", ""), ("apache", "combined", ""), ("nginx", NGINX_COMPRESSION, ' "-"')]
    for name, directive, after in stock:
        custom = reader(name, directive)
        for number, line in enumerate(lines, 1):
            assert custom.read(number, line + after + " extra") == fast.read(number, line)


PARTS = [
    # Unknown variables and headers are matched and dropped.
    ("nginx", '$remote_addr [$time_local] "$request" $status "$http_user_agent" $upstream_cache_status ${msec}s',
     '192.0.2.1 [19/Aug/2026:18:06:38 +0000] "GET / HTTP/1.1" 200 "Bot/1.0" HIT 1787162798.5s',
     {"ip": "192.0.2.1", "method": "GET", "target": "/", "status": 200, "user_agent": "Bot/1.0"}),
    ("apache", r'%a "%{X-Forwarded-For}i" %t "%r" %>s "%{User-agent}i" %{cache-status}o %D %k',
     '192.0.2.1 "10.0.0.1, 10.0.0.2" [19/Aug/2026:18:06:38 +0000] "GET / HTTP/1.1" 200 "Bot/1.0" HIT 1234 0',
     {"ip": "192.0.2.1", "user_agent": "Bot/1.0"}),
    # The request from its parts.
    ("nginx", '$remote_addr [$msec] "$request_method $uri$is_args$args" $scheme $host $status "$http_user_agent"',
     '192.0.2.1 [1787162798.250] "GET /a/b?c=1" https www.example.com 301 "Bot/1.0"',
     {"time": 1787162798.25, "target": "/a/b?c=1", "scheme": "https", "host": "www.example.com"}),
    ("nginx", '$remote_addr [$msec] "$request_method $uri$is_args$args" "$http_user_agent"',
     '192.0.2.1 [1787162798] "GET /a" "Bot"', {"target": "/a"}),
    ("apache", '%h %{sec}t "%m %U%q" %{Host}i %{HTTPS}e "%{User-Agent}i"',
     '192.0.2.1 1787162798 "POST /p?x=1" www.example.com on "Bot/1.0"',
     {"time": 1787162798.0, "method": "POST", "target": "/p?x=1", "host": "www.example.com", "scheme": "https"}),
    ("nginx", '$remote_addr [$time_local] "$request_method $scheme://$host$request_uri" "$http_user_agent"',
     '192.0.2.1 [19/Aug/2026:18:06:38 +0000] "GET http://www.example.com/x?y" "Bot"',
     {"target": "/x?y", "host": "www.example.com", "scheme": "http"}),
    # The scheme: `$https` empty is plain HTTP whatever the port; else the port implies it.
    ("nginx", '$remote_addr $https $server_port [$msec] "$request" "$http_user_agent"',
     '192.0.2.1  443 [1787162798] "GET / HTTP/1.1" "Bot"', {"scheme": "http"}),
    ("nginx", '$remote_addr $server_port [$msec] "$request" "$http_user_agent"',
     '192.0.2.1 443 [1787162798] "GET / HTTP/1.1" "Bot"', {"scheme": "https"}),
    # Apache's times: since the epoch in each unit, strftime with a literal Z (UTC), names of days and months.
    ("apache", '%h %{msec}t "%r" "%{User-Agent}i"', '192.0.2.1 1787162798123 "GET / HTTP/1.1" "B"',
     {"time": 1787162798.123}),
    ("apache", '%h %{begin:usec}t "%r" "%{User-Agent}i"', '192.0.2.1 1787162798123456 "GET / HTTP/1.1" "B"',
     {"time": pytest.approx(1787162798.123456)}),
    ("apache", '%h [%{%Y-%m-%dT%H:%M:%SZ}t] "%r" "%{User-Agent}i"',
     '192.0.2.1 [2026-08-19T18:06:38Z] "GET / HTTP/1.1" "B"', {"time": 1787162798.0}),
    ("apache", '%h [%{%a %e %B %y %R:%S}t %{%z}t] "%r" "%{User-Agent}i"',
     '192.0.2.1 [Wed 19 August 26 18:06:38 +0000] "GET / HTTP/1.1" "B"', {"time": 1787162798.0}),
    # A time spread over several conversions, as Apache's documentation shows.
    ("apache", '%h [%{%d/%b/%Y %T}t.%{usec_frac}t %{%z}t] "%r" "%{User-Agent}i"',
     '192.0.2.1 [19/Aug/2026 20:06:38.000250 +0200] "GET / HTTP/1.1" "B"', {"time": pytest.approx(1787162798.00025)}),
    # Of two fields for the same thing the better is read: %a (the client, after mod_remoteip) before %h, %>s
    # (the final status) before %s, %{Host}i before %v.
    ("apache", '%h %a %s %>s %v %{Host}i %t "%r" "%{User-Agent}i"',
     '10.0.0.1 192.0.2.1 302 200 canonical.example www.example.com [19/Aug/2026:18:06:38 +0000] "GET / HTTP/1.1" "B"',
     {"ip": "192.0.2.1", "status": 200, "host": "www.example.com"}),
]  # fmt: skip


@pytest.mark.parametrize(("name", "directive", "line", "expected"), PARTS)
def test_each_field_is_read_from_the_directive_s_variables(
    name: str, directive: str, line: str, expected: dict[str, object]
) -> None:
    found = one(name, directive, line)
    assert {field: getattr(found, field) for field in expected} == expected


def test_lines_that_do_not_fit_are_bad_lines_and_extra_fields_are_tolerated() -> None:
    custom = reader("nginx", NGINX_COMPRESSION)
    assert isinstance(custom.read(1, LINE + ' "-" 0.003 HIT'), Request)
    for line in (LINE, LINE.replace("[", "("), "", "   "):
        found = custom.read(7, line)
        assert found is None if not line.strip() else isinstance(found, BadLine) and found.number == 7
    bad_time = custom.read(8, LINE.replace("19/Aug", "32/Aug") + ' "-"')
    assert isinstance(bad_time, BadLine)
    assert bad_time.reason.render() == "the time `32/Aug/2026:18:06:38 +0000` cannot be read"


@pytest.mark.parametrize(
    ("name", "directive", "message"),
    [
        ("nginx", '$remote_addr [$time_local] "$request"',
         "the nginx format does not log the User-Agent: the audit needs the time, the client address, the request "
         "and the User-Agent of every request"),
        ("apache", '%a "%{User-Agent}i"', "the apache format does not log the time or the request (method and target)"),
        ("nginx", '[$time_local] "$request_method" "$http_user_agent"',
         "the nginx format does not log the client address or the request (method and target)"),
        ("nginx", '$remote_addr$status', "`$remote_addr` and `$status` have nothing between them"),
        ("apache", '%h%l %t "%r" "%{User-Agent}i"', "`%h` and `%l` have nothing between them"),
        ("apache", '%h %{%d/%b/%Y:%T}t "%r" "%{User-Agent}i"',
         "`%{%d/%b/%Y:%T}t` writes local time without its UTC offset, which cannot be placed in time: add %z"),
        ("apache", '%h %{%Q}t "%r" "%{User-Agent}i"', "`%{%Q}t`: the time conversion `%Q` is not read"),
        ("apache", '%h %Z %t "%r" "%{User-Agent}i"', "cannot read `%Z` in the apache log format"),
        ("apache", "LogFormat", "cannot read `LogFormat` in the apache log format"),
        ("nginx", "log_format main", "cannot read `log_format main` in the nginx log format"),
        ("nginx", "log_format main 'unterminated", "cannot read `'unterminated` in the nginx log format"),
    ],
)  # fmt: skip
def test_a_format_the_audit_cannot_use_is_refused_saying_why(name: str, directive: str, message: str) -> None:
    assert refusal(name, directive).startswith(message)


def test_refusals_are_said_in_korean_too() -> None:
    with pytest.raises(FormatError) as refused:
        reader("apache", '%a "%{User-Agent}i"')
    said = refused.value.reason.render("ko")
    assert said.startswith("apache 형식에는 기록되지 않는 항목이 있습니다: 시각, 요청(메서드와 대상).")


def test_a_date_that_does_not_exist_is_a_bad_line() -> None:
    later = reader("apache", '%h [%{%d/%b/%Y %T}t %{%z}t] "%r" "%{User-Agent}i"').read(
        2, '192.0.2.1 [31/Feb/2026 20:06:38 +0200] "GET / HTTP/1.1" "B"'
    )
    assert isinstance(later, BadLine) and later.reason.code == "logs.bad.value"


def test_a_method_of_dash_is_no_request() -> None:
    parts = reader("nginx", '$remote_addr [$msec] "$request_method $request_uri" "$http_user_agent"')
    found = parts.read(4, '192.0.2.1 [1787162798] "- /" "-"')
    assert isinstance(found, BadLine) and found.reason.code == "logs.bad.no-request"
