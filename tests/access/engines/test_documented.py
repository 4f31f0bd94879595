"""The `bing`, `naver` and `yandex` readings, one row per documented behaviour, each with its source.

Every row names the document its behaviour comes from (`source`, a URL the
engine's module docstring and `Engine.sources` cite) and how firmly
(`status`: `settled` by the operator's text, `inferred` from it, or
`rfc9309` where no document says anything and RFC 9309 is followed). Each
row asserts the engine's verdict and deciding line, and the `rfc9309`
verdict and line beside it, so the rows where the operator differs from RFC
9309 show both answers.
"""

from __future__ import annotations

import importlib
from typing import NamedTuple

import pytest

from robotscope import parse
from robotscope.access.engines import bing, naver, yandex
from robotscope.access.engines.registry import PROFILED, engine, fetch_policy, names, operator_engine
from robotscope.access.policy import POLICIES, Outcome, decide
from robotscope.messages import LANGS, catalogue, message
from robotscope.syntax.model import Reason
from robotscope.syntax.parser import MAX_BYTES

RFC = "https://www.rfc-editor.org/rfc/rfc9309.html"

# Bing
B_2008 = (
    "http://www.bing.com/blogs/site_blogs/b/webmaster/archive/2008/06/03/"
    "robots-exclusion-protocol-joining-together-to-provide-better-documentation.aspx"
)
B_2008_TABLE = "https://webmasters.googleblog.com/2008/06/improving-on-robots-exclusion-protocol.html"
B_2010 = "https://blogs.bing.com/webmaster/September-2010/Bingbot-is-coming-to-town"
B_2012 = "https://blogs.bing.com/webmaster/2012/05/03/to-crawl-or-not-to-crawl-that-is-bingbots-question"
B_DUBUT = (
    "https://thrivesearch.com/robots-txt-tip-from-bing-include-all-relevant-directives-if-you-have-a-bingbot-section/"
)
B_HELP = "https://www.boldtechinfo.com/how-to-create-a-bing-robots-txt-file/"

# Naver
N_TABLE = "https://blog.chulgil.me/robots-txt-seoljeonghagi"
N_EXAMPLE = (
    "https://query.tistory.com/entry/robotstxt-%EA%B8%B0%EB%B3%B8%EC%84%A4%EC%A0%95%EA%B0%92-snippet?category=962915"
)
N_NAVER_COM = "https://minsup.gnuok.com:443/15sir/so_ok365/7871?page=16"
N_OLD_HELP = "http://adminplay.com/LETC/8449"

# Yandex
Y_FILE = "https://yandex.com/support/webmaster/controlling-robot/robots-txt.html"
Y_AGENT = "https://yandex.com/support/webmaster/en/robot-workings/user-agent"
Y_AGENT_RU = "https://yandex.ru/support/webmaster/robot-workings/user-agent.html"
Y_RULES = "https://yandex.com/support/webmaster/robot-workings/allow-disallow.html"
Y_SORTED = "https://qna.habr.com/user/kopcap_va/tag_answers?tag=robots.txt"
Y_ERRORS = "https://yandex.com/support/webmaster/en/error-dictionary/robots-txt.md"
Y_CLEAN = "https://yandex.ru/support/webmaster/en/robot-workings/clean-param"
Y_DELAY = "https://www.yandex.com/support/webmaster/en/robot-workings/crawl-delay.md"

BINGBOT_UA = (
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) "
    "Chrome/W.X.Y.Z Safari/537.36"
)
YANDEXBOT_UA = "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)"
YETI_UA = "Mozilla/5.0 (compatible; Yeti/1.1; +https://naver.me/spd)"


def padded(head: str, size: int, tail: str = "") -> str:
    """`head`, one comment line, then `tail`: `size` bytes in all (ASCII)."""
    filler = size - len(head) - len(tail) - 1
    assert filler > 1
    return head + "#" * filler + "\n" + tail


# The example file of Yandex's User-agent page (its comments left out).
YANDEX_EXAMPLE = (
    "User-agent: YandexBot\nDisallow: /*id=\n\n"
    "User-agent: Yandex\nDisallow: /*sid=\n\n"
    "User-agent: *\nDisallow: /cgi-bin\n"
)
OVER_LIMIT = padded("User-agent: *\nDisallow: /\n", MAX_BYTES + 1)
AT_LIMIT = padded("User-agent: *\nDisallow: /\n", MAX_BYTES)
LATE_RULE = padded("User-agent: *\nDisallow: /early\n", MAX_BYTES + 100, tail="Disallow: /late\n")
MSNBOT_AND_STAR = "User-agent: *\nDisallow: /\n\nUser-agent: msnbot\nDisallow: /mail/\n"


class Row(NamedTuple):
    id: str
    engine: str
    robots: str
    agent: str
    url: str
    allowed: bool  # the engine's verdict
    rule: str | None  # the raw text of the deciding line under the engine (None: no rule decided)
    line: int | None  # its number
    default_allowed: bool  # what the front ends show by default (`rfc9309+profiles`) for the same question
    default_line: int | None
    source: str
    status: str  # settled | inferred | rfc9309
    reason: Reason | None = None  # checked when given


# fmt: off
ROWS = [
    # --- yandex -------------------------------------------------------------------------------
    Row("yandex-own-group", "yandex", YANDEX_EXAMPLE, "YandexBot", "/page?id=1",
        False, "Disallow: /*id=", 2, False, 2, Y_AGENT, "settled"),
    Row("yandex-own-group-ignores-star", "yandex", YANDEX_EXAMPLE, "YandexBot", "/cgi-bin/x",
        True, None, None, True, None, Y_AGENT_RU, "settled", Reason.NO_MATCH),
    Row("yandex-family-group", "yandex", YANDEX_EXAMPLE, "YandexImages", "/page?sid=1",
        False, "Disallow: /*sid=", 5, False, 5, Y_AGENT, "settled"),
    Row("yandex-family-group-ignores-star", "yandex", YANDEX_EXAMPLE, "YandexImages", "/cgi-bin/x",
        True, None, None, True, None, Y_AGENT, "settled", Reason.NO_MATCH),
    Row("yandex-family-full-user-agent", "yandex", "User-agent: Yandex\nDisallow: /a\n", YANDEXBOT_UA, "/a/b",
        False, "Disallow: /a", 2, False, 2, Y_AGENT, "settled"),
    Row("yandex-family-token-any-case", "yandex", "user-agent: YANDEX\ndisallow: /x\n", "YandexBot", "/x",
        False, "disallow: /x", 2, False, 2, Y_AGENT, "settled"),
    Row("yandex-star-without-family-group", "yandex", "User-agent: *\nDisallow: /private\n", "YandexBot", "/private",
        False, "Disallow: /private", 2, False, 2, Y_AGENT, "settled"),
    Row("yandex-no-group-unrestricted", "yandex", "User-agent: Googlebot\nDisallow: /\n", "YandexBot", "/",
        True, None, None, True, None, Y_AGENT, "settled", Reason.NO_GROUP),
    Row("yandex-other-robots-as-rfc", "yandex", YANDEX_EXAMPLE, "ExampleBot", "/cgi-bin/x",
        False, "Disallow: /cgi-bin", 8, False, 8, RFC, "rfc9309"),
    Row("yandex-allow-longer-prefix", "yandex", "User-agent: Yandex\nAllow: /cgi-bin\nDisallow: /\n", "YandexBot",
        "/cgi-bin/x", True, "Allow: /cgi-bin", 2, True, 2, Y_RULES, "settled"),
    Row("yandex-disallow-rest", "yandex", "User-agent: Yandex\nAllow: /cgi-bin\nDisallow: /\n", "YandexBot",
        "/other", False, "Disallow: /", 3, False, 3, Y_RULES, "settled"),
    Row("yandex-order-in-file-irrelevant", "yandex", "User-agent: Yandex\nDisallow: /\nAllow: /cgi-bin\n", "YandexBot",
        "/cgi-bin/x", True, "Allow: /cgi-bin", 3, True, 3, Y_SORTED, "settled"),
    Row("yandex-longest-disallow", "yandex", "User-agent: Yandex\nDisallow: /catalogue/private\nAllow: /catalogue\n",
        "YandexBot", "/catalogue/private/x", False, "Disallow: /catalogue/private", 2, False, 2, Y_SORTED, "settled"),
    Row("yandex-tie-allow", "yandex", "User-agent: Yandex\nDisallow: /page\nAllow: /page\n", "YandexBot", "/page",
        True, "Allow: /page", 3, True, 3, RFC, "rfc9309"),
    Row("yandex-star", "yandex", "User-agent: Yandex\nDisallow: /*sid=\n", "YandexBot", "/a/b?x=1&sid=3",
        False, "Disallow: /*sid=", 2, False, 2, Y_AGENT, "settled"),
    Row("yandex-dollar-anchors", "yandex", "User-agent: Yandex\nDisallow: /*.pdf$\n", "YandexBot", "/a.pdf",
        False, "Disallow: /*.pdf$", 2, False, 2, Y_ERRORS, "inferred"),
    Row("yandex-dollar-not-after-end", "yandex", "User-agent: Yandex\nDisallow: /*.pdf$\n", "YandexBot", "/a.pdf?x=1",
        True, None, None, True, None, Y_ERRORS, "inferred", Reason.NO_MATCH),
    Row("yandex-empty-disallow", "yandex", "User-agent: Yandex\nDisallow:\n", "YandexBot", "/x",
        True, None, None, True, None, RFC, "rfc9309", Reason.NO_MATCH),
    Row("yandex-robots-txt-implicit", "yandex", "User-agent: Yandex\nDisallow: /\n", "YandexBot", "/robots.txt",
        True, None, None, True, None, RFC, "rfc9309", Reason.ROBOTS_TXT),
    # An empty line ends a group (differs from RFC 9309).
    Row("yandex-empty-line-after-user-agent", "yandex", "User-agent: Yandex\n\nDisallow: /private\n", "YandexBot",
        "/private", True, None, None, False, 3, Y_ERRORS, "inferred", Reason.NO_MATCH),
    Row("yandex-empty-line-inside-group", "yandex", "User-agent: Yandex\nDisallow: /a\n\nDisallow: /b\n", "YandexBot",
        "/b", True, None, None, False, 4, Y_RULES, "inferred", Reason.NO_MATCH),
    Row("yandex-rules-before-empty-line-kept", "yandex", "User-agent: Yandex\nDisallow: /a\n\nDisallow: /b\n",
        "YandexBot", "/a", False, "Disallow: /a", 2, False, 2, Y_RULES, "inferred"),
    Row("yandex-empty-line-between-user-agents", "yandex",
        "User-agent: YandexBot\n\nUser-agent: Yandex\nDisallow: /x\n",
        "YandexBot", "/x", True, None, None, False, 4, Y_ERRORS, "inferred", Reason.NO_MATCH),
    Row("yandex-comment-line-ends-nothing", "yandex", "User-agent: Yandex\n# for every Yandex robot\nDisallow: /b\n",
        "YandexBot", "/b", False, "Disallow: /b", 3, False, 3, Y_RULES, "inferred"),
    # Past 500 KB the file is not read at all (differs from RFC 9309, which reads the first 500 KiB).
    Row("yandex-over-size-limit-open", "yandex", OVER_LIMIT, "YandexBot", "/x",
        True, None, None, False, 2, Y_FILE, "settled", Reason.NO_GROUP),
    Row("yandex-at-size-limit-read", "yandex", AT_LIMIT, "YandexBot", "/x",
        False, "Disallow: /", 2, False, 2, Y_FILE, "inferred"),
    # Records that are not rules.
    Row("yandex-clean-param-not-a-rule", "yandex", "User-agent: Yandex\nClean-param: ref /some_dir/get_book.pl\n",
        "YandexBot", "/some_dir/get_book.pl?ref=site_1&book_id=123", True, None, None, True, None, Y_CLEAN, "settled",
        Reason.NO_MATCH),
    Row("yandex-crawl-delay-not-a-rule", "yandex",
        "User-agent: Yandex\nCrawl-delay: 5\nDisallow: /tmp\n\nUser-agent: *\nDisallow: /\n",
        "YandexBot", "/x", True, None, None, True, None, Y_DELAY, "settled", Reason.NO_MATCH),
    # A group of records only ends at the empty line; under RFC 9309 the `*` line joins it, rules and all.
    Row("yandex-record-only-group-ends-at-empty-line", "yandex",
        "User-agent: Yandex\nCrawl-delay: 5\n\nUser-agent: *\nDisallow: /\n",
        "YandexBot", "/x", True, None, None, False, 5, Y_ERRORS, "inferred", Reason.NO_MATCH),
    # --- bing -----------------------------------------------------------------------------------
    Row("bing-own-group-replaces-star", "bing",
        "User-agent: *\nDisallow: /private\n\nUser-agent: bingbot\nDisallow: /cart\n",
        "bingbot", "/private", True, None, None, True, None, B_DUBUT, "settled", Reason.NO_MATCH),
    Row("bing-own-group-rules", "bing", "User-agent: *\nDisallow: /private\n\nUser-agent: bingbot\nDisallow: /cart\n",
        "bingbot", "/cart/1", False, "Disallow: /cart", 5, False, 5, B_HELP, "settled"),
    Row("bing-crawl-delay-kept-by-own-group", "bing",
        "User-agent: bingbot\nCrawl-delay: 10\nDisallow: /cart\n\nUser-agent: *\nDisallow: /\n",
        "bingbot", "/x", True, None, None, True, None, B_DUBUT, "settled", Reason.NO_MATCH),
    # Group formation is RFC 9309's: a section of records only does not end the run of user-agent lines.
    Row("bing-crawl-delay-only-section-joins-next", "bing",
        "User-agent: bingbot\nCrawl-delay: 10\n\nUser-agent: *\nDisallow: /\n",
        "bingbot", "/x", False, "Disallow: /", 5, False, 5, RFC, "rfc9309"),
    # bingbot still obeys msnbot groups (differs from RFC 9309).
    Row("bing-msnbot-group-obeyed", "bing", "User-agent: msnbot\nDisallow: /mail/\n", "bingbot", "/mail/inbox",
        False, "Disallow: /mail/", 2, True, None, B_2010, "settled"),
    Row("bing-msnbot-group-full-user-agent", "bing", "User-agent: msnbot\nDisallow: /mail/\n", BINGBOT_UA,
        "/mail/inbox", False, "Disallow: /mail/", 2, True, None, B_2010, "settled"),
    Row("bing-msnbot-group-over-star", "bing", MSNBOT_AND_STAR, "bingbot", "/x",
        True, None, None, False, 2, B_2010, "inferred", Reason.NO_MATCH),
    Row("bing-msnbot-rule-over-star", "bing", MSNBOT_AND_STAR, "bingbot", "/mail/x",
        False, "Disallow: /mail/", 5, False, 2, B_2010, "inferred"),
    Row("bing-bingbot-group-over-msnbot", "bing",
        "User-agent: bingbot\nDisallow: /mail/\n\nUser-agent: msnbot\nDisallow: /mail/\nDisallow: /admin/\n",
        "bingbot", "/admin/x", True, None, None, True, None, B_2010, "settled", Reason.NO_MATCH),
    Row("bing-other-crawlers-no-msnbot", "bing", "User-agent: msnbot\nDisallow: /\n", "adidxbot", "/",
        True, None, None, True, None, B_2010, "inferred", Reason.NO_GROUP),
    Row("bing-star-wildcard", "bing", "User-agent: bingbot\nDisallow: /*?sessionid=\n", "bingbot", "/a?sessionid=1",
        False, "Disallow: /*?sessionid=", 2, False, 2, B_2008_TABLE, "settled"),
    Row("bing-dollar-wildcard", "bing", "User-agent: bingbot\nDisallow: /*.pdf$\n", "bingbot", "/x.pdf",
        False, "Disallow: /*.pdf$", 2, False, 2, B_2008_TABLE, "settled"),
    Row("bing-dollar-end-only", "bing", "User-agent: bingbot\nDisallow: /*.pdf$\n", "bingbot", "/x.pdf?page=2",
        True, None, None, True, None, B_2008_TABLE, "settled", Reason.NO_MATCH),
    Row("bing-allow-inside-disallow", "bing", "User-agent: bingbot\nDisallow: /folder/\nAllow: /folder/page.html\n",
        "bingbot", "/folder/page.html", True, "Allow: /folder/page.html", 3, True, 3, B_2008, "settled"),
    Row("bing-order-as-rfc", "bing", "User-agent: bingbot\nAllow: /folder/page.html\nDisallow: /folder/\n",
        "bingbot", "/folder/other.html", False, "Disallow: /folder/", 3, False, 3, RFC, "rfc9309"),
    Row("bing-tie-as-rfc", "bing", "User-agent: bingbot\nDisallow: /page\nAllow: /page\n", "bingbot", "/page",
        True, "Allow: /page", 3, True, 3, RFC, "rfc9309"),
    Row("bing-missing-file-allows", "bing", "", "bingbot", "/anything",
        True, None, None, True, None, B_2012, "settled", Reason.NO_GROUP),
    Row("bing-size-limit-as-rfc-early", "bing", LATE_RULE, "bingbot", "/early",
        False, "Disallow: /early", 2, False, 2, RFC, "rfc9309"),
    Row("bing-size-limit-as-rfc-late", "bing", LATE_RULE, "bingbot", "/late",
        True, None, None, True, None, RFC, "rfc9309", Reason.NO_MATCH),
    # --- naver ----------------------------------------------------------------------------------
    Row("naver-standard-rules", "naver", "User-agent: Yeti\nDisallow: /private/\n", "Yeti", "/private/x",
        False, "Disallow: /private/", 2, False, 2, N_TABLE, "inferred"),
    Row("naver-own-group-replaces-star", "naver", "User-agent: *\nDisallow: /\n\nUser-agent: Yeti\nAllow: /\n", "Yeti",
        "/x", True, "Allow: /", 5, True, 5, N_OLD_HELP, "inferred"),
    Row("naver-full-user-agent", "naver", "User-agent: yeti\nDisallow: /private/\n", YETI_UA, "/private/x",
        False, "Disallow: /private/", 2, False, 2, N_EXAMPLE, "inferred"),
    Row("naver-root-page-only-root", "naver", "User-agent: *\nDisallow: /\nAllow: /$\n", "Yeti", "/",
        True, "Allow: /$", 3, True, 3, N_EXAMPLE, "inferred"),
    Row("naver-root-page-only-rest", "naver", "User-agent: *\nDisallow: /\nAllow: /$\n", "Yeti", "/news",
        False, "Disallow: /", 2, False, 2, N_NAVER_COM, "inferred"),
    Row("naver-naverbot-group-not-for-yeti", "naver", "User-agent: NaverBot\nDisallow: /\n", "Yeti", "/",
        True, None, None, True, None, N_OLD_HELP, "rfc9309", Reason.NO_GROUP),
    Row("naver-missing-file-allows", "naver", "", "Yeti", "/anything",
        True, None, None, True, None, N_OLD_HELP, "inferred", Reason.NO_GROUP),
    Row("naver-star-as-rfc", "naver", "User-agent: Yeti\nDisallow: /*?q=\n", "Yeti", "/search?q=1",
        False, "Disallow: /*?q=", 2, False, 2, RFC, "rfc9309"),
    Row("naver-tie-as-rfc", "naver", "User-agent: Yeti\nDisallow: /page\nAllow: /page\n", "Yeti", "/page",
        True, "Allow: /page", 3, True, 3, RFC, "rfc9309"),
    Row("naver-size-limit-as-rfc", "naver", LATE_RULE, "Yeti", "/late",
        True, None, None, True, None, RFC, "rfc9309", Reason.NO_MATCH),
]
# fmt: on

MODULES = {
    "bing": "robotscope.access.engines.bing",
    "naver": "robotscope.access.engines.naver",
    "yandex": "robotscope.access.engines.yandex",
}


@pytest.mark.parametrize("row", ROWS, ids=[row.id for row in ROWS])
def test_row(row: Row) -> None:
    robots = parse(row.robots)
    got = robots.verdict(row.agent, row.url, row.engine)
    assert (got.allowed, got.line) == (row.allowed, row.line)
    if row.line is None:
        assert got.rule is None
    else:
        assert got.rule is not None and got.rule.line == row.line
        assert robots.line(row.line).raw == row.rule
    if row.reason is not None:
        assert got.reason is row.reason
    shown = robots.verdict(row.agent, row.url, PROFILED)
    assert (shown.allowed, shown.line) == (row.default_allowed, row.default_line)


@pytest.mark.parametrize("row", ROWS, ids=[row.id for row in ROWS])
def test_row_cites_a_source_of_its_engine(row: Row) -> None:
    assert row.status in ("settled", "inferred", "rfc9309")
    # Where RFC 9309 is followed, the row cites RFC 9309 (or the operator's text that is silent).
    assert row.status != "rfc9309" or row.source in (RFC, N_OLD_HELP)
    docstring = importlib.import_module(MODULES[row.engine]).__doc__ or ""
    assert row.source in docstring
    assert row.source in engine(row.engine).sources


def test_every_engine_has_rows_and_the_documented_differences_show() -> None:
    assert {row.engine for row in ROWS} == {"bing", "naver", "yandex"}
    differs = {row.id for row in ROWS if (row.allowed, row.line) != (row.default_allowed, row.default_line)}
    assert differs == {
        "yandex-empty-line-after-user-agent",
        "yandex-empty-line-inside-group",
        "yandex-empty-line-between-user-agents",
        "yandex-over-size-limit-open",
        "yandex-record-only-group-ends-at-empty-line",
        "bing-msnbot-group-obeyed",
        "bing-msnbot-group-full-user-agent",
        "bing-msnbot-group-over-star",
        "bing-msnbot-rule-over-star",
    }


def test_size_limit_fixtures_are_what_they_say() -> None:
    assert parse(OVER_LIMIT).size == MAX_BYTES + 1 and parse(OVER_LIMIT).truncated
    assert parse(AT_LIMIT).size == MAX_BYTES and not parse(AT_LIMIT).truncated
    late = parse(LATE_RULE)
    assert late.truncated and all(rule.pattern != "/late" for group in late.groups for rule in group.rules)


def test_yandex_reads_clean_param_as_a_record_of_its_group() -> None:
    # Source: https://yandex.ru/support/webmaster/en/robot-workings/clean-param (settled: not an access rule).
    robots = parse("User-agent: Yandex\nClean-param: ref /some_dir/get_book.pl\nDisallow: /tmp\n\nDisallow: /lost\n")
    (group,) = yandex.ENGINE.read(robots).groups
    assert group.agents == ("yandex",)
    assert [rule.pattern for rule in group.rules] == ["/tmp"]  # /lost stands after an empty line
    assert [(record.key, record.line, record.group) for record in group.records] == [("clean-param", 2, 0)]


def test_yandex_over_the_limit_reads_no_group() -> None:
    # Source: https://yandex.com/support/webmaster/controlling-robot/robots-txt.html ("open for indexing").
    parsed = yandex.ENGINE.read(parse(OVER_LIMIT))
    assert parsed.groups == () and parsed.size == MAX_BYTES + 1


def test_yandex_keeps_its_reading_on_the_file() -> None:
    robots = parse(YANDEX_EXAMPLE)
    first = robots.reading("yandex", yandex.ENGINE.read)
    robots.verdict("YandexBot", "/x", "yandex")
    assert robots.reading("yandex", yandex.ENGINE.read) is first


def test_registry_and_operators() -> None:
    assert {"bing", "naver", "yandex"} <= set(names())
    assert engine("bing") is bing.ENGINE
    assert engine("naver") is naver.ENGINE
    assert engine("yandex") is yandex.ENGINE
    assert operator_engine(BINGBOT_UA) == "bing"
    assert operator_engine(YETI_UA) == "naver"
    assert operator_engine(YANDEXBOT_UA) == "yandex"


def test_fetch_policies() -> None:
    assert (bing.ENGINE.policy, naver.ENGINE.policy, yandex.ENGINE.policy) == ("bing", "naver", "yandex")
    # The reading and its fetch policy go together, for the engine and for Yandex's crawlers by `operator`.
    assert fetch_policy("yandex") == fetch_policy("operator", YANDEXBOT_UA) == "yandex"
    assert decide(Outcome(status=503), fetch_policy("yandex")).action == "allow-all"
    assert all(e.policy in POLICIES for e in (bing.ENGINE, naver.ENGINE, yandex.ENGINE))
    # Bing: "if a robots.txt file is missing ... it will consider itself allowed anywhere" (B_2012).
    assert decide(Outcome(status=404), bing.ENGINE.policy).action == "allow-all"
    assert B_2012 in POLICIES["bing"].sources


@pytest.mark.parametrize("name", ["bing", "naver", "yandex"])
@pytest.mark.parametrize("lang", LANGS)
def test_summary_and_notes_render(name: str, lang: str) -> None:
    chosen = engine(name)
    assert chosen.notes
    for code in (f"engine.{name}.summary", *chosen.notes):
        assert code in catalogue("en") and code in catalogue(lang)
        assert message(code).render(lang)
    described = chosen.as_dict(lang)
    assert described["name"] == name and described["summary"] and len(described["notes"]) == len(chosen.notes)
    assert described["sources"] and all(s.startswith(("http://", "https://")) for s in described["sources"])


USAGE_BETWEEN_AGENTS = "User-agent: a\nContent-Usage: / train-ai=n\nUser-agent: GPTBot\nDisallow: /p\n"


def test_a_content_usage_line_ends_the_run_of_user_agents_in_every_rfc_reading_but_googles() -> None:
    # The attach draft makes Content-Usage a rule; Google's parser ends a group on Allow and
    # Disallow only (docs/differences-from-google.md, usage-rule-ends-group); legacy and protego
    # read the line as urllib.robotparser and Protego 0.7 do (a disallowed, a allowed).
    readings = parse(USAGE_BETWEEN_AGENTS).readings("a", "/p")
    assert {name: v.allowed for name, v in readings.items()} == {
        "rfc9309": True,
        "google": False,
        "bing": True,
        "naver": True,
        "yandex": True,
        "legacy": False,
        "protego": True,
    }
    usage = parse(USAGE_BETWEEN_AGENTS).verdict("a", "/p").usage
    assert usage is not None and usage.usage["train-ai"].value == "n"
    assert parse(USAGE_BETWEEN_AGENTS).verdict("GPTBot", "/x").usage is None  # a's preference, not GPTBot's
