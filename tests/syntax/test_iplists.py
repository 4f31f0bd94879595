"""Reading the operators' IP lists: one-line problems, bad prefixes numbered and skipped; the shipped snapshots."""

from __future__ import annotations

import ipaddress
import json
import tracemalloc
from pathlib import Path

import pytest

from robotscope.syntax import iplists, verification
from robotscope.syntax.iplists import MAX_BYTES, MAX_PROBLEMS, read_list
from tests.fuzz.fuzz_iplists import SEEDS, check
from tests.fuzz.harness import run_briefly


def texts(data: bytes | str) -> list[str]:
    return [problem.render() for problem in read_list(data, "x.json").problems]


def test_a_list_in_the_operators_format_is_read_whole() -> None:
    data = json.dumps(
        {
            "creationTime": "2026-09-21T14:46:11.000000",
            "prefixes": [{"ipv6Prefix": "2001:4860:4801:10::/64"}, {"ipv4Prefix": "66.249.64.0/27"}],
        }
    )
    ip_list = read_list(data.encode(), "google-common-crawlers.json")
    assert ip_list.creation_time == "2026-09-21T14:46:11.000000" and ip_list.problems == ()
    assert ip_list.networks == (ipaddress.ip_network("2001:4860:4801:10::/64"), ipaddress.ip_network("66.249.64.0/27"))


def test_a_bad_prefix_is_reported_with_its_number_and_the_others_are_kept() -> None:
    data = {
        "creationTime": "2026-09-21T00:00:00Z",
        "prefixes": [
            {"ipv4Prefix": "66.249.64.0/27"},
            {"ipv4Prefix": "not-a-cidr"},
            {"ipv6Prefix": "66.249.65.0/27"},
            7,
            {"ipv4Prefix": "66.249.66.5/27"},
            {"ipv4Prefix": "1.2.3.0/24", "ipv6Prefix": "::/0"},
            {"ipv4Prefix": "3.81.245.78"},
        ],
    }
    ip_list = read_list(json.dumps(data), "x.json")
    assert [str(n) for n in ip_list.networks] == ["66.249.64.0/27", "66.249.66.0/27", "3.81.245.78/32"]
    assert [p.render() for p in ip_list.problems] == [
        'x.json: prefix 2: `ipv4Prefix` "not-a-cidr" is not a prefix of that family: skipped',
        'x.json: prefix 3: `ipv6Prefix` "66.249.65.0/27" is not a prefix of that family: skipped',
        "x.json: prefix 4: 7 is not an object with one `ipv4Prefix` or `ipv6Prefix`: skipped",
        'x.json: prefix 5: "66.249.66.5/27" has host bits set: read as 66.249.66.0/27',
        'x.json: prefix 6: {"ipv4Prefix": "1.2.3.0/24", "ipv6Prefix": "::/0"} is not an object with one '
        "`ipv4Prefix` or `ipv6Prefix`: skipped",
    ]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"\xff\xfe{}", "x.json: the list is not UTF-8 text"),
        (b'{"prefixes": [', "x.json: not JSON (Expecting value, line 1, column 15)"),
        (b"[]", "x.json: not a JSON object with `creationTime` and `prefixes`"),
        (b'{"creationTime": "2026-09-21"}', "x.json: no `prefixes` array: no address is covered"),
        (b'{"prefixes": []}', "x.json: no `creationTime`: which version of the list this is is unknown"),
        (b'{"creationTime": 5, "prefixes": []}', "x.json: `creationTime` 5 is not an ISO 8601 date and time"),
        (b"[" * 100_000 + b"]" * 100_000, 'x.json: the JSON cannot be read ("maximum recursion depth exceeded'),
    ],
)
def test_each_bad_list_gets_one_line_saying_why(data: bytes, expected: str) -> None:
    found = texts(data)
    assert len(found) == 1 and found[0].startswith(expected) and "\n" not in found[0]


def test_creation_times_as_operators_write_them_are_accepted() -> None:
    for written in ("2026-09-21T14:46:11.000000", "2026-09-21T14:46:11Z", "2026-08-14T20:03:38.055838Z", "2024-01-03"):
        assert read_list(json.dumps({"creationTime": written, "prefixes": []}), "x").creation_time == written


def test_problems_past_the_limit_are_counted_and_memory_stays_bounded() -> None:
    bad = json.dumps({"creationTime": "2026-09-21", "prefixes": [{"ipv4Prefix": "x\ny"}] * 10_000})
    ip_list = read_list(bad, "x.json")
    assert len(ip_list.problems) == MAX_PROBLEMS and ip_list.more == 10_000 - MAX_PROBLEMS
    assert all("\n" not in p.render() for p in ip_list.problems)  # the bad value's newline is escaped
    huge = b" " * (MAX_BYTES + 1)
    assert texts(huge) == [f"x.json: the list is larger than {MAX_BYTES:,} bytes: not read"]
    tracemalloc.start()
    read_list(huge, "x.json")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 1024 * 1024  # refused before decoding


def test_every_shipped_snapshot_reads_clean_with_the_registry_date() -> None:
    shipped = iplists.shipped()
    assert len(shipped) == 11
    files = {path.name for path in (Path(iplists.__file__).parent / "iplists").glob("*.json")}
    assert files == set(shipped)
    for name in shipped:
        ip_list = iplists.snapshot(name)
        assert ip_list.problems == () and ip_list.networks and ip_list.creation_time, name
        source = verification.list_source(name)
        assert source is not None
        assert {f"ipv{n.version}" for n in ip_list.networks} <= set(source.families), name
    with pytest.raises(KeyError):
        iplists.snapshot("google-user-triggered-agents.json")  # in the registry, but no snapshot ships


def test_snapshot_facts_from_the_research_hold() -> None:
    # Counts the research file gives (docs/verification.md): Apple 24, Perplexity 8 and 4, GPTBot 21.
    counts = {name: len(iplists.snapshot(name).networks) for name in iplists.shipped()}
    assert counts["apple-applebot.json"] == 24 and counts["openai-gptbot.json"] == 21
    assert counts["perplexity-perplexitybot.json"] == 8 and counts["perplexity-perplexity-user.json"] == 4
    anthropic = iplists.snapshot("anthropic-bots.json").networks
    assert ipaddress.ip_network("216.73.216.0/22") in anthropic
    common = iplists.snapshot("google-common-crawlers.json").networks
    assert ipaddress.ip_address("66.249.66.1") in ipaddress.ip_network("66.249.66.0/27") in common
    assert all(n.version == 4 for n in iplists.snapshot("bing-bingbot.json").networks)


def test_the_google_snapshots_are_the_mirrored_versions_of_2026_08_21() -> None:
    # Counted from the mirror's files (iplists/README.md): IPv4 and IPv6 prefixes, and creationTime.
    expected = {
        "google-common-crawlers.json": (169, 146, "2026-08-21T14:45:42.000000"),
        "google-special-crawlers.json": (135, 135, "2026-08-21T14:46:19.000000"),
        "google-user-triggered-fetchers.json": (528, 528, "2026-08-21T14:45:40.000000"),
    }
    for name, (four, six, created) in expected.items():
        found = iplists.snapshot(name)
        versions = [n.version for n in found.networks]
        assert (versions.count(4), versions.count(6), found.creation_time) == (four, six, created), name
        assert len(set(found.networks)) == len(versions), name  # no prefix twice


@pytest.mark.parametrize("seed", sorted(SEEDS.iterdir()), ids=lambda p: p.name)
def test_the_fuzz_target_passes_on_every_seed(seed: Path) -> None:
    check(seed.read_bytes())


def test_the_fuzz_target_runs_under_atheris(tmp_path: Path) -> None:
    run_briefly("tests.fuzz.fuzz_iplists", SEEDS, tmp_path, 2000)
