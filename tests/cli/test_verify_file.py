"""`robotscope verify --file PAIRS`: claims streamed from a file or stdin, bad lines reported, --jobs keeps order."""

from __future__ import annotations

import gzip
import io
import json
import random
import sys
import threading
import time
import tracemalloc
from ipaddress import ip_address
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from robotscope.cli import cli
from robotscope.cli import verify as verify_cli
from robotscope.cli.verify import _answered, verify_file
from robotscope.integrations.pairs import MAX_LINE, Claim
from robotscope.reports import listclaims
from robotscope.syntax.iplists import shipped, snapshot
from robotscope.syntax.listhistory import ListHistory
from robotscope.verifying.resolvers import Answer, IPAddress
from robotscope.verifying.resolvers import Status as Lookup
from robotscope.verifying.verifier import Verifier
from tests.verifying.dns_server import dns_server, zone

GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
YANDEX = "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)"
GOOD = f"66.249.66.1\t{GOOGLEBOT}\n20.171.206.1\tGooglebot\n192.0.2.1\tCCBot/2.0\n"


def run(*args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["verify", *args], input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def json_lines(out: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    *claims, summary = [json.loads(line) for line in out.splitlines()]
    return claims, summary


def test_each_line_is_judged_in_order_with_a_summary(tmp_path: Path) -> None:
    pairs = tmp_path / "claims.tsv"
    pairs.write_text(GOOD)
    code, out, err = run("--file", str(pairs), "--no-dns")
    assert out.splitlines()[0].startswith("66.249.66.1: verified as Googlebot")
    assert out.splitlines()[-1] == "3 claims checked: 1 verified, 1 spoofed, 1 unverifiable, 0 inconclusive"
    assert code == 1 and err == ""  # spoofed
    code, out, _ = run("--file", str(pairs), "--no-dns", "--json")
    claims, summary = json_lines(out)
    assert [(c["line"], c["address"], c["status"]) for c in claims] == [
        (1, "66.249.66.1", "verified"),
        (2, "20.171.206.1", "spoofed"),
        (3, "192.0.2.1", "unverifiable"),
    ]
    assert summary["counts"] == {"verified": 1, "spoofed": 1, "unverifiable": 1, "inconclusive": 0}
    assert summary["records"]["complete"] is True


def test_bad_lines_are_reported_with_their_numbers_and_skipped() -> None:
    lines = [
        f"66.249.66.1\t{GOOGLEBOT}",  # 1
        "not-an-ip\tGooglebot",  # 2
        "",  # 3: blank, no claim
        "# a comment",  # 4
        "192.0.2.1",  # 5: no User-Agent
        "192.0.2.1\t\xff",  # 6: not UTF-8 (written as latin-1 below)
        "x" * (MAX_LINE + 10),  # 7: too long
        "192.0.2.1\tCCBot/2.0",  # 8
    ]
    data = "\n".join(lines).encode("latin-1")
    code, out, err = run("--file", "-", "--no-dns", "--json", stdin=data)
    claims, summary = json_lines(out)
    assert [c["line"] for c in claims] == [1, 8]
    reported = {r["number"]: r["reason"]["code"] for r in summary["records"]["records"]}
    assert reported == {
        2: "records.skip.address",
        5: "records.skip.no-agent",
        6: "records.skip.not-utf8",
        7: "records.skip.too-long",
    }
    assert "<stdin>: line 2: `not-an-ip` is not an IP address; skipped" in err
    assert "<stdin>: line 7: longer than 16,384 bytes; skipped" in err
    assert "the answer is incomplete: 4 records skipped" in err
    assert code == 1  # every claim judged is verified or unverifiable: the skipped lines make it 1


def test_lines_of_addresses_alone_take_the_agent_option() -> None:
    code, out, err = run("--file", "-", "--agent", "GPTBot", "--no-dns", stdin=b"20.171.206.1\n20.171.206.2 \n")
    assert code == 0 and err == "" and out.count("verified as GPTBot") == 2


def test_csv_with_a_header_and_json_lines_are_read_too() -> None:
    csv_data = f'when,user_agent,ip\n2026-12-01,"{GOOGLEBOT}",66.249.66.1\nx,"a,b"\n'.encode()
    code, out, err = run("--file", "-", "--no-dns", "--json", stdin=csv_data)
    claims, summary = json_lines(out)
    assert [(c["line"], c["token"]) for c in claims] == [(2, "Googlebot")]
    assert "line 3: 2 fields where the header names 3 columns" in err and code == 1
    jsonl = (
        b'{"ip": "66.249.66.1", "user_agent": "Googlebot", "path": "/"}\n{"ip": 7}\n'
        b'{"ip": "1.2.3.4", "user_agent": "a\\nb"}\n'
    )
    code, out, err = run("--file", "-", "--no-dns", "--json", stdin=jsonl)
    claims, summary = json_lines(out)
    assert [(c["line"], c["status"]) for c in claims] == [(1, "verified")]
    reasons = [r["reason"]["code"] for r in summary["records"]["records"]]
    assert reasons == ["records.skip.json-claim", "records.skip.agent-control"]


def test_gzip_is_read_as_its_text_and_a_cut_one_says_the_answer_is_incomplete(tmp_path: Path) -> None:
    packed = gzip.compress(GOOD.encode() * 100)
    (tmp_path / "claims.gz").write_bytes(packed)
    code, out, _ = run("--file", str(tmp_path / "claims.gz"), "--no-dns")
    assert out.splitlines()[-1].startswith("300 claims checked: 100 verified")
    code, out, err = run("--file", "-", "--no-dns", stdin=packed[: len(packed) // 2])
    assert code == 1 and "the rest of the file is not read" in err and "1 file was not read to the end" in err


def test_a_binary_file_and_an_empty_file_end_with_a_summary_never_a_traceback(tmp_path: Path) -> None:
    noise = tmp_path / "noise.bin"
    noise.write_bytes(random.Random(25).randbytes(200_000))
    code, out, err = run("--file", str(noise), "--no-dns")
    assert code == 1 and out.splitlines()[-1].startswith("0 claims checked") and "the answer is incomplete" in err
    assert len(err.splitlines()) <= 53  # 50 records reported one by one, then only counted
    empty = tmp_path / "empty.tsv"
    empty.write_bytes(b"")
    assert run("--file", str(empty), "--no-dns") == (
        0,
        "0 claims checked: 0 verified, 0 spoofed, 0 unverifiable, 0 inconclusive\n",
        "",
    )


def test_bad_usage_is_one_line_and_exit_2(tmp_path: Path) -> None:
    for args, said in (
        (["--file", str(tmp_path / "missing.tsv")], "cannot be read: No such file or directory"),
        (["--file", str(tmp_path)], "cannot be read"),
        (["--file", "-", "192.0.2.1"], "IP addresses and --file PAIRS exclude each other"),
        ([], "give one or more IP addresses and --agent UA, or --file PAIRS"),
        (["192.0.2.1"], "give one or more IP addresses and --agent UA, or --file PAIRS"),
        (["--file", "-", "--update"], "takes no IP, --file"),
    ):
        code, _, err = run(*args, stdin=b"")
        assert code == 2 and said in err and len(err.strip().splitlines()) == 1, (args, err)
    code, _, err = run("--file", "-", "--jobs", "17", stdin=b"")  # more threads than lookups the system runs
    assert code == 2 and "'--jobs': 17 is not in the range 1<=x<=16" in err


def test_at_judges_every_claim_by_the_lists_in_force_then(tmp_path: Path) -> None:
    document = {"creationTime": "2030-01-01T00:00:00Z", "prefixes": [{"ipv4Prefix": "198.51.100.0/24"}]}
    (tmp_path / "openai-gptbot.json").write_text(json.dumps(document))
    data = b"198.51.100.7\tGPTBot/1.2\n192.0.2.1\tGPTBot/1.2\n"
    folder = ("--lists", str(tmp_path), "--no-dns")
    code, out, _ = run("--file", "-", *folder, "--at", "2030-01-15", stdin=data)
    lines = out.splitlines()
    assert lines[0] == "lists in force at 2030-01-15T00:00:00Z: openai-gptbot.json (creationTime 2030-01-01T00:00:00Z)"
    assert lines[1].startswith("198.51.100.7: verified")
    assert lines[-1].startswith("2 claims checked: 1 verified, 1 spoofed") and code == 1
    # Before the list's first version it is not at hand: inconclusive, never spoofed.
    code, out, _ = run("--file", "-", *folder, "--at", "2029-12-31", "--json", stdin=data)
    claims, summary = json_lines(out)
    assert [c["status"] for c in claims] == ["inconclusive", "inconclusive"] and code == 1
    assert summary["at"] == "2029-12-31T00:00:00Z"
    assert summary["lists"] == [{"list": "openai-gptbot.json", "creation_time": None}]


# Yandex publishes reverse-DNS names only: each of its claims asks the DNS server on 127.0.0.1.
YANDEX_IPS = [f"5.255.253.{n}" for n in range(1, 25)]


def yandex_zone() -> str:
    records = []
    for n, address in enumerate(YANDEX_IPS):
        pointer = ip_address(address).reverse_pointer
        if n % 3 == 0:  # a spoofer's own reverse zone
            records.append(f"{pointer}. 300 IN PTR spider.yandex.com.evil.example.")
        elif n % 3 == 1:
            records.append(f"{pointer}. 300 IN PTR spider-{n}.yandex.com.")
            records.append(f"spider-{n}.yandex.com. 300 IN A {address}")
        # n % 3 == 2: no PTR record at all (NXDOMAIN)
    return "\n".join(records) + "\n"


def test_jobs_ask_dns_concurrently_and_keep_the_input_order() -> None:
    rng = random.Random(7)
    lines = [f"{rng.choice(YANDEX_IPS)}\t{YANDEX}" if n % 4 else f"66.249.66.1\t{GOOGLEBOT}" for n in range(300)]
    data = ("\n".join(lines) + "\n").encode()
    outputs = {}
    for jobs in ("1", "4"):
        with dns_server(zone(yandex_zone())) as server:
            where = f"127.0.0.1:{server.port}"
            code, out, err = run("--file", "-", "--dns-server", where, "--jobs", jobs, "--json", stdin=data)
            ptr_questions = sum(q.startswith("PTR") for q in server.queries)
        claims, summary = json_lines(out)
        assert [c["line"] for c in claims] == list(range(1, 301))
        assert [c["address"] for c in claims] == [line.split("\t")[0] for line in lines]
        assert code == 1 and err == "" and summary["counts"]["spoofed"] > 0
        # One PTR question per distinct address asked, whatever the repeats and the threads.
        assert ptr_questions == len({line.split("\t")[0] for line in lines} - {"66.249.66.1"})
        outputs[jobs] = out
    assert outputs["1"] == outputs["4"]
    by_address = {c["address"]: (c["status"], c["method"]) for c in json_lines(outputs["4"])[0]}
    assert by_address["5.255.253.2"] == ("verified", "reverse-dns")
    assert by_address["5.255.253.1"] == ("spoofed", "reverse-dns")  # outside the suffixes
    assert by_address["5.255.253.3"] == ("spoofed", "reverse-dns")  # no name


class SlowResolver:
    """Every PTR lookup takes a while and is counted; no name is found."""

    def __init__(self) -> None:
        self.asked = 0
        self._lock = threading.Lock()

    def names(self, ip: IPAddress, timeout: float) -> Answer:
        with self._lock:
            self.asked += 1
        time.sleep(0.05)
        return Answer(Lookup.NO_NAME, ttl=60)

    def addresses(self, name: str, version: int, timeout: float) -> Answer:
        raise AssertionError("no name is found: nothing to confirm")


def test_a_run_stopped_early_drops_the_claims_not_yet_asked() -> None:
    # 200 distinct Yandex claims for 2 threads: the reader stops (Ctrl-C, a closed pipe) after the first.
    resolver = SlowResolver()
    claims = (Claim(n, f"5.255.{n >> 8}.{n & 255}", YANDEX) for n in range(1, 201))
    answered = _answered(claims, Verifier(resolver=resolver), None, 2)
    first, found = next(answered)
    assert first.number == 1 and found.status.value == "spoofed"
    answered.close()
    time.sleep(0.3)  # let the lookups already under way end
    assert resolver.asked < 20  # the others were cancelled, not asked


class Generated(io.RawIOBase):
    """`count` lines of claims made as they are read: a file larger than the memory the test allows."""

    def __init__(self, count: int) -> None:
        self._lines = (self.line(n).encode() for n in range(count))
        self._pending = b""

    @staticmethod
    def line(n: int) -> str:
        if n % 100 == 99:
            return "y" * (4 * MAX_LINE) + "\n"  # a huge line now and then
        if n % 10:
            return f"66.249.66.1\t{GOOGLEBOT}\n"  # a log's repeats
        return f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}\tBot{n % 50}/1.0\n"  # and ever new pairs

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        into = memoryview(buffer).cast("B")
        while len(self._pending) < len(into) and (more := next(self._lines, None)) is not None:
            self._pending += more
        size = min(len(into), len(self._pending))
        into[:size], self._pending = self._pending[:size], self._pending[size:]
        return size


class Counted(io.TextIOBase):
    """Standard output that counts its lines and keeps none."""

    def __init__(self) -> None:
        self.lines = 0

    def write(self, text: str) -> int:
        self.lines += text.count("\n")
        return len(text)


def peak_memory(count: int) -> int:
    """Bytes allocated at the peak while `count` generated lines are verified, their output only counted."""
    out = Counted()
    lists = [snapshot(name) for name in shipped()]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stdin", type("Stdin", (), {"buffer": io.BufferedReader(Generated(count))})())
        patch.setattr(sys, "stdout", out)
        tracemalloc.start()
        try:
            with pytest.raises(SystemExit) as ended:
                verify_file("-", ListHistory(lists), None, None, None, 1, True, "en")
            peak: int = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert ended.value.code == 1 and out.lines == count - count // 100 + 1  # the huge lines skipped, a summary
    return peak


def test_memory_stays_flat_whatever_the_files_length(monkeypatch: pytest.MonkeyPatch) -> None:
    # The verdicts kept (and kept rendered) bounded at 200: the defaults would take minutes to fill under
    # tracemalloc. A tenth of the lines are new pairs, so the caches fill and evict; each 100th line is
    # 64 KiB long. Four times the lines take no more memory (within a tenth), under a sixth of the 13 MB read.
    monkeypatch.setattr(listclaims, "VERDICTS", 200)
    monkeypatch.setattr(verify_cli, "SHOWN_KEPT", 200)
    peak_memory(100)  # catalogues and messages loaded once, not counted below
    small, large = peak_memory(5_000), peak_memory(20_000)
    assert 6 * large < 20_000 // 100 * 4 * MAX_LINE
    assert large < small * 1.1
