"""Expectation files: the format, its one-line errors, and `check` naming the deciding line."""

from __future__ import annotations

import pytest

from robotscope import parse
from robotscope.reports.expect.check import check
from robotscope.reports.expect.load import ExpectationError, load_expectations
from robotscope.reports.watch.alerts import Evidence, Severity
from robotscope.reports.watch.observation import Observation

SHOP = b"""User-agent: *
Disallow: /cart/
Content-Usage: train-ai=n
Content-Signal: ai-train=no, search=yes

User-agent: GPTBot
Disallow: /

Sitemap: https://shop.example/sitemap.xml
"""

EXPECT = """
[[allow]]
agents = ["Googlebot", "bingbot"]
urls = ["/", "/products/"]

[[block]]
agent = "GPTBot"
url = "/"

[[block]]
agent = "Googlebot"
url = "/cart/x"

[served]
status = 200
content_type = "text/plain"
max_size = 512000

[[usage]]
url = "/"
train-ai = "n"

[[signal]]
url = "/products/"
ai-train = "no"

[[sitemap]]
url = "https://shop.example/sitemap.xml"
"""


def fetched(body: bytes, status: int | None = 200, content_type: str | None = "text/plain") -> Observation:
    return Observation("browser", status, content_type, {}, body)


def test_every_statement_holds_for_the_shops_file() -> None:
    expectations = load_expectations(EXPECT)
    assert [s.kind for s in expectations.statements] == [
        "allow",
        "block",
        "block",
        "served",
        "usage",
        "signal",
        "sitemap",
    ]
    assert check(expectations, fetched(SHOP)) == []


def test_a_staging_file_fails_the_allow_statements_naming_the_deciding_line() -> None:
    failed = check(load_expectations(EXPECT), fetched(b"User-agent: *\nDisallow: /\n"))
    allows = [a for a in failed if a.code == "expectAllow"]
    assert [(a.agents, a.urls) for a in allows] == [
        (("Googlebot",), ("/",)),
        (("Googlebot",), ("/products/",)),
        (("bingbot",), ("/",)),
        (("bingbot",), ("/products/",)),
    ]
    assert all(a.severity is Severity.CRITICAL and a.after == (Evidence(2, "Disallow: /"),) for a in allows)
    assert "line 2: Disallow: /" in allows[0].text() and "line 2 of the expectations" in allows[0].text()
    codes = {a.code for a in failed}
    assert codes == {"expectAllow", "expectUsage", "expectSignal", "expectSitemap"}  # GPTBot is still blocked


def test_a_block_that_no_longer_holds_names_why() -> None:
    failed = check(load_expectations('[[block]]\nagent = "GPTBot"\nurl = "/"\n'), parse(b"User-agent: *\nAllow: /\n"))
    assert [(a.code, a.severity) for a in failed] == [("expectBlock", Severity.MAJOR)]
    assert failed[0].after == (Evidence(2, "Allow: /"),)


def test_served_statements_on_a_fetch_and_on_a_local_file() -> None:
    expectations = load_expectations('[served]\nstatus = 200\ncontent_type = "text/plain"\nmax_size = 100\n')
    page = fetched(b"<html>" + b"x" * 200, 200, "text/html; charset=utf-8")
    assert [a.message.code for a in check(expectations, page)] == ["expect.served.size", "expect.served.type"]
    down = check(expectations, Observation("browser", None, None, {}, b"", failure="timeout"))
    assert "no complete answer" in down[0].text()
    local = check(expectations, parse(SHOP))
    unchecked = ("expectUnchecked", Severity.INFO)
    assert [(a.code, a.severity) for a in local] == [unchecked, ("expectServed", Severity.MAJOR), unchecked]


def test_an_unreachable_file_answers_as_the_policy_does() -> None:
    expectations = load_expectations('[[allow]]\nagent = "Googlebot"\nurl = "/"\nseverity = "minor"\n')
    failed = check(expectations, fetched(b"", 503))
    assert [(a.code, a.severity) for a in failed] == [("expectAllow", Severity.MINOR)]
    assert "unreachable" in failed[0].text()
    assert check(expectations, fetched(b"", 404)) == []  # no file: everything allowed


def test_a_statement_may_name_its_engine() -> None:
    typo = b"User-agent: *\nDissallow: /private/\n"  # Google reads the typo as a rule; RFC 9309 does not
    text = '[[allow]]\nagent = "Googlebot"\nurl = "/private/x"\nengine = "{}"\n'
    assert check(load_expectations(text.format("rfc9309")), parse(typo)) == []
    assert [a.code for a in check(load_expectations(text.format("google")), parse(typo))] == ["expectAllow"]


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ('[[allow]]\nagent = "x"\nurl = "/"\nagnet = "y"\n', "line 4: unknown key `agnet` in [allow]"),
        ('[allow]\nagent = "x"\n', "line 1: [allow] must be an array of tables: write [[allow]]"),
        ('\n\n[[alow]]\nagent = "x"\n', "line 3: unknown table or key `alow`"),
        ('[[block]]\nagent = "a"\n', "line 1: [block] needs `url` or `urls`, exactly one of them"),
        ('[[block]]\nagent = "a"\nurl = "/"\nurls = ["/b"]\n', "line 3: [block] needs `url` or `urls`"),
        ('[[block]]\nagents = []\nurl = "/"\n', "line 2: `agents` in [block] must be a non-empty list"),
        ('[[usage]]\nurl = "/"\ntrain-ai = "maybe"\n', "line 3: `train-ai` must be one of y, n"),
        ('[[usage]]\nurl = "/"\n', "line 1: [usage] states nothing to check"),
        ('[served]\nstatus = "200"\n', "line 2: `status` in [served] must be an HTTP status"),
        ("[served]\n", "line 1: [served] states nothing to check"),
        ('[[allow]]\nagent = "G"\nurl = "javascript:x"\n', "line 3: `javascript:x` is neither a path"),
        ('engine = "nope"\n', "line 1: `engine` must be one of"),
        ('[[sitemap]]\nurl = "/s.xml"\nseverity = "huge"\n', "line 3: `severity` must be one of critical"),
        ("a = [", "not valid TOML: "),
        ("", "the expectation file states nothing to check"),
        ("x" * 2_000_000, "larger than"),
    ],
)
def test_a_bad_file_gets_one_line_naming_the_line_and_key(text: str, error: str) -> None:
    with pytest.raises(ExpectationError) as raised:
        load_expectations(text)
    said = str(raised.value)
    assert said.startswith(error) or error in said, said
    assert "\n" not in said and raised.value.reason.render("ko")


def test_a_statement_asking_too_many_checks_is_refused_before_any_is_made() -> None:
    # 400 agents x 400 URLs in 12 KB: 160,000 verdicts asked by one statement.
    agents = ", ".join(f'"bot{i}"' for i in range(400))
    urls = ", ".join(f'"/p{i}"' for i in range(400))
    with pytest.raises(ExpectationError) as refused:
        load_expectations(f"[[block]]\nagents = [{agents}]\nurls = [{urls}]\n")
    assert "160,000 crawler/URL checks" in refused.value.reason.render("en")
