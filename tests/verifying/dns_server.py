"""A real DNS server on 127.0.0.1 for the FCrDNS tests, built on dnslib: a zone of records, or hostile bytes.

`answer(request)` gives the datagrams to send back (none: the server stays
silent). Its loop reads at most `MAX_QUERIES` queries and stops when the test ends.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from dnslib import QTYPE, RCODE, RR, DNSRecord

MAX_QUERIES = 1_000

Script = Callable[[DNSRecord], list[bytes]]


class DnsServer:
    def __init__(self, answer: Script) -> None:
        self.answer = answer
        self.queries: list[str] = []
        self.stopping = threading.Event()
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._sock.bind(("127.0.0.1", 0))
        self._sock.settimeout(0.05)
        self.port: int = self._sock.getsockname()[1]
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        for _ in range(MAX_QUERIES):
            while not self.stopping.is_set():
                try:
                    data, peer = self._sock.recvfrom(4096)
                    break
                except TimeoutError:
                    continue
            else:
                return
            request = DNSRecord.parse(data)
            self.queries.append(f"{QTYPE[request.q.qtype]} {request.q.qname}")
            for datagram in self.answer(request):
                self._sock.sendto(datagram, peer)

    def stop(self) -> None:
        self.stopping.set()
        self._thread.join(5)
        self._sock.close()


@contextmanager
def dns_server(answer: Script) -> Iterator[DnsServer]:
    server = DnsServer(answer)
    try:
        yield server
    finally:
        server.stop()


def zone(records: str) -> Script:
    """Answers from zone-file lines (`name TTL IN TYPE data`), CNAMEs followed as a recursive resolver does.

    NXDOMAIN for a name without records.
    """
    rrs = RR.fromZone(records)

    def answer(request: DNSRecord) -> list[bytes]:
        reply = request.reply()
        owners = [request.q.qname]
        for owner in owners:  # grows by the CNAMEs found; the zones of the tests have no loop
            for rr in rrs:
                if rr.rname == owner and rr.rtype in (request.q.qtype, QTYPE.CNAME):
                    reply.add_answer(rr)
                    if rr.rtype == QTYPE.CNAME:
                        owners.append(rr.rdata.label)
        if not any(rr.rname == request.q.qname for rr in rrs):
            reply.header.rcode = RCODE.NXDOMAIN
        return [reply.pack()]

    return answer
