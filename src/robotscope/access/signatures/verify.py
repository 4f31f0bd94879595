"""Web Bot Auth verification of a request's signatures (draft-ietf-webbotauth-httpsig-protocol over RFC 9421).

Each signature labelled in Signature-Input is judged on its own (RFC 9421,
Section 3.2; the draft's "Multiple Signatures"); the request is verified when
one is. A signature must carry `tag="web-bot-auth"`, `created`, `expires` and
a `keyid` (the draft's "Generating HTTP Message Signature"), cover
`@authority` or `@target-uri` and, unless the caller waives it, the
Signature-Agent member of its label (the draft's "Signature-Agent"; legacy
signers cover the bare field, which is accepted too).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime

from ...syntax.structured import InnerList, Item, Member, Token, parse_dictionary
from .base import field_value, identifier, signature_base
from .keys import read_directory
from .model import MAX_SIGNATURES, SKEW, TAG, Ed25519Check, Reason, Refusal, SignatureVerdict, SignedRequest

Keys = Mapping[str, bytes]  # a directory's Ed25519 public keys by thumbprint (`keys.read_directory`)


def verify_request(
    request: SignedRequest,
    directory: bytes,
    now: int,
    check: Ed25519Check,
    *,
    skew: int = SKEW,
    require_agent: bool = True,
) -> SignatureVerdict:
    """Whether `request` carries a valid Web Bot Auth signature by a key of `directory` (a JWKS) at `now`.

    `now` is seconds since the epoch; `check` the Ed25519 check. Never raises: every failure is a verdict.
    When no signature verifies, the verdict is the first web-bot-auth signature's failure (else the first's).
    """
    return verify_with_keys(request, read_directory(directory), now, check, skew=skew, require_agent=require_agent)


def verify_with_keys(
    request: SignedRequest,
    keys: Keys | None,
    now: int,
    check: Ed25519Check,
    *,
    skew: int = SKEW,
    require_agent: bool = True,
    label: str | None = None,
) -> SignatureVerdict:
    """`verify_request` with the directory already read (None: it is not a JWKS within bounds), and only the
    signature `label` judged when one is given (a caller that fetched that signature's own directory)."""
    try:
        inputs, signatures = _signature_fields(request)
    except Refusal as refusal:
        return SignatureVerdict(False, refusal.reason, refusal.detail)
    verdicts = []
    for name, member in inputs.items():
        if label is None or name == label:
            verdict = _judge(request, name, member, signatures.get(name), keys, now, check, skew, require_agent)
            assert verdict is not None  # a check was given
            verdicts.append(verdict)
    if not verdicts:
        return SignatureVerdict(False, Reason.MALFORMED, "signature-input", label)
    return best(verdicts)


def best(verdicts: Sequence[SignatureVerdict]) -> SignatureVerdict:
    """The verdict on a request from those on its signatures (not empty): a verified one, else the first
    Web Bot Auth signature's failure, else the first failure."""
    for verdict in verdicts:
        if verdict.verified:
            return verdict
    tagged = [verdict for verdict in verdicts if verdict.reason is not Reason.NOT_WEB_BOT_AUTH]
    return (tagged or verdicts)[0]


def labels(request: SignedRequest) -> tuple[str, ...]:
    """The labels of the request's signatures in Signature-Input order; empty when there are none to read."""
    try:
        inputs, _ = _signature_fields(request)
    except Refusal:
        return ()
    return tuple(inputs)


def precheck(
    request: SignedRequest, label: str, now: int, *, skew: int = SKEW, require_agent: bool = True
) -> SignatureVerdict | None:
    """The verdict on signature `label` when a check that needs no key fails (its fields, tag, time window,
    what it covers), else None: only then is its key directory worth fetching."""
    try:
        inputs, signatures = _signature_fields(request)
    except Refusal as refusal:
        return SignatureVerdict(False, refusal.reason, refusal.detail)
    if label not in inputs:
        return SignatureVerdict(False, Reason.MALFORMED, "signature-input", label)
    return _judge(request, label, inputs[label], signatures.get(label), None, now, None, skew, require_agent)


def _signature_fields(request: SignedRequest) -> tuple[dict[str, Member], dict[str, Member]]:
    inputs_text, signatures_text = field_value(request, "signature-input"), field_value(request, "signature")
    if inputs_text is None and signatures_text is None:
        raise Refusal(Reason.NO_SIGNATURE)
    inputs = parse_dictionary(inputs_text or "")
    signatures = parse_dictionary(signatures_text or "")
    if not inputs or signatures is None:
        raise Refusal(Reason.MALFORMED, "signature-input" if not inputs else "signature")
    if len(inputs) > MAX_SIGNATURES:
        raise Refusal(Reason.MALFORMED, "signature-input")
    return inputs, signatures


def _judge(
    request: SignedRequest,
    label: str,
    covered: Member,
    signature: Member | None,
    keys: Keys | None,
    now: int,
    check: Ed25519Check | None,
    skew: int,
    require_agent: bool,
) -> SignatureVerdict | None:
    """The verdict on one signature; with no `check`, None once every check before its key passed."""
    if not isinstance(covered, InnerList):
        return SignatureVerdict(False, Reason.MALFORMED, "signature-input", label)
    params = covered.params
    keyid, created, expires = params.get("keyid"), params.get("created"), params.get("expires")
    judged = SignatureVerdict(
        False,
        label=label,
        keyid=keyid if isinstance(keyid, str) else None,
        created=created if isinstance(created, int) and _is_time(created) else None,
        expires=expires if isinstance(expires, int) and _is_time(expires) else None,
    )
    try:
        judged = replace(judged, components=tuple(identifier(item) for item in covered.items))
        named = _prechecked(label, covered, signature, now, skew, require_agent)
        if check is None:
            return None
        public_key = _key(keys, named)
        assert isinstance(signature, Item) and isinstance(signature.value, bytes)  # _prechecked made sure
        if not check(public_key, signature_base(request, covered), signature.value):
            raise Refusal(Reason.BAD_SIGNATURE)
    except Refusal as refusal:
        return replace(judged, reason=refusal.reason, detail=refusal.detail)
    return replace(judged, verified=True)


def _moment(seconds: int) -> str:
    """A signature's `created` or `expires` as people read it: UTC, to the second (the number past year 9999)."""
    try:
        return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    except (OverflowError, ValueError, OSError):
        return str(seconds)


def _is_time(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _prechecked(
    label: str,
    covered: InnerList,
    signature: Member | None,
    now: int,
    skew: int,
    require_agent: bool,
) -> str:
    """The signature's keyid, once every check before its key passed."""
    if not isinstance(signature, Item) or not isinstance(signature.value, bytes):
        raise Refusal(Reason.MALFORMED, "signature")
    params = covered.params
    tag = params.get("tag")
    if tag != TAG or isinstance(tag, Token):
        raise Refusal(Reason.NOT_WEB_BOT_AUTH, str(tag) if tag is not None else "")
    for name in ("created", "expires"):
        if not _is_time(params.get(name)):
            raise Refusal(Reason.MALFORMED, name)
    created, expires = int(params["created"]), int(params["expires"])
    if created > now + skew:
        raise Refusal(Reason.NOT_YET_VALID, _moment(created))
    if expires < now - skew:
        raise Refusal(Reason.EXPIRED, _moment(expires))
    alg = params.get("alg", "ed25519")
    if alg != "ed25519":
        raise Refusal(Reason.UNSUPPORTED, str(alg))
    names = {item.value for item in covered.items}
    if not names & {"@authority", "@target-uri"}:
        raise Refusal(Reason.NOT_COVERED, "@authority")
    if require_agent and not any(_covers_agent(item, label) for item in covered.items):
        raise Refusal(Reason.NOT_COVERED, "signature-agent")
    keyid = params.get("keyid")
    if not isinstance(keyid, str) or isinstance(keyid, Token):
        raise Refusal(Reason.MALFORMED, "keyid")
    return keyid


def _key(keys: Keys | None, keyid: str) -> bytes:
    if keys is None:
        raise Refusal(Reason.BAD_DIRECTORY)
    public_key = keys.get(keyid)
    if public_key is None:
        raise Refusal(Reason.UNKNOWN_KEY, keyid)
    return public_key


def _covers_agent(item: Item, label: str) -> bool:
    # The member keyed to the signature's own label; or the whole field, as legacy bare-string signers sign it.
    return item.value == "signature-agent" and item.params.get("key", label) == label
