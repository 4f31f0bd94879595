"""The proof: each server from Debian, run with the rules `robotscope export` writes, answers one table alike.

For every target, a session fixture exports the rules of one robots.txt
(`ROBOTS`) for the catalogue's AI crawlers and three generic names, runs the
server's own configuration check, and starts it on 127.0.0.1. The table
sends each AI crawler's real User-Agent (from the catalogue) to blocked and
allowed paths, `/robots.txt` with and without a query, innocent agents whose
strings contain a refused name (Baiduspider and `Spider`, `Not-Cursor`
and `Cursor`, Internet Explorer's `SLCC2` and `LCC`, a browser), and mixed
case; every answer is asserted, the same in every server, and matches
robotscope's own reading of the file. With `--unverified-only`, each server
lets a crawler through from its operator's addresses and refuses the same
claim from elsewhere.
"""

from __future__ import annotations

import http.client
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest
from click.testing import CliRunner

from robotscope import parse
from robotscope.access.engines.registry import PROFILED
from robotscope.cli import cli
from robotscope.reports.enforce import TARGETS, choose, claims, plan, render
from robotscope.syntax.crawlers import SELECTIONS, catalogue
from tests.conftest import Server, respond
from tests.reports.enforce.servers import Running, check, free_port, site, start, stop

pytestmark = pytest.mark.slow  # five real servers

WHOLE = ("GPTBot", "ClaudeBot", "Bytespider")  # refused everywhere
PATHS = ("PerplexityBot", "Amazonbot")  # refused under /private/ only, but for /private/open/
GENERIC = ("Spider", "Cursor", "LCC")  # names that hit innocent agents when matched as substrings
ROBOTS = (
    "".join(f"User-agent: {token}\n" for token in (*WHOLE, *GENERIC))
    + "Disallow: /\n\n"
    + "".join(f"User-agent: {token}\n" for token in PATHS)
    + "Disallow: /private/\nAllow: /private/open/\n\n"
    + "User-agent: *\nDisallow: /admin/\n"
)
AI = [c for c in catalogue() if c.purpose in SELECTIONS["ai"]]
AGENTS = ",".join([*(c.token for c in AI), *GENERIC])
PATH_LIST = ("/", "/private/x", "/private/open/x", "/admin/x", "/robots.txt", "/robots.txt?x")


class Row(NamedTuple):
    who: str
    user_agent: str
    path: str
    status: int
    token: str | None = None  # the crawler robotscope's reading is asked for (None: no crawler chosen)


def _crawler_rows() -> list[Row]:
    rows = []
    for crawler in (c for c in AI if c.user_agent):
        token = crawler.token
        refused = {
            "/": token in WHOLE,
            "/private/x": token in WHOLE + PATHS,
            "/private/open/x": token in WHOLE,
            # The `*` group's rule, but for a crawler documented to obey only groups naming it (YandexAdditional).
            "/admin/x": token in WHOLE or (token not in PATHS and not crawler.ignores_global),
        }
        for path in PATH_LIST:
            status = 403 if refused.get(path, False) else 200
            rows.append(Row(token, crawler.request_user_agent, path, status, token))
    return rows


TABLE = [
    *_crawler_rows(),
    # Mixed case: a product token matches case-insensitively (RFC 9309, 2.2.1).
    Row("gptbot lower", "gptbot/1.0", "/", 403, "GPTBot"),
    Row("GPTBOT upper", "GPTBOT/1.0 (+https://example.com)", "/robots.txt", 200, "GPTBot"),
    Row("PerplexityBot mixed", "Mozilla/5.0 (compatible; pErPlExItYbOt/1.0)", "/private/x", 403, "PerplexityBot"),
    Row("PerplexityBot mixed", "Mozilla/5.0 (compatible; pErPlExItYbOt/1.0)", "/private/open/x", 200, "PerplexityBot"),
    Row("cursor lower", "cursor/0.42", "/", 403, "Cursor"),
    Row("Spider itself", "Spider/1.0", "/private/open/x", 403, "Spider"),
    # Two crawlers claimed at once: refused where either's rules refuse.
    Row("two claims", "Mozilla/5.0 (compatible; PerplexityBot/1.0; GPTBot/1.2)", "/private/open/x", 403),
    # Innocent agents whose strings hold a refused name inside another word or a URL.
    Row(
        "Baiduspider",
        "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)",
        "/",
        200,
    ),
    Row("Not-Cursor", "Not-Cursor/1.0", "/", 200),
    Row("NotCursor", "NotCursor/1.0", "/private/x", 200),
    Row(
        "Internet Explorer (SLCC2)",
        "Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0; SLCC2; .NET CLR 2.0.50727)",
        "/",
        200,
    ),
    Row(
        "Chrome",
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 "
        "Safari/537.36",
        "/admin/x",
        200,
    ),
    Row("GPTBotX", "GPTBotX/1.0", "/", 200),
    Row("no User-Agent", "", "/", 200),
]
IDS = [f"{row.who} {row.path} {row.status}" for row in TABLE]


def test_the_table_is_robotscopes_own_reading() -> None:
    # Each expected answer is what robotscope reads in ROBOTS for the crawler the User-Agent claims.
    robots = parse(ROBOTS)
    chosen = AGENTS.split(",")
    for row in TABLE:
        claimed = [token for token in chosen if claims(row.user_agent, token)]
        if row.token is not None:
            assert claimed == [row.token], row
        refused = any(not robots.can_fetch(token, row.path, PROFILED) for token in claimed)
        assert (403 if refused else 200) == row.status, row


def _exported(target: str, folder: Path) -> None:
    (folder / "robots.txt").write_text(ROBOTS, encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["export", str(folder / "robots.txt"), "--target", target, "--agents", AGENTS, "-o", f"{folder}/"]
    )
    assert result.exit_code == 0, result.output


def _serving(target: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    folder = tmp_path_factory.mktemp(target)
    _exported(target, folder)
    backend = Server()  # HAProxy's
    for path in PATH_LIST:
        backend.routes[path] = lambda handler: respond(handler, 200, b"ok\n")
    root = site(PATH_LIST)
    try:
        running = start(target, folder, root, backend.port)
        try:
            yield running
        finally:
            stop(running.process)
    finally:
        backend.close()
        shutil.rmtree(root)


@pytest.fixture(scope="session")
def nginx_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    yield from _serving("nginx", tmp_path_factory)


@pytest.fixture(scope="session")
def apache_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    yield from _serving("apache", tmp_path_factory)


@pytest.fixture(scope="session")
def caddy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    yield from _serving("caddy", tmp_path_factory)


@pytest.fixture(scope="session")
def haproxy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    yield from _serving("haproxy", tmp_path_factory)


@pytest.fixture(scope="session")
def lighttpd_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    yield from _serving("lighttpd", tmp_path_factory)


def status(running: Running, user_agent: str, path: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", running.port, timeout=10)
    try:
        headers = {"Host": "127.0.0.1", "Connection": "close"}
        if user_agent:
            headers["User-Agent"] = user_agent
        connection.request("GET", path, headers=headers, encode_chunked=False)
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("row", TABLE, ids=IDS)
def test_every_server_answers_the_table(target: str, row: Row, request: pytest.FixtureRequest) -> None:
    running: Running = request.getfixturevalue(f"{target}_server")
    assert status(running, row.user_agent, row.path) == row.status


@pytest.mark.parametrize("target", TARGETS)
def test_unverified_only_lets_a_crawler_through_from_its_operators_addresses(target: str, tmp_path: Path) -> None:
    # The shipped lists, with loopback (and a documentation IPv6 prefix) added to GPTBot's: a request from
    # 127.0.0.1 claiming GPTBot is verified, one claiming ClaudeBot is not.
    robots = parse("User-agent: *\nDisallow: /private/\n")
    made = plan(robots, choose(robots, "GPTBot,ClaudeBot"), unverified_only=True)
    gptbot = made.groups[0].lists[0]
    addresses = {**made.addresses, gptbot: (*made.addresses[gptbot], "127.0.0.0/8", "2001:db8::/32")}
    result = render(made._replace(addresses=addresses), target, "robots.txt", "en", str(tmp_path))
    for name, text in result.files:
        (tmp_path / name).write_text(text, encoding="utf-8")
    backend = Server()
    backend.routes["/private/x"] = backend.routes["/"] = lambda handler: respond(handler, 200, b"ok\n")
    root = site(["/", "/private/x"])
    try:
        running = start(target, tmp_path, root, backend.port)
        try:
            assert status(running, "Mozilla/5.0 (compatible; GPTBot/1.2)", "/private/x") == 200
            assert status(running, "Mozilla/5.0 (compatible; ClaudeBot/1.0)", "/private/x") == 403
            assert status(running, "Mozilla/5.0 (compatible; ClaudeBot/1.0)", "/") == 200
        finally:
            stop(running.process)
    finally:
        backend.close()
        shutil.rmtree(root)


@pytest.mark.parametrize("target", TARGETS)
def test_every_server_accepts_an_export_that_refuses_nothing_and_one_of_two_lists(target: str, tmp_path: Path) -> None:
    robots = parse("User-agent: *\nDisallow: /private/\n")
    nothing = plan(parse("User-agent: *\nAllow: /\n"), choose(robots, "GPTBot"))
    made = plan(robots, choose(robots, "GPTBot,ClaudeBot"), unverified_only=True)
    both = made._replace(groups=(made.groups[0]._replace(lists=tuple(made.addresses)),))
    root = site(["/"])
    try:
        for number, chosen in enumerate((nothing, both)):
            folder = tmp_path / str(number)
            folder.mkdir()
            for name, text in render(chosen, target, "robots.txt", "en", str(folder)).files:
                (folder / name).write_text(text, encoding="utf-8")
            check(target, folder, root, free_port(), free_port())  # asserts the server's own check passes
    finally:
        shutil.rmtree(root)


MANY = [f"ExampleCrawlerNumber{n}" for n in range(600)]  # one group's tokens: more than one regex can hold
LONG = ("%C3%A9" * 40 + "/") * 18  # a path whose regex is longer than nginx reads, in segments a file may name
HOSTILE = (
    "User-agent: GPTBot\nDisallow: /\nAllow: /*.html\nAllow: /*.css\nAllow: /robots.txt$\nDisallow: /a\nAllow: /a\n\n"
    "User-agent: ClaudeBot\nDisallow: /long/" + LONG + "\nDisallow: /shut/\n"
    "Allow: /shut/"
    + LONG
    + "\n\n"
    + "".join(f"User-agent: {token}\n" for token in MANY)
    + "Disallow: /many/\n\n"
    + "".join(f"User-agent: Group{n}\nDisallow: /g{n}/\n\n" for n in range(250))  # more groups than one map joins
)


@pytest.mark.parametrize("target", TARGETS)
def test_every_server_runs_the_rules_of_a_file_with_long_and_repeated_rules(target: str, tmp_path: Path) -> None:
    # Rules whose regexes repeat (Caddy and lighttpd refuse a repeated map input or `else` condition), are longer
    # than nginx's and Apache's parameters, a group of more tokens than one regex can hold, and 250 groups.
    robots = parse(HOSTILE)
    made = plan(robots, choose(robots, "all-named"))
    for name, text in render(made, target, "robots.txt", "en", str(tmp_path)).files:
        (tmp_path / name).write_text(text, encoding="utf-8")
    rows = [
        ("GPTBot/1.2", "/x.html", 200),
        ("GPTBot/1.2", "/robots.txt", 200),
        ("ClaudeBot/1.0", "/long/" + LONG, 200),  # too long to write: left to robots.txt
        ("ClaudeBot/1.0", "/shut/x", 403),
        ("ClaudeBot/1.0", "/shut/" + LONG, 200),  # the allow, widened to the start of it that fits
        (f"{MANY[0]}/1.0", "/many/x", 403),
        (f"{MANY[-1]}/1.0", "/many/x", 403),
        (f"{MANY[-1]}/1.0", "/x", 200),
        ("Group249/1.0", "/g249/x", 403),
        ("Group249/1.0", "/g248/x", 200),
    ]
    backend = Server()
    for _, path, _ in rows:
        backend.routes[path] = lambda handler: respond(handler, 200, b"ok\n")
    root = site(["/x.html", "/x", "/shut/x", "/many/x", "/g248/x"])
    try:
        running = start(target, tmp_path, root, backend.port)
        try:
            for user_agent, path, wanted in rows:
                assert status(running, user_agent, path) in (wanted, 404 if wanted == 200 else 403), (user_agent, path)
        finally:
            stop(running.process)
    finally:
        backend.close()
        shutil.rmtree(root)
