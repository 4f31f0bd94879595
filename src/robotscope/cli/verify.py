"""`robotscope verify`: is a request from an address really from the crawler its User-Agent claims?"""

from __future__ import annotations

import json
import sys
from collections import Counter, deque
from collections.abc import Generator, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from ..integrations.pairs import Claim, opened, read_pairs
from ..messages import Message, message
from ..reports.render import printable
from ..reports.verification import Status, Verification
from ..syntax.ipindex import AddressIndex
from ..syntax.iplists import MAX_BYTES, IpList, read_list, shipped, snapshot
from ..syntax.verification import list_sources
from . import records
from .options import json_option, lang_option
from .output import echo_json, echo_text, fail, warn

if TYPE_CHECKING:
    from ..verifying.resolvers import Resolver
    from ..verifying.verifier import Verifier

# Claims read ahead of the one printed next, with --file: memory stays flat whatever the file's length.
READ_AHEAD = 1024
# Threads asking DNS at once: the system resolver runs at most 16 lookups (more would read as timeouts).
MAX_JOBS = 16
SHOWN_KEPT = 1024  # verdicts kept rendered: those a log repeats most are rendered once


def lists_from(folder: str | None) -> list[IpList]:
    """The lists in force: the package's snapshots, or the registry-named files of `folder` (only those)."""
    if folder is None:
        return [snapshot(name) for name in shipped()]
    path = Path(folder)
    if not path.is_dir():
        fail(message("verify.error.lists", path=folder, problem="not a folder"))
    found = []
    for source in list_sources():
        candidate = path / source.name
        if not candidate.is_file():
            continue
        try:
            with candidate.open("rb") as stream:
                data = stream.read(MAX_BYTES + 1)  # read_list refuses what is longer
        except OSError as error:
            fail(message("verify.error.lists", path=str(candidate), problem=error.strerror or str(error)))
        read = read_list(data, source.name)
        for problem in read.problems:
            warn(problem.render())
        found.append(read)
    if not found:
        fail(message("verify.error.none", path=folder, example=list_sources()[0].name))
    return found


def _lines(found: Verification, lang: str) -> list[str]:
    said = message(
        "verify.cli.line",
        address=found.address,
        status=message(f"verify.status.{found.status.value}"),
        token=found.token or found.agent,
        reason=found.reason,
    )
    lines = [said.render(lang)]
    if found.covering:
        names = [c.name for c in found.covering]
        lines.append(message("verify.cli.covering", lists=names).render(lang))
    return lines


@click.command("verify")
@click.argument("addresses", nargs=-1, metavar="[IP...]")
@click.option(
    "--agent",
    metavar="UA",
    help="The User-Agent the requests claimed (a token or a string); with --file, that of lines with an address alone.",
)
@click.option(
    "--file",
    "pairs",
    metavar="PAIRS|-",
    help="Claims to verify, one a line (`-`: standard input; gzip read as its text): IP, a tab and the "
    "User-Agent; or CSV with a header naming ip and user_agent; or JSON lines with ip and user_agent.",
)
@click.option(
    "--jobs",
    type=click.IntRange(1, MAX_JOBS),
    default=4,
    show_default=True,
    metavar="N",
    help=f"With --file, claims that need reverse DNS are asked N at a time (at most {MAX_JOBS}); "
    "output order is input order.",
)
@click.option(
    "--lists",
    "lists_dir",
    metavar="DIR",
    help="A folder of the operators' IP lists, named as the registry names them (e.g. "
    "google-common-crawlers.json); default: the snapshots shipped in the package.",
)
@click.option(
    "--dns-server",
    metavar="HOST:PORT",
    help="Ask this DNS server for reverse DNS (default: the system's resolver).",
)
@click.option("--no-dns", is_flag=True, help="Ask no DNS: reverse-DNS-only crawlers stay inconclusive.")
@json_option
@lang_option
def verify_command(
    addresses: tuple[str, ...],
    agent: str | None,
    pairs: str | None,
    jobs: int,
    lists_dir: str | None,
    dns_server: str | None,
    no_dns: bool,
    as_json: bool,
    lang: str,
) -> None:
    """Say whether requests from IP (one or more) are from the crawler --agent names, by its operator's IP lists.

    Each claim is `verified` (the address is in a list the operator
    publishes for that crawler: which list and version), `spoofed` (the
    operator's lists for the crawler are complete and the address is in
    none), `unverifiable` (the operator publishes nothing to check, or the
    agent names no known crawler) or `inconclusive` (a list is not at
    hand, reverse DNS gave no answer, or only signatures could tell).
    Where the lists leave a claim open and the operator publishes
    reverse-DNS names, the address's name is asked and confirmed forward
    (its A/AAAA must give the address back; the name must end on a label
    boundary with the operator's suffix). The lists of any operator that cover
    the address are shown too. docs/verification.md lists the registry and
    its sources. Exit code 0 when no claim is spoofed or inconclusive, 1
    otherwise, 2 for bad usage (an address that is not one, a bad --lists).

    With --file, the claims of a file, one a line, streamed: each printed
    as it is decided, in input order (--json: one JSON object a line, with
    its line number), then a summary. A bad line is reported on stderr with
    its number and skipped, and makes the exit code 1 (the answer is
    incomplete); a file that cannot be read, 2.

    \b
    Examples:
      robotscope verify 66.249.66.1 --agent Googlebot
      robotscope verify 66.249.66.1 20.171.206.1 --agent "Mozilla/5.0 (compatible; GPTBot/1.2)" --json
      robotscope verify --file claims.tsv --dns-server 127.0.0.53:53 --jobs 8
      robotscope verify --file claims.jsonl.gz --no-dns --json > verdicts.jsonl
    """
    from ..verifying.claims import verify_claim

    if no_dns and dns_server is not None:
        fail(message("verify.error.dns-both"))
    if bool(addresses) == (pairs is not None):
        fail(message("verify.error.file-or-ip"))
    if agent is None and pairs is None:
        fail(message("verify.error.agent"))
    lists = lists_from(lists_dir)
    asking = _resolver(no_dns, dns_server)
    if pairs is not None:
        verify_file(pairs, lists, asking, agent, jobs, as_json, lang)
    assert agent is not None  # checked above: IP arguments need it
    index = AddressIndex(lists)
    # A list that could not be read at all (its problems were shown) is not at hand: never proof of spoofing.
    available = {found.name for found in lists if found.networks}
    verdicts = []
    for address in addresses:
        try:
            verdicts.append(verify_claim(address, agent, index, available, asking))
        except ValueError:
            fail(message("verify.error.address", address=address))
    counts = Counter(v.status for v in verdicts)
    summary = _summary(counts)
    if as_json:
        echo_json({"agent": agent, "claims": [v.as_dict(lang) for v in verdicts], "summary": summary.render(lang)})
    else:
        echo_text("\n".join([line for v in verdicts for line in _lines(v, lang)] + [summary.render(lang)]))
    sys.exit(1 if _undone(counts) else 0)


def _resolver(no_dns: bool, dns_server: str | None) -> Resolver | None:
    """The resolver the options name: none with --no-dns, else --dns-server's or the system's (cached)."""
    from ..verifying.resolvers import resolver

    if no_dns:
        return None
    try:
        return resolver(dns_server)
    except ValueError as error:
        fail(message("verify.error.dns-server", server=dns_server or "", problem=str(error)))


def _summary(counts: Counter[Status]) -> Message:
    return message("verify.cli.summary", count=counts.total(), **{s.value: counts[s] for s in Status})


def _undone(counts: Counter[Status]) -> bool:
    """Whether a claim is spoofed or left inconclusive: exit code 1."""
    return bool(counts[Status.SPOOFED] or counts[Status.INCONCLUSIVE])


def verify_file(
    pairs: str, lists: list[IpList], asking: Resolver | None, agent: str | None, jobs: int, as_json: bool, lang: str
) -> NoReturn:
    """`--file PAIRS`: each line's claim judged and printed in input order, as text or JSON lines, then a summary.

    Exit code 1 when a claim is spoofed or inconclusive, or a line was skipped (the answer is incomplete).
    """
    from ..syntax.listhistory import ListHistory
    from ..verifying.verifier import Verifier

    source = "<stdin>" if pairs == "-" else pairs
    try:
        stream = sys.stdin.buffer if pairs == "-" else open(pairs, "rb")  # noqa: SIM115 - closed below
    except OSError as error:
        fail(message("records.unreadable", source=pairs, reason=error.strerror or str(error)))
    skipped = records.tally()
    counts: Counter[Status] = Counter()
    out = sys.stdout
    shown = _Shown(as_json, lang)
    try:
        claims = read_pairs(opened(stream), source, skipped, agent)
        for claim, found in _answered(claims, Verifier(ListHistory(lists), asking), jobs):
            counts[found.status] += 1
            out.write(shown(claim, found))
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    summary = _summary(counts)
    if as_json:
        said = {"summary": summary.render(lang), "counts": {s.value: counts[s] for s in Status}}
        out.write(json.dumps({**said, "records": skipped.as_dict(lang)}, ensure_ascii=False) + "\n")
    else:
        out.write(summary.render(lang) + "\n")
    out.flush()
    incomplete = records.incomplete(skipped)
    sys.exit(1 if _undone(counts) or incomplete else 0)


class _Shown:
    """Each claim's output; a verdict's rendered once while kept (a repeated claim gets the same verdict object)."""

    def __init__(self, as_json: bool, lang: str) -> None:
        self.as_json, self.lang = as_json, lang
        self._kept: dict[int, tuple[Verification, str]] = {}  # by id: the verdict is kept alive beside its text

    def __call__(self, claim: Claim, found: Verification) -> str:
        kept = self._kept.get(id(found))
        if kept is not None and kept[0] is found:
            text = kept[1]
        else:
            text = self._render(found)
            if len(self._kept) >= SHOWN_KEPT:
                del self._kept[next(iter(self._kept))]
            self._kept[id(found)] = (found, text)
        # JSON: the line number first, then the verdict's own object (its opening brace dropped).
        return f'{{"line": {claim.number}, {text[1:]}' if self.as_json else text

    def _render(self, found: Verification) -> str:
        if self.as_json:
            return json.dumps(found.as_dict(self.lang), ensure_ascii=False) + "\n"
        return "".join(printable(line) + "\n" for line in _lines(found, self.lang))


def _answered(
    claims: Iterator[Claim], verifier: Verifier, jobs: int
) -> Generator[tuple[Claim, Verification], None, None]:
    """Each claim with its verdict, in input order; claims not already known are judged by `jobs` threads.

    Without DNS a verdict costs no waiting: judged here, one after the other.
    """
    if verifier.resolver is None or jobs == 1:
        for claim in claims:
            yield claim, verifier.verify(claim.address, claim.agent)
        return
    pool = ThreadPoolExecutor(jobs, thread_name_prefix="verify")
    try:
        waiting: deque[tuple[Claim, Verification | Future[Verification]]] = deque()
        for claim in claims:
            known = verifier.known(claim.address, claim.agent)
            waiting.append((claim, known or pool.submit(verifier.verify, claim.address, claim.agent)))
            while waiting and (len(waiting) >= READ_AHEAD or _ready(waiting[0][1])):
                yield _result(waiting.popleft())
        while waiting:
            yield _result(waiting.popleft())
    finally:
        # Stopped early (Ctrl-C, a closed pipe): the claims not yet asked are dropped, not waited for.
        pool.shutdown(wait=False, cancel_futures=True)


def _ready(found: Verification | Future[Verification]) -> bool:
    return not isinstance(found, Future) or found.done()


def _result(entry: tuple[Claim, Verification | Future[Verification]]) -> tuple[Claim, Verification]:
    claim, found = entry
    return claim, found.result() if isinstance(found, Future) else found
