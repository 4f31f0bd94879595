"""The claims of `verify --file`: three shapes, gzip, bad lines numbered and skipped, all within bounds."""

from __future__ import annotations

import csv
import gzip
import io
import json
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from robotscope.integrations.pairs import Claim, opened, read_pairs
from robotscope.integrations.records import Tally
from tests.fuzz.fuzz_pairs import SEEDS, check
from tests.fuzz.harness import run_briefly


def read(data: bytes, agent: str | None = None) -> tuple[list[Claim], dict[int, str]]:
    tally = Tally()
    claims = list(read_pairs(opened(io.BytesIO(data)), "claims", tally, agent))
    return claims, {entry.number: entry.reason.code for entry in tally.reported}


@pytest.mark.parametrize("seed", sorted(SEEDS.iterdir()), ids=lambda p: p.name)
def test_the_fuzz_target_passes_on_every_seed_in_bounded_memory(seed: Path) -> None:
    tracemalloc.start()
    try:
        check(seed.read_bytes())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20  # a 2 MiB gzip bomb among the seeds: one line, read past in pieces


def test_the_fuzz_target_runs_under_atheris(tmp_path: Path) -> None:
    run_briefly("tests.fuzz.fuzz_pairs", SEEDS, tmp_path, 2000)


def test_a_log_line_gives_the_rest_of_the_line_as_the_user_agent() -> None:
    claims, bad = read((SEEDS / "tsv.txt").read_bytes(), agent="GPTBot")
    assert [tuple(c) for c in claims] == [
        (2, "66.249.66.1", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"),
        (3, "20.171.206.1", "GPTBot/1.2"),  # spaces instead of a tab, and a CRLF line end
        (5, "192.0.2.1", "GPTBot"),  # an address alone: the default agent
        (6, "5.255.253.1", "YandexBot\tmore\tfields"),
    ]
    assert bad == {}


def test_csv_finds_its_columns_by_the_header_in_any_order_and_case() -> None:
    claims, bad = read((SEEDS / "csv.csv").read_bytes())
    assert [(c.number, c.address, c.agent) for c in claims] == [
        (3, "66.249.66.1", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"),
        (4, "20.171.206.1", 'a, "quoted" agent'),
    ]
    assert bad == {5: "records.skip.csv", 6: "records.skip.columns"}


def test_json_lines_name_each_bad_line() -> None:
    claims, bad = read((SEEDS / "jsonl.jsonl").read_bytes())
    assert [(c.number, c.address) for c in claims] == [(1, "66.249.66.1")]
    assert bad == {
        2: "records.skip.json-claim",  # "ip" is a number
        3: "records.skip.json-claim",  # not an object
        4: "records.skip.agent-control",  # NUL in the User-Agent
        5: "records.skip.no-agent",
        6: "records.skip.json",
        7: "records.skip.json-claim",  # null User-Agent
        8: "records.skip.json",  # a number past Python's digit limit
    }
    assert read((SEEDS / "deep.jsonl").read_bytes())[1] == {1: "records.skip.json"}  # nesting past the stack


def test_addresses_are_checked_as_ipaddress_reads_them() -> None:
    claims, bad = read((SEEDS / "ipv6.txt").read_bytes())
    assert [c.address for c in claims] == ["2001:4860:4801:10::1", "::ffff:66.249.66.1", "fe80::1%eth0"]
    assert bad == {4: "records.skip.address", 5: "records.skip.address"}  # a leading zero; five parts


def test_gzip_is_told_by_its_first_bytes_even_from_a_pipe_giving_a_byte_at_a_time() -> None:
    class Trickle(io.RawIOBase):
        def __init__(self, data: bytes) -> None:
            self.data = data

        def readable(self) -> bool:
            return True

        def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
            if not self.data:
                return 0
            buffer[0], self.data = self.data[0], self.data[1:]
            return 1

    packed = gzip.compress(b"66.249.66.1\tGooglebot\n" * 3)
    claims = list(read_pairs(opened(Trickle(packed)), "pipe", Tally()))  # type: ignore[arg-type]
    assert [c.number for c in claims] == [1, 2, 3]
    # A cut stream: the lines inflated before the cut are read, then the reading stops there.
    tally = Tally()
    cut = list(read_pairs(opened(io.BytesIO((SEEDS / "gzip-cut.gz").read_bytes())), "cut", tally))
    assert 0 < len(cut) < 400 and tally.stopped == 1 and tally.reported[-1].reason.code == "records.stop.gzip-cut"
    tally = Tally()
    claims = list(read_pairs(opened(io.BytesIO((SEEDS / "gzip-trailing.gz").read_bytes())), "tail", tally))
    assert len(claims) == 3 and tally.reported[-1].reason.code == "records.stop.gzip-bad"
    assert [c.address for c in read((SEEDS / "gzip-two-members.gz").read_bytes())[0]] == ["1.2.3.4", "66.249.66.1"]


ADDRESSES = st.ip_addresses().map(str)
# A User-Agent as a server logs it: no CR, LF or NUL, no whitespace around it.
AGENTS = (
    st.text(st.characters(blacklist_characters="\r\n\x00", blacklist_categories=["Cs"]), min_size=1, max_size=80)
    .map(str.strip)
    .filter(bool)
)


def _tsv(pairs: list[tuple[str, str]]) -> bytes:
    return "".join(f"{address}\t{agent}\n" for address, agent in pairs).encode()


def _csv(pairs: list[tuple[str, str]]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["user_agent", "ip"])
    writer.writerows([(agent, address) for address, agent in pairs])
    return out.getvalue().encode()


def _jsonl(pairs: list[tuple[str, str]]) -> bytes:
    lines = (json.dumps({"ip": address, "user_agent": agent}, ensure_ascii=False) for address, agent in pairs)
    return "".join(line + "\n" for line in lines).encode()


@given(st.lists(st.tuples(ADDRESSES, AGENTS), max_size=20), st.sampled_from([_tsv, _csv, _jsonl]), st.booleans())
def test_claims_written_in_any_shape_read_back_the_same(
    pairs: list[tuple[str, str]], shape: object, packed: bool
) -> None:
    assert callable(shape)
    data: bytes = shape(pairs)
    claims, bad = read(gzip.compress(data) if packed else data)
    assert bad == {} and [(c.address, c.agent) for c in claims] == pairs
