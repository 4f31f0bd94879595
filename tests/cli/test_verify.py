"""`robotscope verify` and `reports.verification.judge`: each claim verified, spoofed, unverifiable or inconclusive."""

from __future__ import annotations

import json
from ipaddress import IPv4Network, IPv6Network, ip_address
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from robotscope.cli import cli
from robotscope.messages import message
from robotscope.reports.verification import ReverseDns, Status, judge
from robotscope.syntax.ipindex import AddressIndex
from robotscope.syntax.iplists import MAX_BYTES, IpList, read_list, shipped, snapshot
from tests.verifying.dns_server import dns_server, zone

# The lists of the default history store count too: the tests' is a fresh one per test.
pytestmark = pytest.mark.usefixtures("isolated")

GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
GOOGLE_ADDRESS = "66.249.66.1"  # in google-common-crawlers.json's 66.249.64.0/19 ranges
OPENAI_ADDRESS = "20.171.206.1"  # in openai-gptbot.json


def verify(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["verify", *args])
    return result.exit_code, result.stdout, result.stderr


def claims(*args: str) -> list[dict[str, Any]]:
    code, out, err = verify(*args, "--json")
    assert code in (0, 1), err
    found: list[dict[str, Any]] = json.loads(out)["claims"]
    return found


def test_an_address_in_the_crawlers_list_is_verified_with_the_list_and_its_version() -> None:
    (one,) = claims(GOOGLE_ADDRESS, "--agent", GOOGLEBOT)
    assert (one["status"], one["method"], one["token"]) == ("verified", "ip-list", "Googlebot")
    assert one["covering"][0]["list"] == "google-common-crawlers.json" and one["covering"][0]["creation_time"]


def test_an_address_outside_complete_lists_is_spoofed_and_names_whose_list_it_is_in() -> None:
    (one,) = claims(OPENAI_ADDRESS, "--agent", "Googlebot")
    assert (one["status"], one["method"]) == ("spoofed", "ip-list")
    assert [c["list"] for c in one["covering"]] == ["openai-gptbot.json"]  # a "Googlebot" from OpenAI's ranges


def test_every_shipped_list_verifies_its_own_crawlers_and_spoofs_another_address() -> None:
    # For each shipped snapshot: an address of its first network is verified for every crawler the
    # registry files under it; 192.0.2.1 (TEST-NET-1, in no list) is spoofed for them.
    from robotscope.syntax.verification import tokens_of

    lists = [snapshot(name) for name in shipped()]
    index = AddressIndex(lists)
    names = set(shipped())
    checked = 0
    for listed in lists:
        inside = str(next(iter(listed.networks)).network_address)
        for token in tokens_of(listed.name):
            assert judge(inside, token, index, names).status is Status.VERIFIED, (listed.name, token)
            # TEST-NET-1 is in no list: spoofed where the crawler's lists are all shipped, else inconclusive.
            assert judge("192.0.2.1", token, index, names).status in (Status.SPOOFED, Status.INCONCLUSIVE)
            checked += 1
    assert checked >= 10


def test_a_user_triggered_fetcher_is_verified_by_the_shipped_list_and_never_spoofed_outside_it() -> None:
    # Google files its user-triggered fetchers under two lists; only user-triggered-fetchers.json ships.
    fetchers = snapshot("google-user-triggered-fetchers.json")
    inside = str(next(n for n in fetchers.networks if n.version == 4).network_address)
    (one,) = claims(inside, "--agent", "FeedFetcher-Google", "--no-dns")
    assert (one["status"], one["method"]) == ("verified", "ip-list")
    assert one["covering"][0] == {"list": fetchers.name, "creation_time": fetchers.creation_time}
    for address in ("192.0.2.1", "2001:db8::1", GOOGLE_ADDRESS):
        (other,) = claims(address, "--agent", "Google-Read-Aloud", "--no-dns")
        assert other["status"] == "inconclusive", (address, other)
        assert "google-user-triggered-fetchers-google.json is not at hand" in other["reason"]
    (agent,) = claims(inside, "--agent", "Google-Agent", "--no-dns")  # its own list does not ship
    assert agent["status"] == "inconclusive" and "google-user-triggered-agents.json" in agent["reason"]


def test_a_crawler_whose_operator_publishes_nothing_is_unverifiable_never_spoofed() -> None:
    (one,) = claims("192.0.2.1", "--agent", "CCBot")
    assert one["status"] == "unverifiable" and "publishes no way" in one["reason"]
    (other,) = claims("192.0.2.1", "--agent", "NoSuchBot/1.0")
    assert other["status"] == "unverifiable" and other["token"] is None


def test_a_reverse_dns_only_crawler_is_inconclusive_without_dns_and_follows_it_with() -> None:
    (one,) = claims("192.0.2.1", "--agent", "YandexBot", "--no-dns")
    assert one["status"] == "inconclusive" and "reverse DNS was not asked" in one["reason"]
    index = AddressIndex([])
    said = message("verify.undated")
    assert judge("192.0.2.1", "YandexBot", index, (), ReverseDns(Status.VERIFIED, said)).status is Status.VERIFIED
    assert judge("192.0.2.1", "YandexBot", index, (), ReverseDns(Status.SPOOFED, said)).status is Status.SPOOFED


def test_a_list_not_at_hand_makes_it_inconclusive_not_spoofed(tmp_path: Path) -> None:
    # Only OpenAI's list in the folder: a Googlebot claim cannot be judged by Google's list.
    (tmp_path / "openai-gptbot.json").write_text(
        '{"creationTime": "2026-01-01T00:00:00Z", "prefixes": [{"ipv4Prefix": "20.171.206.0/24"}]}'
    )
    (one,) = claims(GOOGLE_ADDRESS, "--agent", "Googlebot", "--lists", str(tmp_path), "--no-dns")
    assert one["status"] == "inconclusive" and "google-common-crawlers.json" in one["reason"]


def test_two_versions_of_a_list_give_two_verdicts_for_an_address_that_moved(tmp_path: Path) -> None:
    for day, prefix in (("old", "198.51.100.0/24"), ("new", "203.0.113.0/24")):
        folder = tmp_path / day
        folder.mkdir()
        document = {
            "creationTime": f"2026-0{1 if day == 'old' else 6}-01T00:00:00Z",
            "prefixes": [{"ipv4Prefix": prefix}],
        }
        (folder / "openai-gptbot.json").write_text(json.dumps(document))
    old = claims("198.51.100.7", "--agent", "GPTBot", "--lists", str(tmp_path / "old"))[0]
    new = claims("198.51.100.7", "--agent", "GPTBot", "--lists", str(tmp_path / "new"))[0]
    assert (old["status"], new["status"]) == ("verified", "spoofed")
    assert old["covering"] == [{"list": "openai-gptbot.json", "creation_time": "2026-01-01T00:00:00Z"}]


def test_a_bad_prefix_in_a_list_is_a_warning_and_the_rest_is_used(tmp_path: Path) -> None:
    prefixes = '[{"ipv4Prefix": "nonsense"}, {"ipv4Prefix": "198.51.100.0/24"}]'
    (tmp_path / "openai-gptbot.json").write_text(
        '{"creationTime": "2026-01-01T00:00:00Z", "prefixes": ' + prefixes + "}"
    )
    code, out, err = verify("198.51.100.7", "--agent", "GPTBot", "--lists", str(tmp_path))
    assert code == 0 and "verified" in out
    assert "prefix 1" in err and "skipped" in err


def test_bad_usage_is_one_line_and_exit_2(tmp_path: Path) -> None:
    for args, said in (
        (["not-an-ip", "--agent", "Googlebot"], "is not an IP address"),
        (["192.0.2.1", "--agent", "Googlebot", "--lists", str(tmp_path / "missing")], "not a folder"),
        (["192.0.2.1", "--agent", "Googlebot", "--lists", str(tmp_path)], "holds none of the lists"),
        # An empty --agent ("$UA" unset in a script) claims nothing: bad usage, not "unverifiable" and exit 0.
        (["66.249.66.1", "--agent", ""], "the agent is empty"),
        (["66.249.66.1", "--agent", "  "], "the agent is empty"),
        (["--file", str(tmp_path / "claims.tsv"), "--agent", ""], "the agent is empty"),
        # Moments a date and time cannot hold once in UTC (the output names the moment in UTC).
        (["192.0.2.1", "--agent", "Googlebot", "--at", "9999-12-31T23:59:59-23:59"], "--at takes"),
        (["192.0.2.1", "--agent", "Googlebot", "--at", "0001-01-01T00:00:00+01:00"], "--at takes"),
        (["192.0.2.1", "--agent", "Googlebot", "--at", "9999-12-31T23:59:59.999999"], "--at takes"),
    ):
        code, _, err = verify(*args)
        assert code == 2 and said in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (("192.0.2.1", "--agent", "Googlebot", "--jobs", "8"), "--jobs"),  # reverse DNS of one claim at a time
        (("192.0.2.1", "--agent", "Googlebot", "--timeout", "30"), "--timeout"),  # no fetch: DNS has its deadlines
        (("--file", "-", "--timeout", "30"), "--timeout"),
        (("--update", "--no-dns", "--store", "{store}"), "--no-dns"),  # an update asks no DNS question
        (("--update", "--dns-server", "127.0.0.1:53", "--store", "{store}"), "--dns-server"),
        (("--update", "--jobs", "2", "--store", "{store}"), "--jobs"),
        (("--request", "{request}", "--lists", "{folder}"), "--lists"),  # without --ip no list is read
        (("--request", "{request}", "--store", "{store}"), "--store"),
        (("--request", "{request}", "--no-dns"), "--no-dns"),
        (("--request", "{request}", "--ip", "192.0.2.1", "--jobs", "2"), "--jobs"),
        (("--request", "{request}", "--timeout", "30"), "--timeout"),  # the key directory has its own 5 s
    ],
)
def test_an_option_the_command_would_not_use_is_refused_not_ignored(
    args: tuple[str, ...], option: str, tmp_path: Path
) -> None:
    request = tmp_path / "request.http"
    request.write_bytes(b"GET / HTTP/1.1\r\nHost: a.example\r\nUser-Agent: Googlebot\r\n\r\n")
    paths = {"store": str(tmp_path / "history.sqlite3"), "request": str(request), "folder": str(tmp_path)}
    result = CliRunner().invoke(cli, ["verify", *(arg.format(**paths) for arg in args)], input=b"")
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert f"{option} is not used" in result.stderr and not (tmp_path / "history.sqlite3").exists()


def test_exit_codes_and_text_in_both_languages() -> None:
    code, out, _ = verify(GOOGLE_ADDRESS, "--agent", "Googlebot")
    assert code == 0 and out.startswith(f"{GOOGLE_ADDRESS}: verified as Googlebot")
    assert verify("192.0.2.1", "--agent", "Googlebot")[0] == 1  # spoofed
    assert verify("192.0.2.1", "--agent", "YandexBot", "--no-dns")[0] == 1  # inconclusive: the answer is incomplete
    assert verify("192.0.2.1", "--agent", "CCBot")[0] == 0  # unverifiable: nothing was left undone
    code, out, _ = verify(GOOGLE_ADDRESS, "--agent", "Googlebot", "--lang", "ko")
    assert "확인됨" in out and "주장 1개 확인" in out


def test_judge_reads_lists_from_any_text() -> None:
    listed = read_list(b'{"prefixes": [{"ipv6Prefix": "2001:db8::/32"}]}', "openai-gptbot.json")
    verdict = judge("2001:db8::1", "GPTBot", AddressIndex([listed]), {"openai-gptbot.json"})
    assert verdict.status is Status.VERIFIED and "not given" in verdict.reason.render("en")


# Yandex publishes reverse-DNS names only: the claim is decided by forward-confirmed reverse DNS,
# asked of a real DNS server on 127.0.0.1 (tests/verifying/dns_server.py).
YANDEX_IP = "5.255.253.1"
YANDEX_ZONE = (
    f"{ip_address(YANDEX_IP).reverse_pointer}. 300 IN PTR spider-5-255-253-1.yandex.com.\n"
    f"spider-5-255-253-1.yandex.com. 300 IN A {YANDEX_IP}\n"
    f"{ip_address('192.0.2.9').reverse_pointer}. 300 IN PTR spider.yandex.com.evil.example.\n"
    "spider.yandex.com.evil.example. 300 IN A 192.0.2.9\n"
)


def test_reverse_dns_decides_where_the_operator_publishes_names_only() -> None:
    with dns_server(zone(YANDEX_ZONE)) as server:
        where = f"127.0.0.1:{server.port}"
        (genuine,) = claims(YANDEX_IP, "--agent", "YandexBot", "--dns-server", where)
        (spoofed,) = claims("192.0.2.9", "--agent", "YandexBot", "--dns-server", where)
        # A crawler whose lists decide costs no lookup.
        asked = len(server.queries)
        claims(GOOGLE_ADDRESS, "--agent", "Googlebot", "--dns-server", where)
        assert len(server.queries) == asked
    assert (genuine["status"], genuine["method"]) == ("verified", "reverse-dns")
    assert "spider-5-255-253-1.yandex.com" in genuine["reason"]
    assert (spoofed["status"], spoofed["method"]) == ("spoofed", "reverse-dns")


def test_an_ipv4_mapped_address_is_asked_of_reverse_dns_as_its_ipv4() -> None:
    # Dual-stack servers log IPv4 clients as ::ffff:a.b.c.d; the lists read that as the IPv4 address,
    # and so must reverse DNS: its PTR is under in-addr.arpa, and the name's A records give it back.
    with dns_server(zone(YANDEX_ZONE)) as server:
        (mapped,) = claims(f"::ffff:{YANDEX_IP}", "--agent", "YandexBot", "--dns-server", f"127.0.0.1:{server.port}")
        asked = list(server.queries)
    assert (mapped["status"], mapped["method"]) == ("verified", "reverse-dns"), mapped
    assert mapped["address"] == f"::ffff:{YANDEX_IP}"
    assert asked == ["PTR 1.253.255.5.in-addr.arpa.", "A spider-5-255-253-1.yandex.com."]


def test_a_silent_dns_server_leaves_the_claim_inconclusive() -> None:
    with dns_server(lambda _: []) as server:
        code, out, _ = verify(YANDEX_IP, "--agent", "YandexBot", "--dns-server", f"127.0.0.1:{server.port}")
    assert code == 1 and "inconclusive" in out


def test_dns_options_in_bad_usage_are_one_line_and_exit_2() -> None:
    for args, said in (
        (["--no-dns", "--dns-server", "127.0.0.1:53"], "exclude each other"),
        (["--dns-server", "not a server"], "--dns-server not a server"),
    ):
        code, _, err = verify(YANDEX_IP, "--agent", "YandexBot", *args)
        assert code == 2 and said in err and len(err.strip().splitlines()) == 1


def test_a_list_that_cannot_be_read_is_not_at_hand_and_proves_nothing(tmp_path: Path) -> None:
    # Not JSON, empty, and past the size limit: each is one warning, and the claim it would have
    # judged is inconclusive, never spoofed.
    for name, data in (("not-json", b"not json"), ("empty", b""), ("huge", b" " * (MAX_BYTES + 1))):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "openai-gptbot.json").write_bytes(data)
        code, out, err = verify(OPENAI_ADDRESS, "--agent", "GPTBot", "--lists", str(folder), "--no-dns", "--json")
        (one,) = json.loads(out)["claims"]
        assert code == 1 and one["status"] == "inconclusive", (name, one)
        assert "openai-gptbot.json" in err and len(err.strip().splitlines()) == 1


def _first_of_each_family(listed: IpList) -> list[IPv4Network | IPv6Network]:
    """A list's first network of each address family it has."""
    firsts: dict[int, IPv4Network | IPv6Network] = {}
    for network in listed.networks:
        firsts.setdefault(network.version, network)
    return list(firsts.values())


def test_only_complete_lists_of_the_addresss_family_can_call_a_claim_spoofed() -> None:
    # Over the whole registry, each crawler with lists asked from addresses outside them (a documentation
    # address of each family, and one of every other shipped list): spoofed exactly when every list of the
    # crawler that publishes that family ships. A crawler none of whose lists publishes the family is never
    # spoofed by them (Bing's list is IPv4 only: an IPv6 bingbot is left to reverse DNS); nor is one some of
    # whose lists do not ship (Google's user-triggered fetchers).
    from robotscope.syntax.verification import list_sources, methods

    lists = [snapshot(name) for name in shipped()]
    names = set(shipped())
    index = AddressIndex(lists)
    families = {source.name: source.families for source in list_sources()}
    outside = [("ipv4", "192.0.2.1"), ("ipv6", "2001:db8::1")]
    outside += [(f"ipv{n.version}", str(n.network_address)) for listed in lists for n in _first_of_each_family(listed)]
    checked = unpublished = 0
    for found in methods():
        for family, address in outside:
            verdict = judge(address, found.token, index, names)
            assert verdict.token == found.token
            if any(c.name in found.lists for c in verdict.covering):
                continue  # one of its own lists holds it
            publishes = [n for n in found.lists if family in families.get(n, ())]
            complete = bool(publishes) and all(n in names for n in publishes)
            assert (verdict.status is Status.SPOOFED) == complete, (found.token, address, verdict.status)
            unpublished += not publishes
            checked += 1
    assert unpublished >= 1 and checked >= 500
    bing = judge("2620:1ec:c11::200", "Mozilla/5.0 (compatible; bingbot/2.0)", index, names)
    assert bing.status is Status.INCONCLUSIVE and "reverse DNS" in bing.reason.render("en")
