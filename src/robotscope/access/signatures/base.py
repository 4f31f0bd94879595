"""The values of a signature's covered components, and the signature base (RFC 9421, Sections 2 and 2.5).

Supported: the derived components of a request (Section 2.2) `@method`,
`@target-uri`, `@authority`, `@scheme`, `@request-target`, `@path` and
`@query`, and HTTP fields (Section 2.1), a Dictionary field's member with
the `key` parameter (Section 2.1.2) included: `"signature-agent";key="sig1"`.
Any other component or parameter (`@query-param`, `@status`, `sf`, `bs`,
`req`, `tr`) is refused as unsupported rather than guessed at.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import SplitResult, urlsplit

from ...syntax.structured import InnerList, Item, Token, parse_dictionary, serialize_member
from .model import MAX_COMPONENTS, MAX_FIELD, Reason, Refusal, SignedRequest

_DEFAULT_PORTS = {"http": "80", "https": "443"}


def field_value(request: SignedRequest, name: str) -> str | None:
    """A field's value as Section 2.1 takes it: each line's value trimmed, lines joined by ", "; None when absent.

    Raises Refusal for a value past MAX_FIELD or one holding a line break.
    """
    values = []
    size = 0
    for field, value in request.headers:
        if field.lower() != name:
            continue
        if "\r" in value or "\n" in value:
            raise Refusal(Reason.MALFORMED, name)
        size += len(value)
        if size > MAX_FIELD:
            raise Refusal(Reason.MALFORMED, name)
        values.append(value.strip(" \t"))
    return ", ".join(values) if values else None


def _target(request: SignedRequest) -> SplitResult:
    try:
        target = urlsplit(request.target_uri)
        target.port  # noqa: B018  (raises ValueError for a port that is not one)
    except ValueError:
        raise Refusal(Reason.MALFORMED, "@target-uri") from None
    if not target.scheme or not target.netloc:
        raise Refusal(Reason.MALFORMED, "@target-uri")
    return target


def _authority(target: SplitResult) -> str:
    # Section 2.2.3: the authority as HTTP normalizes it (RFC 9110, Section 4.2.3): lower case, no default port.
    hostport = target.netloc.rpartition("@")[2].lower()
    host, colon, port = hostport.rpartition(":")
    if colon and "]" not in port and port in ("", _DEFAULT_PORTS.get(target.scheme.lower())):
        return host
    return hostport


_DERIVED: dict[str, Callable[[SignedRequest], str]] = {
    "@method": lambda request: request.method,  # Section 2.2.1
    "@target-uri": lambda request: request.target_uri,  # 2.2.2
    "@authority": lambda request: _authority(_target(request)),  # 2.2.3
    "@scheme": lambda request: _target(request).scheme.lower(),  # 2.2.4
    "@request-target": lambda request: _path(request) + _query(request, ""),  # 2.2.5, origin form
    "@path": lambda request: _path(request),  # 2.2.6
    "@query": lambda request: _query(request, "?"),  # 2.2.7: "?" alone when there is no query
}


def _path(request: SignedRequest) -> str:
    return _target(request).path or "/"


def _query(request: SignedRequest, empty: str) -> str:
    query = _target(request).query
    return f"?{query}" if query else empty


def component_value(request: SignedRequest, component: Item) -> str:
    """The value of one covered component (Section 2.5, step 2.3); raises Refusal when it has none."""
    name, params = component.value, component.params
    if not isinstance(name, str) or isinstance(name, Token) or name != name.lower():
        raise Refusal(Reason.MALFORMED, "component")
    if name.startswith("@"):
        derived = _DERIVED.get(name)
        if derived is None or params:
            raise Refusal(Reason.UNSUPPORTED, name)
        return derived(request)
    if set(params) - {"key"}:
        raise Refusal(Reason.UNSUPPORTED, name)
    value = field_value(request, name)
    if value is None:
        raise Refusal(Reason.COMPONENT_MISSING, name)
    if "key" not in params:
        return value
    key = params["key"]
    members = parse_dictionary(value)
    if not isinstance(key, str) or members is None:
        raise Refusal(Reason.MALFORMED, name)
    if key not in members:
        raise Refusal(Reason.COMPONENT_MISSING, f'{name};key="{key}"')
    return serialize_member(members[key])  # Section 2.1.2: the member's value, serialized


def identifier(component: Item) -> str:
    """A component identifier as the signature base writes it: `"name"` and its parameters (Section 2.5)."""
    try:
        return serialize_member(component)
    except ValueError:
        raise Refusal(Reason.MALFORMED, "component") from None


def signature_base(request: SignedRequest, covered: InnerList) -> bytes:
    """The signature base of the signature whose Signature-Input value is `covered` (Section 2.5).

    Raises Refusal for a duplicated, missing or unsupported component, or a base that is not ASCII.
    """
    if len(covered.items) > MAX_COMPONENTS:
        raise Refusal(Reason.MALFORMED, "components")
    lines, seen = [], set()
    for component in covered.items:
        name = identifier(component)
        if name in seen or name == '"@signature-params"':
            raise Refusal(Reason.MALFORMED, name)  # step 2.1 and 2.2: each once, and not the parameters
        seen.add(name)
        lines.append(f"{name}: {component_value(request, component)}")
    try:
        lines.append(f'"@signature-params": {serialize_member(covered)}')
    except ValueError:
        raise Refusal(Reason.MALFORMED, "@signature-params") from None
    base = "\n".join(lines)
    if not base.isascii():
        raise Refusal(Reason.MALFORMED, "not ASCII")
    return base.encode("ascii")
