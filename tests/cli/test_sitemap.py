"""`robotscope sitemap` against sitemaps served on 127.0.0.1: blocked URLs, other origins, indexes, hostile files."""

from __future__ import annotations

import gzip
import json
import socket
from collections import deque
from collections.abc import Iterable
from pathlib import Path

import pytest
from click.testing import CliRunner

from robotscope.cli import cli
from robotscope.cli import sitemap as sitemap_cli
from robotscope.syntax.sitemap import MAX_URLS, read_sitemap
from tests.conftest import Server
from tests.hostile import SlowServer

pytestmark = pytest.mark.usefixtures("isolated")


def urlset(*urls: str) -> bytes:
    body = "".join(f"<url><loc>{u}</loc></url>" for u in urls)
    return f'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{body}</urlset>'.encode()


def index(*urls: str) -> bytes:
    body = "".join(f"<sitemap><loc>{u}</loc></sitemap>" for u in urls)
    return f'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{body}</sitemapindex>'.encode()


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["sitemap", *args, "--no-cache", "--timeout", "5"])
    return result.exit_code, result.stdout, result.stderr


def test_blocked_and_foreign_urls_of_an_index_with_a_gzipped_child(server: Server, other_server: Server) -> None:
    server.serve(
        "/robots.txt",
        200,
        (
            "User-agent: *\nDisallow: /private/\n\n"
            f"User-agent: Bingbot\nDisallow: /\n\nSitemap: {server.url('/index.xml')}\n"
        ).encode(),
    )
    server.serve("/index.xml", 200, index(server.url("/a.xml.gz"), server.url("/b.xml")))
    server.serve("/a.xml.gz", 200, gzip.compress(urlset(server.url("/public/1"), server.url("/private/2"))))
    server.serve("/b.xml", 200, urlset(other_server.url("/elsewhere")))
    other_server.serve("/robots.txt", 200, b"User-agent: *\nDisallow:\n")
    code, out, err = run(server.url("/"), "--agent", "Googlebot", "--agent", "Bingbot")
    assert code == 1, err
    lines = out.splitlines()
    assert lines[0] == f"{server.url('/robots.txt')} lists 1 sitemap"
    assert (
        f"  {server.url('/index.xml')}: an index of 2 sitemaps" in lines
        and f"  {server.url('/a.xml.gz')}: 2 URLs" in lines
    )
    assert (
        f"  Googlebot may not fetch {server.url('/private/2')}: line 2 of {server.url('/robots.txt')} "
        f"(Disallow: /private/); listed in {server.url('/a.xml.gz')}" in lines
    )
    assert sum("Bingbot may not fetch" in line for line in lines) == 2  # its group disallows everything on this origin
    assert f"  {other_server.url('/elsewhere')}, listed in {server.url('/b.xml')}" in lines
    assert lines[-1] == "3 listed URLs in 3 files; 3 blocked for Googlebot, Bingbot"


def test_json_and_exit_zero_when_nothing_is_blocked(server: Server) -> None:
    server.serve("/robots.txt", 200, b"User-agent: *\nDisallow: /private/\n")
    server.serve("/sitemap.xml", 200, urlset(server.url("/ok")))
    code, out, _ = run(server.url("/sitemap.xml"), "--json")
    data = json.loads(out)
    assert code == 0 and data["checked"] == 1 and data["blocked"] == [] and data["files"][0]["kind"] == "urlset"


def test_the_engine_choice_reads_the_robots_txt(server: Server) -> None:
    # Google reads a rule without its colon; RFC 9309 ignores the line.
    server.serve("/robots.txt", 200, b"User-agent: *\nDisallow /oops\n")
    server.serve("/sitemap.xml", 200, urlset(server.url("/oops")))
    assert run(server.url("/sitemap.xml"), "--json")[0] == 0
    for choice in ("google", "operator"):
        code, out, _ = run(server.url("/sitemap.xml"), "--json", "--engine", choice)
        (blocked,) = json.loads(out)["blocked"]
        assert code == 1 and (blocked["engine"], blocked["line"]) == ("google", 2)
    assert run(server.url("/sitemap.xml"), "--engine", "all")[0] == 2  # one verdict per URL: no side by side here


def test_an_xml_bomb_is_refused_before_parsing(server: Server) -> None:
    bomb = (
        b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
        b'<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
        + b"".join(
            (
                f'<!ENTITY lol{i} "&lol{i - 1};&lol{i - 1};&lol{i - 1};&lol{i - 1};&lol{i - 1};'
                f'&lol{i - 1};&lol{i - 1};&lol{i - 1};&lol{i - 1};&lol{i - 1};">'
            ).encode()
            for i in range(3, 10)
        )
        + b"]><urlset><url><loc>&lol9;</loc></url></urlset>"
    )
    server.serve("/robots.txt", 200, b"User-agent: *\nDisallow:\n")
    server.serve("/bomb.xml", 200, bomb)
    code, out, err = run(server.url("/bomb.xml"))  # refused before parsing: the entities are never expanded
    assert "refused: it has a DOCTYPE or ENTITY declaration" in out
    assert (
        code == 1
        and err == "robotscope: warning: the answer is incomplete: 1 sitemap was refused or read only in part\n"
    )


def test_an_index_loop_and_repeats_are_read_once(server: Server) -> None:
    server.serve("/robots.txt", 200, b"User-agent: *\nDisallow:\n")
    server.serve("/index.xml", 200, index(server.url("/index.xml"), server.url("/s.xml"), server.url("/s.xml")))
    server.serve("/s.xml", 200, urlset(server.url("/x")))
    code, out, _ = run(server.url("/index.xml"), "--json")
    kinds = [f["kind"] for f in json.loads(out)["files"]]
    assert code == 0 and kinds == ["sitemapindex", "repeat", "urlset", "repeat"]
    assert server.hits["/index.xml"] == 1 and server.hits["/s.xml"] == 1


@pytest.mark.parametrize(("content_type", "coding"), [("application/gzip", ""), ("application/xml", "gzip")])
def test_a_sitemap_of_several_gzip_members_is_read_whole(server: Server, content_type: str, coding: str) -> None:
    # Only the first member was read (`cat a.gz b.gz` is valid gzip, which gzip -d reads whole), in
    # a .xml.gz body and under Content-Encoding alike; so was a robots.txt sent in members.
    rules = (b"User-agent: *\n", b"Disallow: /private/\n")
    server.serve("/robots.txt", 200, b"".join(gzip.compress(part) for part in rules), {"Content-Encoding": "gzip"})
    xml = urlset(server.url("/public/1"), server.url("/private/2"), server.url("/private/3"))
    parts = [xml[:120], xml[120:200], xml[200:]]
    members = [gzip.compress(part) for part in parts]
    body = b"".join(members)
    head = f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
    head += f"Content-Encoding: {coding}\r\n" if coding else ""
    # Each read ends a byte into the next member, its magic number split: the seams fall mid-read.
    seams = [len(members[0]) + 1, len(members[0]) + len(members[1]) + 1]
    writes = [body[start:end] for start, end in zip([0, *seams], [*seams, len(body)], strict=True)]
    slow = SlowServer(lambda _: [f"{head}Connection: close\r\n\r\n".encode(), *writes], pause=0.01)
    try:
        code, out, err = run(slow.url("/sitemap.xml.gz"), "--agent", "Googlebot")
    finally:
        slow.close()
    assert f"  {slow.url('/sitemap.xml.gz')}: 3 URLs" in out.splitlines(), out + err
    assert code == 1 and out.count("Googlebot may not fetch") == 2 and "sitemap.xml" not in err


def test_a_gzip_bomb_and_too_many_urls_are_bounded() -> None:
    bomb = gzip.compress(b"<urlset>" + b" " * (60 * 1024 * 1024))
    found = read_sitemap(bomb)
    assert found.problem is not None and "cut at" in found.problem.render()
    many = read_sitemap(urlset(*(f"https://www.example.com/{i}" for i in range(MAX_URLS + 10))))
    assert len(many.locs) == MAX_URLS and many.more == 10


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        (b"https://www.example.com/a\nhttps://www.example.com/b\n", "text"),
        (b"<html><body>not found</body></html>", "invalid"),
        (b"<urlset><url><loc>https://x/</loc>", "invalid"),  # cut short
        (b"\x00\xff garbage", "invalid"),
    ],
)
def test_other_bodies_never_raise(body: bytes, kind: str) -> None:
    assert read_sitemap(body).kind == kind


def test_an_unreadable_sitemap_is_reported_not_raised(server: Server) -> None:
    server.serve("/robots.txt", 200, f"User-agent: *\nDisallow:\nSitemap: {server.url('/missing.xml')}\n".encode())
    code, out, err = run(server.url("/robots.txt"))
    assert "could not be read (HTTP 404)" in out
    assert code == 1 and err == "robotscope: warning: the answer is incomplete: 1 sitemap could not be read\n"


def test_a_sitemap_on_a_closed_port_is_an_error_not_a_status() -> None:
    code, out, err = run("http://127.0.0.1:9/sitemap.xml")
    assert code == 1 and "could not be read: no connection or no answer" in out
    assert err.splitlines() == ["robotscope: warning: the answer is incomplete: 1 sitemap could not be read"]


def test_a_site_whose_robots_txt_cannot_be_read_says_why_it_lists_nothing(server: Server) -> None:
    server.serve("/robots.txt", 503, b"down")
    code, out, err = run(server.url("/"))
    assert code == 1 and out.splitlines()[0].startswith(
        f"{server.url('/robots.txt')} could not be read, so it lists no sitemap: "
    )
    assert err == f"robotscope: warning: the answer is incomplete: {server.url('/robots.txt')} could not be read\n"
    assert "HTTP 503" in out.splitlines()[0]
    code, out, _ = run(server.url("/"), "--json")
    data = json.loads(out)
    assert data["unread"]["code"] == "sitemap.robots-unread"
    assert [reason["code"] for reason in data["incomplete"]] == ["sitemap.incomplete.robots"]


def test_a_site_without_robots_txt_lists_nothing_and_that_is_complete(server: Server) -> None:
    # A 404 means no file, so no list: nothing is missing from the answer.
    code, out, err = run(server.url("/"))
    assert (code, err) == (0, "") and "could not be read" in out.splitlines()[0]


def test_a_sitemap_redirecting_to_a_url_that_cannot_be_followed_says_so(server: Server) -> None:
    server.serve("/robots.txt", 200, b"User-agent: *\nDisallow:\n")
    server.redirect("/sitemap.xml", "javascript:alert(1)")
    code, out, _ = run(server.url("/sitemap.xml"), "--json")
    (file,) = json.loads(out)["files"]
    assert code == 1 and file["kind"] == "unreadable" and file["problem"]["code"] == "sitemap.fetch-error"
    assert (
        file["problem"]["params"]["error"] == "a redirect that cannot be followed"
    )  # not "no connection or no answer"


class _Recorded(deque[tuple[str, str | None]]):
    """The command's queue of sitemaps, with the most it ever held."""

    most = 0

    def append(self, item: tuple[str, str | None]) -> None:
        super().append(item)
        _Recorded.most = max(_Recorded.most, len(self))

    def extend(self, items: Iterable[tuple[str, str | None]]) -> None:
        super().extend(items)
        _Recorded.most = max(_Recorded.most, len(self))


def test_the_queue_holds_no_more_sitemaps_than_will_be_read(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each index lists 2,000 more: a queue of every one listed grew by gigabytes at the protocol's 50,000.
    monkeypatch.setattr(sitemap_cli, "deque", _Recorded)
    server.serve("/robots.txt", 200, b"User-agent: *\nDisallow:\n")
    server.serve("/index.xml", 200, index(*(server.url(f"/index.xml?{i}") for i in range(2_000))))
    for i in range(4):
        server.serve(f"/index.xml?{i}", 200, index(*(server.url(f"/more/{i}/{j}.xml") for j in range(2_000))))
    code, out, err = run(server.url("/index.xml"), "--max-sitemaps", "5")
    assert _Recorded.most <= 5
    # 1,996 of the first index's and every one of the 4 others' 2,000: counted as they are listed.
    assert "9996 more sitemaps not read (--max-sitemaps)" in out
    assert code == 1 and err.endswith("incomplete: 9996 listed sitemaps not read (--max-sitemaps)\n")


def test_a_stacked_compression_bomb_is_an_unreadable_sitemap(server: Server) -> None:
    stacked = gzip.compress(gzip.compress(bytes(64 * 1024 * 1024)))
    server.serve("/robots.txt", 200, b"User-agent: *\nDisallow:\n")
    server.serve("/sitemap.xml", 200, stacked, {"Content-Encoding": "gzip, gzip"})
    code, out, _ = run(server.url("/sitemap.xml"))
    assert code == 1 and "could not be read: a Content-Encoding that cannot be decoded" in out


@pytest.fixture
def lookups(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The host names the command asks DNS for; every one fails, so nothing leaves the machine."""
    asked: list[object] = []

    def refuse(host: object, *_: object, **__: object) -> list[object]:
        asked.append(host)
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    return asked


@pytest.mark.parametrize("target", ["nonexist.txt", "sitemap.xml.gz", "www.example.com/sitemap", "./s", "s.JSON"])
def test_a_file_name_is_refused_not_looked_up(target: str, lookups: list[object]) -> None:
    code, out, err = run(target)
    assert (code, out, lookups) == (2, "", [])
    assert err == (
        f"robotscope: {target} looks like a file name, not a site: give the site or the sitemap as a URL (https://...)\n"
    )


def test_an_existing_file_is_refused_and_a_bare_host_is_a_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lookups: list[object]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sitemaps").write_text("https://www.example.com/\n")
    assert run("sitemaps")[0] == 2 and lookups == []
    code, _, err = run("www.example.invalid")
    assert lookups == [b"www.example.invalid"] and code == 1 and "could not be read" in err
