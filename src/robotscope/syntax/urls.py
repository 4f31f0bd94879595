"""URL handling: the target of a URL, percent-encoding normalisation, and an origin's robots.txt URL.

Patterns and targets go through the same `normalise`, so `/café/`,
`/caf%c3%a9/` and `/caf%C3%A9/` are one path and `%7E` is `~`, while
`%2F` stays distinct from `/`. Stdlib only, no I/O.
"""

from __future__ import annotations

import re
from urllib.parse import SplitResult, urlsplit

from ..messages import Message, message

# RFC 3986, Section 2.3: unreserved characters, whose escapes are decoded.
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_HEX = "0123456789ABCDEFabcdef"

_ESCAPE_OR_PERCENT = re.compile(r"%(?:[0-9A-Fa-f]{2})?")
_UNSAFE = re.compile(r"[^!-~]+")


def _fix_escape(match: re.Match[str]) -> str:
    escape = match.group()
    if len(escape) == 1:
        # A `%` that starts no escape is encoded itself, so normalising
        # twice gives the same string (`%4%31` must not become `%41`).
        return "%25"
    char = chr(int(escape[1:], 16))
    return char if char in _UNRESERVED else escape.upper()


def _octets(char: str) -> bytes:
    # A lone surrogate U+DC80..U+DCFF is a byte that was not UTF-8 (kept by the
    # parser's "surrogateescape" decoding): it stands for that octet itself.
    if 0xDC80 <= ord(char) <= 0xDCFF:
        return bytes((ord(char) - 0xDC00,))
    return char.encode("utf-8", "surrogatepass")


def _encode_unsafe(match: re.Match[str]) -> str:
    # RFC 9309, Section 2.2.2: octets outside printable US-ASCII are percent-encoded as UTF-8.
    return "".join(f"%{byte:02X}" for char in match.group() for byte in _octets(char))


def normalise(text: str) -> str:
    """Return `text` in the one form patterns and targets are compared in.

    Escapes are upper-cased, escapes of unreserved characters decoded, other
    escapes kept, a `%` that starts no escape becomes `%25`, and every
    character outside printable ASCII (space, controls, non-ASCII) is
    percent-encoded as UTF-8.

    >>> normalise("/caf%c3%a9/%7euser/a b")
    '/caf%C3%A9/~user/a%20b'
    """
    # Fast path: printable ASCII without `%` or space is already normal
    # (four C-level checks, twice as fast as one regex search); with `%`, one
    # search says whether an escape would change (a callback per escape costs 5 µs a pattern).
    if (
        text.isascii()
        and text.isprintable()
        and " " not in text
        and ("%" not in text or not _ESCAPE_TO_FIX.search(text))
    ):
        return text
    return _normalised(text)


# An escape `_fix_escape` changes: a `%` that starts none, a lower-case hex digit, or an
# unreserved character (digits %30-%39, letters %41-%5A and %61-%7A, `-` `.` `_` `~`).
_ESCAPE_TO_FIX = re.compile(
    r"%(?![0-9A-Fa-f]{2})|%(?:[a-f][0-9A-Fa-f]|[0-9A-F][a-f])|%(?:3[0-9]|4[1-9A-F]|5[0-9A]|6[1-9A-F]|7[0-9A]|2[DE]|5F|7E)"
)


def _normalised(text: str) -> str:
    """`normalise` without its fast paths (the property tests compare the two)."""
    normal = _UNSAFE.sub(_encode_unsafe, _ESCAPE_OR_PERCENT.sub(_fix_escape, text) if "%" in text else text)
    # An already normal pattern (`/a%2F`) keeps one string, not two equal ones:
    # a parsed file holds every rule's pattern and its normal form.
    return text if normal == text else normal


# What comes before the path: an optional `//`, an optional `scheme://` with
# no `/`, `?` or `;` before it, and the authority up to the first of `/?;#`.
_BEFORE_PATH = re.compile(r"(?://)?(?:[^/?;]*://)?[^/?;#]*")


def path_and_query(url: str) -> str:
    """Return the path and query of `url` (a full URL or a path), without fragment.

    An empty path is `/`. A string without `://` that does not start with `/`
    is read as `host/path`, the way Google's library reads it.
    """
    if url[:1] == "/" and url[1:2] != "/":
        start = 0
    else:
        start = _BEFORE_PATH.match(url).end()  # type: ignore[union-attr]  # can match empty
        if start == len(url) or url[start] == "#":
            return "/"
    hash_pos = url.find("#", start)
    path = url[start:] if hash_pos < 0 else url[start:hash_pos]
    return path if path[0] == "/" else "/" + path


# Printable ASCII but `#`, `$`, `%` and `*`: a path made of these is already normal.
_PLAIN = r"[!-\"&-)+-~]*"
# One C-level match finds the path of a plain http(s) URL or absolute path
# that needs no normalisation (no `%`, `*`, `$`, fragment, space, control or
# non-ASCII character): group 1 is then its target. Callers on a hot path
# use it inline and fall back to `target` when it does not match.
# (Possessive, and the two schemes spelt out: ~10 % faster on the benchmark's URLs.)
plain_target = re.compile(rf"(?:https://[^/?#;]*+|http://[^/?#;]*+|(?!//))(/{_PLAIN}+)").fullmatch


def target(url: str) -> str:
    """Return the normalised target (path and query) that rules are matched against.

    >>> target("https://example.com/a*b$?q=%7e#frag")
    '/a%2Ab%24?q=~'
    """
    plain = plain_target(url)
    if plain is not None:
        return plain[1]
    path = path_and_query(url)
    # RFC 9309, Section 2.2.3: a literal `*` or `$` in a URL is compared as %2A / %24.
    return normalise(path).replace("*", "%2A").replace("$", "%24")


def split_url(value: str) -> SplitResult | None:
    """`urlsplit(value)`, or None where urlsplit raises `ValueError` instead.

    It raises on a bracketed host that is no IP address (`https://[oops]/`),
    an unclosed bracket (`http://[::1/`) and a host that NFKC normalisation
    changes (`https://a\N{FULLWIDTH SOLIDUS}b/`): values any robots.txt may hold.
    """
    try:
        return urlsplit(value)
    except ValueError:
        return None


class InvalidURL(ValueError):
    """A URL robotscope cannot check or fetch: `reason` says why, as a message (its English text is `str()`)."""

    def __init__(self, reason: Message) -> None:
        super().__init__(reason.render())
        self.reason = reason


_DEFAULT_PORTS = {"http": 80, "https": 443}
_HOST = re.compile(r"[A-Za-z0-9_.-]+")


def _ascii_host(host: str, url: str) -> str:
    # IDN labels become punycode (the stdlib `idna` codec, IDNA 2003); an IPv6
    # literal keeps its brackets, which urlsplit has stripped.
    if ":" in host:
        return f"[{host}]"
    try:
        ascii_host = host.encode("idna").decode("ascii")
    except UnicodeError:
        raise InvalidURL(message("url.bad-host", host=host, url=url)) from None
    if not _HOST.fullmatch(ascii_host):
        raise InvalidURL(message("url.bad-host", host=host, url=url))
    return ascii_host


def robots_url(url: str) -> str:
    """Return the robots.txt URL of `url`'s origin: scheme, host and port, path `/robots.txt`.

    Scheme and host are lower-cased, IDN hosts become punycode, default ports
    are dropped; user info, path, query and fragment are dropped. Anything but
    an http or https URL with a host raises `InvalidURL`.

    >>> robots_url("HTTPS://user:pw@Bücher.example:443/a/b?q=1#f")
    'https://xn--bcher-kva.example/robots.txt'
    >>> robots_url("http://example.com:8080")
    'http://example.com:8080/robots.txt'
    """
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        raise InvalidURL(message("url.malformed", url=url)) from None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS:
        raise InvalidURL(message("url.not-http", url=url))
    host = parts.hostname or ""
    if not host:
        raise InvalidURL(message("url.no-host", url=url))
    authority = _ascii_host(host, url).lower()
    if port is not None and port != _DEFAULT_PORTS[scheme]:
        authority += f":{port}"
    return f"{scheme}://{authority}/robots.txt"


def origin_of(url: str) -> str:
    """`scheme://host[:port]` of `url`, as `robots_url` spells it (default ports dropped); raises `InvalidURL`.

    >>> origin_of("HTTPS://Example.com:443/a?q=1")
    'https://example.com'
    """
    return robots_url(url).removesuffix("/robots.txt")


def checked_url(url: str) -> str:
    """`url` itself if it can be checked: a path starting with `/`, or an absolute http(s) URL with a host.

    Anything else (`::::`, `http://`, `javascript:alert(1)`, `''`, `not a
    url`, `example.com/page`) raises `InvalidURL`: answering it as `/` would
    be a confident answer to a question nobody asked.

    >>> checked_url("/shop?id=1")
    '/shop?id=1'
    >>> checked_url("javascript:alert(1)")
    Traceback (most recent call last):
    ...
    robotscope.syntax.urls.InvalidURL: `javascript:alert(1)` is neither a path starting with / nor an http or https URL
    """
    if url[:1] == "/" and url[1:2] != "/":
        return url
    if not url.strip():
        raise InvalidURL(message("url.empty"))
    if _PLAIN_ORIGIN.match(url):
        return url  # the common case, which robots_url would accept, without parsing it
    if not _ABSOLUTE.match(url):
        raise InvalidURL(message("url.not-path-or-url", url=url))
    robots_url(url)  # a valid host and port
    return url


def is_checkable(url: str) -> bool:
    """Whether `checked_url` accepts `url`: a path starting with `/`, or an http(s) URL with a valid host."""
    try:
        checked_url(url)
    except InvalidURL:
        return False
    return True


_ABSOLUTE = re.compile(r"https?://", re.IGNORECASE)
# An http(s) URL whose authority is a plain ASCII host name (labels of 1 to 63 letters,
# digits and hyphens) with at most a four-digit port: always a valid origin.
_PLAIN_ORIGIN = re.compile(
    r"https?://[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63})*\.?(?::[0-9]{1,4})?(?=[/?#]|\Z)", re.IGNORECASE
)
