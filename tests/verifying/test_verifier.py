"""`Verifier`: each claim by the lists in force at its moment, repeats from its caches, one DNS question per claim."""

from __future__ import annotations

import ipaddress
import json
import threading
import time
from datetime import UTC, datetime

import pytest

from robotscope.reports.verification import Status
from robotscope.syntax.iplists import IpList, read_list
from robotscope.verify import ListHistory, Verifier, verify
from robotscope.verifying.resolvers import Answer, IPAddress
from robotscope.verifying.resolvers import Status as Lookup
from robotscope.verifying.verifier import LONGEST_KEPT
from tests.clock import moment as at

YANDEX = "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)"
YANDEX_IP = "5.255.253.1"
GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"


class CountingResolver:
    """Answers that every address is a Yandex spider, confirmed forward; counts the questions."""

    def __init__(self, hold: float = 0.0) -> None:
        self.questions = 0
        self.hold = hold
        self._lock = threading.Lock()

    def names(self, ip: IPAddress, timeout: float) -> Answer:
        with self._lock:
            self.questions += 1
        time.sleep(self.hold)  # a slow answer: the window in which other threads ask the same claim
        return Answer(Lookup.OK, (f"spider-{ip}.yandex.com",), ttl=300)

    def addresses(self, name: str, version: int, timeout: float) -> Answer:
        with self._lock:
            self.questions += 1
        return Answer(Lookup.OK, (name.removeprefix("spider-").removesuffix(".yandex.com"),), ttl=300)


def gptbot(created: str, prefix: str) -> IpList:
    document = {"creationTime": created, "prefixes": [{"ipv4Prefix": prefix}]}
    return read_list(json.dumps(document).encode(), "openai-gptbot.json")


OLD = gptbot("2026-01-01T00:00:00Z", "198.51.100.0/24")
NEW = gptbot("2026-06-01T00:00:00Z", "203.0.113.0/24")
MOVED = "198.51.100.7"  # in the old version only


def test_repeats_are_answered_from_the_cache_without_a_second_dns_question() -> None:
    resolver = CountingResolver()
    verifier = Verifier(resolver=resolver)
    first = verifier.verify(YANDEX_IP, YANDEX)
    assert (first.status, first.method) == (Status.VERIFIED, "reverse-dns") and resolver.questions == 2
    for _ in range(1_000):
        assert verifier.verify(YANDEX_IP, YANDEX) is first
    # Another User-Agent string naming the same crawler shares the verdict, and gets its own string back.
    other = verifier.verify(YANDEX_IP, "YandexBot")
    assert (other.agent, other.status, other.reason) == ("YandexBot", first.status, first.reason)
    assert resolver.questions == 2 and verifier.cached() == (1, 2)


def test_threads_asking_the_same_claim_at_once_ask_dns_once() -> None:
    resolver = CountingResolver(hold=0.3)
    verifier = Verifier(resolver=resolver)
    start = threading.Barrier(8)
    found = []

    def ask() -> None:
        start.wait()
        found.append(verifier.verify(YANDEX_IP, YANDEX))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert len(found) == 8 and {v.status for v in found} == {Status.VERIFIED}
    assert resolver.questions == 2  # one PTR, one A: the seven others waited for its verdict


def test_each_moment_is_judged_by_the_lists_in_force_then() -> None:
    verifier = Verifier(ListHistory([NEW, OLD]))
    assert verifier.verify(MOVED, GPTBOT, at("2026-03-01")).status is Status.VERIFIED
    assert verifier.verify(MOVED, GPTBOT, at("2026-07-01")).status is Status.SPOOFED
    assert verifier.verify(MOVED, GPTBOT).status is Status.SPOOFED  # now: the newest version
    # Before the first version the list is not at hand: never proof of spoofing.
    assert verifier.verify(MOVED, GPTBOT, at("2025-12-31")).status is Status.INCONCLUSIVE
    # A datetime is a moment too; one without a zone is UTC, as the lists' creationTime is read.
    assert verifier.verify(MOVED, GPTBOT, datetime(2026, 5, 31, 23, 59)).status is Status.VERIFIED
    assert verifier.verify(MOVED, GPTBOT, datetime(2026, 6, 1, tzinfo=UTC)).status is Status.SPOOFED
    # Moments between the same two versions share one verdict.
    assert verifier.verify(MOVED, GPTBOT, at("2026-02-01")) is verifier.verify(MOVED, GPTBOT, at("2026-04-01"))


def test_the_caches_stay_within_their_bounds() -> None:
    verifier = Verifier(verdicts=100, agents=10)
    for n in range(2_000):
        verifier.verify(str(ipaddress.IPv4Address(0x0A000000 + n)), f"Bot{n % 50}/1.0")
    assert verifier.cached() == (100, 10)
    # A User-Agent past LONGEST_KEPT characters naming no crawler is judged each time, never kept.
    fresh = Verifier()
    long_agent = "x" * (LONGEST_KEPT + 1)
    assert fresh.verify("192.0.2.1", long_agent).status is Status.UNVERIFIABLE
    assert fresh.cached() == (0, 0) and fresh.known("192.0.2.1", long_agent) is None


def test_known_answers_only_from_the_cache() -> None:
    resolver = CountingResolver()
    verifier = Verifier(resolver=resolver)
    assert verifier.known(YANDEX_IP, YANDEX) is None and resolver.questions == 0
    found = verifier.verify(YANDEX_IP, YANDEX)
    assert verifier.known(YANDEX_IP, YANDEX) is found
    assert verifier.known(YANDEX_IP, YANDEX, at("2026-01-01")) is None  # another selection of lists


def test_a_bad_address_raises_and_leaves_nothing_waiting() -> None:
    verifier = Verifier(resolver=CountingResolver())
    for _ in range(2):  # the second would wait forever if the first had left its claim marked as asked
        with pytest.raises(ValueError, match="not an IP address"):
            verifier.verify("not-an-ip", YANDEX)
    assert verifier.cached() == (0, 1)


def test_the_convenience_function_uses_the_shipped_lists() -> None:
    assert verify("20.171.206.1", GPTBOT, dns=False).status is Status.VERIFIED
    assert verify("192.0.2.1", GPTBOT, dns=False).status is Status.SPOOFED
    # The shipped snapshots were made in 2025: a request of 2020 finds no list at hand.
    assert verify("20.171.206.1", GPTBOT, when=datetime(2020, 1, 1), dns=False).status is Status.INCONCLUSIVE
    assert verify(YANDEX_IP, YANDEX, dns=False).status is Status.INCONCLUSIVE
