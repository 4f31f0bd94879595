"""`robotscope verify`: is a request from an address really from the crawler its User-Agent claims?"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from ..access.signatures.head import MAX_HEAD, Head, read_head
from ..access.signatures.model import SignatureVerdict
from ..messages import message
from ..reports.verification import Status, Verification, moment
from ..syntax.ipindex import AddressIndex
from ..syntax.iplists import MAX_BYTES, IpList, read_list, shipped, snapshot
from ..syntax.verification import list_sources
from .history import parse_when
from .options import json_option, lang_option
from .output import current_lang, echo_json, echo_text, fail, warn

if TYPE_CHECKING:
    from ..verifying.resolvers import Resolver

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
            "Auth signature is checked against the key directory its Signature-Agent names.",
        ),
        click.option("--ip", metavar="ADDRESS", help="With --request: the address it came from, to judge its claim."),
        click.option(
            "--at-time",
            metavar="WHEN",
            help="With --request: when it was received (UNIX seconds or ISO 8601; default now), for its "
            "signature's validity window.",
        ),
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
@click.argument("addresses", nargs=-1, metavar="IP...")
@click.option(
    "--agent",
    metavar="UA",
    help="The User-Agent the requests claimed (a token or a string); with --request, instead of its own.",
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
@request_options
@json_option
@lang_option
def verify_command(
    addresses: tuple[str, ...],
    agent: str | None,
    lists_dir: str | None,
    dns_server: str | None,
    no_dns: bool,
    request_file: str | None,
    ip: str | None,
    at_time: str | None,
    allow_local_directory: bool,
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

    --request FILE judges one captured request instead: its Web Bot Auth
    signature (RFC 9421; the key directory at the Signature-Agent's origin,
    https only, fetched within 5 s and 64 KiB, cached, never from a private
    address unless --allow-local-directory) and, with --ip, its User-Agent's
    claim, where a valid signature by the origin the crawler's operator signs
    from verifies it. Exit code 0 when the claim (without --ip: the
    signature) is verified or unverifiable, 1 otherwise.

    \b
    Examples:
      robotscope verify 66.249.66.1 --agent Googlebot
      robotscope verify 66.249.66.1 20.171.206.1 --agent "Mozilla/5.0 (compatible; GPTBot/1.2)" --json
      robotscope verify --request captured.http --ip 66.249.66.1
    """
    from ..verifying.claims import verify_claim

    if request_file is not None:
        if addresses:
            fail(message("verify.error.request-only"))
        verify_captured(request_file, ip, at_time, allow_local_directory, agent, lists_dir, dns_server, no_dns, as_json)
    if ip is not None or at_time is not None or allow_local_directory:
        fail(message("verify.error.request-options"))
    if not addresses or agent is None:
        fail(message("verify.error.what"))
    index, available, asking = claim_methods(lists_dir, dns_server, no_dns)
    verdicts = []
    for address in addresses:
        try:
            verdicts.append(verify_claim(address, agent, index, available, asking))
        except ValueError:
            fail(message("verify.error.address", address=address))
    counts = {status: sum(1 for v in verdicts if v.status is status) for status in Status}
    summary = message("verify.cli.summary", count=len(verdicts), **{s.value: n for s, n in counts.items()})
    if as_json:
        echo_json({"agent": agent, "claims": [v.as_dict(lang) for v in verdicts], "summary": summary.render(lang)})
    else:
        echo_text("\n".join([line for v in verdicts for line in _lines(v, lang)] + [summary.render(lang)]))
    sys.exit(1 if counts[Status.SPOOFED] or counts[Status.INCONCLUSIVE] else 0)


def claim_methods(
    lists_dir: str | None, dns_server: str | None, no_dns: bool
) -> tuple[AddressIndex, set[str], Resolver | None]:
    """The lists in force, their names at hand, and the resolver to ask (None: no DNS)."""
    from ..verifying.resolvers import resolver

    if no_dns and dns_server is not None:
        fail(message("verify.error.dns-both"))
    lists = lists_from(lists_dir)
    # A list that could not be read at all (its problems were shown) is not at hand: never proof of spoofing.
    available = {found.name for found in lists if found.networks}
    if no_dns:
        return AddressIndex(lists), available, None
    try:
        return AddressIndex(lists), available, resolver(dns_server)
    except ValueError as error:
        fail(message("verify.error.dns-server", server=dns_server or "", problem=str(error)))


def verify_captured(
    path: str,
    ip: str | None,
    at_time: str | None,
    allow_local: bool,
    agent: str | None,
    lists_dir: str | None,
    dns_server: str | None,
    no_dns: bool,
    as_json: bool,
) -> NoReturn:
    """`verify --request FILE`: the captured request's signature, and its claim when --ip gives its address."""
    try:
        from ..verifying.keydirectory import KeyDirectories
        from ..verifying.signatures import verify_signed
    except ImportError:  # cryptography, the `verify` extra
        fail(message("verify.error.crypto"))
    from ..verifying.claims import verify_claim

    now = _received(at_time)
    head = _captured(path)
    assert head.request is not None  # _captured made sure
    signature = verify_signed(head.request, now, KeyDirectories(local_addresses=allow_local))
    claimant = agent if agent is not None else head.user_agent
    claim: Verification | None = None
    if ip is not None:
        index, available, asking = claim_methods(lists_dir, dns_server, no_dns)
        try:
            claim = verify_claim(ip, claimant or "", index, available, asking, signature=signature)
        except ValueError:
            fail(message("verify.error.address", address=ip))
    lang = current_lang()
    if as_json:
        echo_json(
            {
                "request": {"method": head.request.method, "target_uri": head.request.target_uri},
                "agent": claimant,
                "signature": signature.as_dict(lang),
                "claim": None if claim is None else claim.as_dict(lang),
                "problems": [problem.as_dict(lang) for problem in head.problems],
            }
        )
    else:
        echo_text("\n".join(_signature_lines(signature, claim, claimant, lang)))
    if claim is not None:
        sys.exit(1 if claim.status in (Status.SPOOFED, Status.INCONCLUSIVE) else 0)
    sys.exit(0 if signature.verified else 1)


def _received(at_time: str | None) -> int:
    """--at-time as seconds since the epoch (UNIX seconds or ISO 8601), or now."""
    if at_time is None:
        return int(time.time())
    text = at_time.strip()
    if text.lstrip("-").isdigit() and len(text) <= 12:
        return int(text)
    when = parse_when(text)
    if when is None:
        fail(message("verify.error.at-time", value=at_time))
    return int(when)


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
            created=moment(signature.created),
            expires=moment(signature.expires),
        )
        lines.append(signer.render(lang))
    if claim is not None:
        lines.extend(_lines(claim, lang))
    elif claimant:
        lines.append(message("verify.cli.claim", agent=claimant).render(lang))
    return lines
