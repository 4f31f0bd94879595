"""Which key directory a signature names: its `Signature-Agent`, and the directory's URL.

draft-ietf-webbotauth-httpsig-protocol ("Signature-Agent") makes the field a
Structured Field Dictionary (RFC 9651) whose member keyed by a signature's
label holds, as a String, the URI of the agent that signed under that label:
`Signature-Agent: sig1="https://signer.example"`. Earlier signers (ChatGPT
agent in 2025) send one bare String for every signature,
`Signature-Agent: "https://chatgpt.com"`; that is read too, and flagged
`legacy`. An unquoted URL is neither, and refused.

The directory is at the agent's origin, `/.well-known/http-message-signatures-directory`
(the draft's "Key Directory"). robotscope takes the agent's URI as that
origin (a path of `/` or the well-known path itself is accepted); anything
else (another path, a query, user information) is refused rather than
guessed at. The scheme must be https: a directory fetched in clear could be
swapped on the way, and the keys in it decide who signed. Plain http is
accepted for a loopback address alone (127.0.0.0/8, ::1), where the bytes never
leave the machine: a signer under test, the tests' own. Whether a loopback
or private address may be fetched at all is the fetcher's decision
(`robotscope.verifying.keydirectory`), not this module's.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

from ...syntax.structured import Item, Token, parse_dictionary, parse_item
from .base import field_value
from .model import Reason, Refusal, SignedRequest

WELL_KNOWN = "/.well-known/http-message-signatures-directory"
_DEFAULT_PORTS = {"https": 443, "http": 80}


@dataclass(frozen=True)
class Agent:
    """The agent a signature names: its `origin` (`https://signer.example`), the `directory` URL to fetch,
    and whether the field was a legacy bare String rather than a Dictionary member."""

    origin: str
    directory: str
    legacy: bool = False


def signature_agent(request: SignedRequest, label: str) -> Agent:
    """The agent named for the signature `label`; raises Refusal(BAD_AGENT) when there is none to fetch from."""
    value = field_value(request, "signature-agent")
    if value is None:
        raise Refusal(Reason.BAD_AGENT, "no Signature-Agent")
    members = parse_dictionary(value)
    if members is not None:
        member = members.get(label)
        if member is None:
            raise Refusal(Reason.BAD_AGENT, f"no member {label}")
        legacy = False
    else:
        member = parse_item(value)
        legacy = True
    if not isinstance(member, Item) or not isinstance(member.value, str) or isinstance(member.value, Token):
        raise Refusal(Reason.BAD_AGENT, _shown(value))
    return Agent(*_origin(member.value), legacy=legacy)


def _origin(uri: str) -> tuple[str, str]:
    """The origin of `uri` and its directory URL; raises Refusal(BAD_AGENT) when it is not an origin to fetch from."""
    try:
        parts = urlsplit(uri)
        port = parts.port
    except ValueError:
        raise Refusal(Reason.BAD_AGENT, _shown(uri)) from None
    scheme, host = parts.scheme.lower(), (parts.hostname or "")
    if (
        scheme not in _DEFAULT_PORTS
        or not host
        or "@" in parts.netloc
        or parts.query
        or parts.fragment
        or parts.path not in ("", "/", WELL_KNOWN)
    ):
        raise Refusal(Reason.BAD_AGENT, _shown(uri))
    if scheme == "http" and not _loopback(host):
        raise Refusal(Reason.BAD_AGENT, f"{_shown(uri)}: not https")
    shown_host = f"[{host}]" if ":" in host else host
    origin = f"{scheme}://{shown_host}" + ("" if port in (None, _DEFAULT_PORTS[scheme]) else f":{port}")
    return origin, origin + WELL_KNOWN


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a name: what it resolves to may change between this check and the fetch


def _shown(value: str) -> str:
    return value if len(value) <= 200 else value[:200] + "…"
