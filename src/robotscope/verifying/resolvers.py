"""DNS lookups for FCrDNS: the system's resolver or a chosen server, with deadlines and a bounded TTL cache.

Every lookup returns an `Answer`, never raises: DNS answers come from
whoever controls the reverse zone of the address checked, so a packet may be
garbage, truncated, huge, or carry the wrong ID, and each of those becomes
a status the verdict can report.
"""

from __future__ import annotations

import ipaddress
import secrets
import socket
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from dnslib import CNAME, QTYPE, RCODE, DNSLabel, DNSQuestion, DNSRecord

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

MAX_RESPONSE = 4096  # bytes of one UDP answer; a bigger datagram is read as garbage
MAX_PACKETS = 32  # datagrams read for one query before giving up: a flood cannot keep us busy
MAX_RECORDS = 16  # names or addresses kept from one answer
MAX_CNAMES = 8  # CNAME links followed (RFC 2317 reverse delegation uses them)
NEGATIVE_TTL = 60.0  # seconds a "no such name" is cached when the answer gives no TTL
SYSTEM_TTL = 60.0  # the system resolver tells no TTL


class Status(StrEnum):
    OK = "ok"
    NO_NAME = "no-name"  # NXDOMAIN, or the name has no record of that type
    TIMEOUT = "timeout"
    SERVER_FAILURE = "server-failure"  # SERVFAIL, REFUSED, ...
    BAD_ANSWER = "bad-answer"  # only unreadable or unrelated packets came back
    TRUNCATED = "truncated"
    UNREACHABLE = "unreachable"


@dataclass(frozen=True)
class Answer:
    """A lookup's outcome: names (PTR) or addresses (A/AAAA) when `status` is OK, else why not."""

    status: Status
    values: tuple[str, ...] = ()
    ttl: float = 0.0
    detail: str = ""


class Resolver(Protocol):
    def names(self, ip: IPAddress, timeout: float) -> Answer:
        """The PTR names of `ip`."""

    def addresses(self, name: str, version: int, timeout: float) -> Answer:
        """The A (`version` 4) or AAAA (6) addresses of `name`."""


def name_text(labels: tuple[bytes, ...]) -> str:
    """A wire name as text, escaping (RFC 1035 `\\DDD`) every byte but letters, digits, `-` and `_`.

    A label holding a dot must not read as two labels: `a.googlebot` + `com`
    would otherwise pass for a name under `googlebot.com`.
    """
    allowed = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"
    return ".".join("".join(chr(b) if b in allowed else f"\\{b:03d}" for b in label) for label in labels)


def parse_server(text: str) -> tuple[str, int]:
    """`HOST:PORT` (`[v6]:PORT`; port 53 when left out) of a DNS server given as an IP address; ValueError if not."""
    host, port = text, "53"
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        if rest:
            if not rest.startswith(":"):
                raise ValueError(f"not HOST:PORT: {text!r}")
            port = rest[1:]
    elif text.count(":") == 1:
        host, port = text.split(":")
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        raise ValueError(f"not an IP address: {host!r}") from None
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"not a port: {port!r}")
    return str(address), int(port)


class ServerResolver:
    """Asks one DNS server over UDP (a recursive resolver such as 127.0.0.53:53 or 8.8.8.8:53)."""

    def __init__(self, host: str, port: int = 53) -> None:
        self.server = (host, port)
        self.family = socket.AF_INET6 if ipaddress.ip_address(host).version == 6 else socket.AF_INET

    def names(self, ip: IPAddress, timeout: float) -> Answer:
        return self.query(ip.reverse_pointer, QTYPE.PTR, timeout)

    def addresses(self, name: str, version: int, timeout: float) -> Answer:
        return self.query(name, QTYPE.A if version == 4 else QTYPE.AAAA, timeout)

    def query(self, name: str, qtype: int, timeout: float) -> Answer:
        question = DNSRecord(q=DNSQuestion(name, qtype))
        question.header.id = secrets.randbelow(65536)  # an answer must echo it: guessing is harder
        wire = question.pack()
        deadline = time.monotonic() + timeout
        resend: float | None = deadline - timeout / 2  # UDP may lose the question: ask once more halfway
        unreadable = 0
        try:
            with socket.socket(self.family, socket.SOCK_DGRAM) as sock:
                sock.connect(self.server)  # a connected socket takes datagrams from the server only
                sock.send(wire)
                for _ in range(MAX_PACKETS):
                    now = time.monotonic()
                    if now >= deadline:
                        break
                    if resend is not None and now >= resend:
                        sock.send(wire)
                        resend = None
                    sock.settimeout((deadline if resend is None else resend) - now)
                    try:
                        data = sock.recv(MAX_RESPONSE + 1)
                    except TimeoutError:
                        continue
                    answer = read_answer(data, question)
                    if answer is not None:
                        return answer
                    unreadable += 1
        except OSError as error:
            return Answer(Status.UNREACHABLE, detail=error.strerror or type(error).__name__)
        if unreadable:
            return Answer(Status.BAD_ANSWER, detail=f"{unreadable} unreadable or unrelated packets")
        return Answer(Status.TIMEOUT, detail=f"{timeout:g} s")


def read_answer(data: bytes, question: DNSRecord) -> Answer | None:
    """The answer in `data` to `question`, or None when `data` is not one (garbage, too big, another ID)."""
    if len(data) > MAX_RESPONSE:
        return None
    try:
        reply = DNSRecord.parse(data)
        return _answer(reply, question) if _answers(reply, question) else None
    except Exception:  # dnslib raises assorted errors (DNSError, IndexError, UnicodeError...) on hostile bytes
        return None


def _answers(reply: DNSRecord, question: DNSRecord) -> bool:
    asked = question.q
    return bool(
        reply.header.qr
        and reply.header.id == question.header.id
        and len(reply.questions) == 1
        and reply.q.qname == asked.qname
        and reply.q.qtype == asked.qtype
    )


def _answer(reply: DNSRecord, question: DNSRecord) -> Answer:
    if reply.header.tc:
        return Answer(Status.TRUNCATED)
    rcode = reply.header.rcode
    if rcode == RCODE.NXDOMAIN:
        return Answer(Status.NO_NAME, ttl=NEGATIVE_TTL, detail="NXDOMAIN")
    if rcode != RCODE.NOERROR:
        return Answer(Status.SERVER_FAILURE, detail=str(RCODE.get(rcode, rcode)))
    qtype = question.q.qtype
    owners: list[DNSLabel] = [question.q.qname]
    for record in reply.rr:  # the packet's size bounds them
        if record.rtype == QTYPE.CNAME and record.rname in owners and len(owners) <= MAX_CNAMES:
            target = record.rdata
            if isinstance(target, CNAME):
                owners.append(target.label)
    records = [r for r in reply.rr if r.rtype == qtype and r.rname in owners][:MAX_RECORDS]
    if not records:
        return Answer(Status.NO_NAME, ttl=NEGATIVE_TTL, detail="no data")
    if qtype == QTYPE.PTR:
        values = tuple(name_text(tuple(r.rdata.label.label)) for r in records)
    else:
        values = tuple(str(ipaddress.ip_address(bytes(r.rdata.data))) for r in records)
    return Answer(Status.OK, values, ttl=float(min(r.ttl for r in records)))


class SystemResolver:
    """The operating system's resolver (`/etc/hosts`, `resolv.conf`), each lookup in a thread bounded by its timeout.

    The C library's calls take no deadline, so a lookup that overruns is left
    to finish in its thread; at most `max_pending` such threads at once.
    """

    def __init__(self, max_pending: int = 16) -> None:
        self._slots = threading.BoundedSemaphore(max_pending)

    def names(self, ip: IPAddress, timeout: float) -> Answer:
        def lookup() -> tuple[str, ...]:
            name, aliases, _ = socket.gethostbyaddr(str(ip))
            return (name, *aliases)

        return self._run(lookup, timeout)

    def addresses(self, name: str, version: int, timeout: float) -> Answer:
        family = socket.AF_INET if version == 4 else socket.AF_INET6

        def lookup() -> tuple[str, ...]:
            found = socket.getaddrinfo(name, None, family, socket.SOCK_STREAM)
            return tuple(dict.fromkeys(str(info[4][0]).partition("%")[0] for info in found))

        return self._run(lookup, timeout)

    def _run(self, lookup: Callable[[], tuple[str, ...]], timeout: float) -> Answer:
        if not self._slots.acquire(blocking=False):
            return Answer(Status.TIMEOUT, detail="too many lookups still pending")
        result: list[Answer] = []

        def work() -> None:
            try:
                result.append(_system_answer(lookup))
            finally:
                self._slots.release()

        thread = threading.Thread(target=work, daemon=True)
        thread.start()
        thread.join(max(timeout, 0.0))
        return result[0] if result else Answer(Status.TIMEOUT, detail=f"{timeout:g} s")


def _system_answer(lookup: Callable[[], tuple[str, ...]]) -> Answer:
    no_name = {socket.EAI_NONAME, getattr(socket, "EAI_NODATA", socket.EAI_NONAME)}
    try:
        values = lookup()[:MAX_RECORDS]
    except socket.gaierror as error:
        status = Status.NO_NAME if error.errno in no_name else Status.SERVER_FAILURE
        return Answer(status, ttl=NEGATIVE_TTL, detail=str(error.strerror))
    except socket.herror as error:  # h_errno 1: HOST_NOT_FOUND, 4: NO_DATA
        status = Status.NO_NAME if error.errno in (1, 4) else Status.SERVER_FAILURE
        return Answer(status, ttl=NEGATIVE_TTL, detail=str(error.strerror))
    except (OSError, UnicodeError) as error:
        return Answer(Status.SERVER_FAILURE, detail=str(error))
    return Answer(Status.OK, values, ttl=SYSTEM_TTL) if values else Answer(Status.NO_NAME, ttl=NEGATIVE_TTL)


class CachingResolver:
    """Another resolver's answers and "no such name"s kept for their TTL (at most `max_ttl`), `size` at most, LRU."""

    def __init__(
        self,
        inner: Resolver,
        size: int = 4096,
        max_ttl: float = 3600.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.inner, self.size, self.max_ttl, self.clock = inner, size, max_ttl, clock
        self._entries: OrderedDict[tuple[str, str, int], tuple[float, Answer]] = OrderedDict()
        self._lock = threading.Lock()

    def names(self, ip: IPAddress, timeout: float) -> Answer:
        return self._cached(("ptr", str(ip), 0), lambda: self.inner.names(ip, timeout))

    def addresses(self, name: str, version: int, timeout: float) -> Answer:
        return self._cached(("addr", name.lower(), version), lambda: self.inner.addresses(name, version, timeout))

    def _cached(self, key: tuple[str, str, int], lookup: Callable[[], Answer]) -> Answer:
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry[0] > self.clock():
                self._entries.move_to_end(key)
                return entry[1]
        answer = lookup()
        if answer.status in (Status.OK, Status.NO_NAME) and answer.ttl > 0:
            with self._lock:
                self._entries[key] = (self.clock() + min(answer.ttl, self.max_ttl), answer)
                self._entries.move_to_end(key)
                while len(self._entries) > self.size:
                    self._entries.popitem(last=False)
        return answer


def resolver(server: str | None = None) -> CachingResolver:
    """The resolver `--dns-server` names: the system's when None, else `HOST:PORT` (ValueError if not one); cached."""
    return CachingResolver(SystemResolver() if server is None else ServerResolver(*parse_server(server)))
