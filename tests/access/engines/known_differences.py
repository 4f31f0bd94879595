"""The deliberate differences between each engine of `robotscope.engines` and the real engine it names.

This is the one list: each engine's differential test (tests/engines/)
classifies every disagreement it finds on the corpus into one of its
engine's codes here, and prints how many checks each code explains. A
`KnownDifference` is (engine, code, summary, reason): the engine's name, a
short stable code, what differs, and why it is deliberate. Add entries at
the end.
"""

from __future__ import annotations

from typing import NamedTuple


class KnownDifference(NamedTuple):
    engine: str
    code: str
    summary: str
    reason: str


DIFFERENCES: list[KnownDifference] = [
    KnownDifference(
        "legacy",
        "invalid-utf8",
        "a file that is not UTF-8 is read with U+FFFD for the bytes that are not",
        "urllib's RobotFileParser.read() decodes strictly (raw.decode('utf-8')) and raises "
        "UnicodeDecodeError, so the real engine gives no answer; robotscope never raises on content, "
        "and U+FFFD is how it shows such bytes. The test confirms each such check against urllib "
        "given the same replaced text.",
    ),
    KnownDifference(
        "legacy",
        "urlparse-error",
        "a rule value urlparse rejects is quoted without the urlparse round trip; such a URL is read as its path",
        "urllib.parse.urlparse raises ValueError on such values (an unclosed IPv6 bracket: '//[x'), "
        "which makes RobotFileParser.parse or can_fetch raise; robotscope never raises on content, "
        "so it quotes such a rule value as written and reads such a URL as what follows scheme://host.",
    ),
    KnownDifference(
        "protego",
        "robots-txt-escaped",
        "/robots.txt is recognised from the normalised target, escaped spellings included",
        "Protego allows a URL whose urlparse path is exactly /robots.txt, looked at before it is "
        "normalised; an engine's match step sees only the normalised target, so /robots%2Etxt or "
        "/%72obots.txt count as /robots.txt here (Protego matches them against the rules).",
    ),
    KnownDifference(
        "protego",
        "raises",
        "where Protego raises, the engine answers",
        "a URL that urlsplit rejects (an unclosed IPv6 bracket: 'http://[x/a?q') makes can_fetch raise "
        "ValueError, and lone surrogates in the text make quote() raise; robotscope never raises on "
        "content: it reads such a URL as its path after scheme://host and drops the surrogates, as "
        "Scrapy's decoding drops bytes that are not UTF-8.",
    ),
]

DIFFERENCES += [
    KnownDifference(
        "google",
        "google-size-limit",
        "the google reading applies only the first 500 KiB (512,000 bytes) of a file; the library reads past 500 KiB",
        "Google's page (https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt): "
        "'Google enforces a robots.txt file size limit of 500 kibibytes (KiB). Content which is after the "
        "maximum file size is ignored.' The library (upstream and gpyrobotstxt) parses whatever body it is "
        "handed; Google's crawler hands it at most 500 KiB. Confirmed by giving the library the first "
        "512,000 bytes.",
    ),
    KnownDifference(
        "google",
        "google-catalogue-profiles",
        "Google's crawlers choose groups by the crawler catalogue: Googlebot-Image, -Video, -News and "
        "Google-InspectionTool obey the Googlebot groups when no group names them; AdsBot-Google, "
        "AdsBot-Google-Mobile, Mediapartners-Google and APIs-Google ignore `*`; the library knows no fallbacks",
        "Google documents these on its crawler overview pages (the catalogue rows cite "
        "google-common-crawlers and google-special-case-crawlers); the open-source library matches the token "
        "it is given and nothing else. Confirmed by choosing the groups by the crawler's own token.",
    ),
    KnownDifference(
        "google",
        "gpyrobotstxt-invalid-utf8",
        "octets that are not UTF-8 in a pattern are escaped as themselves (`\\xe9` -> `%E9`); gpyrobotstxt "
        "decodes each line with U+FFFD replacement first and so escapes `%EF%BF%BD`",
        "upstream's RobotsTxtParser and MaybeEscapePattern work on the raw octets; the decoding is the "
        "port's own. Confirmed by giving both sides the file with those bytes replaced by U+FFFD.",
    ),
    KnownDifference(
        "google",
        "gpyrobotstxt-unicode-whitespace",
        "only ASCII whitespace is stripped around keys and values and counts after a `*`; gpyrobotstxt's "
        "str.strip() and str.isspace() also take NBSP, U+3000, \\x1c-\\x1f and the other Unicode spaces, "
        "so `Disallow: /lib<NBSP>` is `/lib` there and `/lib%C2%A0` upstream",
        "upstream strips with absl::StripAsciiWhitespace and tests the character after `*` with isspace on an "
        "octet. Confirmed by deleting those characters from both files.",
    ),
    KnownDifference(
        "google",
        "gpyrobotstxt-separator-run",
        "a two-word line without a colon is a record whatever run of spaces and tabs separates its words "
        "(`Disallow   /x`); gpyrobotstxt accepts a single space or tab only",
        "upstream's GetKeyAndValueFrom skips the whole run (strspn) before checking that no third word "
        "follows; the port looks one character past the separator. Confirmed by giving both sides such lines "
        "with one space.",
    ),
    KnownDifference(
        "google",
        "gpyrobotstxt-nul-byte",
        "a NUL byte ends its line; gpyrobotstxt reads what follows it",
        "upstream parses each line as a C string (strchr, strlen), which ends at the first NUL. Confirmed by "
        "cutting such lines at the NUL in both files.",
    ),
    KnownDifference(
        "google",
        "gpyrobotstxt-diaslow",
        "`diaslow` is not read as disallow; gpyrobotstxt adds it to the typos it accepts",
        "upstream's KeyIsDisallow accepts dissallow, dissalow, disalow, diasllow and disallaw only "
        "(syntax.directives.google_key models that list). Confirmed by giving gpyrobotstxt such keys spelt "
        "`x-diaslow`.",
    ),
    KnownDifference(
        "google",
        "gpyrobotstxt-crash",
        "a line with neither a colon nor a space or tab is no record; gpyrobotstxt raises TypeError on it",
        "upstream's GetKeyAndValueFrom finds no separator and returns; the port's missing-separator branch "
        "computes None + 1. The test blanks such lines (keeping every line number) before handing a file to "
        "gpyrobotstxt, which changes nothing upstream reads, and counts the files it blanked.",
    ),
]
