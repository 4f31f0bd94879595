"""`robotscope verify`: is a request from an address really from the crawler its User-Agent claims?"""

from __future__ import annotations

import json
import re
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar
from urllib.parse import urlsplit

import click
from click.core import ParameterSource

from ..access.signatures.head import MAX_HEAD, Head, read_head
from ..access.signatures.model import SignatureVerdict
from ..history import HistoryStore, default_path
from ..history.views import iso
from ..integrations.pairs import Claim, opened, read_pairs
from ..messages import Message, message
from ..reports.render import printable
from ..reports.verification import Status, Verification, utc_text
from ..reports.views import parse_when
from ..syntax.iplists import MAX_BYTES, IpList, read_list, shipped, snapshot
from ..syntax.listhistory import ListHistory
from ..syntax.verification import list_sources, method
from . import records
from .history import open_store
from .options import json_option, lang_option, require_agents, store_option, timeout_option
from .output import current_lang, echo_json, echo_text, fail, warn

if TYPE_CHECKING:
    from ..verifying.resolvers import Resolver
    from ..verifying.verifier import Verifier

# Claims read ahead of the one printed next, with --file: memory stays flat whatever the file's length.
READ_AHEAD = 1024
# Threads asking DNS at once: the system resolver runs at most 16 lookups (more would read as timeouts).
MAX_JOBS = 16
SHOWN_KEPT = 1024  # verdicts kept rendered: those a log repeats most are rendered once

_F = TypeVar("_F", bound=Callable[..., Any])


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


def history_from(lists_dir: str | None, store_path: str | None) -> ListHistory:
    """The versions to judge with: a folder's lists alone (`--lists`), or the shipped snapshots and the
    versions a history store keeps (`--store`, else the default store when there is one)."""
    from ..verifying.updates import list_history

    if lists_dir is not None:
        if store_path is not None:
            fail(message("verify.error.lists-store"))
        return ListHistory(lists_from(lists_dir))
    if store_path is not None:  # named: it must be there and readable
        with open_store(store_path) as store:
            return list_history(store)
    if not default_path().is_file():
        return list_history(None)
    with HistoryStore(default_path(), read_only=True) as store:  # never created, migrated or written here
        for warning in store.take_warnings():
            warn(warning)
        return list_history(store)


def moment_of(when: str | None) -> float | None:
    """`--at WHEN` as a POSIX time (None: now, the newest version of each list)."""
    if when is None:
        return None
    moment = parse_when(when)
    if moment is None:
        fail(message("history.error.when", value=when))
    return moment


def in_force(history: ListHistory, moment: float, names: Iterable[str]) -> list[tuple[str, str | None]]:
    """The lists `names`, sorted, each with the `creationTime` of its version in force at `moment` (None: no
    version by then)."""
    chosen = {found.name: found.creation_time for found in history.at(moment)}
    return [(name, chosen.get(name)) for name in sorted(set(names))]


def claimed_lists(verdicts: Sequence[Verification]) -> set[str]:
    """The lists the claimed crawlers are checked against."""
    methods = [method(v.token) for v in verdicts if v.token is not None]
    return {name for found in methods if found is not None for name in found.lists}


def _in_force_line(moment: float, used: list[tuple[str, str | None]]) -> Message:
    shown = [
        message("verify.cli.no-version", name=name)
        if created is None
        else message("verify.cli.version", name=name, created=created)
        for name, created in used
    ]
    return message("verify.cli.in-force", when=iso(moment), lists=shown or [message("verify.cli.no-list")])


def run_update(store_path: str | None, base: str | None, timeout: float, as_json: bool, lang: str) -> NoReturn:
    """`verify --update`: fetch every list, keep the new versions, one line per list; exit 1 when any failed."""
    from ..cache import RobotsCache
    from ..verifying.updates import Outcome, update_lists

    if base is not None:
        parts = urlsplit(base)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            fail(message("verify.error.update-from", url=base))
    with HistoryStore(store_path) as store, RobotsCache() as cache:
        for warning in store.take_warnings():
            warn(warning)
        if not store.writable:
            fail(message("verify.error.store", path=str(store.path)))
        updates = update_lists(store, base=base, timeout=timeout, cache=cache)
        for warning in store.take_warnings() + cache.take_warnings():
            warn(warning)
    counts = {outcome: sum(1 for u in updates if u.outcome is outcome) for outcome in Outcome}
    summary = message("verify.update.summary", count=len(updates), **{o.value: n for o, n in counts.items()})
    if as_json:
        lists = [u.as_dict(lang) for u in updates]
        echo_json({"lists": lists, "summary": summary.render(lang), "complete": not counts[Outcome.FAILED]})
    else:
        for found in updates:
            for problem in found.problems:
                warn(problem.render(lang))
        said = [u.reason.render(lang) for u in updates] + [summary.render(lang)]
        if counts[Outcome.FAILED]:
            said.append(message("verify.update.incomplete", failed=counts[Outcome.FAILED]).render(lang))
        echo_text("\n".join(said))
    sys.exit(1 if counts[Outcome.FAILED] else 0)


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


def request_options(command: _F) -> _F:
    """The options of `verify --request`: one captured request, its signature and, with --ip, its claim."""
    options = (
        click.option(
            "--request",
            "request_file",
            metavar="FILE",
            help="A captured HTTP/1.1 request head (request line and header fields; - for stdin): its Web Bot "
            "Auth signature is checked against the key directory its Signature-Agent names, at --at (UNIX "
            "seconds or ISO 8601; default now).",
        ),
        click.option("--ip", metavar="ADDRESS", help="With --request: the address it came from, to judge its claim."),
        click.option(
            "--allow-local-directory",
            is_flag=True,
            help="With --request: fetch key directories from loopback and private addresses too (a signer "
            "under test); refused by default, since the request's sender chooses the URL.",
        ),
    )
    for option in reversed(options):
        command = option(command)
    return command


@click.command("verify")
@click.argument("addresses", nargs=-1, metavar="[IP...]")
@click.option(
    "--agent",
    metavar="UA",
    help="The User-Agent the requests claimed (a token or a string); with --file, that of lines with an address "
    "alone; with --request, instead of its own.",
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
@click.option(
    "--at",
    "when",
    metavar="WHEN",
    help="Judge with the lists in force then (ISO 8601 date or date and time, UTC unless it says): "
    "the shipped snapshots and the versions --update stored, or the --lists folder's.",
)
@click.option("--update", is_flag=True, help="Fetch every list of the registry and store its new versions.")
@click.option(
    "--update-from",
    metavar="URL",
    help="With --update: fetch the lists from this mirror, each under its registry name.",
)
@request_options
@store_option
@timeout_option
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
    when: str | None,
    update: bool,
    update_from: str | None,
    request_file: str | None,
    ip: str | None,
    allow_local_directory: bool,
    store_path: str | None,
    timeout: float,
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
    otherwise, 2 for bad usage (an address that is not one, a bad --lists,
    an option this use of the command does not read, such as --jobs
    without --file).

    The lists are the snapshots shipped in the package and the versions
    `--update` stored (the newest of each; --at WHEN: the one in force then,
    named in the output), or with --lists DIR that folder's alone. A list
    with no version by WHEN is not at hand: its claims are inconclusive.
    `verify --update` fetches every list of the registry (or, with
    --update-from URL, from a mirror holding each under its registry name)
    and stores each new version in the history store (--store); one line
    per list, exit code 1 when any failed.

    With --file, the claims of a file, one a line, streamed: each printed
    as it is decided, in input order (--json: one JSON object a line, with
    its line number), then a summary. A bad line is reported on stderr with
    its number and skipped, and makes the exit code 1 (the answer is
    incomplete); a file that cannot be read, 2.

    --request FILE judges one captured request instead: its Web Bot Auth
    signature (RFC 9421; the key directory at the Signature-Agent's origin,
    https only, fetched within 5 s and 64 KiB, cached, never from a private
    address unless --allow-local-directory) at --at (default now) and, with
    --ip, its User-Agent's claim, where a valid signature by the origin the
    crawler's operator signs from verifies it. Exit code 0 when the claim
    (without --ip: the signature) is verified or unverifiable, 1 otherwise.

    \b
    Examples:
      robotscope verify 66.249.66.1 --agent Googlebot
      robotscope verify 66.249.66.1 20.171.206.1 --agent "Mozilla/5.0 (compatible; GPTBot/1.2)" --json
      robotscope verify --update
      robotscope verify 66.249.66.1 --agent Googlebot --at 2026-11-03T14:05:00Z
      robotscope verify --file claims.tsv --dns-server 127.0.0.53:53 --jobs 8
      robotscope verify --file claims.jsonl.gz --no-dns --json > verdicts.jsonl
      robotscope verify --request captured.http --ip 66.249.66.1
    """
    from ..verifying.claims import verify_claim

    if update_from is not None and not update:
        fail(message("verify.error.update-alone"))
    if agent is not None:
        require_agents([agent])  # "$UA" unset in a script claims nothing: not a claim to call unverifiable
    if request_file is not None:
        if addresses or pairs is not None or update:
            fail(message("verify.error.request-only"))
        _refuse_unused("request-ip" if ip is not None else "request")
        verify_captured(
            request_file, ip, when, allow_local_directory, agent, lists_dir, store_path, dns_server, no_dns, as_json
        )
    if ip is not None or allow_local_directory:
        fail(message("verify.error.request-options"))
    if update:
        if addresses or pairs is not None or agent is not None or when is not None or lists_dir is not None:
            fail(message("verify.error.update-only"))
        _refuse_unused("update")
        run_update(store_path, update_from, timeout, as_json, lang)
    if addresses and pairs is not None:
        fail(message("verify.error.file-or-ip"))
    if pairs is None and (not addresses or agent is None):
        fail(message("verify.error.claim"))
    if no_dns and dns_server is not None:
        fail(message("verify.error.dns-both"))
    _refuse_unused("file" if pairs is not None else "addresses")
    moment = moment_of(when)
    history = history_from(lists_dir, store_path)
    asking = _resolver(no_dns, dns_server)
    if pairs is not None:
        verify_file(pairs, history, moment, asking, agent, jobs, as_json, lang)
    assert agent is not None  # checked above: IP arguments need it
    index = history.index(moment)
    # A list that could not be read at all (its problems were shown), or with no version by `moment`,
    # is not at hand: never proof of spoofing.
    available = history.available(moment)
    verdicts = []
    for address in addresses:
        try:
            verdicts.append(verify_claim(address, agent, index, available, asking))
        except ValueError:
            fail(message("verify.error.address", address=address))
    counts = Counter(v.status for v in verdicts)
    summary = _summary(counts)
    used = None if moment is None else in_force(history, moment, claimed_lists(verdicts))
    if as_json:
        found = {"agent": agent, "claims": [v.as_dict(lang) for v in verdicts], "summary": summary.render(lang)}
        if moment is not None and used is not None:
            found |= {"at": iso(moment), "lists": [{"list": name, "creation_time": c} for name, c in used]}
        echo_json(found)
    else:
        said = [line for v in verdicts for line in _lines(v, lang)]
        if moment is not None and used is not None:
            said.insert(0, _in_force_line(moment, used).render(lang))
        echo_text("\n".join([*said, summary.render(lang)]))
    sys.exit(1 if _undone(counts) else 0)


# The parameters each use of the command reads, beside --json and --lang: another one given is refused, not ignored.
_JUDGED = {"agent", "lists_dir", "dns_server", "no_dns", "when", "store_path"}
_REQUEST = {"request_file", "ip", "allow_local_directory", "when", "agent"}
_READ_BY = {
    "addresses": {"addresses", *_JUDGED},
    "file": {"pairs", "jobs", *_JUDGED},
    "update": {"update", "update_from", "store_path", "timeout"},
    "request": _REQUEST,
    "request-ip": _REQUEST | _JUDGED,
}


def _refuse_unused(use: str) -> None:
    """Stop when an option given on the command line is one this use of the command would ignore."""
    context = click.get_current_context()
    for param in context.command.params:
        if param.name is None or param.name in _READ_BY[use] or param.name in ("as_json", "lang"):
            continue
        if context.get_parameter_source(param.name) is ParameterSource.COMMANDLINE:
            fail(message("verify.error.unused", option=param.opts[0], use=message(f"verify.use.{use}")))


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
    pairs: str,
    history: ListHistory,
    moment: float | None,
    asking: Resolver | None,
    agent: str | None,
    jobs: int,
    as_json: bool,
    lang: str,
) -> NoReturn:
    """`--file PAIRS`: each line's claim judged by the lists in force at `moment` (None: now) and printed in
    input order, as text or JSON lines, then a summary (and first, with --at, the lists in force then).

    Exit code 1 when a claim is spoofed or inconclusive, or a line was skipped (the answer is incomplete).
    """
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
    used = None if moment is None else in_force(history, moment, history.names())
    if moment is not None and used is not None and not as_json:
        out.write(_in_force_line(moment, used).render(lang) + "\n")
    try:
        claims = read_pairs(opened(stream), source, skipped, agent)
        for claim, found in _answered(claims, Verifier(history, asking), moment, jobs):
            counts[found.status] += 1
            out.write(shown(claim, found))
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    summary = _summary(counts)
    if as_json:
        said: dict[str, Any] = {"summary": summary.render(lang), "counts": {s.value: counts[s] for s in Status}}
        if moment is not None and used is not None:
            said |= {"at": iso(moment), "lists": [{"list": name, "creation_time": c} for name, c in used]}
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
    claims: Iterator[Claim], verifier: Verifier, moment: float | None, jobs: int
) -> Generator[tuple[Claim, Verification], None, None]:
    """Each claim with its verdict, in input order; claims not already known are judged by `jobs` threads.

    Without DNS a verdict costs no waiting: judged here, one after the other.
    """
    if verifier.resolver is None or jobs == 1:
        for claim in claims:
            yield claim, verifier.verify(claim.address, claim.agent, moment)
        return
    pool = ThreadPoolExecutor(jobs, thread_name_prefix="verify")
    try:
        waiting: deque[tuple[Claim, Verification | Future[Verification]]] = deque()
        for claim in claims:
            known = verifier.known(claim.address, claim.agent, moment)
            waiting.append((claim, known or pool.submit(verifier.verify, claim.address, claim.agent, moment)))
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


def verify_captured(
    path: str,
    ip: str | None,
    when: str | None,
    allow_local: bool,
    agent: str | None,
    lists_dir: str | None,
    store_path: str | None,
    dns_server: str | None,
    no_dns: bool,
    as_json: bool,
) -> NoReturn:
    """`verify --request FILE`: the captured request's signature at --at (default now), and its claim when
    --ip gives its address, by the lists in force then."""
    try:
        from ..verifying.keydirectory import KeyDirectories
        from ..verifying.signatures import verify_signed
    except ImportError:  # cryptography, the `verify` extra
        fail(message("verify.error.crypto"))
    from ..verifying.claims import verify_claim

    now = _received(when)
    head = _captured(path)
    assert head.request is not None  # _captured made sure
    signature = verify_signed(head.request, now, KeyDirectories(local_addresses=allow_local))
    claimant = agent if agent is not None else head.user_agent
    claim: Verification | None = None
    used: list[tuple[str, str | None]] = []
    at = None if when is None else float(now)  # without --at, each list's newest version
    if ip is not None:
        if no_dns and dns_server is not None:
            fail(message("verify.error.dns-both"))
        history = history_from(lists_dir, store_path)
        asking = _resolver(no_dns, dns_server)
        index, available = history.index(at), history.available(at)
        try:
            claim = verify_claim(ip, claimant or "", index, available, asking, signature=signature)
        except ValueError:
            fail(message("verify.error.address", address=ip))
        used = [] if at is None else in_force(history, at, claimed_lists([claim]))
    lang = current_lang()
    if as_json:
        echo_json(
            {
                "request": {"method": head.request.method, "target_uri": head.request.target_uri},
                "agent": claimant,
                "at": iso(now),
                "signature": signature.as_dict(lang),
                "claim": None if claim is None else claim.as_dict(lang),
                "lists": [{"list": name, "creation_time": created} for name, created in used],
                "problems": [problem.as_dict(lang) for problem in head.problems],
            }
        )
    else:
        said = _signature_lines(signature, claim, claimant, lang)
        if at is not None and claim is not None:
            said.insert(1 if signature.agent is None else 2, _in_force_line(at, used).render(lang))
        echo_text("\n".join(said))
    if claim is not None:
        sys.exit(1 if claim.status in (Status.SPOOFED, Status.INCONCLUSIVE) else 0)
    sys.exit(0 if signature.verified else 1)


def _received(when: str | None) -> int:
    """--at as seconds since the epoch (UNIX seconds or ISO 8601), or now."""
    if when is None:
        return int(time.time())
    text = when.strip()
    found = float(text) if _SECONDS(text) else parse_when(text)
    if found is None or not _shown_in_utc(found):
        fail(message("verify.error.request-at", value=when))
    return int(found)


_SECONDS = re.compile(r"-?[0-9]{1,12}").fullmatch  # ASCII digits: str.isdigit takes "²", which int refuses


def _shown_in_utc(seconds: float) -> bool:
    """Whether `seconds` is a time `iso` can show (in datetime's years 1 to 9999)."""
    try:
        iso(seconds)
    except (ValueError, OverflowError, OSError):
        return False
    return True


def _captured(path: str) -> Head:
    """The request head in `path` (- for stdin), read within MAX_HEAD; each skipped line warned of."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_HEAD + 1)
        else:
            with open(path, "rb") as stream:
                data = stream.read(MAX_HEAD + 1)  # read_head refuses what is longer
    except OSError as error:
        fail(message("verify.error.request", path=path, problem=error.strerror or str(error)))
    head = read_head(data)
    for problem in head.problems:
        warn(message("verify.error.request", path=path, problem=problem).render(current_lang()))
    if head.fatal is not None:
        fail(message("verify.error.request", path=path, problem=head.fatal))
    return head


def _signature_lines(
    signature: SignatureVerdict, claim: Verification | None, claimant: str | None, lang: str
) -> list[str]:
    lines = [message("verify.cli.signature", verdict=signature.message()).render(lang)]
    if signature.agent is not None:
        signer = message(
            "verify.cli.signer" if signature.verified else "verify.cli.named",
            agent=signature.agent,
            directory=signature.directory,
            created=utc_text(signature.created),
            expires=utc_text(signature.expires),
        )
        lines.append(signer.render(lang))
    if claim is not None:
        lines.extend(_lines(claim, lang))
    elif claimant:
        lines.append(message("verify.cli.claim", agent=claimant).render(lang))
    return lines
