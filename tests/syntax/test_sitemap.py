"""Sitemap files read in bounded memory and linear time, whatever their shape and encoding."""

from __future__ import annotations

import gzip
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from robotscope.syntax.sitemap import MAX_DEPTH, MAX_LOC, Sitemap, read_sitemap
from tests.fuzz.fuzz_sitemap import SEEDS, check

NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
MiB = 1024 * 1024


def traced(call: Callable[[], Sitemap]) -> tuple[Sitemap, int]:
    tracemalloc.start()
    try:
        return call(), tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def code(found: Sitemap) -> str | None:
    return None if found.problem is None else found.problem.code


def test_elements_that_are_not_locs_are_not_kept() -> None:
    # 2 million empty elements in 8 MiB, gzipped to 8 KB: a tree of them took about 150 MiB.
    data = gzip.compress(
        f"<urlset {NS}>".encode() + b"<a/>" * (2 * MiB) + b"<url><loc>https://x/1</loc></url></urlset>"
    )
    found, peak = traced(lambda: read_sitemap(data))
    assert (found.kind, found.locs, found.problem) == ("urlset", ("https://x/1",), None)
    assert peak < 4 * MiB, peak


def test_deep_nesting_is_refused_at_the_depth_limit() -> None:
    data = f"<urlset {NS}>".encode() + b"<url>" * 1_000_000
    found, peak = traced(lambda: read_sitemap(data))
    assert (found.kind, code(found)) == ("invalid", "sitemap.deep")
    assert found.problem is not None and f"more than {MAX_DEPTH} deep" in found.problem.render()
    assert peak < 4 * MiB, peak


@pytest.mark.parametrize("element", ["loc", "lastmod"])
def test_a_huge_text_node_is_counted_not_kept(element: str) -> None:
    url = f"<url><{element}>".encode() + b"x" * (16 * MiB) + f"</{element}></url>".encode()
    data = f"<urlset {NS}>".encode() + url + b"<url><loc>https://x/ok</loc></url></urlset>"
    found, peak = traced(lambda: read_sitemap(data))
    assert found.kind == "urlset" and found.locs == ("https://x/ok",)
    assert (found.long, code(found)) == ((1, "sitemap.long") if element == "loc" else (0, None))
    assert peak < 4 * MiB, peak


def test_a_loc_just_under_the_protocol_limit_is_kept() -> None:
    loc = "https://x/" + "a" * (MAX_LOC - 10)
    found = read_sitemap(f"<urlset {NS}><url><loc>\n    {loc}\n  </loc></url></urlset>".encode())
    assert found.locs == (loc,) and found.long == 0


def test_only_the_locs_of_entries_count_not_those_of_extensions() -> None:
    data = (
        f'<urlset {NS} xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">'
        "<url><loc>https://x/page</loc><image:image><image:loc>https://cdn/x.jpg</image:loc></image:image></url>"
        "</urlset>"
    ).encode()
    assert read_sitemap(data).locs == ("https://x/page",)


SITEMAP = f'<?xml version="1.0" encoding="UTF-16"?><urlset {NS}><url><loc>https://x/é</loc></url></urlset>'


@pytest.mark.parametrize(
    "data",
    [
        SITEMAP.encode("utf-16"),  # with its byte order mark
        SITEMAP.encode("utf-16-le"),  # without one: the NUL bytes tell
        SITEMAP.encode("utf-16-be"),
        SITEMAP.split("?>", 1)[1].encode("utf-16-le"),  # no declaration either
        gzip.compress(SITEMAP.encode("utf-16")),
        b"\xef\xbb\xbf" + SITEMAP.replace("UTF-16", "UTF-8").encode(),
    ],
    ids=["utf16-bom", "utf16le", "utf16be", "utf16le-no-declaration", "utf16-gzip", "utf8-bom"],
)
def test_every_encoding_xml_allows_is_read(data: bytes) -> None:
    assert read_sitemap(data)[:3] == ("urlset", ("https://x/é",), 0)


ENTITY = '<?xml version="1.0"?><!DOCTYPE u [<!ENTITY e "https://evil/">]><urlset><url><loc>&e;</loc></url></urlset>'


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-16-le", "utf-16-be"])
def test_a_doctype_is_refused_in_every_encoding(encoding: str) -> None:
    # The byte pattern `<!DOCTYPE` is not in UTF-16: the parser itself must refuse it.
    found = read_sitemap(ENTITY.encode(encoding))
    assert (found.kind, found.locs, code(found)) == ("invalid", (), "sitemap.doctype")


def test_text_sitemaps_in_utf16_and_with_a_huge_line() -> None:
    assert read_sitemap("https://x/1\r\nhttps://x/2\n".encode("utf-16"))[:2] == ("text", ("https://x/1", "https://x/2"))
    data = b"https://x/1\nhttps://x/" + b"a" * (16 * MiB) + b"\nhttps://x/3"
    found, peak = traced(lambda: read_sitemap(data))
    assert (found.kind, found.locs, found.long, code(found)) == (
        "text",
        ("https://x/1", "https://x/3"),
        1,
        "sitemap.long",
    )
    assert peak < 4 * MiB, peak


def test_a_gzip_file_of_several_members_is_read_whole(tmp_path: Path) -> None:
    # `gzip -c part >> sitemap.xml.gz` appends a member; only the first one was read.
    path = tmp_path / "sitemap.xml.gz"
    parts = [f"<urlset {NS}>".encode(), b"<url><loc>https://a.example/1</loc></url>", b"</urlset>"]
    for part in parts:
        with gzip.open(path, "ab") as member:
            member.write(part)
    assert gzip.decompress(path.read_bytes()) == b"".join(parts)
    found = read_sitemap(path.read_bytes())
    assert (found.kind, found.locs, found.problem) == ("urlset", ("https://a.example/1",), None)


@pytest.mark.parametrize(
    "data",
    [
        b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xff\xff\xff\xff" + b"x" * 64,  # corrupt
        gzip.compress(f"<urlset {NS}><url><loc>https://x/</loc></url></urlset>".encode())[:-12],  # cut short
    ],
    ids=["corrupt", "cut-short"],
)
def test_broken_gzip_is_invalid_and_says_so(data: bytes) -> None:
    found = read_sitemap(data)
    assert (found.kind, code(found)) == ("invalid", "sitemap.gzip")


@pytest.mark.parametrize("seed", sorted(SEEDS.iterdir()), ids=lambda path: path.name)
def test_fuzz_target_passes_on_every_seed(seed: Path) -> None:
    check(seed.read_bytes())


def test_seed_corpus_holds_real_shapes_and_hostile_ones() -> None:
    found = {path.name: read_sitemap(path.read_bytes()) for path in SEEDS.iterdir()}
    assert {name for name, sitemap in found.items() if code(sitemap) == "sitemap.doctype"} >= {
        "billion-laughs.xml",
        "billion-laughs-utf16le.xml",
        "external-entity.xml",
        "parameter-entity-utf16.xml",
    }
    assert [found[name].kind for name in ("urlset.xml", "index.xml", "utf16-bom.xml", "text.txt")] == [
        "urlset",
        "sitemapindex",
        "urlset",
        "text",
    ]
    assert (code(found["deep.xml"]), code(found["long-loc.xml"]), code(found["corrupt.gz"])) == (
        "sitemap.deep",
        "sitemap.long",
        "sitemap.gzip",
    )


@pytest.mark.parametrize("encoding", ["QTF-16", "utf-32", "hex", "punycode"])
def test_an_encoding_the_parser_cannot_read_is_invalid_not_raised(encoding: str) -> None:
    # expat hands encodings it does not know to Python's codecs, which raise: found by the fuzz target.
    found = read_sitemap(f'<?xml version="1.0" encoding="{encoding}"?><urlset/>'.encode())
    assert (found.kind, code(found)) == ("invalid", "sitemap.xml")
