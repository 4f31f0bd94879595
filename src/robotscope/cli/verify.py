"""`robotscope verify`: is a request from an address really from the crawler its User-Agent claims?"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..messages import message
from ..reports.verification import Status, Verification
from ..syntax.ipindex import AddressIndex
from ..syntax.iplists import MAX_BYTES, IpList, read_list, shipped, snapshot
from ..syntax.verification import list_sources
from .options import json_option, lang_option
from .output import echo_json, echo_text, fail, warn


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
@click.argument("addresses", nargs=-1, required=True, metavar="IP...")
@click.option("--agent", required=True, metavar="UA", help="The User-Agent the requests claimed (a token or a string).")
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
    agent: str,
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

    \b
    Examples:
      robotscope verify 66.249.66.1 --agent Googlebot
      robotscope verify 66.249.66.1 20.171.206.1 --agent "Mozilla/5.0 (compatible; GPTBot/1.2)" --json
    """
    from ..verifying.claims import verify_claim
    from ..verifying.resolvers import Resolver, resolver

    if no_dns and dns_server is not None:
        fail(message("verify.error.dns-both"))
    lists = lists_from(lists_dir)
    index = AddressIndex(lists)
    # A list that could not be read at all (its problems were shown) is not at hand: never proof of spoofing.
    available = {found.name for found in lists if found.networks}
    asking: Resolver | None = None
    if not no_dns:
        try:
            asking = resolver(dns_server)
        except ValueError as error:
            fail(message("verify.error.dns-server", server=dns_server or "", problem=str(error)))
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
